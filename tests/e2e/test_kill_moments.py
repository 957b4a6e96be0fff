"""``python -m bot`` killed with SIGKILL at chosen moments of a game (issue 49): right after a
Roll is answered, right after the next turn's board is posted (before the bot heard back),
during a computer seat's turn, and inside an Undo, in a server, a group DM and a server that
never added the bot. After every restart: at most one live board a game, and a click on it
is taken (never refused, never turned into another player's board); every move a player saw
answered is kept.

Each moment is made exact with the fake: a request is carried out and never answered (the
bot dies after Discord did the work, before it heard so), or the kill follows an answer."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Game
from bot.strategy import Table

from .conftest import TOKEN, place_table
from .fake_discord import FakeDiscord, controls_of, text_of
from .test_kill_under_load import wait_ready
from .test_process import bot_env

PLACES = ["server", "group_dm", "user_server"]
#: The webhook route of a follow-up (a token's post) and of an edit through a token.
FOLLOW_UP = r"^/webhooks/\d+/[^/]+$"


def enabled_roll(message: dict[str, Any]) -> bool:
    return any(
        str(c.get("custom_id", "")).startswith("yz:roll:") and not c.get("disabled")
        for c in controls_of(message)
    )


class Killed:
    """The bot as a process of its own, started and killed again on one database; what
    the test saw of it."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path, channel: str) -> None:
        self.fake, self.tmp_path, self.channel = fake, tmp_path, channel
        self.database = tmp_path / "data" / "yahtzee.sqlite3"
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.kills = 0
        self.acknowledged: list[str] = []  # interaction ids of moves answered in place
        self.live_refused = 0  # clicks on the one live board that were refused
        self.doubled = 0  # moments after a restart with two live boards or more

    async def start(self) -> None:
        self.starts += 1
        log = self.tmp_path / f"bot-{self.starts}.log"
        env = bot_env(
            self.fake, DISCORD_TOKEN=TOKEN, LOG_LEVEL="INFO", DATABASE_PATH=str(self.database),
            BOT_MOVE_DELAY="0.4",  # a computer's moves at a pace a kill can fall in
        )  # fmt: skip
        with log.open("wb") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", env=env, cwd=self.tmp_path, stdout=out, stderr=out
            )
        await wait_ready(log, self.process)

    async def kill(self, chosen: bool = True) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        self.kills += chosen

    def game(self) -> Game:
        """The channel's game as the database has it."""
        with sqlite3.connect(self.database) as db:
            (state,) = db.execute(
                "SELECT state FROM games WHERE (channel_id = ? OR thread_id = ?) "
                "AND status = 'active' ORDER BY id DESC LIMIT 1",
                (int(self.channel), int(self.channel)),
            ).fetchone()
        return Game.from_dict(json.loads(state))

    def kept(self) -> set[str]:
        with sqlite3.connect(self.database) as db:
            return {str(r[0]) for r in db.execute("SELECT request_id FROM moves")}

    def live(self) -> list[dict[str, Any]]:
        return [m for m in self.fake.channel_messages(self.channel) if enabled_roll(m)]

    async def one_live_board_taking_clicks(self, people: dict[str, dict[str, Any]]) -> None:
        """After a restart: once the repair is done, at most one live board; the player to
        move clicks on it (a die if rolled, else Roll): taken, and it stays their board."""
        fake = self.fake
        game = self.game()
        player = people.get(game.current_player_id)
        if player is None:  # a computer's turn: it goes on by itself, up to a person's
            await fake.wait_for(lambda: self.game().current_player_id in people, 30)
            game = self.game()
            player = people[game.current_player_id]
        name = player.get("global_name") or player["username"]

        def theirs() -> bool:
            boards = self.live()
            return len(boards) >= 1 and f"**{name}**" in text_of(boards[-1])

        try:
            await fake.wait_for(theirs, 20)
        except TimeoutError:
            # nothing could show it: where only clicks reach, the next interaction does
            await fake.slash(people["installer"], self.channel, "yahtzee board")
            await fake.wait_for(theirs, 20)
        await fake.settle(0.5)
        if len(self.live()) > 1:
            self.doubled += 1
        (board,) = self.live()
        dice = [c for c in controls_of(board) if str(c.get("custom_id", "")).startswith("yz:hold")]
        target = dice[0]["custom_id"] if game.dice is not None and dice else "Roll"
        clicked = await fake.click(player, board, target)
        if clicked.response_type not in (6, 7) or clicked.ephemeral_text:
            self.live_refused += 1
        assert clicked.response_type in (6, 7), clicked.ephemeral_text
        await fake.settle(0.3)
        assert f"**{name}**" in text_of(fake.messages[board["id"]]), text_of(board)

    async def answer_of(self, user: dict[str, Any], message: dict[str, Any], label: str) -> Any:
        """A move's click, counted once answered in place."""
        record = await self.fake.click(user, self.fake.messages[message["id"]], label, 10)
        if record.response_type == 7:
            self.acknowledged.append(record.id)
        return record

    async def choose(self, user: dict[str, Any], message: dict[str, Any], box: str) -> Any:
        """A scoring, counted once answered in place."""
        record = await self.fake.choose(user, self.fake.messages[message["id"]], box, 10)
        if record.response_type == 7:
            self.acknowledged.append(record.id)
        return record


