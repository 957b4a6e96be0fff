"""Every button and select the bot posts: restart-proof components.

Each component's custom_id carries everything its click needs, so it keeps working after a
restart. A component is three things: its custom_id (a key and typed fields), how it looks
(its constructor; for the live board's dice, Roll and box menu, a ``payload`` of the
component's JSON, built without discord.py's item objects because every click redraws
them), and which cog method a click calls with the fields as keyword arguments. The base
class ``Control`` does the rest: the template, and parsing a custom_id back into fields.

Clicks are routed here (``route``), not by discord.py's DynamicItem dispatch, which rebuilt
a ``View`` of the whole message on every click to find the one item clicked. Every view the
bot sends is a ``Controls`` (or the board's ``Payload``), which discord.py never keeps or
dispatches.

============================================================  =====================================
custom_id                                                     component
============================================================  =====================================
``yz:lobby:<action>:<game>``                                  lobby: join, leave, start, cancel,
                                                              bot-optimal, bot-casual, bot-winning,
                                                              hints, unseat (the last bot)
``yz:die:<game>:<turn>:<rolls>:<index>``                      hold or release die ``index`` (0-4)
``yz:roll:<game>:<turn>:<rolls>``                             roll the dice not held
``yz:box:<game>:<turn>:<rolls>``                              the select of the boxes to score
``yz:card:<game>``                                            the clicker's scorecard (private)
``yz:cards:<game>``                                           the menu of every player's card
``yz:hint:<game>``                                            the best choices (private)
``yz:undo:<game>:<turn>``                                     take back the scoring of ``turn``
``yz:analysis:<game>``                                        a player's report card (private)
``yz:again:<game>``                                           a new lobby inviting the players
``yz:replay:<game>``                                          a daily challenge, turn by turn
``yz:end:<game>``                                             confirm ending the game
``yz:leave:<game>``                                           confirm leaving a daily challenge
``yz:lb:<kind>:<period>:<page>:<step>``                       a leaderboard's Previous / Next
``yz:share:lb:<kind>:<period>:<page>``, ``yz:share:stats:<user>``  Share a private answer
``yz:lbreset:<guild>``                                        confirm a leaderboard reset (admin)
``yz:set:<guild>:<field>``                                    a server setting's select (admin)
``yz:set:<guild>:threads``                                    games in threads on/off (admin)
============================================================  =====================================

``turn`` is the number of turns completed in the game and ``rolls`` the rolls used this
turn, so a click on an older board, or a second click on Roll, is recognised and refused
politely instead of being applied to the wrong turn. ``tests/cogs/test_components.py`` checks
that this table names every component and that each one reads back its own custom_id.

To add a button: a class here (key, fields, handler, constructor) and a method of that name
on the cog; list the class in ``GAME_COMPONENTS`` or ``ADMIN_COMPONENTS`` below, which the
tests walk (defining the class is what lets ``route`` find it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

import discord

from bot import logs
from bot.engine import ROLLS_PER_TURN
from bot.games import begin as begin_request

from .emojis import DiceFaces

LOCK = "\N{LOCK}"
HELD = discord.ButtonStyle.success  # a held die's button
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
        cls, *, key: str, fields: dict[str, Field], handler: str, cog: str = "Clicks"
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
LOBBY_ACTIONS = (
    "join",
    "leave",
    "start",
    "cancel",
    "bot-optimal",
    "bot-casual",
    "bot-winning",
    "hints",
    "unseat",
)


# -- the lobby and the game ----------------------------------------------------------------


class LobbyButton(
    Control[Button],
    key="lobby",
    fields={"action": choice(*LOBBY_ACTIONS), "game_id": ID},
    handler="lobby_action",
):
    """Join, Leave, Start, Cancel, a computer player or the hints switch, on a lobby."""

    def __init__(
        self,
        action: str,
        game_id: int,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        custom_id = self.make_id(action=action, game_id=game_id)
        button = Button(
            label=label or action.title(), style=style, custom_id=custom_id, row=row,
            disabled=disabled,
        )  # fmt: skip
        super().__init__(button, action=action, game_id=game_id)


class DieButton(
    Control[Button],
    key="die",
    fields={**TURN, "index": (r"[0-4]", int)},
    handler="hold_die",
):
    """One die: its face as the label; click to hold or release it."""

    @classmethod
    def payload(
        cls, game_id: int, turn: int, rolls: int, index: int, face: int | None = None,
        held: bool = False, disabled: bool = False, faces: DiceFaces | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        """The button's JSON: the die's face as an emoji when ``faces`` has them (no label:
        the picture says it), else as a number; held: the success style, and a lock."""
        button: dict[str, Any] = {
            "type": discord.ComponentType.button.value,
            "style": (HELD if held else discord.ButtonStyle.secondary).value,
            "custom_id": cls.make_id(game_id=game_id, turn=turn, rolls=rolls, index=index),
            "disabled": disabled,
        }
        emoji = faces.button_emoji(face, held) if faces is not None and face else None
        if emoji is not None:
            button["emoji"] = emoji
            return button
        button["label"] = str(face) if face is not None else "\N{EN DASH}"
        if held:
            button["emoji"] = {"name": LOCK}
        return button


class RollButton(Control[Button], key="roll", fields=TURN, handler="roll_dice"):
    """Roll the dice not held; the label shows the rolls left."""

    @classmethod
    def payload(
        cls, game_id: int, turn: int, rolls: int, left: int = ROLLS_PER_TURN,
        disabled: bool = False, label: str | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        return {
            "type": discord.ComponentType.button.value,
            "style": discord.ButtonStyle.primary.value,
            "label": label or f"Roll ({left} left)",
            "emoji": {"name": "\N{GAME DIE}"},
            "custom_id": cls.make_id(game_id=game_id, turn=turn, rolls=rolls),
            "disabled": left == 0 or disabled,
        }


class BoxSelect(SelectControl, key="box", fields=TURN, handler="score_box"):
    """The boxes these dice may be scored in now, each with its points."""

    @classmethod
    def payload(
        cls, game_id: int, turn: int, rolls: int,
        options: list[discord.SelectOption] | None = None,
        waiting: str = "Roll first, then pick a box",
        placeholder: str = "Pick a box to score",
        empty: str = "Roll first",
    ) -> dict[str, Any]:  # fmt: skip
        usable = bool(options)
        choices = options or [discord.SelectOption(label=empty, value="none")]
        return {
            "type": discord.ComponentType.string_select.value,
            "custom_id": cls.make_id(game_id=game_id, turn=turn, rolls=rolls),
            "placeholder": placeholder if usable else waiting,
            "options": [option.to_dict() for option in choices],
            "min_values": 1,
            "max_values": 1,
            "disabled": not usable,
        }


def _game_button(
    cls: type[Control[Button]], game_id: int, label: str, style: discord.ButtonStyle,
    emoji: str | None = None, disabled: bool = False, row: int | None = None,
) -> Button:  # fmt: skip
    return Button(
        label=label, emoji=emoji, style=style, custom_id=cls.make_id(game_id=game_id),
        disabled=disabled, row=row,
    )  # fmt: skip


class ScorecardButton(Control[Button], key="card", fields=GAME, handler="show_scorecard"):
    """The clicker's own scorecard (or the current player's, for a spectator), private."""

    def __init__(self, game_id: int, label: str = "Scorecard") -> None:
        button = _game_button(type(self), game_id, label, discord.ButtonStyle.secondary, row=1)
        super().__init__(button, game_id=game_id)


class CardSelect(SelectControl, key="cards", fields=GAME, handler="show_card_of"):
    """On a private scorecard: every seat of the game, to see another player's card."""

    def __init__(
        self, game_id: int, options: list[discord.SelectOption] | None = None,
        placeholder: str = "",
    ) -> None:  # fmt: skip
        select = Select(
            custom_id=self.make_id(game_id=game_id),
            options=options or [discord.SelectOption(label="-", value="-")],
            placeholder=placeholder or None,
        )
        super().__init__(select, game_id=game_id)


