"""Nothing a user sends breaks a game: a seeded random driver sends real and forged clicks,
odd select values and slash commands into several games at once, as players, a spectator
and an admin, and checks after every interaction that

- it got exactly one answer, within 3 seconds, and never "Something went wrong";
- every move in the log came from the right person: a roll, hold or score from the seat
  whose turn it was, an undo from the player who scored, a start or cancel from the host;
- server settings changed and leaderboards reset or restored only by a member with Manage
  Server (the commands and their private menus are pressed by everyone, forged or not);
- every game replays from its move log to the state on record, and a finished game's
  results carry the totals of the replayed cards;
- nothing was logged as an unexpected error.

Half-way through, the bot stops while people go on clicking (those clicks get no answer, as
on Discord, and change nothing), and starts again on the same database.

``YAHTZEE_FUZZ_STEPS`` sets the number of interactions (a few hundred by default; 10000 for
a long run) and ``YAHTZEE_FUZZ_SEED`` the seed (printed on failure).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.app import YahtzeeBot
from bot.engine import Game, RandomDice, ScriptedDice
from bot.store import plans

from .conftest import StartBot, stop
from .fake_discord import EPHEMERAL, FakeDiscord, Interaction, controls_of, find_component
from .helpers import start_game

pytestmark = pytest.mark.sqlite_only  # about Discord and the bot, not the database

STEPS = int(os.environ.get("YAHTZEE_FUZZ_STEPS", "200"))
SEED = int(os.environ.get("YAHTZEE_FUZZ_SEED", "1123"))
ANSWER_WITHIN = 3.0
ODD_VALUES = ["", "none", "nope", "yahtzee", "ones", "chance", "x" * 120, "-1", "🎲"]
ODD_NUMBERS = ["-1", "0", "99999999999999999999999", "abc", "1.5", ""]
SLASH = [
    ("yahtzee scorecard", {}), ("yahtzee rules", {}), ("yahtzee hint", {}),
    ("yahtzee board", {}), ("yahtzee leaderboard", {}), ("yahtzee stats", {}),
    ("yahtzee rejoin", {}), ("yahtzee end", {}), ("yahtzee start", {}),
    ("yahtzee-admin settings", {}), ("yahtzee-admin reset-leaderboard", {}),
    ("yahtzee-admin restore-leaderboard", {}),
    ("yahtzee start", {"preset": "nonsense"}), ("yahtzee start", {"preset": "bonus-turn"}),
    ("yahtzee leaderboard", {"board": "zzz", "period": "-1"}),
    ("yahtzee leaderboard", {"board": "wins", "period": "week"}),
    ("yahtzee daily", {}), ("yahtzee daily-board", {}),
    ("yahtzee daily-board", {"everywhere": "x"}),
]  # fmt: skip
#: Commands that name a member: sent with anyone in the server, players or not.
ABOUT_SOMEONE = ["yahtzee kick", "yahtzee scorecard", "yahtzee stats"]


def _forged(rng: random.Random, real: str, game_ids: list[int]) -> str:
    """A custom_id a modified client could send, made from a real one."""
    parts = real.split(":")
    how = rng.randrange(6)
    numbers = [i for i, p in enumerate(parts) if p.lstrip("-").isdigit()]
    if how == 0 and numbers:  # another game's id, or an odd number
        parts[rng.choice(numbers)] = str(rng.choice(game_ids)) if game_ids else "1"
    elif how == 1 and numbers:
        parts[rng.choice(numbers)] = rng.choice(ODD_NUMBERS)
    elif how == 2 and len(parts) > 2:
        parts.pop()  # a field missing
    elif how == 3:
        parts.append(rng.choice(["1", "x", ""]))  # a field too many
    elif how == 4:
        parts[1] = rng.choice(["zzz", "die", "roll", "box", "lobby", "share", "set"])
    else:
        return rng.choice(["yz:", "yz", "other:1:2", "yz:lb:high:all:-1:next", "yz:die:1:0:0:9"])
    return ":".join(parts)[:100]


class Referee:
    """Who may make which move: a snapshot of every game before each interaction."""

    def __init__(self, bot: YahtzeeBot) -> None:
        self.bot = bot
        self.seen: dict[int, int] = {}  # game id -> last move-log version checked
        self.before: dict[int, tuple[str | None, str | None, int]] = {}
        self.where: dict[int, str] = {}  # game id -> the channel its board is in
        self.checked: dict[str, int] = {}  # moves checked, by action

    async def games(self) -> list[int]:
        rows = await self.bot.store.read(plans.live_games)
        return sorted({*self.seen, *(row.id for row in rows)})

    async def snapshot(self) -> None:
        """Before an interaction: whose turn, who may undo, who hosts, in every game."""
        self.before = {}
        for game_id in await self.games():
            row = await self.bot.store.read(plans.get_game, game_id)
            if row is None:
                continue
            self.seen.setdefault(game_id, max([v for v, *_ in await self._moves(game_id)] or [0]))
            current = undo = None
            if row.state is not None and row.status == "active":
                game = Game.from_dict(row.state)
                current, undo = game.current_player_id, game.undo_player_id
            self.before[game_id] = (current, undo, row.host_id)
            self.where[game_id] = str(row.board_channel_id)

    async def _moves(
        self, game_id: int
    ) -> list[tuple[int, int | None, str, str | None, str | None]]:
        return await self.bot.games.store.read(plans.moves, game_id)

    def admin_record(self) -> list[tuple[Any, ...]]:
        """What only a member with Manage Server may change: settings and leaderboard resets
        (read from the database file itself, not through the bot)."""
        path = Path(self.bot.settings.database_path)
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            settings = db.execute("SELECT * FROM guild_settings ORDER BY guild_id").fetchall()
            archives = db.execute("SELECT * FROM leaderboard_archives ORDER BY id").fetchall()
        return [("settings", *row) for row in settings] + [("archive", *row) for row in archives]

    def file_moves(self) -> list[tuple[Any, ...]]:
        """Every move in the database file (read while the bot is down)."""
        path = Path(self.bot.settings.database_path)
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute("SELECT * FROM moves ORDER BY game_id, version").fetchall()

    async def check_replay(self, game_id: int) -> None:
        """The move log replays to the stored game; a finished game's results are its cards'."""
        row = await self.bot.store.read(plans.get_game, game_id)
        assert row is not None
        replayed = await self.bot.games.history.replayed(
            game_id
        )  # raises where the log is impossible
        self.checked["replays"] = self.checked.get("replays", 0) + 1
        if row.state is None:
            assert replayed.game is None, game_id
            return
        assert replayed.game == Game.from_dict(row.state), game_id
        if row.status == "finished":
            totals = {int(seat.player_id): seat.card.total for seat in replayed.game.seats}
            results = await self.bot.games.store.read(plans.results, game_id)
            assert results, game_id
            assert all(r.total == totals[r.user_id] for r in results), (game_id, results, totals)
            self.checked["results"] = self.checked.get("results", 0) + 1

    async def check(self, who: dict[str, Any], admin_ids: set[str]) -> None:
        """After an interaction: every new move came from someone allowed to make it, and
        every game that moved replays from its log."""
        for game_id in await self.games():
            moves = await self._moves(game_id)
            last = self.seen.get(game_id, 0)
            if any(version > last for version, *_ in moves):
                await self.check_replay(game_id)
            current, undo, host = self.before.get(game_id, (None, None, 0))
            for version, user_id, action, detail, _ in moves:
                if version <= last:
                    continue
                self.checked[action] = self.checked.get(action, 0) + 1
                if action == "roll" and detail == "opening":
                    continue  # made for the turn's player as the turn began (autoroll), by
                    # whichever click began it: a Start, another player's scoring, a timer
                if action in ("roll", "hold", "score") and user_id is not None:
                    assert str(user_id) == current, (game_id, action, user_id, current)
                    assert str(user_id) == who["id"], (game_id, action, user_id)
                elif action == "undo":
                    assert str(user_id) == undo == who["id"], (game_id, user_id, undo)
                elif action in ("start", "cancel", "hints", "add-bot"):
                    assert user_id == host, (game_id, action, user_id, host)
                elif action in ("end", "kick"):
                    assert user_id == host or str(user_id) in admin_ids, (game_id, user_id)
            self.seen[game_id] = max([last, *(v for v, *_ in moves)])


async def test_random_and_forged_interactions_never_break_a_game(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
    caplog: pytest.LogCaptureFixture,
) -> None:
    rng = random.Random(SEED)
    dice.fallback = RandomDice(random.Random(SEED))
    caplog.set_level(logging.ERROR)
    ann, bob, cat, dan = (fake.user(n) for n in ("Ann", "Bob", "Cat", "Dan"))
    eve = fake.user("Eve", admin=True)
    people = [ann, bob, cat, dan, eve]
    admin_ids = {eve["id"]}
    channels = [fake.add_channel(name)["id"] for name in ("one", "two", "three")]
    bot: YahtzeeBot = await start_bot()
    for channel, (host, guest) in zip(channels, [(ann, bob), (bob, cat), (cat, ann)], strict=True):
        await start_game(fake, channel, host, guest)
    referee = Referee(bot)
    answers: list[Interaction] = []
    did: list[str] = []  # what each step sent, for the failure message
    private: list[dict[str, Any]] = []  # ephemeral answers with controls: menus, confirmations

    async def send(who: dict[str, Any], channel: str) -> list[Interaction]:
        messages = [m for m in fake.channel_messages(channel) if controls_of(m)]
        roll = rng.random()
        if roll < 0.15 or not messages:
            command, options = rng.choice(SLASH)
            if rng.random() < 0.3:
                command, options = rng.choice(ABOUT_SOMEONE), {"player": rng.choice(people)}
            did.append(f"/{command} {options} by {who['username']}")
            return [await fake.slash(who, channel, command, timeout=ANSWER_WITHIN, **options)]
        # private answers lose their controls when they are edited: what they have now
        controls = [(m, c) for m in private[-10:] for c in controls_of(m)]
        if roll < 0.25 and controls:  # someone else's private menu, leaked or forged
            message, component = rng.choice(controls)
            values = None
            if component["type"] == 3:
                offered = [o["value"] for o in component.get("options", [])]
                values = [rng.choice(offered + ODD_VALUES[:2])]
            did.append(f"private {component['custom_id']} {values} by {who['username']}")
            return [await fake.forge(who, message, component["custom_id"], values, ANSWER_WITHIN)]
        message = rng.choice(messages[-4:])  # mostly recent ones, old boards too
        components = controls_of(message)
        component = rng.choice(components)
        if roll < 0.40:
            game_ids = await referee.games()
            custom_id = _forged(rng, component["custom_id"], game_ids)
            values = [rng.choice(ODD_VALUES)] if component["type"] == 3 else None
            did.append(f"forged {custom_id!r} {values} by {who['username']}")
            return [await fake.forge(who, message, custom_id, values, ANSWER_WITHIN)]
        if component["type"] == 3:
            offered = [o["value"] for o in component.get("options", [])]
            value = rng.choice(offered + ODD_VALUES[:3]) if offered else rng.choice(ODD_VALUES)
            did.append(f"{component['custom_id']} = {value!r} by {who['username']}")
            return [await fake.forge(who, message, component["custom_id"], [value], ANSWER_WITHIN)]
        did.append(
            f"{component['custom_id']} by {who['username']}" + (" x2" if roll > 0.95 else "")
        )
        if roll > 0.95:  # the same click twice at once
            pair = await asyncio.gather(
                fake.forge(who, message, component["custom_id"], None, ANSWER_WITHIN),
                fake.forge(who, message, component["custom_id"], None, ANSWER_WITHIN),
            )
            return list(pair)
        return [await fake.forge(who, message, component["custom_id"], None, ANSWER_WITHIN)]

    for step in range(STEPS):
        if step == STEPS // 2:  # the bot goes down while people click, and comes back
            await stop(bot)
            before = referee.file_moves()
            for channel in channels:
                board = fake.live_boards(channel)
                if board:
                    roll_button = find_component(board[-1], "Roll")
                    assert roll_button is not None
                    down = await fake.forge(ann, board[-1], roll_button["custom_id"], None, 0.5)
                    assert down.response_type is None  # nobody there to answer
            assert referee.file_moves() == before
            bot = await start_bot()  # (its repairs may resume a computer's turn)
            referee.bot = bot
            for game_id in await referee.games():
                await referee.check_replay(game_id)
        await referee.snapshot()
        admin_before = referee.admin_record()
        who, channel = rng.choice(people), rng.choice(channels)
        turns = [(g, current) for g, (current, _, _) in referee.before.items() if current]
        if turns and rng.random() < 0.5:  # half the time, the player to move, where they play
            game_id, mover = rng.choice(turns)
            found = next((p for p in people if p["id"] == mover), None)
            if found is not None and referee.where[game_id] in fake.order:
                who, channel = found, referee.where[game_id]
        sent = await send(who, channel)
        answers += sent
        private += [
            m
            for a in sent
            for m in [a.response, *a.followups]
            if m and m.get("flags", 0) & EPHEMERAL and controls_of(m)
        ]
        for answer in sent:
            where = f"step {step} (seed {SEED}): {did[-1]}"
            assert answer.error is None, f"{where}: {answer.error}"
            assert answer.response_type is not None, f"{where}: no answer"
            assert answer.callbacks == 1, f"{where}: answered {answer.callbacks} times"
            assert "Something went wrong" not in answer.ephemeral_text, where
        await referee.check(who, admin_ids)
        if referee.admin_record() != admin_before:
            assert who["id"] in admin_ids, f"step {step} (seed {SEED}): {did[-1]} by a non-admin"
            referee.checked["admin"] = referee.checked.get("admin", 0) + 1
        unexpected = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert unexpected == [], f"step {step} (seed {SEED}): {unexpected[0].getMessage()}"
    assert len(answers) >= STEPS
    # not only refusals: the games were played
    print("moves checked:", referee.checked)
    assert all(referee.checked.get(action, 0) > 0 for action in ("roll", "hold", "score")), (
        referee.checked
    )
    assert fake.mistakes == []
