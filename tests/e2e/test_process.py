"""``python -m bot`` itself, as a subprocess: its start-up, its errors, and a game it serves."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.engine import ScriptedDice
from bot.store import plans
from bot.strategy import Table
from bot.strategy.table_file import save, table_path

from ..clock import FakeClock
from ..conftest import Database
from .conftest import TOKEN, StartBot, database_env, place_table, stop
from .fake_discord import GUILD_ID, FakeDiscord, text_of
from .helpers import die_labels, live_board, open_lobby, png_size, start_game

pytestmark = pytest.mark.both_databases  # what the store does under the bot: PostgreSQL too

ROOT = Path(__file__).resolve().parents[2]
SITEPATCH = Path(__file__).resolve().parent / "sitepatch"


def bot_env(fake: FakeDiscord | None, **settings: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DEV_GUILD", "SHARD_", "DATABASE_"))
    }
    env["PYTHONPATH"] = os.pathsep.join([str(SITEPATCH), str(ROOT)])
    env["DISCORD_TOKEN"] = ""  # set explicitly, so that a developer's .env cannot leak in
    env["DEV_GUILD_ID"] = ""
    # the fake's servers all arrive right after READY: no need of discord.py's 2 s margin
    env["GUILD_READY_SECONDS"] = "0.05"
    if fake is not None:
        env["FAKE_DISCORD_API"] = fake.api_base
    env.update(settings)
    return env


async def read_until(proc: asyncio.subprocess.Process, *words: bytes) -> bytes:
    """The bot's standard error up to the line that completes ``words`` (all of them seen)."""
    assert proc.stderr is not None
    seen = b""
    while not all(word in seen for word in words):
        line = await asyncio.wait_for(proc.stderr.readline(), 30)
        assert line, "the bot exited before it was ready"
        seen += line
    return seen


