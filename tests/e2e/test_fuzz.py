"""Nothing a user sends breaks a game: a seeded random driver sends real and forged clicks,
odd select values and slash commands into several games at once, as players, a spectator
and an admin, and checks after every interaction that

- it got exactly one answer, within 3 seconds, and never "Something went wrong";
- every move in the log came from the right person: a roll, hold or score from the seat
  whose turn it was, an undo from the player who scored, a start or cancel from the host;
- nothing was logged as an unexpected error.

``YAHTZEE_FUZZ_STEPS`` sets the number of interactions (a few hundred by default; 10000 for
a long run) and ``YAHTZEE_FUZZ_SEED`` the seed (printed on failure).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from typing import Any

import pytest

from bot.app import YahtzeeBot
from bot.engine import Game, RandomDice, ScriptedDice

from .conftest import StartBot
from .fake_discord import FakeDiscord, Interaction

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
]  # fmt: skip


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
        rows = await self.bot.games.live_games()
        return sorted({*self.seen, *(row.id for row in rows)})

    async def snapshot(self) -> None:
        """Before an interaction: whose turn, who may undo, who hosts, in every game."""
        self.before = {}
        for game_id in await self.games():
            row = await self.bot.games.find(game_id)
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
        return await self.bot.games.store.moves(game_id)

    async def check(self, who: dict[str, Any], admin_ids: set[str]) -> None:
        """After an interaction: every new move came from someone allowed to make it."""
        for game_id in await self.games():
            moves = await self._moves(game_id)
            last = self.seen.get(game_id, 0)
            current, undo, host = self.before.get(game_id, (None, None, 0))
            for version, user_id, action, _, _ in moves:
                if version <= last:
                    continue
                self.checked[action] = self.checked.get(action, 0) + 1
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
        await fake.slash(host, channel, "yahtzee start")
        lobby = fake.last(channel)
        await fake.click(guest, lobby, "Join")
        await fake.click(host, lobby, "Start")
    referee = Referee(bot)
    answers: list[Interaction] = []
    did: list[str] = []  # what each step sent, for the failure message

    async def send(who: dict[str, Any], channel: str) -> list[Interaction]:
        messages = [m for m in fake.channel_messages(channel) if m.get("components")]
        roll = rng.random()
        if roll < 0.15 or not messages:
            command, options = rng.choice(SLASH)
            did.append(f"/{command} by {who['username']}")
            return [await fake.slash(who, channel, command, timeout=ANSWER_WITHIN, **options)]
        message = rng.choice(messages[-4:])  # mostly recent ones, old boards too
        components = [c for row in message["components"] for c in row["components"]]
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
        await referee.snapshot()
        who, channel = rng.choice(people), rng.choice(channels)
        turns = [(g, current) for g, (current, _, _) in referee.before.items() if current]
        if turns and rng.random() < 0.5:  # half the time, the player to move, where they play
            game_id, mover = rng.choice(turns)
            found = next((p for p in people if p["id"] == mover), None)
            if found is not None and referee.where[game_id] in fake.order:
                who, channel = found, referee.where[game_id]
        sent = await send(who, channel)
        answers += sent
        for answer in sent:
            where = f"step {step} (seed {SEED}): {did[-1]}"
            assert answer.error is None, f"{where}: {answer.error}"
            assert answer.response_type is not None, f"{where}: no answer"
            assert "Something went wrong" not in answer.ephemeral_text, where
        await referee.check(who, admin_ids)
        unexpected = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert unexpected == [], f"step {step} (seed {SEED}): {unexpected[0].getMessage()}"
    assert len(answers) >= STEPS
    # not only refusals: the games were played
    print("moves checked:", referee.checked)
    assert all(referee.checked.get(action, 0) > 0 for action in ("roll", "hold", "score")), (
        referee.checked
    )
    assert fake.mistakes == []