@pytest.mark.parametrize("where", PLACES)
async def test_kills_at_chosen_moments_leave_one_live_board(
    fake: FakeDiscord, tmp_path: Path, official_values: Table, where: str
) -> None:
    ann, bob = fake.user("Ann"), fake.user("Bob")
    if where == "server":
        channel = fake.channel("general")
    else:
        fake.install(ann)
        channel = fake.group_dm(ann, bob) if where == "group_dm" else fake.user_install_guild()
    place_table(official_values, tmp_path / "data")
    bot = Killed(fake, tmp_path, channel)
    people = {str(ann["id"]): ann, str(bob["id"]): bob, "installer": ann}
    await bot.start()
    try:
        await fake.slash(ann, channel, "yahtzee start", 10)
        lobby = fake.last(channel)
        await fake.click(bob, lobby, "Join", 10)
        await fake.click(ann, fake.messages[lobby["id"]], "Add bot (Casual)", 10)
        await fake.click(ann, fake.messages[lobby["id"]], "Start", 10)
        await fake.wait_for(lambda: bot.live() != [], 10)

        # 1. right after a Roll is answered
        board = bot.live()[-1]
        rolled = await bot.answer_of(ann, board, "Roll")
        assert rolled.response_type == 7, rolled.ephemeral_text
        await bot.kill()
        await bot.start()
        await bot.one_live_board_taking_clicks(people)

        # 2. right after the next turn's board is posted, before the bot heard back
        board = bot.live()[-1]
        menu = next(c for c in controls_of(fake.messages[board["id"]]) if c["type"] == 3)
        route = FOLLOW_UP if where != "server" else rf"^/channels/{channel}/messages$"
        fake.hang("POST", route, after=True)
        await bot.choose(ann, board, menu["options"][0]["value"])
        await asyncio.wait_for(fake.hung.wait(), 10)
        fake.hung.clear()
        await bot.kill()
        await bot.start()
        await bot.one_live_board_taking_clicks(people)

        # 3. during a computer seat's turn (Bob scores; the Casual bot plays)
        board = bot.live()[-1]
        if bot.game().rolls_used == 0:
            await bot.answer_of(bob, board, "Roll")
        menu = next(c for c in controls_of(fake.messages[board["id"]]) if c["type"] == 3)
        await bot.choose(bob, board, menu["options"][0]["value"])
        for _ in range(400):  # as it shows, not once a quiet moment comes
            if "is playing its turn" in " ".join(text_of(m) for m in
                                                 fake.channel_messages(channel)):  # fmt: skip
                break
            await asyncio.sleep(0.01)
        await bot.kill()
        await bot.start()
        await bot.one_live_board_taking_clicks(people)

        # 4. inside an Undo: Ann scores, Bob's board comes; her Undo retires it (carried
        # out by Discord) and the bot dies before it hears so
        board = bot.live()[-1]
        if bot.game().rolls_used == 0:
            await bot.answer_of(ann, board, "Roll")
        menu = next(c for c in controls_of(fake.messages[board["id"]]) if c["type"] == 3)
        await bot.choose(ann, board, menu["options"][0]["value"])
        await fake.wait_for(lambda: len(bot.live()) == 1 and bot.live()[0]["id"] != board["id"])
        bobs = bot.live()[0]
        edit = (
            rf"^/channels/{channel}/messages/{bobs['id']}$" if where == "server"
            else rf"^/webhooks/\d+/[^/]+/messages/{bobs['id']}$"
        )  # fmt: skip
        fake.hang("PATCH", edit, after=True)
        undone = await bot.answer_of(ann, fake.messages[board["id"]], "Undo")
        assert undone.response_type in (6, 7), undone.ephemeral_text
        await asyncio.wait_for(fake.hung.wait(), 10)
        await bot.kill()
        await bot.start()
        await bot.one_live_board_taking_clicks(people)
    finally:
        if bot.process is not None and bot.process.returncode is None:
            await bot.kill(chosen=False)
    kept = bot.kept()
    lost = [i for i in bot.acknowledged if i not in kept]
    print(
        f"\nkill moments in a {where}: {bot.kills} kills, 1 game, "
        f"{len(bot.acknowledged)} moves acknowledged, {len(bot.acknowledged) - len(lost)} kept, "
        f"{bot.live_refused} live-board refusals, {bot.doubled} doubled boards"
    )
    assert lost == [] and bot.live_refused == 0 and bot.doubled == 0
