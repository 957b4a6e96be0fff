"""The clicks' router: every control's custom_id reads back as the same typed click, every
control has exactly one handler on the bot's cogs (which takes it as its type), and an id
no control has is refused politely."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import UTC, datetime
from typing import Any, cast, get_type_hints

import discord
import pytest
from discord.ext import commands

from bot.app import EXTENSIONS
from cogs.shared.clicks import Clicks
from cogs.shared.controls import ButtonControl, Control, Pattern, SelectControl, Snowflake, handles
from cogs.shared.feature import Feature
from cogs.shared.router import Router


def _kinds(base: type[Control]) -> list[type[Control]]:
    """Every kind of control the bot defines (the abstract bases aside)."""
    found = []
    for sub in base.__subclasses__():
        if sub.key and sub.__module__.startswith("cogs."):
            found.append(sub)
        found += _kinds(sub)
    return found


#: The bot's extensions, imported as it loads them (each feature's controls come with them).
MODULES = [importlib.import_module(name) for name in EXTENSIONS]
ALL = _kinds(Control)


def _cogs() -> list[object]:
    """The cogs the bot's feature extensions add (``bot.app.EXTENSIONS``, after the core),
    never loaded (nothing they are built with is used to find their handlers)."""
    found: dict[str, type[commands.Cog]] = {}
    for module in MODULES:
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, commands.Cog)
                and value.__module__.startswith("cogs.")
                and not value.__module__.startswith(("cogs.shared", "cogs.core"))
            ):
                found[value.__qualname__] = value
    return [kind.__new__(kind) for kind in found.values()]


def _router() -> Router:
    """The router the loaded extensions make, of every feature's handlers."""
    return Router(_cogs())


def test_every_feature_is_a_cog_of_its_own() -> None:
    """Six features and the admin's, each its own cog loaded by its own extension (no
    composed class of them all), and the turn's timer; the features' cogs are ``Feature``s."""
    cogs = _cogs()
    names = sorted(type(cog).__name__ for cog in cogs)
    assert names == ["Admin", "CoachingFeature", "DailyFeature", "LobbyFeature",
                     "ResultsFeature", "SeatsFeature", "TurnFeature", "TurnTimers"]  # fmt: skip
    assert all(isinstance(cog, Feature) for cog in cogs if type(cog).__name__.endswith("Feature"))


def test_a_router_forgets_an_unloaded_features_clicks() -> None:
    """A feature unloaded: its clicks find no handler; loaded again, they do."""
    cogs = _cogs()
    router = Router(cogs)
    lobby = next(cog for cog in cogs if type(cog).__name__ == "LobbyFeature")
    assert router.route("yz:lobby:join:12") is not None
    router.remove(lobby)
    assert router.route("yz:lobby:join:12") is None
    router.add(lobby)
    assert router.route("yz:lobby:join:12") is not None


def _sample(cls: type[Control]) -> Control:
    """A click on ``cls`` with a value of each field that its pattern accepts, worked out
    from the pattern: 123 for a number, the first word a choice allows."""
    hints = get_type_hints(cls, include_extras=True)
    values = []
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        hint = hints[field.name]
        (pattern,) = [m for m in hint.__metadata__ if isinstance(m, Pattern)]
        for text in ("123", "4", "0", *pattern.regex.split("|"), "high", "high:all:2"):
            text = text.replace("\\", "")
            if re.fullmatch(pattern.regex, text):
                values.append(hint.__origin__(text))
                break
        else:
            raise AssertionError(f"no sample for {cls.__name__}.{field.name}")
    return cls(*values)


def test_the_controls_are_found() -> None:
    keys = {cls.key for cls in ALL}
    assert {"lobby", "lobby:join", "lobby:leave", "lobby:start", "lobby:cancel", "lobby:hints",
            "lobby:unseat", "die", "roll", "box", "card", "cards", "undo", "hint", "analysis",
            "again", "replay", "end", "leave", "lb", "share", "lbreset", "set",
            "rules", "board", "quit", "quit-ok", "rejoin"} == keys  # fmt: skip
    assert len(ALL) == 33  # "set": four menus, two switches; "lobby": six and a computer


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_every_control_reads_back_its_own_custom_id(cls: type[Control]) -> None:
    """Its custom_id (within Discord's 100 characters) routes to an equal click of the same
    class, fields typed as declared; no other kind of control claims it."""
    click = _sample(cls)
    custom_id = click.custom_id
    assert custom_id.startswith(f"yz:{cls.key}:") and len(custom_id) <= 100
    routed = _router().route(custom_id)
    assert routed == click and type(routed) is cls
    assert [c for c in ALL if c is not cls and c.parse(custom_id) is not None] == []


