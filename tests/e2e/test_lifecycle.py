"""The life of lobbies and games, model-based: hypothesis drives the real bot on the fake
Discord with what people can do, in any order, and checks after every step that the product
behaves as it should.

What people do (rules): ``/yahtzee start``; Join; Leave (the button and ``/yahtzee leave``);
Add bot (Optimal, Casual, To win); Remove bot (when the lobby offers it); the Hints switch;
in ``friends``, leaving by clicks (Scorecard, then Leave under the private card, confirmed
or not);
Start; Cancel; Roll; hold a die; score a box; play a few turns briskly; Undo; ``/yahtzee
kick``, ``rejoin`` and ``end`` (with its confirmation); Play again, by a player or by Carol,
who never plays; ``/yahtzee daily`` and its private board; an admin switching the timeout
policy; the clock moving past a half-time ping, a turn's time limit, a lobby's timeout or a
day (then the timer's tick, called directly: the cog's loop ticks every 5 s of real time);
and the bot stopping and starting again on the same file; and a click on any control of any
message of a game, the newest or an older one (``poke``). Ann has Manage Server; Ann, Bob
and Cat play, in two places: ``general``, a channel of a server that added the bot, and
``friends``, where the bot can only answer interactions (issue 43, docs/places.md): a group
DM of the four or a server that never added the bot, drawn for each run. Ann, Bob and Cat
have added the app to their accounts; Carol has not (no command is offered to her there).
After each step the test waits for the bot to be quiet and for computer seats to finish
their turns (they move with no delay in tests).

After every step (each invariant has a name, listed in ``INVARIANTS``):

- as in test_fuzz: one answer per interaction within 3 s, never "Something went wrong",
  nothing logged at ERROR, nothing Discord would show wrongly, every move from the person
  allowed to make it, every game replays from its move log;
- liveness: a computer seat to move moves within a few seconds with nobody clicking and the
  clock standing still (in ``friends``: while a token reaches the place, else at its next
  interaction); a game with no person left playing (all left, or away) is over, and
  nothing is played in it after that; every open lobby and running game has a seated
  person as host (one who has not left); every live game has a live board on which the
  player to move can act (a daily challenge's is private: the player's own ephemeral
  message). In ``friends`` the bot cannot show by itself what a timer or a restart did
  when no token is fresh: there the board is reachable by the next interaction, so after
  any interaction in the place (a click on any message of the game, the newest or an
  older one, or a command) the player to move has a board to act on;
- places (``friends``): nothing is tried on a route the place forbids (the fake answers 403
  50001), no interaction is asked for a sixth follow-up, no token is used after 15 minutes
  of the fake's clock, and every turn's player is notified by a new message (an edit
  notifies nobody);
- no pestering: nobody is pinged for a turn that is not theirs, nor twice for one turn of
  one game; a step by Carol pings nobody; a rematch pings each of a game's players at most
  once, ever; a half-time reminder pings the player to move, once a turn (``reminders``);
- truth: no message looks live (a Roll, Join or Start button, "your turn") for a game or a
  lobby that is over, a lobby message no longer looks live once its game started, and a
  game has at most one live board; a half-time reminder goes when its turn ends
  (``reminders``). In ``friends`` this holds for every message a token the bot keeps
  still reaches (14 minutes, docs/places.md); one no token reaches keeps its look;
- privacy: a daily challenge's dice are never shown in a public message; only its final
  result is.

``YAHTZEE_LIFECYCLE_EXAMPLES`` (default 10) and ``YAHTZEE_LIFECYCLE_STEPS`` (default 30) set
the size of the run (200 and 100 for a long one). The run is derandomized, so it is the same
every time, and a failure prints the steps hypothesis shrank it to, each with what it did.
``YAHTZEE_LIFECYCLE_SKIP=pings,truth`` leaves invariants out (to find the next failure while
one is being fixed); ``YAHTZEE_LIFECYCLE_SHRINK=0`` reports a failure as found (no shrinking,
which hypothesis caps at 5 minutes); ``YAHTZEE_LIFECYCLE_VERBOSE=1`` prints every step.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import random
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import discord
import pytest
import yarl
from hypothesis import HealthCheck, Phase, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

try:
    from hypothesis.strategies._internal.featureflags import FeatureFlags
except ImportError:  # pragma: no cover - hypothesis moved it: swarm testing stays on
    FeatureFlags = None  # type: ignore[assignment,misc]

from bot.app import YahtzeeBot
from bot.engine import Game, RandomDice, ScriptedDice
from bot.games import is_bot
from bot.games.replay import replay
from bot.store import GameRow, GameStatus, plans
from bot.strategy import Table
from bot.strategy.distribution import Distributions

from ..clock import FakeClock
from .conftest import bot_settings, launch, place_table, watch_bots
from .fake_discord import (
    EPHEMERAL,
    FakeDiscord,
    Interaction,
    NotOffered,
    controls_of,
    shown_label,
)
from .test_fuzz import Referee as FuzzReferee

pytestmark = pytest.mark.sqlite_only  # about Discord and the bot, not the database

EXAMPLES = int(os.environ.get("YAHTZEE_LIFECYCLE_EXAMPLES", "10"))
STEPS = int(os.environ.get("YAHTZEE_LIFECYCLE_STEPS", "30"))
# YAHTZEE_LIFECYCLE_SHRINK=0: report the first failing run as found (quicker, longer).
SHRINK = os.environ.get("YAHTZEE_LIFECYCLE_SHRINK") != "0"
PHASES = [phase for phase in Phase if SHRINK or phase is not Phase.shrink]
VERBOSE = bool(os.environ.get("YAHTZEE_LIFECYCLE_VERBOSE"))
SKIP = {n.strip() for n in os.environ.get("YAHTZEE_LIFECYCLE_SKIP", "").split(",") if n.strip()}

INVARIANTS = {
    "answers": "one answer per interaction, within 3 s, never 'Something went wrong'",
    "errors": "nothing logged at ERROR; nothing Discord would show wrongly",
    "referee": "moves from the right person; every game replays from its move log",
    "computer_moves": "a computer seat to move moves within a few seconds, unprompted",
    "deserted": "a game with no person left playing is over, and nothing moves in it after",
    "lobby_host": "every open lobby and running game has a seated person (still in it) as host",
    "live_board": "every live game has a live board on which the player to move can act",
    "pings": "a turn's ping only to its player, once per turn; no ping for no reason",
    "carol_pings": "a step by someone who did not play (Carol) pings nobody",
    "rematch_pings": "a rematch pings each of a game's players at most once, ever",
    "truth": "nothing looks live for a game that is not; at most one live board per game",
    "reminders": "a half-time reminder pings the player to move once a turn, goes with it",
    "daily_private": "a daily challenge's dice are never shown in the channel",
    "places": "where only tokens reach: no forbidden route, at most 5 follow-ups an "
    "interaction, no token after 15 minutes, every turn's ping a new message",
}
assert set(INVARIANTS) >= SKIP, f"unknown invariants in YAHTZEE_LIFECYCLE_SKIP: {SKIP}"

CHANNELS = ("general", "friends")  # friends: only tokens reach it (FRIENDS)
FRIENDS = ("group_dm", "user_server")  # what ``friends`` is in a run
PLAYERS = ("Ann", "Bob", "Cat")  # Ann has Manage Server
ANSWER_WITHIN = 3.0
STALL = 5.0  # seconds a computer seat may take for one move
STEP_LIMIT = 150.0  # seconds after which a step counts as hung
WHERE = st.integers(0, 1)  # which of the channels a rule applies in (of those it can)
SEATED = st.sampled_from(("usual", *PLAYERS))  # "usual": whoever would normally do it
ANYONE = st.sampled_from(("usual", *PLAYERS, "Carol"))
DICE_TEXT = re.compile(r"(?<![\d-])[1-6]-[1-6]-[1-6]-[1-6]-[1-6](?![\d-])")
LINK = re.compile(r"/channels/(?:\d+|@me)/\d+/(\d+)")  # @me: outside servers
REMINDER = "half your turn"
COMPUTER_MOVES = ("bot-roll", "bot-score", "timeout")
#: How long the bot uses a token after its interaction arrived (docs/places.md, As built:
#: none 14 minutes after it arrived, by the bot's clock), and how many of a place's newest
#: interactions it keeps: a message no such token reaches keeps its look.
TOKEN_USED_FOR = 14 * 60
TOKENS_KEPT = 16
FOLLOWUPS = 5  # Discord's cap where only a user install authorizes ("Create Followup")
WEBHOOK = re.compile(r"/webhooks/\d+/([^/]+)")
TURN_TEXT = re.compile(r"<@(\d+)>, your turn")


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every button and select of a message, row by row (inside a V2 layout too)."""
    return controls_of(message)


