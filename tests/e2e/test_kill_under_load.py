"""``python -m bot`` killed with SIGKILL while twenty games click as fast as they are answered,
then started again on the same file: every answered move is kept, boards are repaired, the
games go on and the file is sound."""

from __future__ import annotations

import asyncio
import copy
import signal
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Dice, Game, ScriptedDice
from bot.store import plans
from bot.strategy import Table

from ..clock import FakeClock
from ..conftest import Database, integrity
from .conftest import TOKEN, StartBot, database_env, place_table
from .fake_discord import FakeDiscord, find_component
from .helpers import die_labels
from .test_process import bot_env

pytestmark = pytest.mark.both_databases  # what the store does under the bot: PostgreSQL too

GAMES = 20


async def wait_ready(log: Path, process: asyncio.subprocess.Process) -> None:
    for _ in range(600):
        if "invite:" in log.read_text(errors="replace"):  # noqa: ASYNC240 - a small local file
            return
        assert process.returncode is None, "the bot exited before it was ready"
        await asyncio.sleep(0.05)
    raise AssertionError("the bot did not become ready")


async def answered(
    fake: FakeDiscord, record: Any, before: dict[str, Any], timeout: float = 2.0
) -> bool:
    """Whether a click got an in-place update within ``timeout``, or was acknowledged first
    (a machine too busy to answer within 1.5 s: ``answers.DEFER_AFTER``) and its message then
    edited from what it showed ``before`` the click (False once the bot is dead)."""
    try:
        await asyncio.wait_for(record.responded.wait(), timeout)
    except TimeoutError:
        return False
    if record.response_type == 7:
        return True
    if record.response_type != 6:
        return False
    try:
        await fake.wait_for(lambda: fake.messages.get(record.message_id) != before, 5)
    except TimeoutError:
        return False  # killed between the acknowledgement and the edit
    return True


async def test_sigkill_under_load_loses_no_answered_move(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
    tmp_path: Path,
    clock: FakeClock,
    official_values: Table,
    database: Database,
) -> None:
    channels = [fake.add_channel(f"kill-{i}")["id"] for i in range(GAMES)]
    players = [fake.user(f"Runner{i}") for i in range(GAMES)]
    place_table(official_values, tmp_path / "data")
    log = tmp_path / "bot.log"
    env = bot_env(fake, DISCORD_TOKEN=TOKEN, LOG_LEVEL="INFO", **database_env(database))
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env, cwd=tmp_path, stdout=out, stderr=out
        )
    # What each game's player saw answered: ("roll", dice shown) or ("score", box), in order.
    seen: dict[str, list[tuple[str, str]]] = {ch: [] for ch in channels}
    try:
        await wait_ready(log, process)
        pairs = list(zip(players, channels, strict=True))
        starts = await asyncio.gather(
            *(fake.slash(p, ch, "yahtzee start", 10, quiet=False) for p, ch in pairs)
        )
        # each a lobby; on a machine too busy to answer within 1.5 s, a placeholder first,
        # made the lobby after (answers.DEFER_AFTER)
        assert all(s.response_type in (4, 5) for s in starts), [s.error for s in starts]
        await fake.wait_for(
            lambda: all(find_component(fake.messages[s.original_message_id or ""], "Start")
                        for s in starts), 20,
        )  # fmt: skip
        for player, start in zip(players, starts, strict=True):
            lobby = fake.messages[start.original_message_id or ""]
            button = find_component(lobby, "Start")
            assert button is not None
            started = await fake.press(player, lobby, button["custom_id"])
            await asyncio.wait_for(started.responded.wait(), 10)
            assert started.response_type in (6, 7)  # in place, or acknowledged then edited
        await fake.wait_for(lambda: all(fake.live_boards(ch) for ch in channels))

        async def play(player: dict[str, Any], channel: str) -> None:
            # a game stops short of its last two turns, so that however fast the bot is, no
            # game is over when the kill comes: each is live, mid-turn or between turns
            while sum(kind == "score" for kind, _ in seen[channel]) < 11:
                board = fake.live_boards(channel)[-1]
                for _ in range(3):
                    roll = find_component(fake.messages[board["id"]], "Roll")
                    assert roll is not None
                    before = copy.deepcopy(fake.messages[board["id"]])
                    record = await fake.press(player, board, roll["custom_id"])
                    if not await answered(fake, record, before):
                        return
                    seen[channel].append(("roll", "".join(die_labels(fake.messages[board["id"]]))))
                current = fake.messages[board["id"]]
                select = current["components"][-1]["components"][0]
                box = select["options"][0]["value"]
                before = copy.deepcopy(current)
                record = await fake.press(player, current, select["custom_id"], [box])
                if not await answered(fake, record, before):
                    return
                seen[channel].append(("score", box))
                while fake.live_boards(channel)[-1:] in ([], [board]):
                    try:
                        await fake.next_post(channel, 3)
                    except TimeoutError:
                        return  # killed between the answer and the next board's post

        players_task = asyncio.gather(
            *(play(p, ch) for p, ch in zip(players, channels, strict=True))
        )  # fmt: skip
        # the kill comes mid-game under full load: once a third of the moves are answered
        # (each game has 38 to play here), however fast or slow the bot answers them
        await fake.wait_for(lambda: sum(len(s) for s in seen.values()) >= GAMES * 13, 20)
    finally:
        process.send_signal(signal.SIGKILL)
        await process.wait()
    await asyncio.wait_for(players_task, 30)  # each player notices the silence and stops

    clock.now = datetime.now(UTC)
    dice.extend([1, 2, 3, 4, 6] * GAMES)
    bot = await start_bot()
    await fake.settle(0.3)
    for channel, player in zip(channels, players, strict=True):
        row = await bot.store.read(plans.live_game_in, int(channel))
        assert row is not None and row.state is not None
        logged: list[tuple[str, str]] = []
        for _, _, action, detail, stored in await bot.store.read(plans.moves, row.id):
            if action == "roll" and stored is not None:
                logged.append(("roll", "".join(str(d) for d in Dice.parse(stored))))
            elif action == "score" and detail is not None:
                logged.append(("score", detail.split()[0]))
        answered_moves = seen[channel]
        assert logged[: len(answered_moves)] == answered_moves, channel
        assert len(logged) - len(answered_moves) <= 1  # at most a move whose answer was lost

        game = bot.games.keeper.game_of(row)
        stored = [str(d) for d in game.dice] if game.dice is not None else None

        def repaired(
            channel: str = channel, stored: list[str] | None = stored, game: Game = game
        ) -> bool:
            """One live board, for the stored turn and roll, showing the stored dice (until
            the repair posts the next turn's board, the old one can still be the only one)."""
            boards = fake.live_boards(channel)
            if len(boards) != 1:
                return False
            roll = find_component(boards[0], "Roll")
            assert roll is not None
            turn, rolls = (int(part) for part in roll["custom_id"].split(":")[3:5])
            return (turn, rolls) == (game.turn_number, game.rolls_used) and (
                stored is None or die_labels(boards[0]) == stored
            )

        # the repair runs over 20 games at start-up: wait for it as a player would
        await fake.wait_for(repaired, 15)
        board = fake.live_boards(channel)[0]
        if game.rolls_left:
            roll = await fake.click(player, board, "Roll")
            assert roll.response_type == 7, roll.ephemeral_text
    assert await integrity(database) == "ok"
