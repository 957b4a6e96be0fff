"""The base of every button and select the bot posts: restart-proof components.

A control's custom_id carries everything its click needs, so it keeps working after a
restart. A kind of control is a frozen dataclass derived from ``ButtonControl`` or
``SelectControl``, named with a ``key``; its fields are what its custom_id carries, each
with the pattern it matches (``Snowflake``, ``Digit``, ``Word`` or ``one_of(...)``), so that
``RollButton(game_id, turn, rolls).custom_id`` is ``yz:roll:<game>:<turn>:<rolls>`` and
``RollButton.parse`` reads it back, typed. Its look is built by its own methods (``button``
for a discord.py item, ``payload`` for the live board's JSON, built without discord.py's
items because every click redraws them).

A click reaches the method its feature marked with ``@handles(RollButton)``, which takes the
click as that type (a select's handler also takes the chosen ``value``): ``cogs.shared.router``
finds the handlers on a bot's cogs, and every view the bot sends is a ``Controls``, a
``Layout`` or the board's ``Payload``, which discord.py never keeps or dispatches. The
custom_id patterns are compiled here, from the fields; nothing of discord.py's own routing
(``DynamicItem``) is used. Each feature keeps a table of its custom_ids in its
``controls.py``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import (
    Annotated,
    Any,
    ClassVar,
    Self,
    TypeAlias,
    TypeVar,
    dataclass_transform,
    get_type_hints,
    overload,
)

import discord

PREFIX = "yz"
HANDLES = "__handles_control__"  # a handler's mark: the kind of control it handles


@dataclasses.dataclass(frozen=True, slots=True)
class Pattern:
    """What a custom_id field matches: a regular expression (its text is the value)."""

    regex: str


def one_of(*words: str) -> Pattern:
    """A field that is one of ``words``."""
    return Pattern("|".join(re.escape(word) for word in words))


Snowflake: TypeAlias = Annotated[int, Pattern(r"\d{1,20}")]  # an id: at most 20 digits
Digit: TypeAlias = Annotated[int, Pattern(r"\d")]
Word: TypeAlias = Annotated[str, Pattern(r"[a-z]+")]


@dataclass_transform()
class Control:
    """A kind of component and a click on one: a frozen dataclass of the fields its
    custom_id carries, ``yz:<key>:<field>:...``."""

    key: ClassVar[str] = ""
    component_type: ClassVar[int]  # what a click on it says it is
    #: What a control is to the clicks' gate (``Clicks``), declared by each control (a new
    #: one says it here, in its own class: no list elsewhere to extend):
    #: a move of a turn (a board's die, Roll and box menu; an Undo): on a replaced copy of a
    #: daily challenge's private board, refused;
    turn_move: ClassVar[bool] = False
    #: a control of a board: where only clicks reach, its click on a board left behind
    #: brings the board back (a turn's move) or retires that board first (the others);
    on_board: ClassVar[bool] = False
    #: on a live game's messages (its lobby, its boards, an Undo): where only clicks reach,
    #: its click on a game that is over shows the end;
    live: ClassVar[bool] = False
    #: an Undo: where only clicks reach, one that can no longer undo loses it at its click.
    takes_back: ClassVar[bool] = False
    pattern: ClassVar[re.Pattern[str]]
    #: the fields in custom_id order, and how each one's text becomes its value
    parts: ClassVar[tuple[tuple[str, Callable[[str], Any]], ...]] = ()

    def __init_subclass__(cls, *, key: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclasses.dataclass(frozen=True)(cls)
        cls.key = key
        if not key:  # an abstract kind (ButtonControl, SelectControl)
            return
        hints = get_type_hints(cls, include_extras=True)
        parts, regex = [], [re.escape(f"{PREFIX}:{key}")]
        for field in dataclasses.fields(cls):  # type: ignore[arg-type]
            hint = hints[field.name]
            (pattern,) = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Pattern)]
            parts.append((field.name, hint.__origin__))
            regex.append(f":(?P<{field.name}>{pattern.regex})")
        cls.parts = tuple(parts)
        cls.pattern = re.compile("".join(regex))

    @property
    def custom_id(self) -> str:
        """The custom_id that carries this control's fields."""
        return ":".join([PREFIX, self.key, *(str(getattr(self, name)) for name, _ in self.parts)])

    @classmethod
    def parse(cls, custom_id: str) -> Self | None:
        """The control ``custom_id`` names, or None if it is not one of this kind's."""
        match = cls.pattern.fullmatch(custom_id)
        if match is None:
            return None
        return cls(*(convert(match[name]) for name, convert in cls.parts))

    def board_turn(self) -> int | None:
        """The turn a board this control is on shows (None: it says none)."""
        return None

    def game(self) -> int | None:
        """The game a click on it is about, if it is a game's control."""
        game_id = getattr(self, "game_id", None)  # (a field of most controls)
        return game_id if isinstance(game_id, int) else None