def game_in(custom_id: str) -> int | None:
    """The game a control of the bot belongs to (the first number after its kind)."""
    parts = custom_id.split(":")
    if len(parts) < 3 or parts[0] != "yz" or parts[1] in ("lb", "share", "lbreset", "set"):
        return None
    return next((int(p) for p in parts[2:] if p.isdigit()), None)


def kind_of(custom_id: str) -> str:
    """``roll``, ``die``, ``box``, ``lobby:join``...: what a control does."""
    parts = custom_id.split(":")
    if len(parts) > 2 and parts[1] == "lobby":
        return f"lobby:{parts[2]}"
    return parts[1] if len(parts) > 1 else ""


def embed_text(message: dict[str, Any]) -> str:
    """Everything a message's embeds say."""
    out = []
    for embed in message.get("embeds") or []:
        out += [embed.get("title") or "", embed.get("description") or ""]
        out += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields") or []]
    return "\n".join(out)


@dataclass
class Shown:
    """What a message showed after one create or edit, and in which step."""

    step: int
    content: str
    text: str
    ids: tuple[str, ...]
    faces: tuple[str, ...]  # the labels of its die buttons


@dataclass
class Posted:
    """A message the bot made, with everything it showed since."""

    id: str
    channel: str
    step: int
    public: bool
    mentions: list[str]
    ids: tuple[str, ...]  # its controls when posted
    content: str
    shown: list[Shown] = field(default_factory=list)
    games: set[int] = field(default_factory=set)  # the games its controls ever belonged to

    def turn(self) -> tuple[int, int] | None:
        """(game, turn) of a board, from its Roll button when posted."""
        return turn_of(self.ids)

    def turn_shown_first(self) -> tuple[int, int] | None:
        """(game, turn) of the first board the message showed: where only tokens reach, a
        board is posted as its ping line and becomes that turn's board by an edit."""
        for shown in self.shown:
            if turn_of(shown.ids) is not None:
                return turn_of(shown.ids)
        return None

    def turn_now(self) -> tuple[int, int] | None:
        """(game, turn) the board shows now (where only clicks reach, a click on an old
        board brings the live one back on it: a later turn)."""
        for shown in reversed(self.shown):
            if turn_of(shown.ids) is not None:
                return turn_of(shown.ids)
        return None


def turn_of(ids: tuple[str, ...]) -> tuple[int, int] | None:
    """(game, turn) of a board's controls, from its Roll button."""
    for custom_id in ids:
        parts = custom_id.split(":")
        if kind_of(custom_id) == "roll" and len(parts) > 3:
            return int(parts[2]), int(parts[3])
    return None


class Referee(FuzzReferee):
    """test_fuzz's referee, which also knows who opened a game in the interaction it checks
    (``/yahtzee daily`` opens and starts one in a single interaction), and replays a game
    while its computer seats go on moving (up to the version of the state it compares)."""

    async def check(self, who: dict[str, Any], admin_ids: set[str]) -> None:
        for game_id in await self.games():
            if game_id not in self.before and game_id not in self.seen:
                row = await self.bot.store.read(plans.get_game, game_id)
                if row is not None:
                    self.before[game_id] = (None, None, row.host_id)
        await super().check(who, admin_ids)

    async def check_replay(self, game_id: int) -> None:
        row = await self.bot.store.read(plans.get_game, game_id)
        assert row is not None
        log = [
            m for m in await self.bot.games.store.read(plans.moves, game_id) if m[0] <= row.version
        ]
        replayed = replay(row.players, row.preset, row.timeout_policy, log)  # raises if impossible
        self.checked["replays"] = self.checked.get("replays", 0) + 1
        if row.state is None:
            assert replayed.game is None, game_id
            return
        assert replayed.game == Game.from_dict(row.state), game_id
        if row.status == GameStatus.FINISHED:
            totals = {int(seat.player_id): seat.card.total for seat in replayed.game.seats}
            results = await self.bot.games.store.read(plans.results, game_id)
            assert results, game_id
            assert all(r.total == totals[r.user_id] for r in results), (game_id, results, totals)


class Recorder:
    """Notes every message the fake creates or edits, as it happens (a message posted and
    taken back within one step is seen too)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.step = 0
        self.posts: dict[str, Posted] = {}
        self.order: list[str] = []
        self.expired: list[str] = []  # tokens the bot used after the fake's 15 minutes
        create, edit, expired = fake._create, fake._edit, fake._expired

        def created(*args: Any, **kwargs: Any) -> dict[str, Any]:
            message = create(*args, **kwargs)
            self.note(message, True)
            return message

        def edited(*args: Any, **kwargs: Any) -> dict[str, Any]:
            message = edit(*args, **kwargs)
            self.note(message, False)
            return message

        def too_old(token: str) -> bool:
            old = expired(token)
            if old:
                self.expired.append(token)
            return old

        fake._create = created  # type: ignore[method-assign]
        fake._edit = edited  # type: ignore[method-assign]
        fake._expired = too_old  # type: ignore[method-assign]

    def note(self, message: dict[str, Any], created: bool) -> None:
        controls = components(message)
        ids = tuple(str(c.get("custom_id") or "") for c in controls)
        faces = tuple(
            shown_label(c) for c in controls if kind_of(c.get("custom_id") or "") == "die"
        )
        posted = self.posts.get(message["id"])
        if posted is None:
            posted = Posted(
                message["id"],
                message["channel_id"],
                self.step,
                not message.get("flags", 0) & EPHEMERAL,
                [m["id"] for m in message.get("mentions") or []] if created else [],
                ids,
                message.get("content") or "",
            )
            self.posts[message["id"]] = posted
            self.order.append(message["id"])
        posted.shown.append(
            Shown(self.step, message.get("content") or "", embed_text(message), ids, faces)
        )
        posted.games |= {g for g in map(game_in, ids) if g is not None}


@dataclass
class History:
    """What a game's move log says: the turns it had, and when nobody was left playing."""

    version: int
    turns: set[tuple[int, str]]  # (turn number, player to move) of every state it was in
    deserted: int | None = None  # the move after which no person was left playing
    after: list[str] = field(default_factory=list)  # moves made in it after that


@dataclass
class Env:
    """What lasts across examples: the event loop, the data folder, counts."""

    runner: asyncio.Runner
    data: Path
    errors: list[logging.LogRecord]
    examples: int = 0
    steps: int = 0
    rules: Counter[str] = field(default_factory=Counter)
    unseen: int = 0  # friends' first interactions after the clock moved or a restart