async def run(*args: str, env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, env=env, cwd=cwd,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def test_missing_token_is_one_clear_line(tmp_path: Path) -> None:
    """Without DISCORD_TOKEN: one line saying where to put it, exit code 2, no traceback."""
    proc = await run(env=bot_env(None), cwd=tmp_path)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 2
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env" in lines[0]
    assert "Traceback" not in err.decode() and out == b""


async def test_broken_setting_is_one_clear_line(tmp_path: Path) -> None:
    """A malformed DEV_GUILD_ID is named, with what it should be."""
    proc = await run(env=bot_env(None, DISCORD_TOKEN=TOKEN, DEV_GUILD_ID="my server"), cwd=tmp_path)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 2
    assert err.decode().strip() == "error: DEV_GUILD_ID must be a whole number."


async def test_unwritable_database_is_one_clear_line(tmp_path: Path) -> None:
    """A DATABASE_PATH the bot cannot create names the path instead of a traceback."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    env = bot_env(None, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(blocker / "db.sqlite3"))
    proc = await run(env=env, cwd=tmp_path)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 2, lines
    assert len(lines) == 1 and lines[0].startswith(
        f"error: cannot create {blocker} for DATABASE_PATH"
    )


async def test_unreachable_discord_is_one_clear_line(tmp_path: Path) -> None:
    """With Discord out of reach the bot says so in one line, without a traceback."""
    env = bot_env(None, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    env["FAKE_DISCORD_API"] = "http://127.0.0.1:9/api/v10"  # nothing listens on port 9
    proc = await run(env=env, cwd=tmp_path)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    text = err.decode()
    assert proc.returncode == 1
    assert text.strip().splitlines()[-1].startswith("error: cannot reach Discord")
    assert "Traceback" not in text


async def test_sync_publishes_the_commands(
    fake: FakeDiscord, tmp_path: Path, official_values: Table
) -> None:
    """``python -m bot sync`` logs in, publishes /yahtzee globally and exits."""
    # the table in place: else its build starts with the bot and the exit waits for it
    place_table(official_values, tmp_path)
    env = bot_env(fake, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    proc = await run("sync", env=env, cwd=tmp_path)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    commands = {c["name"]: c for c in fake.commands}
    assert sorted(commands) == ["yahtzee", "yahtzee-admin"]
    # /yahtzee for both installs (0 a server's, 1 a user's) and every context (0 a server, 1
    # the bot's DM, 2 group DMs and DMs between users: issue 43); /yahtzee-admin stays a
    # server's command, used in servers only
    assert sorted(commands["yahtzee"]["integration_types"]) == [0, 1]
    assert sorted(commands["yahtzee"]["contexts"]) == [0, 1, 2]
    assert commands["yahtzee-admin"]["integration_types"] == [0]
    assert commands["yahtzee-admin"]["contexts"] == [0]
    subcommands = {o["name"] for o in commands["yahtzee"]["options"]}
    assert {"start", "scorecard", "end", "rules", "leave", "leaderboard", "stats"} <= subcommands
    admin = commands["yahtzee-admin"]
    assert int(admin["default_member_permissions"]) == 1 << 5  # Manage Server
    assert {o["name"] for o in admin["options"]} == {
        "settings",
        "reset-leaderboard",
        "restore-leaderboard",
    }
    assert fake.requests_to("PUT", r"^/applications/\d+/commands$")


async def test_the_commands_are_published_on_the_first_start_and_after_a_change(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Following Quick start alone shows /yahtzee: the first start publishes the commands
    globally; a restart with the same commands does not publish again (Discord limits
    global publishing), and one whose commands changed does."""
    published = r"^/applications/\d+/commands$"
    bot = await start_bot()
    await fake.wait_for(lambda: len(fake.requests_to("PUT", published)) == 1)
    assert sorted(c["name"] for c in fake.commands) == ["yahtzee", "yahtzee-admin"]
    await stop(bot)
    bot = await start_bot()
    await fake.settle()
    assert len(fake.requests_to("PUT", published)) == 1
    await bot.store.write(plans.set_meta_value, "commands", "from an older version")
    assert await bot.publish_commands_if_changed()
    assert len(fake.requests_to("PUT", published)) == 2


async def test_the_real_entry_point_serves_a_game_and_survives_a_kill(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
    tmp_path: Path,
    clock: FakeClock,
    official_values: Table,
    bonus_turn_values: Table,
    database: Database,
) -> None:
    """`python -m bot` logs its invite, runs a lobby and a roll; killed mid-turn, the game
    goes on in a new bot on the same database (a SQLite file, or PostgreSQL)."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    place_table(official_values, tmp_path / "data")
    # the game's preset's table too: else both bots build it (a minute each), and the
    # killed one's building process outlives it
    save(bonus_turn_values, table_path(tmp_path / "data", "bonus-turn"))
    env = bot_env(fake, DISCORD_TOKEN=TOKEN, LOG_LEVEL="INFO", **database_env(database))
    proc = await run(env=env, cwd=tmp_path)
    try:
        assert proc.stderr is not None
        invite = (await read_until(proc, b"invite:")).decode()
        # view channel 2^10 + send 2^11 + embed links 2^14 + attach files 2^15
        # + create public threads 2^35 + send in threads 2^38 = 309237697536
        assert "permissions=309237697536" in invite
        assert "scope=bot+applications.commands" in invite
        # the one gateway intent it needs, GUILDS (1 << 0): no message events are sent to it
        assert fake.intents == [1]
        lobby = await open_lobby(fake, channel, ann, preset="bonus-turn")
        assert "Bonus Turn" in text_of(lobby)
        await fake.click(ann, lobby, "Start")
        board = await live_board(fake, channel)
        answer = await fake.click(ann, board, "Roll")
        assert answer.response_type == 7
        rolled = die_labels(fake.messages[board["id"]])
        assert all(label in "123456" for label in rolled)
        assert png_size(fake.attachment(fake.messages[board["id"]])) == (640, 360)  # landscape
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    assert not isinstance(database, Path) or database.exists()

    clock.now = datetime.now(UTC)  # the subprocess ran on the real clock: carry on from it
    await start_bot()
    board = fake.messages[board["id"]]
    dice.extend([6, 6, 6, 6, 6])
    answer = await fake.click(ann, board, "Roll")
    assert answer.response_type == 7, answer.ephemeral_text
    assert die_labels(fake.messages[board["id"]]) == ["6"] * 5
    await fake.choose(ann, board, "yahtzee")
    assert "scored **50** in **Yahtzee**" in fake.messages[board["id"]]["embeds"][0]["description"]


async def test_a_stop_by_sigterm_exits_cleanly(
    fake: FakeDiscord, tmp_path: Path, official_values: Table
) -> None:
    """A host's stop (SIGTERM) after a roll (the drawing and analysing processes running):
    the bot exits 0 within seconds, its helper processes gone, and leaves no "leaked
    semaphore objects" warning nor any traceback."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    place_table(official_values, tmp_path / "data")
    env = bot_env(fake, DISCORD_TOKEN=TOKEN, LOG_LEVEL="INFO")
    proc = await run(env=env, cwd=tmp_path)
    assert proc.stderr is not None
    try:
        seen = await read_until(proc, b"strategy table loaded", b"invite:")  # and connected
        board = await start_game(fake, channel, ann)
        assert (await fake.click(ann, board, "Roll")).response_type == 7
        helpers = (await asyncio.to_thread(
            Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text
        )).split()  # fmt: skip
        assert helpers, "no helper processes to end"
        proc.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(proc.communicate(), 15)
    finally:
        if proc.returncode is None:  # the test failed before the bot stopped: leave none
            proc.kill()
            await proc.wait()
    err = (seen + rest).decode(errors="replace")
    assert proc.returncode == 0, err[-2000:]
    assert "leaked semaphore" not in err and "Traceback" not in err, err[-2000:]
    await fake.wait_for(lambda: not [pid for pid in helpers if Path(f"/proc/{pid}").exists()])


async def test_a_stop_during_the_first_table_build_exits_within_ten_seconds(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """SIGTERM 2 s after a first start on an empty data folder, while the official table is
    being built (13 s and more here): the bot exits 0 within 10 s, its building process
    ended with it, and no table file (a half-built one) is left."""
    env = bot_env(fake, DISCORD_TOKEN=TOKEN, LOG_LEVEL="INFO")
    proc = await run(env=env, cwd=tmp_path)
    assert proc.stderr is not None
    try:
        seen = await read_until(proc, b"building the official strategy table", b"invite:")
        await asyncio.sleep(2)
        children = (await asyncio.to_thread(
            Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text
        )).split()  # fmt: skip
        assert children, "no building process"
        loop = asyncio.get_running_loop()
        asked = loop.time()
        proc.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(proc.communicate(), 30)
        took = loop.time() - asked
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    err = (seen + rest).decode(errors="replace")
    assert proc.returncode == 0 and "Traceback" not in err, err[-2000:]
    print(f"\nstop during the first table build: exit {proc.returncode} in {took:.2f} s")
    assert took < 10, f"the stop took {took:.1f} s"
    assert not table_path(tmp_path / "data", "official").exists()
    await fake.wait_for(lambda: not [pid for pid in children if Path(f"/proc/{pid}").exists()])


async def test_json_logs_say_which_interaction_game_and_server(
    fake: FakeDiscord, tmp_path: Path, official_values: Table
) -> None:
    """``LOG_FORMAT=json``: every line the bot writes is one JSON object, and the lines
    logged while it answers a Roll carry that interaction's id, its game's, the server's and
    the shard's."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    place_table(official_values, tmp_path / "data")
    env = bot_env(fake, DISCORD_TOKEN=TOKEN, LOG_LEVEL="DEBUG", LOG_FORMAT="json")
    proc = await run(env=env, cwd=tmp_path)
    assert proc.stderr is not None
    try:
        seen = await read_until(proc, b"invite:")
        board = await start_game(fake, channel, ann)
        roll = await fake.click(ann, board, "Roll")
        assert roll.response_type == 7
        proc.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(proc.communicate(), 15)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    lines = [json.loads(line) for line in (seen + rest).decode().splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    about_roll = [line for line in lines if line.get("interaction_id") == roll.id]
    assert about_roll, "no line about the Roll"
    game = board["components"][1]["components"][0]["custom_id"].split(":")[2]  # yz:roll:<game>
    assert {(line.get("game_id"), line.get("guild_id"), line.get("shard_id"))
            for line in about_roll} == {(game, str(GUILD_ID), "0")}  # fmt: skip


async def test_a_stop_during_a_burst_of_clicks_answers_every_click_it_took(
    fake: FakeDiscord, tmp_path: Path, official_values: Table
) -> None:
    """SIGTERM while six players click as fast as they are answered: the bot closes its
    gateway first (no more clicks reach it), answers every click it was handling, keeps
    every move it answered, and exits 0 within seconds."""
    names = [f"P{i}" for i in range(6)]
    players = [fake.user(name) for name in names]
    channels = [fake.add_channel(f"burst-{i}")["id"] for i in range(6)]
    place_table(official_values, tmp_path / "data")
    database = tmp_path / "data" / "yahtzee.sqlite3"
    env = bot_env(fake, DISCORD_TOKEN=TOKEN, LOG_LEVEL="INFO", DATABASE_PATH=str(database))
    proc = await run(env=env, cwd=tmp_path)
    assert proc.stderr is not None
    sent: list = []
    try:
        seen = await read_until(proc, b"invite:")
        for player, channel in zip(players, channels, strict=True):
            await start_game(fake, channel, player)

        async def clicking(player: dict, channel: str) -> None:
            while proc.returncode is None and fake.sockets:
                live = fake.live_boards(channel)
                if not live:  # the next turn's board is on its way
                    await asyncio.sleep(0.01)
                    continue
                current = live[-1]
                row = current["components"][0]["components"]
                roll = current["components"][1]["components"][0]
                die = next((d for d in row if not d.get("disabled")), None)
                target = roll if not roll.get("disabled") else die
                if target is None:  # the turn's rolls are used: score it
                    menu = current["components"][2]["components"][0]
                    record = await fake.press(player, current, menu["custom_id"],
                                              [menu["options"][0]["value"]])  # fmt: skip
                else:
                    record = await fake.press(player, current, target["custom_id"])
                sent.append(record)
                if not record.delivered:
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(record.responded.wait(), 5)

        burst = [
            asyncio.create_task(clicking(p, c)) for p, c in zip(players, channels, strict=True)
        ]
        await asyncio.sleep(1.0)
        before = len(sent)
        proc.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(proc.communicate(), 15)
        await asyncio.gather(*burst)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    err = (seen + rest).decode(errors="replace")
    assert proc.returncode == 0 and "Traceback" not in err, err[-2000:]
    assert before >= 12
    # Every click sent while the bot was connected is answered, but for those still on the
    # wire when it closed the connection (sent in its last moments: Discord would have shown
    # those players an error, as for any bot that stops). "Last moments": 0.25 s, as a loaded
    # 2-core CI machine once took longer than 50 ms to read a click the fake had sent.
    (closed,) = fake.closed_at[-1:]
    taken = [r for r in sent if r.delivered and r.created < closed - 0.25]
    unanswered = [r.id for r in taken if r.response_type is None]
    assert unanswered == [] and [r.error for r in taken if r.error] == []
    moved = [r for r in sent if r.response_type == 7]
    assert len(moved) >= len(taken)
    db = sqlite3.connect(database)
    try:
        kept = {str(row[0]) for row in db.execute("SELECT request_id FROM moves")}
    finally:
        db.close()
    assert {r.id for r in moved} <= kept