def test_a_click_is_typed() -> None:
    from cogs.turn.controls import DieButton

    die = _router().route("yz:die:12:3:2:4")
    assert die == DieButton(game_id=12, turn=3, rolls=2, index=4)
    assert isinstance(die, DieButton) and die.game() == 12 and isinstance(die.turn, int)


def test_every_control_has_exactly_one_handler_that_takes_its_type() -> None:
    """The bot's cogs handle every control, each once (a second handler is refused when the
    router is made), and each handler takes the click as its control's class."""
    router = _router()
    assert router.controls == frozenset(ALL)
    for cog in _cogs():
        for name, method in vars_of(type(cog)).items():
            control = getattr(method, "__handles_control__", None)
            if control is None:
                continue
            hints = get_type_hints(method)
            params = [p for p in hints if p != "return"]
            assert hints[params[1]] is control, f"{name} takes {hints[params[1]]}"
            expected = 3 if issubclass(control, SelectControl) else 2  # interaction, click(, value)
            assert len(params) == expected, name


def vars_of(cls: type) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        found.update(vars(base))
    return found


class _Twice(ButtonControl, key="twice-test"):
    game_id: Snowflake


def test_a_control_with_two_handlers_is_refused() -> None:
    class One:
        @handles(_Twice)
        async def first(self, interaction: discord.Interaction[Any], click: _Twice) -> None:
            pass

    class Two:
        @handles(_Twice)
        async def second(self, interaction: discord.Interaction[Any], click: _Twice) -> None:
            pass

    with pytest.raises(TypeError, match="_Twice has two handlers"):
        Router([One(), Two()])


def test_each_bot_has_its_own_router() -> None:
    """Two bots in one process: each router calls its own cogs' handlers."""
    seen: list[tuple[str, int]] = []

    class Cog:
        def __init__(self, name: str) -> None:
            self.name = name

        @handles(_Twice)
        async def clicked(self, interaction: discord.Interaction[Any], click: _Twice) -> None:
            seen.append((self.name, click.game_id))

    first, second = Router([Cog("first")]), Router([Cog("second")])
    interaction = _interaction("yz:twice-test:7")

    async def both() -> None:
        click = first.route("yz:twice-test:7")
        assert click is not None
        await first.dispatch(interaction, click)  # type: ignore[arg-type]
        await second.dispatch(_interaction("yz:twice-test:8"), _Twice(8))  # type: ignore[arg-type]

    asyncio.run(both())
    assert seen == [("first", 7), ("second", 8)]


@pytest.mark.parametrize(
    "custom_id",
    ["", "yz", "yz:die", "yz:die:1:2:3:9", "yz:nope:1", "xx:roll:1:2:3", "yz:roll:1:2:3:4",
     "yz:card:" + "9" * 21, "yz:roll:1:2:10", "yz:lobby:dance:1", "yz:set:1:colour"],
)  # fmt: skip
def test_ids_no_control_has_are_not_routed(custom_id: str) -> None:
    """A forged or mangled id finds no handler."""
    assert _router().route(custom_id) is None