class ErrorLog(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass(frozen=True)
class Target:
    """A live lobby or game, as the rules' preconditions see it (refreshed every step)."""

    game: int
    channel: str  # the channel's name (a daily challenge: where it was started)
    status: str
    daily: bool = False
    person_to_move: bool = False
    rolled: bool = False
    computers: bool = False


class Lifecycle(RuleBasedStateMachine):
    env: ClassVar[Env]

    def __init__(self) -> None:
        super().__init__()
        self.env.examples += 1
        # Every rule may be drawn in every run. Hypothesis's swarm testing enables a random
        # subset of the rules per run: in a short run most runs then lack the rules that
        # open and play games. (Its internals, so guarded: if they change, swarm stays on.)
        rules = getattr(self, "_rules_strategy", None)
        if FeatureFlags is not None and hasattr(rules, "enabled_rules_strategy"):
            rules.enabled_rules_strategy = st.just(FeatureFlags())  # type: ignore[union-attr]
        self.patch = pytest.MonkeyPatch()
        self.fake: FakeDiscord | None = None
        self.unwatch: Callable[[], None] = lambda: None
        self.bot: YahtzeeBot | None = None
        self.task: asyncio.Task[None] | None = None
        self.targets: list[Target] = []  # the live lobbies and games
        self.busy: set[str] = set()  # channels with a lobby or a game (not a daily)
        self.undos: list[str] = []  # messages with an Undo their player can click
        self.finals: list[str] = []  # messages with Play again
        self.pokeable: list[str] = []  # public messages with controls of a live game
        self.tries: list[str] = list(PLAYERS)  # who has today's daily challenge still to try
        self.restarts = self.policies = self.choices = 0  # a few of each are enough in a run
        self.problems: list[tuple[str, str]] = []
        self.sent: list[tuple[str, Interaction]] = []
        self.actor = ""  # who acted in the step
        self.kind = ""  # what the step was, for the ping rules
        self.source: int | None = None  # Play again: the finished game clicked
        self.seen_posts = 0
        self.counted: Counter[tuple[Any, ...]] = Counter()  # pings per (game, turn, user, kind)
        self.rematches: Counter[tuple[int, str]] = Counter()  # pings per (game, user)
        self.histories: dict[int, History] = {}
        self.dailies: dict[int, list[int]] = {}  # game -> [first step, last step, ended]
        # friends, the place only tokens reach: the last step in which the bot may have acted
        # there unseen (the clock moved, a restart), the last with an interaction from it
        self.token_places: set[str] = set()  # its channel id
        self.unseen: dict[str, int] = {}
        self.touched: dict[str, int] = {}
        self.earlier: set[str] = set()  # interactions sent to earlier lives of the bot
        self.checked_requests = 0
        self.followups: Counter[str] = Counter()  # follow-ups asked for, by webhook path
        self.seen_shown: dict[str, int] = {}  # message -> how many of its Shown were checked
        self.env.errors.clear()

    # -- the world ------------------------------------------------------------------------------

    def run(self, work: Awaitable[Any]) -> Any:
        """Run async work on the test's event loop; a step that never ends is a failure
        (with every task's stack, to see where it hangs)."""

        async def bounded() -> Any:
            try:
                return await asyncio.wait_for(work, STEP_LIMIT)
            except TimeoutError:
                stacks = io.StringIO()
                for task in asyncio.all_tasks():
                    task.print_stack(limit=8, file=stacks)
                raise AssertionError(
                    f"a step did not end within {STEP_LIMIT} s:\n{stacks.getvalue()}"
                ) from None

        return self.env.runner.run(bounded())

    @initialize(seed=st.integers(0, 2**16), friends=st.sampled_from(FRIENDS))
    def begin(self, seed: int, friends: str) -> None:
        self.run(self._begin(seed, friends))

    async def _begin(self, seed: int, friends: str) -> None:
        fake = FakeDiscord()
        await fake.start()
        self.fake = fake
        self.unwatch = watch_bots(fake)
        self.patch.setattr(discord.http.Route, "BASE", fake.api_base)
        gateway = yarl.URL(f"ws://127.0.0.1:{fake.port}/gateway")
        self.patch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
        self.recorder = Recorder(fake)
        self.users = {name: fake.user(name, admin=name == "Ann") for name in PLAYERS}
        self.users["Carol"] = fake.user("Carol")
        self.names = {u["id"]: name for name, u in self.users.items()}
        self.channels = {"general": fake.channel("general")}
        fake.install(*(self.users[name] for name in PLAYERS))  # Carol has not added the app
        if friends == "group_dm":
            self.channels["friends"] = fake.group_dm(*self.users.values(), name="Dice night")
        else:
            self.channels["friends"] = fake.user_install_guild("Friends", "friends")
        self.token_places = {self.channels["friends"]}
        self.say(f"friends is a {friends}")
        self.dice = ScriptedDice(fallback=RandomDice(random.Random(seed)))
        self.clock = FakeClock()
        self.database = self.env.data / f"lifecycle-{self.env.examples}.sqlite3"
        await self._start_bot()
        self.referee = Referee(self.bot)  # type: ignore[arg-type]
        await self.quiesce()

    async def _start_bot(self) -> None:
        settings_ = bot_settings(self.database, self.env.data)
        bot = YahtzeeBot(settings_, dice=self.dice, clock=self.clock, guild_ready_timeout=0.05)
        assert self.fake is not None
        self.fake.watch()
        self.earlier = set(self.fake.interactions)  # this life is sent none of them
        task = launch(bot)
        self.bot, self.task = bot, task
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()
        assert ready in done, "the bot did not become ready"
        assert self.fake is not None
        await self.fake.settle()

    async def _stop_bot(self) -> None:
        """Stop the bot as a process that ends would: with its pending timers (a reminder's
        ``delete_after``), which would otherwise fire in a later step or example."""
        bot, task = self.bot, self.task
        if bot is not None:
            await bot.close()
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        leftovers = [
            t
            for t in asyncio.all_tasks()
            if t is not asyncio.current_task()
            and "/discord/" in getattr(getattr(t.get_coro(), "cr_code", None), "co_filename", "")
        ]
        for leftover in leftovers:
            leftover.cancel()
        await asyncio.gather(*leftovers, return_exceptions=True)

    def teardown(self) -> None:
        async def down() -> None:
            with contextlib.suppress(Exception):
                await self._stop_bot()
            if self.fake is not None:
                self.unwatch()
                with contextlib.suppress(Exception):
                    await self.fake.stop()

        try:
            self.run(down())
        finally:
            self.patch.undo()

    @property
    def games(self) -> Any:
        assert self.bot is not None
        return self.bot.games

    # -- steps --------------------------------------------------------------------------------

    def act(self, what: str, work: Callable[[], Awaitable[None]]) -> None:
        """One step: ``work`` (which sets ``actor``), then wait until the bot is quiet."""
        self.env.steps += 1
        self.env.rules[what] += 1
        self.recorder.step += 1
        self.actor, self.kind, self.source = "", what, None
        live = ", ".join(f"{t.game} {t.status}{' daily' if t.daily else ''} in #{t.channel}"
                         for t in self.targets)  # fmt: skip
        self.say(f"{what} ({live or 'nothing live'})")
        self.sent = []
        self.problems = []
        # token places the bot may have acted in unseen, with no interaction since
        self.behind_at_start = {
            place
            for place in self.token_places
            if self.unseen.get(place, -1) > self.touched.get(place, -1)
        }
        self.run(self._act(work))

    async def _act(self, work: Callable[[], Awaitable[None]]) -> None:
        await work()
        await self.quiesce()
        self.env.unseen += sum(
            self.touched.get(place) == self.recorder.step for place in self.behind_at_start
        )

    def say(self, text: str) -> None:
        note(f"  step {self.recorder.step}: {text}")
        if VERBOSE:
            print(f"  step {self.recorder.step}: {text}")

    def problem(self, name: str, text: str) -> None:
        self.problems.append((name, f"step {self.recorder.step}: {text}"))

    def user(self, name: str) -> dict[str, Any]:
        return self.users[name]

    def name_of(self, player: str | int) -> str:
        return self.names.get(str(player), f"computer {player}")

    def fits(self, test: Callable[[Target], bool]) -> list[Target]:
        return [t for t in self.targets if test(t)]

    def choose(self, where: int, test: Callable[[Target], bool]) -> Target | None:
        """The ``where``-th live lobby or game that passes ``test``."""
        fits = self.fits(test)
        return fits[where % len(fits)] if fits else None

    def free(self) -> list[str]:
        return [name for name in CHANNELS if name not in self.busy]

    async def send(
        self,
        name: str,
        message: dict[str, Any],
        custom_id: str,
        values: list[str] | None = None,
        quiet: bool = True,
    ) -> Interaction:
        """A click by ``name`` on a control the message shows (a choice in a select)."""
        fake = self.fake
        assert fake is not None
        await self.referee.snapshot()
        if quiet:
            answer = await fake.forge(self.user(name), message, custom_id, values, ANSWER_WITHIN)
        else:
            answer = await fake.press(self.user(name), message, custom_id, values)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(answer.responded.wait(), ANSWER_WITHIN + 0.5)
        await self.after(name, f"{kind_of(custom_id)} {values or ''}".strip(), answer)
        return answer

    async def slash(
        self, name: str, channel: str, command: str, **options: Any
    ) -> Interaction | None:
        """A command by ``name`` in ``channel`` (None: Discord would not offer it to them
        there, e.g. to Carol where only an install of her own brings the app)."""
        fake = self.fake
        assert fake is not None
        await self.referee.snapshot()
        try:
            answer = await fake.slash(
                self.user(name), self.channels[channel], command, timeout=ANSWER_WITHIN, **options
            )
        except NotOffered as why:
            self.say(f"{name}: /{command} is not offered in #{channel}: {why}")
            return None
        await self.after(name, f"/{command} {options or ''}".strip(), answer)
        return answer

    async def after(self, name: str, what: str, answer: Interaction) -> None:
        self.sent.append((what, answer))
        if answer.channel_id in self.token_places:
            self.touched[answer.channel_id] = self.recorder.step
        self.actor = self.actor or name
        shown = answer.ephemeral_text.replace("\n", " ")[:100]
        self.say(f"{name}: {what} -> {answer.response_type} {shown!r}")
        try:
            await self.referee.check(self.user(name), {self.user("Ann")["id"]})
        except AssertionError as exc:
            self.problem("referee", f"{name}: {what}: {exc!r}")

    def board_of(self, row: GameRow, name: str | None = None) -> dict[str, Any] | None:
        """The game's board as the player sees it: the message on record, or the newest
        message with its Roll button (that ``name`` can see)."""
        fake = self.fake
        assert fake is not None
        boards = []
        for message in fake.messages.values():
            if not any(kind_of(i) == "roll" and game_in(i) == row.id for i in self.ids(message)):
                continue
            if message.get("flags", 0) & EPHEMERAL and name is not None:
                owner = self.owner(message["id"])
                if owner is not None and owner != self.user(name)["id"]:
                    continue
            boards.append(message)
        recorded = [m for m in boards if m["id"] == str(row.board_message_id)]
        return (recorded or sorted(boards, key=lambda m: int(m["id"])) or [None])[-1]

    def owner(self, message_id: str) -> str | None:
        """Who sees an ephemeral message: the user of the interaction it answered."""
        fake = self.fake
        assert fake is not None
        for record in fake.interactions.values():
            made = [record.original_message_id] + [m["id"] for m in record.followups]
            if message_id in made:
                return str(record.user["id"])
        return None

    @staticmethod
    def ids(message: dict[str, Any]) -> list[str]:
        return [str(c.get("custom_id") or "") for c in components(message)]

    def usable(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The controls a person can use on a message (enabled; a menu with choices), but
        Play again (a rule of its own: a rematch pings)."""
        return [
            c
            for c in components(message)
            if not c.get("disabled")
            and (c["type"] == 2 or c.get("options"))
            and c.get("custom_id")
            and kind_of(c["custom_id"]) != "again"
        ]

    def control(self, message: dict[str, Any], kind: str) -> dict[str, Any] | None:
        return next((c for c in components(message) if kind_of(c.get("custom_id") or "") == kind),
                    None)  # fmt: skip

    def lobby_message(self, row: GameRow) -> dict[str, Any] | None:
        fake = self.fake
        assert fake is not None
        message = fake.messages.get(str(row.board_message_id))
        if message is not None and self.control(message, "lobby:join") is not None:
            return message
        lobbies = [
            m
            for m in fake.channel_messages(str(row.board_channel_id))
            if any(kind_of(i).startswith("lobby:") and game_in(i) == row.id for i in self.ids(m))
        ]
        return lobbies[-1] if lobbies else None

    def who(self, actor: str, usual: str | int | None) -> str:
        """The acting person: ``actor``, or for "usual" the person named by ``usual``."""
        if actor != "usual":
            return actor
        name = self.names.get(str(usual)) if usual is not None else None
        return name or "Ann"

    # -- the places only tokens reach -----------------------------------------------------------

    def bot_age(self, record: Interaction) -> float:
        """Seconds of the bot's clock since ``record`` was sent (the test moves the bot's
        clock and the fake's together; the fake's also runs with real time)."""
        assert self.fake is not None
        return self.fake.skew - (record.issued - record.created)

    def kept(self, channel_id: str) -> list[Interaction]:
        """The interactions from a token place whose tokens the running bot may use: of the
        newest ``TOKENS_KEPT`` it was sent (since it last started), those answered and
        younger than ``TOKEN_USED_FOR``."""
        assert self.fake is not None
        sent = [
            r
            for r in self.fake.interactions.values()
            if r.channel_id == channel_id and r.delivered and r.id not in self.earlier
        ]
        return [
            r
            for r in sent[-TOKENS_KEPT:]
            if r.responded.is_set() and self.bot_age(r) < TOKEN_USED_FOR
        ]

    def fresh(self, channel_id: str) -> bool:
        """Whether the bot can show anything in the channel now without a click."""
        return channel_id not in self.token_places or bool(self.kept(channel_id))

    def reachable(self, message_id: str, channel_id: str) -> bool:
        """Whether the bot can edit the message now: always where it may post, in a token
        place if a token it keeps made or showed it."""
        if channel_id not in self.token_places:
            return True
        return any(
            r.original_message_id == message_id or any(m["id"] == message_id for m in r.followups)
            for r in self.kept(channel_id)
        )

    # -- waiting for the bot --------------------------------------------------------------------

    async def quiesce(self) -> None:
        """Wait until the bot is quiet and no computer seat is to move; a computer seat that
        does not move for ``STALL`` seconds is a problem (nobody clicks, the clock stands)."""
        fake = self.fake
        assert fake is not None
        await fake.settle()
        seen: dict[int, tuple[int, float]] = {}
        give_up = time.monotonic() + 90
        while True:
            waiting = []
            for row in await self.bot.store.read(plans.live_games):
                if row.status != GameStatus.ACTIVE or row.state is None:
                    continue
                if not self.fresh(str(row.board_channel_id)):
                    continue  # nothing can be shown there now: its computers wait for a click
                game = Game.from_dict(row.state)
                if not game.is_over and is_bot(game.current_player_id):
                    waiting.append((row, game))
            if not waiting:
                break
            now = time.monotonic()
            stalled = []
            for row, game in waiting:
                first = seen.get(row.id)
                if first is None or first[0] != row.version:
                    seen[row.id] = (row.version, now)
                elif now - first[1] > STALL:
                    stalled.append((row, game))
            if stalled or now > give_up:
                for row, game in stalled or waiting:
                    self.problem(
                        "computer_moves",
                        f"game {row.id}: {game.current_seat.name} (a computer) is to move in "
                        f"turn {game.turn_number} and has not moved for {STALL:.0f} s",
                    )
                break
            await asyncio.sleep(0.02)
        await fake.settle()
        await self.shown()
        await self.refresh()

    async def shown(self, patience: float = 3.0) -> None:
        """Give the bot a moment to show what it has saved (a board it is still drawing, a
        final message): every live game's board, every finished game's final message."""
        fake = self.fake
        assert fake is not None
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            behind = await self.games.store.read(plans.games_missing_final_message)
            for row in await self.bot.store.read(plans.live_games):
                turn = Game.from_dict(row.state).turn_number if row.state is not None else None
                if row.board_message_id is None or (turn is not None and row.board_turn != turn):
                    behind.append(row)
            behind = [r for r in behind if self.fresh(str(r.board_channel_id))]
            if not behind:
                break
            await asyncio.sleep(0.02)
        await fake.settle()

    async def refresh(self) -> None:
        """The live lobbies and games, and the controls people see, for the preconditions."""
        fake = self.fake
        assert fake is not None
        by_id = {cid: name for name, cid in self.channels.items()}
        targets, busy = [], set()
        for row in await self.bot.store.read(plans.live_games):
            channel = by_id.get(str(row.channel_id), CHANNELS[0])
            mover = rolled = False
            if row.status == GameStatus.ACTIVE and row.state is not None:
                game = Game.from_dict(row.state)
                mover = not game.is_over and not is_bot(game.current_player_id)
                rolled = game.dice is not None
            computers = any(uid < 0 for uid, _ in row.players)
            daily = row.daily is not None
            targets.append(
                Target(row.id, channel, str(row.status), daily, mover, rolled, computers)
            )
            if not daily:
                busy.add(channel)
        self.targets = sorted(targets, key=lambda t: t.game)
        self.busy = busy
        dailies = {t.game for t in self.targets if t.daily}
        undos, finals = [], []
        for message in sorted(fake.messages.values(), key=lambda m: int(m["id"])):
            private = message.get("flags", 0) & EPHEMERAL
            for custom_id in self.ids(message):
                if kind_of(custom_id) == "undo" and (not private or game_in(custom_id) in dailies):
                    undos.append(message["id"])
                if kind_of(custom_id) == "again" and not private:
                    finals.append(message["id"])
        self.undos, self.finals = undos, finals
        live = {t.game for t in self.targets if not t.daily}
        self.pokeable = [
            message["id"]
            for message in sorted(fake.messages.values(), key=lambda m: -int(m["id"]))
            if not message.get("flags", 0) & EPHEMERAL
            and any(game_in(i) in live for i in self.ids(message))
            and self.usable(message)
        ]
        today = self.clock().date().isoformat()
        path = Path(self.database)
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            tried = {str(r[0]) for r in db.execute(
                "SELECT host_id FROM games WHERE daily = ?", (today,))}  # fmt: skip
        self.tries = [n for n in PLAYERS if self.users[n]["id"] not in tried]

    # -- rules: lobbies --------------------------------------------------------------------------

    @precondition(lambda self: self.free())
    @rule(where=WHERE, actor=SEATED)
    def open_lobby(self, where: int, actor: str) -> None:
        channel = self.free()[where % len(self.free())]

        async def work() -> None:
            await self.slash(self.who(actor, None), channel, "yahtzee start")

        self.act("start-lobby", work)

    def lobby_rule(
        self, what: str, where: int, actor: str, usual: Callable[[GameRow], str | int | None],
        click: Callable[[GameRow, dict[str, Any], str], Awaitable[None]],
        test: Callable[[Target], bool] = lambda t: True,
    ) -> None:  # fmt: skip
        target = self.choose(where, lambda t: t.status == "lobby" and test(t))
        assert target is not None

        async def work() -> None:
            row = await self.bot.store.read(plans.get_game, target.game)
            if row is None or row.status != GameStatus.LOBBY:
                return
            message = self.lobby_message(row)
            if message is None:
                self.say(f"no lobby message for game {row.id}")
                return
            await click(row, message, self.who(actor, usual(row)))

        self.act(what, work)

    def lobby_button(
        self, action: str
    ) -> Callable[[GameRow, dict[str, Any], str], Awaitable[None]]:
        async def click(row: GameRow, message: dict[str, Any], name: str) -> None:
            button = self.control(message, f"lobby:{action}")
            if button is not None:
                await self.send(name, message, button["custom_id"])

        return click

    @staticmethod
    def host(row: GameRow) -> int:
        return row.host_id

    def newcomer(self, row: GameRow) -> str | None:
        seated = {uid for uid, _ in row.players}
        newcomers = [self.users[n]["id"] for n in PLAYERS if int(self.users[n]["id"]) not in seated]
        return newcomers[0] if newcomers else None

    def lobbies(self) -> bool:
        return bool(self.fits(lambda t: t.status == "lobby"))

    @precondition(lambda self: self.lobbies())
    @rule(where=WHERE, actor=SEATED)
    def join(self, where: int, actor: str) -> None:
        self.lobby_rule("join", where, actor, self.newcomer, self.lobby_button("join"))

    @precondition(lambda self: self.lobbies())
    @rule(where=WHERE, actor=ANYONE)
    def leave_lobby(self, where: int, actor: str) -> None:
        self.lobby_rule("leave-lobby", where, actor, self.host, self.lobby_button("leave"))

    @precondition(lambda self: self.lobbies())
    @rule(where=WHERE, actor=ANYONE, level=st.sampled_from(["optimal", "casual", "winning"]))
    def add_bot(self, where: int, actor: str, level: str) -> None:
        self.lobby_rule("add-bot", where, actor, self.host, self.lobby_button(f"bot-{level}"))

    @precondition(lambda self: self.fits(lambda t: t.status == "lobby" and t.computers))
    @rule(where=WHERE, actor=ANYONE, seat=st.integers(0, 7))
    def remove_bot(self, where: int, actor: str, seat: int) -> None:
        async def click(row: GameRow, message: dict[str, Any], name: str) -> None:
            removers = [
                c
                for c in components(message)
                if (c.get("custom_id") or "").startswith(("yz:lobby", "yz:unseat"))
                and "remove" in f"{c.get('label') or ''} {c.get('placeholder') or ''}".lower()
            ]
            if not removers:
                self.say("the lobby offers no Remove bot control (rule skipped)")
                return
            remover = removers[seat % len(removers)]
            values = None
            if remover["type"] == 3:
                options = [o["value"] for o in remover.get("options", [])]
                values = [options[seat % len(options)]] if options else None
            await self.send(name, message, remover["custom_id"], values)

        self.lobby_rule("remove-bot", where, actor, self.host, click, lambda t: t.computers)

    @precondition(lambda self: self.lobbies())
    @rule(where=WHERE, actor=ANYONE)
    def hints(self, where: int, actor: str) -> None:
        self.lobby_rule("hints", where, actor, self.host, self.lobby_button("hints"))

    @precondition(lambda self: self.lobbies())
    @rule(where=WHERE, actor=SEATED)
    def start_game(self, where: int, actor: str) -> None:
        self.lobby_rule("start-game", where, actor, self.host, self.lobby_button("start"))

    @precondition(lambda self: self.lobbies())
    @rule(where=WHERE, actor=ANYONE)
    def cancel(self, where: int, actor: str) -> None:
        self.lobby_rule("cancel", where, actor, self.host, self.lobby_button("cancel"))

    # -- rules: turns ----------------------------------------------------------------------------

    def playable(self, rolled: bool = False) -> list[Target]:
        return self.fits(lambda t: t.person_to_move and (t.rolled or not rolled))

    def turn_rule(
        self, what: str, where: int, actor: str,
        click: Callable[[GameRow, Game, dict[str, Any], str], Awaitable[None]],
        rolled: bool = False,
    ) -> None:  # fmt: skip
        targets = self.playable(rolled)
        target = targets[where % len(targets)]

        async def work() -> None:
            row = await self.bot.store.read(plans.get_game, target.game)
            if row is None or row.status != GameStatus.ACTIVE or row.state is None:
                return
            game = Game.from_dict(row.state)
            name = self.who(actor, game.current_player_id)
            board = self.board_of(row, name)
            if board is None:
                self.say(f"{name} sees no board for game {row.id}")
                return
            await click(row, game, board, name)

        self.act(what, work)

    @precondition(lambda self: self.playable())
    @rule(where=WHERE, actor=ANYONE)
    def roll(self, where: int, actor: str) -> None:
        async def click(row: GameRow, game: Game, board: dict[str, Any], name: str) -> None:
            button = self.control(board, "roll")
            if button is not None and not button.get("disabled"):
                await self.send(name, board, button["custom_id"])

        self.turn_rule("roll", where, actor, click)

    @precondition(lambda self: self.playable(rolled=True))
    @rule(where=WHERE, actor=ANYONE, die=st.integers(0, 4))
    def hold(self, where: int, actor: str, die: int) -> None:
        async def click(row: GameRow, game: Game, board: dict[str, Any], name: str) -> None:
            dice = [c for c in components(board) if kind_of(c.get("custom_id") or "") == "die"]
            if len(dice) > die and not dice[die].get("disabled"):
                await self.send(name, board, dice[die]["custom_id"])

        self.turn_rule("hold", where, actor, click, rolled=True)

    async def score_on(self, board: dict[str, Any], name: str, box: int, quiet: bool) -> bool:
        select = self.control(board, "box")
        if select is None or select.get("disabled") or not select.get("options"):
            return False
        options = [o["value"] for o in select["options"]]
        await self.send(name, board, select["custom_id"], [options[box % len(options)]], quiet)
        return True

    @precondition(lambda self: self.playable(rolled=True))
    @rule(where=WHERE, actor=ANYONE, box=st.integers(0, 12))
    def score(self, where: int, actor: str, box: int) -> None:
        async def click(row: GameRow, game: Game, board: dict[str, Any], name: str) -> None:
            await self.score_on(board, name, box, True)

        self.turn_rule("score", where, actor, click, rolled=True)

    @precondition(lambda self: self.playable())
    @rule(where=WHERE, turns=st.sampled_from([1, 4, 40]), box=st.integers(0, 12))
    def play_turns(self, where: int, turns: int, box: int) -> None:
        """The players to move play ``turns`` turns briskly: roll once, score a box."""
        targets = self.playable()
        target = targets[where % len(targets)]

        async def work() -> None:
            for played in range(turns):
                row = await self.bot.store.read(plans.get_game, target.game)
                if row is None or row.status != GameStatus.ACTIVE or row.state is None:
                    return
                game = Game.from_dict(row.state)
                if game.is_over or is_bot(game.current_player_id):
                    return
                name = self.who("usual", game.current_player_id)
                board = self.board_of(row, name)
                if board is None:
                    return
                roll = self.control(board, "roll")
                if game.dice is None and roll is not None and not roll.get("disabled"):
                    await self.send(name, board, roll["custom_id"], quiet=False)
                    board = self.fake.messages.get(board["id"], board)  # type: ignore[union-attr]
                if not await self.score_on(board, name, box + 5 * played, False):
                    return
                await self.next_turn(row.id, game.turn_number)

        self.act("play-turns", work)

    async def next_turn(self, game_id: int, turn: int) -> None:
        """Wait (briefly) until the next board is up, the game is over, or a computer plays."""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            row = await self.bot.store.read(plans.get_game, game_id)
            if row is None or row.status != GameStatus.ACTIVE or row.state is None:
                break
            game = Game.from_dict(row.state)
            if is_bot(game.current_player_id):
                await self.quiesce()
                break
            if game.turn_number > turn and row.board_turn == game.turn_number:
                break
            await asyncio.sleep(0.01)

    @precondition(lambda self: self.undos)
    @rule(where=WHERE, actor=ANYONE)
    def undo(self, where: int, actor: str) -> None:
        message_id = self.undos[-1 - where % len(self.undos)]  # the newest first
        fake = self.fake
        assert fake is not None

        async def work() -> None:
            message = fake.messages.get(message_id)
            button = self.control(message, "undo") if message is not None else None
            if message is None or button is None:
                return
            usual: str | None = None
            row = await self.bot.store.read(plans.get_game, game_in(button["custom_id"]) or 0)
            if row is not None and row.state is not None:
                usual = Game.from_dict(row.state).undo_player_id
            await self.send(self.who(actor, usual), message, button["custom_id"])

        self.act("undo", work)

    @precondition(lambda self: self.pokeable)
    @rule(which=st.integers(0, 20), actor=ANYONE, control=st.integers(0, 24))
    def poke(self, which: int, actor: str, control: int) -> None:
        """Anyone clicks any control on a message of a live lobby or game: the newest first,
        or an older one (a board whose turn is over, which where only tokens reach may keep
        its buttons: then it must still answer, and bring the game on)."""
        message_id = self.pokeable[which % len(self.pokeable)]
        fake = self.fake
        assert fake is not None

        async def work() -> None:
            message = fake.messages.get(message_id)
            usable = self.usable(message) if message is not None else []
            if actor == "Carol":  # she never plays: she takes no seat
                usable = [c for c in usable if kind_of(c["custom_id"]) != "lobby:join"]
            if message is None or not usable:
                return
            chosen = usable[control % len(usable)]
            values = None
            if chosen["type"] == 3:
                options = [o["value"] for o in chosen["options"]]
                values = [options[control % len(options)]]
            usual = "Ann"
            row = await self.bot.store.read(plans.get_game, game_in(chosen["custom_id"]) or 0)
            if row is not None:
                usual = self.who("usual", self.mover_or_host(row))
            name = usual if actor == "usual" else actor
            self.say(f"poke: message {message_id}, {chosen['custom_id']}")
            await self.send(name, message, chosen["custom_id"], values)

        self.act("poke", work)

    # -- rules: leaving, kicking, rejoining, ending ----------------------------------------------

    def mover_or_host(self, row: GameRow) -> str | int | None:
        if row.state is not None and row.status == GameStatus.ACTIVE:
            game = Game.from_dict(row.state)
            if not is_bot(game.current_player_id):
                return game.current_player_id
            return next((s.player_id for s in game.seats if not is_bot(s.player_id)
                         and not s.left), None)  # fmt: skip
        return row.host_id

    @precondition(lambda self: self.targets)
    @rule(where=WHERE, actor=ANYONE)
    def slash_leave(self, where: int, actor: str) -> None:
        """``/yahtzee leave`` where a lobby or game (or a daily challenge) was started."""
        target = self.choose(where, lambda t: True)
        assert target is not None

        async def work() -> None:
            row = await self.bot.store.read(plans.get_game, target.game)
            usual = self.mover_or_host(row) if row is not None else None
            await self.slash(self.who(actor, usual), target.channel, "yahtzee leave")

        self.act("slash-leave", work)

    def games_here(self) -> list[Target]:
        return self.fits(lambda t: t.status == "active" and not t.daily)

    def games_by_click(self) -> list[Target]:
        return self.fits(lambda t: t.status == "active" and not t.daily and t.channel == "friends")

    @precondition(lambda self: self.games_by_click())
    @rule(where=WHERE, actor=ANYONE, confirm=st.booleans())
    def click_leave(self, where: int, actor: str, confirm: bool) -> None:
        """Where only those who added the app are offered /yahtzee (``friends``), leaving by
        clicks, as Carol could: Scorecard on the game's board, Leave under the private card
        it answers with, then (or not) Leave the game."""
        target = self.games_by_click()[where % len(self.games_by_click())]
        fake = self.fake
        assert fake is not None

        async def work() -> None:
            row = await self.bot.store.read(plans.get_game, target.game)
            if row is None:
                return
            name = self.who(actor, self.mover_or_host(row))
            board = self.board_of(row, name)
            card = self.control(board, "card") if board is not None else None
            if board is None or card is None:
                return
            asked = (await self.send(name, board, card["custom_id"])).response
            leave = self.control(asked, "quit") if asked is not None else None
            if asked is None or leave is None:
                return
            await self.send(name, asked, leave["custom_id"])
            question = fake.messages.get(asked["id"])
            sure = self.control(question, "quit-ok") if question is not None else None
            if confirm and question is not None and sure is not None:
                await self.send(name, question, sure["custom_id"])

        self.act("click-leave", work)

    @precondition(lambda self: self.games_here())
    @rule(where=WHERE, actor=ANYONE, kicked=st.sampled_from(("away", *PLAYERS, "Carol")))
    def kick(self, where: int, actor: str, kicked: str) -> None:
        target = self.games_here()[where % len(self.games_here())]

        async def work() -> None:
            row = await self.bot.store.read(plans.get_game, target.game)
            name = kicked if kicked != "away" else "Bob"
            if kicked == "away" and row is not None and row.state is not None:
                seats = Game.from_dict(row.state).seats
                away = next((s.player_id for s in seats if s.away and not is_bot(s.player_id)),
                            None)  # fmt: skip
                name = self.who("usual", away or self.users["Bob"]["id"])
            who = self.who(actor, self.users["Ann"]["id"])
            await self.slash(who, target.channel, "yahtzee kick", player=self.user(name))

        self.act("kick", work)

    @precondition(lambda self: self.games_here())
    @rule(where=WHERE, actor=ANYONE)
    def rejoin(self, where: int, actor: str) -> None:
        target = self.games_here()[where % len(self.games_here())]

        async def work() -> None:
            row = await self.bot.store.read(plans.get_game, target.game)
            usual: str | None = None
            if row is not None and row.state is not None:
                seats = Game.from_dict(row.state).seats
                usual = next((s.player_id for s in seats if s.away and not is_bot(s.player_id)),
                             None)  # fmt: skip
            await self.slash(self.who(actor, usual), target.channel, "yahtzee rejoin")

        self.act("rejoin", work)

    @precondition(lambda self: self.busy)
    @rule(where=WHERE, actor=ANYONE, confirm=st.booleans())
    def end(self, where: int, actor: str, confirm: bool) -> None:
        channel = sorted(self.busy)[where % len(self.busy)]

        async def work() -> None:
            name = self.who(actor, self.users["Ann"]["id"])
            answer = await self.slash(name, channel, "yahtzee end")
            asked = answer.response if answer is not None else None
            button = self.control(asked, "end") if asked is not None else None
            if confirm and asked is not None and button is not None:
                await self.send(name, asked, button["custom_id"])

        self.act("end", work)

    # -- rules: play again, the daily challenge, settings, time, restarts --------------------------

    @precondition(lambda self: self.finals)
    @rule(where=WHERE, actor=ANYONE, which=st.integers(0, 3))
    def play_again(self, where: int, actor: str, which: int) -> None:
        message_id = self.finals[-1 - where % len(self.finals)]  # the newest first
        fake = self.fake
        assert fake is not None

        async def work() -> None:
            message = fake.messages.get(message_id)
            button = self.control(message, "again") if message is not None else None
            if message is None or button is None:
                return
            self.source = game_in(button["custom_id"])
            row = await self.bot.store.read(plans.get_game, self.source or 0)
            people = [uid for uid, _ in row.players if uid > 0] if row is not None else []
            usual = people[which % len(people)] if people else None
            await self.send(self.who(actor, usual), message, button["custom_id"])

        self.act("play-again", work)

    @precondition(lambda self: self.tries and not self.fits(lambda t: t.daily))
    @rule(where=WHERE, actor=SEATED)
    def daily(self, where: int, actor: str) -> None:
        """``/yahtzee daily``: a try at today's challenge, by someone who has one left today
        (one try at a time, as the bot shows a try in progress again)."""
        usual = self.users[self.tries[0]]["id"]

        async def work() -> None:
            await self.slash(self.who(actor, usual), CHANNELS[where % len(CHANNELS)],
                             "yahtzee daily")  # fmt: skip

        self.act("daily", work)

    @precondition(lambda self: self.lobbies() and self.policies < 2)  # for the next games
    @rule(policy=st.sampled_from(["skip-seat", "scratch", "play"]))
    def timeout_policy(self, policy: str) -> None:
        self.policies += 1

        async def work() -> None:
            answer = await self.slash("Ann", CHANNELS[0], "yahtzee-admin settings")
            menu = answer.response if answer is not None else None
            if menu is None:
                return
            select = next((c for c in components(menu) if (c.get("custom_id") or "").endswith(
                ":policy")), None)  # fmt: skip
            if select is not None:
                await self.send("Ann", menu, select["custom_id"], [policy])

        self.act("policy", work)

    @precondition(lambda self: self.choices < 4)
    @rule(
        who=st.sampled_from(PLAYERS),
        command=st.sampled_from(["autoroll", "notify"]),
        setting=st.sampled_from(["on", "off", "server"]),
    )
    def own_choice(self, who: str, command: str, setting: str) -> None:
        """A player's own choices, at any moment: turns that start rolled, turn notices."""
        self.choices += 1
        value = "on" if command == "notify" and setting == "server" else setting

        async def work() -> None:
            await self.slash(who, CHANNELS[0], f"yahtzee {command}", setting=value)

        self.act("own-choice", work)

    @precondition(lambda self: self.choices < 4)
    @rule()
    def server_autoroll(self) -> None:
        """Ann (Manage Server) switches the server's opening roll, mid-game as it may be."""
        self.choices += 1

        async def work() -> None:
            answer = await self.slash("Ann", CHANNELS[0], "yahtzee-admin settings")
            menu = answer.response if answer is not None else None
            if menu is None:
                return
            switch = next((c for c in components(menu) if (c.get("custom_id") or "").endswith(
                ":autoroll")), None)  # fmt: skip
            if switch is not None:
                await self.send("Ann", menu, switch["custom_id"])

        self.act("server-autoroll", work)

    @precondition(lambda self: (self.targets or self.finals) and self.kind != "time")
    @rule(seconds=st.sampled_from([160, 310, 901, 86_401]))
    def time_passes(self, seconds: int) -> None:
        """The clock moves on (a half-time ping, a turn's limit, a lobby's timeout, a day)
        and the timer ticks (as it does every 5 s)."""

        async def work() -> None:
            self.clock.advance(seconds)
            assert self.bot is not None and self.fake is not None
            self.fake.advance(seconds)  # interaction tokens age by the same time
            for place in self.token_places:
                self.unseen[place] = self.recorder.step
            acted = await self.bot.get_cog("TurnTimers").tick()  # type: ignore[union-attr]
            self.say(f"{seconds} s pass; the timer acted on {acted} games")

        self.act("time", work)

    @precondition(lambda self: self.targets and self.kind != "restart" and self.restarts < 3)
    @rule()
    def restart(self) -> None:
        """The bot stops and starts again on the same file (a deploy, a crash)."""
        self.restarts += 1

        async def work() -> None:
            await self._stop_bot()
            await self._start_bot()
            for place in self.token_places:
                self.unseen[place] = self.recorder.step
            self.referee.bot = self.bot  # type: ignore[assignment]
            self.say("the bot stopped and started again")

        self.act("restart", work)

    # -- invariants ------------------------------------------------------------------------------

    @invariant()
    def product_behaves(self) -> None:
        if self.bot is None:
            return
        self.run(self.check())
        found = [(n, t) for n, t in self.problems if n not in SKIP]
        self.problems = []
        if found:
            raise AssertionError(
                "\n".join(f"[{name}] {INVARIANTS[name]}:\n    {text}" for name, text in found)
            )

    async def check(self) -> None:
        fake = self.fake
        assert fake is not None and self.bot is not None
        for what, answer in self.sent:
            where = f"{what} by {answer.user['global_name']}"
            if answer.error is not None or answer.response_type is None:
                self.problem("answers", f"{where}: {answer.error or 'no answer'}")
            elif answer.answered is not None and answer.answered - answer.created > ANSWER_WITHIN:
                self.problem("answers", f"{where}: answered after {ANSWER_WITHIN} s")
            if answer.callbacks > 1:
                self.problem("answers", f"{where}: answered {answer.callbacks} times")
            if "Something went wrong" in answer.ephemeral_text:
                self.problem("answers", f"{where}: Something went wrong")
        for record in self.env.errors:
            self.problem("errors", f"logged at {record.levelname}: {record.getMessage()}")
        self.env.errors.clear()
        for mistake in fake.mistakes:
            self.problem("errors", f"the fake Discord noted: {mistake}")
        fake.mistakes.clear()
        rows = {
            game_id: await self.bot.store.read(plans.get_game, game_id)
            for game_id in self.all_games()
        }
        for row in rows.values():
            if row is not None:
                await self.check_game(row)
        self.check_pings(rows)
        self.check_notified()
        self.check_truth(rows)
        self.check_daily(rows)
        self.check_places()

    def all_games(self) -> list[int]:
        path = Path(self.database)
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return [r[0] for r in db.execute("SELECT id FROM games ORDER BY id")]

    async def history(self, row: GameRow) -> History | None:
        """The game's turns and desertion, from its move log (cached by version)."""
        known = self.histories.get(row.id)
        if known is not None and known.version == row.version:
            return known
        log = await self.games.store.read(plans.moves, row.id)
        if not any(action == "start" for _, _, action, _, _ in log):
            return None
        found = History(row.version, {(0, str(row.players[0][0]))})

        def watch(entry: Any, game: Game, kept: Any) -> None:
            version, _, action, detail, _ = entry
            if found.deserted is not None and action in COMPUTER_MOVES:
                found.after.append(f"move {version} {action} {detail or ''}".strip())
            if not game.is_over:
                found.turns.add((game.turn_number, game.current_player_id))
                people = [s for s in game.seats if not is_bot(s.player_id)]
                if found.deserted is None and all(s.left or s.away for s in people):
                    found.deserted = version

        try:
            replay(row.players, row.preset, row.timeout_policy, log, watch)
        except AssertionError as exc:
            self.problem("referee", f"game {row.id} does not replay: {exc}")
            return None
        self.histories[row.id] = found
        return found

    async def check_game(self, row: GameRow) -> None:
        """Liveness of one game or lobby."""
        fake = self.fake
        assert fake is not None
        history = await self.history(row)
        if history is not None and history.deserted is not None:
            if history.after:
                self.problem(
                    "deserted",
                    f"game {row.id}: no person was left playing after move {history.deserted}, "
                    f"yet it went on: {', '.join(history.after[:3])}"
                    + (f" (and {len(history.after) - 3} more)" if len(history.after) > 3 else ""),
                )
            elif row.status == GameStatus.ACTIVE:
                self.problem(
                    "deserted",
                    f"game {row.id}: no person is left playing (since move {history.deserted}), "
                    "yet it is still active",
                )
        if row.status == GameStatus.LOBBY:
            seated = [uid for uid, _ in row.players]
            if row.host_id <= 0 or row.host_id not in seated:
                self.problem(
                    "lobby_host",
                    f"lobby {row.id}: its host is {self.name_of(row.host_id)} ({row.host_id}), "
                    f"seated: {[n for _, n in row.players]}",
                )
            if self.lobby_message(row) is None:
                self.problem("live_board", f"lobby {row.id} has no message with Join")
        if row.status != GameStatus.ACTIVE or row.state is None:
            return
        game = Game.from_dict(row.state)
        staying = [int(s.player_id) for s in game.seats if not is_bot(s.player_id) and not s.left]
        if staying and row.host_id not in staying:
            self.problem(
                "lobby_host",
                f"game {row.id}: its host {self.name_of(row.host_id)} has left; still in it: "
                f"{[self.name_of(uid) for uid in staying]}",
            )
        if game.is_over or is_bot(game.current_player_id):
            return  # a computer's turn: see computer_moves
        turn, rolls = game.turn_number, game.rolls_used
        acts = []
        for message in fake.messages.values():
            if message.get("flags", 0) & EPHEMERAL and (
                row.daily is None or self.owner(message["id"]) != game.current_player_id
            ):
                continue  # only a daily challenge's board is private, its player's own
            for control in components(message):
                custom_id = control.get("custom_id") or ""
                parts = custom_id.split(":")
                if kind_of(custom_id) not in ("roll", "box") or parts[2:5] != [
                    str(row.id),
                    str(turn),
                    str(rolls),
                ]:
                    continue
                usable = not control.get("disabled") and (
                    control["type"] == 2 or bool(control.get("options"))
                )
                if usable and (message["id"] == str(row.board_message_id)
                               or row.board_turn != turn):  # fmt: skip
                    acts.append(message["id"])
        channel = str(row.board_channel_id)
        if not acts and self.unseen.get(channel, -1) > self.touched.get(channel, -1):
            # (friends: the clock moved or the bot restarted since anyone there did anything;
            # what came of it is shown at the place's next interaction)
            self.say(f"game {row.id}: no board to act on until the next interaction here")
            return
        if not acts:
            self.problem(
                "live_board",
                f"game {row.id}: {game.current_seat.name} is to move (turn {turn}, roll "
                f"{rolls}) but no message lets them (board on record: {row.board_message_id})",
            )

    def check_pings(self, rows: dict[int, GameRow | None]) -> None:
        """Every ping posted since the last check: for whom, and why."""
        fake = self.fake
        assert fake is not None
        new = self.recorder.order[self.seen_posts :]
        self.seen_posts = len(self.recorder.order)
        for message_id in new:
            posted = self.recorder.posts[message_id]
            if not posted.public or not posted.mentions:
                continue
            who = [self.name_of(u) for u in posted.mentions]
            said = posted.content[:90]
            board = posted.turn() or posted.turn_shown_first()
            unseen = posted.channel in self.behind_at_start and board is not None
            if self.actor == "Carol" and not unseen:
                # (friends: her interaction may be the first since a timer's move nobody saw,
                # which it then shows: that turn's first ping; pings, below, sees it is one)
                self.problem("carol_pings", f"Carol's {self.kind} pinged {who}: {said!r}")
            if board is None and REMINDER in posted.content:
                link = LINK.search(posted.content)
                linked = self.recorder.posts.get(link.group(1)) if link else None
                board = linked.turn_now() if linked is not None else None
                kind = "reminder"
            else:
                kind = "turn"
            if board is not None:
                game_id, turn = board
                history = self.histories.get(game_id)
                name = "reminders" if kind == "reminder" else "pings"
                for user in posted.mentions:
                    self.counted[(game_id, turn, user, kind)] += 1
                    times = self.counted[(game_id, turn, user, kind)]
                    if history is not None and (turn, user) not in history.turns:
                        self.problem(name, f"game {game_id}: {self.name_of(user)} pinged "
                                     f"({kind}) for turn {turn}, not theirs: {said!r}")  # fmt: skip
                    if times > 1:
                        self.problem(name, f"game {game_id}: {self.name_of(user)} pinged "
                                     f"({kind}) for turn {turn} {times}x: {said!r}")  # fmt: skip
                continue
            if self.kind == "play-again" and self.source is not None:
                source = rows.get(self.source)
                played = {str(uid) for uid, _ in source.players} if source is not None else set()
                for user in posted.mentions:
                    self.rematches[(self.source, user)] += 1
                    times = self.rematches[(self.source, user)]
                    if user not in played:
                        self.problem("rematch_pings", f"a rematch of game {self.source} pinged "
                                     f"{self.name_of(user)}, who did not play it")  # fmt: skip
                    if times > 1:
                        self.problem("rematch_pings", f"rematches of game {self.source} have "
                                     f"pinged {self.name_of(user)} {times} times")  # fmt: skip
                continue
            self.problem("pings", f"{self.kind} pinged {who} for no turn: {said!r}")

    def check_notified(self) -> None:
        """Every time a public message shows a person's turn ("<@them>, your turn"), that
        turn's player was notified by a new message: an edit notifies nobody, and where only
        tokens reach (friends) a board posted as an edit of an older follow-up is missed."""
        for message_id in self.recorder.order:
            posted = self.recorder.posts[message_id]
            first = self.seen_shown.get(message_id, 0)
            self.seen_shown[message_id] = len(posted.shown)
            if not posted.public:
                continue
            for shown in posted.shown[first:]:
                said = TURN_TEXT.match(shown.content)
                turn = None
                for custom_id in shown.ids:
                    parts = custom_id.split(":")
                    if kind_of(custom_id) == "roll" and len(parts) > 3:
                        turn = (int(parts[2]), int(parts[3]))
                if said is None or turn is None:
                    continue
                user = said.group(1)
                if self.counted[(turn[0], turn[1], user, "turn")] == 0:
                    where = "places" if posted.channel in self.token_places else "pings"
                    self.problem(
                        where,
                        f"game {turn[0]}: message {message_id} shows {self.name_of(user)}'s "
                        f"turn {turn[1]} in step {shown.step}, but no new message notified them",
                    )

    def check_places(self) -> None:
        """Where only tokens reach: no channel route (Discord: 403 50001), no sixth
        follow-up of an interaction, no token used after 15 minutes (the fake's clock)."""
        fake = self.fake
        assert fake is not None
        new = fake.requests[self.checked_requests :]
        self.checked_requests = len(fake.requests)
        foreign = set(fake.foreign_guilds)
        for method, path, _body in new:
            channel = re.match(r"/channels/(\d+)", path)
            guild = re.match(r"/guilds/(\d+)", path)
            if (channel and channel.group(1) in self.token_places) or (
                guild and guild.group(1) in foreign
            ):
                self.problem("places", f"{method} {path}: a route the place forbids")
            token = WEBHOOK.fullmatch(path)
            if method == "POST" and token is not None:
                record = fake.by_token.get(token.group(1))
                if record is None or record.channel_id not in self.token_places:
                    continue
                self.followups[path] += 1
                if self.followups[path] > FOLLOWUPS:
                    who = record.user["global_name"]
                    self.problem("places", f"{record.kind} {record.id} by {who} asked for "
                                 f"follow-up {self.followups[path]}")  # fmt: skip
        for token in self.recorder.expired:
            record = fake.by_token.get(token)
            age = fake.now() - record.issued if record is not None else 0
            self.problem("places", f"a token used {age:.0f} s after its interaction")
        self.recorder.expired.clear()

    def check_truth(self, rows: dict[int, GameRow | None]) -> None:
        """What looks live in the channels is live, once."""
        fake = self.fake
        assert fake is not None
        boards: dict[int, list[str]] = {}
        lobbies: dict[int, list[str]] = {}
        for channel in fake.order:
            for message in fake.channel_messages(channel):
                if not self.reachable(message["id"], channel):
                    continue  # friends: no token reaches it; it keeps its look
                posted = self.recorder.posts.get(message["id"])
                kinds = {kind_of(i): game_in(i) for i in self.ids(message)}
                content = (message.get("content") or "").lower()
                reminder = REMINDER in content
                says_turn = "your turn" in content and not reminder
                games = {g for g in kinds.values() if g is not None}
                if not games and posted is not None:
                    games = set(posted.games)
                turn: tuple[int, int] | None = None
                if reminder:
                    link = LINK.search(message.get("content") or "")
                    linked = self.recorder.posts.get(link.group(1)) if link else None
                    turn = linked.turn_now() if linked is not None else None
                    games = {turn[0]} if turn is not None else games
                looks_board = "roll" in kinds or says_turn
                looks_lobby = "lobby:join" in kinds or "lobby:start" in kinds
                if not (looks_board or looks_lobby or reminder):
                    continue
                what = "a reminder" if reminder else ("a lobby" if looks_lobby else "a board")
                for game_id in games:
                    row = rows.get(game_id)
                    status = row.status if row is not None else "unknown"
                    shown = f"message {message['id']} ({what}: {content[:60]!r})"
                    if status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
                        self.problem("reminders" if reminder else "truth", f"game {game_id} is "
                                     f"{status}, yet {shown} still looks live")  # fmt: skip
                        continue
                    if looks_lobby:
                        lobbies.setdefault(game_id, []).append(message["id"])
                        if status == GameStatus.ACTIVE:
                            self.problem("truth", f"game {game_id} has started, yet {shown} "
                                         "still offers Join or Start")  # fmt: skip
                    if looks_board:
                        boards.setdefault(game_id, []).append(message["id"])
                    if reminder and row is not None and row.state is not None and turn:
                        now = Game.from_dict(row.state).turn_number
                        if turn[1] != now:
                            self.problem("reminders", f"game {game_id} is at turn {now}, yet "
                                         f"{shown} still reminds of turn {turn[1]}")  # fmt: skip
        for game_id, found in boards.items():
            if len(found) > 1:
                self.problem("truth", f"game {game_id} has {len(found)} messages that look like "
                             f"its live board: {found}")  # fmt: skip
        for game_id, found in lobbies.items():
            if len(found) > 1:
                self.problem("truth", f"lobby {game_id} shows Join in {len(found)} messages")

    def check_daily(self, rows: dict[int, GameRow | None]) -> None:
        """No daily challenge's dice in a public message (its final result aside): neither
        on a message of its own, nor in words on a message of no game while it is played."""
        step = self.recorder.step
        for game_id, row in rows.items():
            if row is None or row.daily is None:
                continue
            window = self.dailies.setdefault(game_id, [step, step, 0])
            if not window[2]:  # still live at the last check: this step counts
                window[1] = step
                window[2] = int(not row.is_live)
            first, last = window[:2]
            for posted in self.recorder.posts.values():
                own = game_id in posted.games
                if not posted.public or posted.id == str(row.final_message_id):
                    continue
                if not own and (
                    posted.games
                    or posted.step > last
                    or posted.channel not in (str(row.channel_id), str(row.board_channel_id))
                ):
                    continue  # another game's message, one posted after it, or elsewhere
                for shown in posted.shown:
                    faces = [f for f in shown.faces if f.isdigit()]
                    if not (own and faces and any(game_in(i) == game_id for i in shown.ids)):
                        faces = []
                    text = DICE_TEXT.search(f"{shown.content}\n{shown.text}")
                    if text is not None and not own and not first <= shown.step <= last:
                        text = None
                    if faces or text is not None:
                        seen = "-".join(faces) if faces else text.group(0)  # type: ignore[union-attr]
                        self.problem(
                            "daily_private",
                            f"daily challenge {game_id} ({row.status}): public message "
                            f"{posted.id} showed dice ({seen}) in step {shown.step}",
                        )
                        break


def test_lifecycle(
    tmp_path: Path, official_values: Table, to_win: Distributions, capsys: Any
) -> None:
    """Hypothesis plays with lobbies and games; the product behaves after every step."""
    data = tmp_path / "data"
    data.mkdir()
    place_table(official_values, data, to_win)
    errors: list[logging.LogRecord] = []
    handler = ErrorLog(errors)
    logging.getLogger().addHandler(handler)
    started = time.monotonic()
    with asyncio.Runner() as runner:
        Lifecycle.env = env = Env(runner, data, errors)
        try:
            run_state_machine_as_test(
                Lifecycle,
                settings=settings(
                    max_examples=EXAMPLES,
                    stateful_step_count=STEPS,
                    derandomize=True,
                    database=None,
                    deadline=None,
                    print_blob=False,
                    suppress_health_check=list(HealthCheck),
                    phases=PHASES,
                ),
            )
        finally:
            logging.getLogger().removeHandler(handler)
            with capsys.disabled():
                print(
                    f"\nlifecycle: {env.examples} runs, {env.steps} steps in "
                    f"{time.monotonic() - started:.1f} s; rules: {dict(env.rules)}; "
                    f"friends' first interactions after the clock moved or a restart: {env.unseen}"
                )