class HintButton(Control[Button], key="hint", fields=GAME, handler="show_hint"):
    """The best three choices for the player whose turn it is (private)."""

    def __init__(self, game_id: int, label: str = "Hint", disabled: bool = False) -> None:
        button = _game_button(
            type(self), game_id, label, discord.ButtonStyle.secondary,
            "\N{ELECTRIC LIGHT BULB}", disabled, row=1,
        )  # fmt: skip
        super().__init__(button, game_id=game_id)


class UndoButton(
    Control[Button], key="undo", fields={"game_id": ID, "turn": ID}, handler="undo_scoring"
):
    """Take back the scoring shown on this message, until the next roll."""

    def __init__(self, game_id: int, turn: int, label: str = "Undo") -> None:
        button = Button(
            label=label,
            emoji="\N{LEFTWARDS ARROW WITH HOOK}",
            style=discord.ButtonStyle.secondary,
            custom_id=self.make_id(game_id=game_id, turn=turn),
        )
        super().__init__(button, game_id=game_id, turn=turn)


class AnalysisButton(Control[Button], key="analysis", fields=GAME, handler="show_analysis"):
    """A player's report card for the finished game (private)."""

    def __init__(self, game_id: int, label: str = "Analysis") -> None:
        button = _game_button(
            type(self), game_id, label, discord.ButtonStyle.secondary, "\N{BAR CHART}"
        )
        super().__init__(button, game_id=game_id)


class ReplayButton(Control[Button], key="replay", fields=GAME, handler="show_replay"):
    """A finished daily challenge told turn by turn (private)."""

    def __init__(self, game_id: int, label: str = "Replay") -> None:
        button = _game_button(type(self), game_id, label, discord.ButtonStyle.secondary)
        super().__init__(button, game_id=game_id)


class PlayAgainButton(Control[Button], key="again", fields=GAME, handler="play_again"):
    """A new lobby that invites the same players."""

    def __init__(self, game_id: int, label: str = "Play again") -> None:
        button = _game_button(type(self), game_id, label, discord.ButtonStyle.success)
        super().__init__(button, game_id=game_id)