class ButtonControl(Control):
    """A button: its handler takes the click."""

    component_type = discord.ComponentType.button.value


class SelectControl(Control):
    """A select: its handler takes the click and the chosen ``value`` ("" if none)."""

    component_type = discord.ComponentType.string_select.value


I = TypeVar("I", bound=ButtonControl)  # noqa: E741 - a kind of button
M = TypeVar("M", bound=SelectControl)  # a kind of menu
S = TypeVar("S")  # the class whose method handles it
ButtonHandler: TypeAlias = Callable[[S, discord.Interaction[Any], I], Awaitable[None]]
SelectHandler: TypeAlias = Callable[[S, discord.Interaction[Any], M, str], Awaitable[None]]


@overload
def handles(
    control: type[M],
) -> Callable[[SelectHandler[S, M]], SelectHandler[S, M]]: ...
@overload
def handles(
    control: type[I],
) -> Callable[[ButtonHandler[S, I]], ButtonHandler[S, I]]: ...
def handles(control: type[Control]) -> Callable[[Any], Any]:
    """Mark a method as the handler of clicks on ``control`` (typed: it takes the click as
    that class; a select's handler, the chosen value too). A bot's ``Router`` finds it."""

    def mark(handler: Any) -> Any:
        setattr(handler, HANDLES, control)
        return handler

    return mark


def handled(method: object) -> type[Control] | None:
    """The kind of control ``method`` was marked to handle, if any."""
    control = getattr(method, HANDLES, None)
    return control if isinstance(control, type) and issubclass(control, Control) else None


class _Unkept:
    """What makes a view sent as it is: discord.py neither keeps nor dispatches it (the router
    does; a kept view would live as long as its message)."""

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        # discord.py keeps every view not finished that a ``send_message`` carries (dispatchable
        # or not): finished from the start, it keeps none.
        return True


class Controls(_Unkept, discord.ui.View):
    """A message's components, sent as they are (never kept or dispatched by discord.py)."""

    def __init__(self, *items: discord.ui.Item[Any]) -> None:
        super().__init__(timeout=None)
        for item in items:
            self.add_item(item)


class Payload(Controls):
    """Components given as Discord's JSON (the live board's: built anew on every click)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__()
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


def action_row(*components: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": discord.ComponentType.action_row.value, "components": list(components)}


class Layout(_Unkept, discord.ui.LayoutView):
    """A Components V2 message (text, pictures and controls laid out together, shown to
    members who turned embeds off too), sent as it is: like ``Controls``, never kept or
    dispatched by discord.py."""

    def __init__(self, *items: discord.ui.Item[Any]) -> None:
        super().__init__(timeout=None)
        for item in items:
            self.add_item(item)


Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]


class GameButton(ButtonControl):
    """A button about a whole game (its Scorecard, Hint, Analysis ...): its id carries the
    game's alone."""

    game_id: Snowflake

    def button(
        self, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None, disabled: bool = False, row: int | None = None,
    ) -> Button:  # fmt: skip
        return Button(
            label=label, emoji=emoji, style=style, custom_id=self.custom_id, disabled=disabled,
            row=row,
        )  # fmt: skip
