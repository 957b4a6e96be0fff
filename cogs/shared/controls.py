"""The base of every button and select the bot posts: restart-proof components.

Each component's custom_id carries everything its click needs, so it keeps working after a
restart. A component is three things: its custom_id (a key and typed fields), how it looks
(its constructor; for the live board's dice, Roll and box menu, a ``payload`` of the
component's JSON, built without discord.py's item objects because every click redraws
them), and which cog method a click calls with the fields as keyword arguments. The base
class ``Control`` does the rest: the template, and parsing a custom_id back into fields.
Each feature defines its own controls (``cogs/<feature>/controls.py``, with a table of
their custom_ids).

Clicks are routed here (``route``), not by discord.py's DynamicItem dispatch, which rebuilt
a ``View`` of the whole message on every click to find the one item clicked. Every view the
bot sends is a ``Controls`` (or the board's ``Payload``), which discord.py never keeps or
dispatches.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

import discord

from bot import logs
from bot.games import begin as begin_request

I = TypeVar("I", bound=discord.ui.Item[Any])  # noqa: E741 - the item a component wraps


#: A custom_id field: the pattern it matches and how its text becomes a value.
Field = tuple[str, Callable[[str], Any]]


ID: Field = (r"\d{1,20}", int)  # a Discord snowflake has at most 20 digits


DIGIT: Field = (r"\d", int)


def choice(*words: str) -> Field:
    """A field that is one of ``words``."""
    return ("|".join(re.escape(w) for w in words), str)


class Control(discord.ui.DynamicItem[I], template=r"(?!)"):
    """A component whose custom_id is ``yz:<key>:<field>:...`` and whose click calls
    ``handler`` on the cog named ``cog`` with the fields as keyword arguments."""

    key: ClassVar[str]
    fields: ClassVar[dict[str, Field]]
    handler: ClassVar[str]
    cog: ClassVar[str]
    kind: ClassVar[int] = discord.ComponentType.button.value  # what a click on it says it is

    def __init_subclass__(
        cls, *, key: str, fields: dict[str, Field], handler: str, cog: str = "Yahtzee"
    ) -> None:
        cls.key, cls.fields, cls.handler, cls.cog = key, fields, handler, cog
        if not key:  # an abstract kind (SelectControl): a template that matches nothing
            super().__init_subclass__(template=r"(?!)")
            return
        parts = "".join(f":(?P<{name}>{pattern})" for name, (pattern, _) in fields.items())
        super().__init_subclass__(template=f"yz:{key}{parts}")
        _ROUTES.setdefault(key, []).append(cls)

    def __init__(self, item: I, **values: Any) -> None:
        super().__init__(item)
        self.values = values

    @classmethod
    def make_id(cls, **values: Any) -> str:
        """The custom_id for these field values."""
        return ":".join(["yz", cls.key, *(str(values[name]) for name in cls.fields)])

    @classmethod
    def parse(cls, custom_id: str) -> dict[str, Any] | None:
        """The field values in ``custom_id``, or None if it is not one of this kind's."""
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is None:
            return None
        return {name: convert(match[name]) for name, (_, convert) in cls.fields.items()}

    @classmethod
    def chosen(cls, data: dict[str, Any]) -> dict[str, Any]:
        """What the click itself adds to the fields (a select's choice), from its data."""
        return {}


#: The kinds of control by key (several kinds may share one: ``set``).
_ROUTES: dict[str, list[type[Control[Any]]]] = {}


def route(custom_id: str) -> tuple[type[Control[Any]], dict[str, Any]] | None:
    """Which kind of control ``custom_id`` belongs to, and its field values; None for an id
    no control of this bot has (a forged or mangled one)."""
    parts = custom_id.split(":", 2)
    if len(parts) < 2 or parts[0] != "yz":
        return None
    for cls in _ROUTES.get(parts[1], ()):
        values = cls.parse(custom_id)
        if values is not None:
            return cls, values
    return None


async def dispatch(
    interaction: discord.Interaction[Any], cls: type[Control[Any]], values: dict[str, Any]
) -> None:
    """Call the handler of a click on ``cls`` with its fields (and a select's choice)."""
    begin_request(interaction.id)  # this task handles this click: its change is made once
    if "game_id" in values:
        logs.bind(game_id=values["game_id"])
    cog = interaction.client.get_cog(cls.cog)
    if cog is None:  # pragma: no cover - the extension that makes the control loads the cog
        raise RuntimeError(f"the {cls.cog} cog is not loaded")
    data: dict[str, Any] = dict(interaction.data or {})
    await getattr(cog, cls.handler)(interaction, **values, **cls.chosen(data))


class Controls(discord.ui.View):
    """A message's components, sent as they are: discord.py neither keeps nor dispatches
    them (``route`` does; a kept view would live as long as its message)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        # discord.py keeps every view not finished that a ``send_message`` carries (dispatchable
        # or not): finished from the start, it keeps none.
        return True


class Payload(Controls):
    """Components given as Discord's JSON (the live board's: built anew on every click)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__()
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


def action_row(*components: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": discord.ComponentType.action_row.value, "components": list(components)}


class Layout(discord.ui.LayoutView):
    """A Components V2 message (text, pictures and controls laid out together, shown to
    members who turned embeds off too), sent as it is: like ``Controls``, never kept or
    dispatched by discord.py."""

    def __init__(self, *items: discord.ui.Item[Any]) -> None:
        super().__init__(timeout=None)
        for item in items:
            self.add_item(item)

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True


Button = discord.ui.Button[Any]


Select = discord.ui.Select[Any]


class SelectControl(Control[Select], key="", fields={}, handler=""):
    """A select: its click also passes the chosen ``value`` ("" if none)."""

    kind = discord.ComponentType.string_select.value

    @classmethod
    def chosen(cls, data: dict[str, Any]) -> dict[str, Any]:
        values = data.get("values") or []
        return {"value": str(values[0]) if values else ""}


GAME: dict[str, Field] = {"game_id": ID}


TURN: dict[str, Field] = {"game_id": ID, "turn": ID, "rolls": DIGIT}


def game_button(
    cls: type[Control[Button]], game_id: int, label: str, style: discord.ButtonStyle,
    emoji: str | None = None, disabled: bool = False, row: int | None = None,
) -> Button:  # fmt: skip
    return Button(
        label=label, emoji=emoji, style=style, custom_id=cls.make_id(game_id=game_id),
        disabled=disabled, row=row,
    )  # fmt: skip