class _Response:
    def __init__(self) -> None:
        self.sent: list[tuple[str | None, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, content: str | None = None, **fields: Any) -> _Sent:
        self.sent.append((content, fields))
        return _Sent(1)


@dataclass
class _Sent:
    """What discord.py hands back for an answer: its message's id."""

    message_id: int


@dataclass
class _Flags:
    ephemeral: bool = False


@dataclass
class _Message:
    """A message as a click carries it: here, one that shows no control."""

    id: int = 5
    components: list[Any] = dataclass_field(default_factory=list)
    flags: _Flags = dataclass_field(default_factory=_Flags)


@dataclass
class _User:
    id: int = 4


@dataclass
class _Client:
    shard_count: int = 1


@dataclass
class _Click:
    """A click as discord.py hands it over (``discord.Interaction``'s attributes of the same
    names that the gate reads), in a server that added the bot."""

    custom_id: str
    id: int = 3
    type: discord.InteractionType = discord.InteractionType.component
    created_at: datetime = dataclass_field(default_factory=lambda: datetime.now(UTC))
    extras: dict[str, Any] = dataclass_field(default_factory=dict)
    response: _Response = dataclass_field(default_factory=_Response)
    message: _Message = dataclass_field(default_factory=_Message)
    client: _Client = dataclass_field(default_factory=_Client)
    guild_id: int = 1
    channel_id: int = 2
    user: _User = dataclass_field(default_factory=_User)
    locale: discord.Locale = discord.Locale.american_english
    context: discord.app_commands.AppCommandContext = dataclass_field(
        default_factory=lambda: discord.app_commands.AppCommandContext(guild=True)
    )

    @property
    def data(self) -> dict[str, Any]:
        return {"custom_id": self.custom_id, "component_type": 2}

    def is_guild_integration(self) -> bool:
        return True


def _interaction(custom_id: str) -> Any:
    """A click as discord.py hands it over, on a message that shows no control."""
    return _Click(custom_id)


class _Routes:
    """The publisher's routes as the gate reaches them first: every interaction noted."""

    def note(self, *place: Any) -> None:
        return None


class _Publisher:
    routes = _Routes()


@pytest.mark.parametrize("custom_id", ["yz:nope:1", "yz:roll:1:2:10", "hello"])
def test_a_forged_click_is_refused_politely(custom_id: str) -> None:
    """The gate answers an id no control has with one private sentence, and calls nothing."""
    interaction = _interaction(custom_id)
    gate = Clicks(cast(Any, None), cast(Any, _Publisher()), _router())
    asyncio.run(gate.on_interaction(interaction))
    assert interaction.response.sent == [
        ("That control is not one of mine; nothing changed.", {"ephemeral": True})
    ]


def test_every_lobby_action_and_setting_is_a_kind_of_its_own_with_its_old_id() -> None:
    """Each lobby button and each server setting is its own control (its own handler: no
    switch on a field whose unhandled value did the wrong thing), and each still carries the
    custom_id that lobbies and settings messages already posted carry."""
    from cogs.admin import controls as admin
    from cogs.lobby import controls as lobby

    lobby_kinds = [c for c in ALL if c.__module__ == lobby.__name__ and c.key.startswith("lobby")]
    ids = {_sample(c).custom_id for c in lobby_kinds}
    assert ids == {
        "yz:lobby:join:123",
        "yz:lobby:leave:123",
        "yz:lobby:start:123",
        "yz:lobby:cancel:123",
        "yz:lobby:hints:123",
        "yz:lobby:unseat:123",
        "yz:lobby:bot-optimal:123",
    }  # fmt: skip  (the sample of a computer's level is the first: optimal)
    assert {f"yz:lobby:bot-{level}:9" for level in ("casual", "winning")} == {
        lobby.AddComputerButton(f"bot-{level}", 9).custom_id for level in ("casual", "winning")
    }
    settings = [c for c in ALL if c.__module__ == admin.__name__ and c.key == "set"]
    assert {_sample(c).custom_id for c in settings} == {
        f"yz:set:123:{field}"
        for field in ("preset", "turn", "policy", "language", "threads", "autoroll")
    }
    router = _router()
    for kind in [*lobby_kinds, *settings]:
        routed = router.route(_sample(kind).custom_id)
        assert type(routed) is kind  # one kind reads it back, and one handler takes it


def test_what_each_control_is_to_the_clicks_gate_is_declared_on_it() -> None:
    """The gate reads a control's role from the control (no list in clicks.py): a board's
    moves say the turn their board shows; the roles are the ones the gate was built for
    (a board's dice, Roll and menu; Scorecard and Hint on boards; Undo; the lobby)."""
    roles = {
        cls.key.split(":")[0]: (cls.turn_move, cls.on_board, cls.live, cls.takes_back)
        for cls in ALL
        if cls.turn_move or cls.on_board or cls.live or cls.takes_back
    }
    lobby = {(c.turn_move, c.on_board, c.live, c.takes_back) for c in ALL if c.key[:5] == "lobby"}
    assert lobby == {(False, False, True, False)}  # every lobby button alike
    assert roles == {
        "die": (True, True, True, False), "roll": (True, True, True, False),
        "box": (True, True, True, False), "undo": (True, False, True, True),
        "card": (False, True, True, False), "hint": (False, True, True, False),
        "lobby": (False, False, True, False),
    }  # fmt: skip
    for cls in ALL:
        sample = _sample(cls)
        says_turn = sample.board_turn() is not None
        assert says_turn == (cls.turn_move and cls.on_board), cls.__name__
        if says_turn:
            assert sample.board_turn() == sample.turn  # type: ignore[attr-defined]