class EndConfirmButton(Control[Button], key="end", fields=GAME, handler="end_confirmed"):
    """Confirms /yahtzee end."""

    def __init__(self, game_id: int, label: str = "End the game") -> None:
        button = _game_button(type(self), game_id, label, discord.ButtonStyle.danger)
        super().__init__(button, game_id=game_id)


class LeaveConfirmButton(Control[Button], key="leave", fields=GAME, handler="leave_confirmed"):
    """Confirms /yahtzee leave of a daily challenge (it counts as the day's try)."""

    def __init__(self, game_id: int, label: str = "Leave the daily challenge") -> None:
        button = _game_button(type(self), game_id, label, discord.ButtonStyle.danger)
        super().__init__(button, game_id=game_id)


# -- leaderboards and stats ----------------------------------------------------------------


class PageButton(
    Control[Button],
    key="lb",
    fields={
        "kind": (r"[a-z]+", str),
        "period": (r"[a-z]+", str),
        "page": ID,
        "step": choice("prev", "next"),
    },
    handler="turn_page",
):
    """Previous or Next on a leaderboard."""

    def __init__(
        self,
        kind: str,
        period: str,
        page: int,
        step: str,
        disabled: bool = False,
        label: str | None = None,
    ) -> None:
        values = {"kind": kind, "period": period, "page": page, "step": step}
        button = Button(
            label=label or ("Previous" if step == "prev" else "Next"),
            style=discord.ButtonStyle.secondary,
            custom_id=self.make_id(**values),
            disabled=disabled,
        )
        super().__init__(button, **values)


class ShareButton(
    Control[Button],
    key="share",
    fields={"what": choice("lb", "stats"), "args": (r"[a-z0-9]+(?::[a-z0-9]+)*", str)},
    handler="share",
):
    """Share on a private leaderboard or stats answer: post it for the whole channel.
    ``args`` is ``<kind>:<period>:<page>`` for a leaderboard, ``<user id>`` for stats."""

    def __init__(self, what: str, args: str, label: str = "Share") -> None:
        button = Button(
            label=label,
            emoji="\N{SPEAKING HEAD IN SILHOUETTE}",
            style=discord.ButtonStyle.secondary,
            custom_id=self.make_id(what=what, args=args),
        )
        super().__init__(button, what=what, args=args)


GAME_COMPONENTS: tuple[type[Control[Any]], ...] = (
    LobbyButton, DieButton, RollButton, BoxSelect, ScorecardButton, CardSelect, HintButton,
    UndoButton, AnalysisButton, PlayAgainButton, EndConfirmButton, PageButton, ShareButton,
    ReplayButton, LeaveConfirmButton,
)  # fmt: skip


# -- server administration -----------------------------------------------------------------


class ResetConfirmButton(
    Control[Button], key="lbreset", fields={"guild_id": ID}, handler="reset_confirmed",
    cog="Admin",
):  # fmt: skip
    """Confirms /yahtzee-admin reset-leaderboard."""

    def __init__(self, guild_id: int, label: str = "Reset the leaderboard") -> None:
        button = Button(
            label=label,
            style=discord.ButtonStyle.danger,
            custom_id=self.make_id(guild_id=guild_id),
        )
        super().__init__(button, guild_id=guild_id)


SETTING_ROWS = {"preset": 0, "turn": 1, "policy": 2, "language": 3}


class SettingSelect(
    SelectControl,
    key="set",
    fields={"guild_id": ID, "field": choice(*SETTING_ROWS)},
    handler="change_setting",
    cog="Admin",
):
    """A server setting's menu."""

    def __init__(
        self, guild_id: int, field: str, options: list[discord.SelectOption] | None = None
    ) -> None:
        select = Select(
            custom_id=self.make_id(guild_id=guild_id, field=field),
            options=options or [discord.SelectOption(label="-", value="-")],
            row=SETTING_ROWS[field],
        )
        super().__init__(select, guild_id=guild_id, field=field)


#: The server settings that are switches: their buttons' words.
TOGGLES = {"threads": "Games in threads", "autoroll": "First roll made for the player"}


class ThreadsButton(
    Control[Button],
    key="set",
    fields={"guild_id": ID, "field": choice(*TOGGLES)},
    handler="change_setting",
    cog="Admin",
):
    """Turns a switch setting on or off: thread mode, or each turn's opening roll."""

    def __init__(
        self, guild_id: int, field: str = "threads", on: bool = False, label: str | None = None
    ) -> None:
        button = Button(
            label=label or f"{TOGGLES[field]}: {'on' if on else 'off'}",
            style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
            custom_id=self.make_id(guild_id=guild_id, field=field),
            row=4,
        )
        super().__init__(button, guild_id=guild_id, field=field)

    @classmethod
    def chosen(cls, data: dict[str, Any]) -> dict[str, Any]:
        return {"value": ""}


ADMIN_COMPONENTS: tuple[type[Control[Any]], ...] = (
    ResetConfirmButton, SettingSelect, ThreadsButton,
)  # fmt: skip
