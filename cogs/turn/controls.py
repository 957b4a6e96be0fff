"""A turn's controls: the live board's dice, Roll and box menu, the Scorecard and its menu,
Undo, and the confirmation of /yahtzee end.

==========================================  =====================================================
custom_id                                   component
==========================================  =====================================================
``yz:die:<game>:<turn>:<rolls>:<index>``    hold or release die ``index`` (0-4)
``yz:roll:<game>:<turn>:<rolls>``           roll the dice not held
``yz:box:<game>:<turn>:<rolls>``            the select of the boxes to score
``yz:card:<game>``                          the clicker's scorecard (private)
``yz:cards:<game>``                         the menu of every player's card
``yz:undo:<game>:<turn>``                   take back the scoring of ``turn``
``yz:end:<game>``                           confirm ending the game
``yz:rules:<game>``                         the rules of the game's preset (private)
``yz:board:<game>``                         the game's board again, at the bottom
``yz:quit:<game>``                          leave the game: asks first
``yz:quit-ok:<game>``                       leave the game: confirmed
``yz:rejoin:<game>``                        an away player takes their seat back
==========================================  =====================================================

The last five are for places where most players cannot type ``/yahtzee`` (a group DM: only
those who added the app are offered it): a lobby's Rules, and the row under a private
scorecard (``card_message``) that the Scorecard button answers with there.

``turn`` is the number of turns completed in the game and ``rolls`` the rolls used this
turn, so a click on an older board, or a second click on Roll, is recognised and refused
politely instead of being applied to the wrong turn.
"""

from __future__ import annotations

from typing import Annotated, Any

import discord

from bot.engine import ROLLS_PER_TURN
from cogs.shared.controls import (
    Button,
    ButtonControl,
    Digit,
    GameButton,
    Pattern,
    Select,
    SelectControl,
    Snowflake,
)
from cogs.shared.emojis import DiceFaces

LOCK = "\N{LOCK}"
HELD = discord.ButtonStyle.success  # a held die's button


class DieButton(ButtonControl, key="die"):
    """One die: its face as the label; click to hold or release it."""

    turn_move = on_board = live = True
    game_id: Snowflake
    turn: Snowflake
    rolls: Digit

    def board_turn(self) -> int | None:
        return self.turn

    index: Annotated[int, Pattern(r"[0-4]")]

    def payload(
        self, face: int | None = None, held: bool = False, disabled: bool = False,
        faces: DiceFaces | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        """The button's JSON: the die's face as an emoji when ``faces`` has them (no label:
        the picture says it), else as a number; held: the success style, and a lock."""
        button: dict[str, Any] = {
            "type": discord.ComponentType.button.value,
            "style": (HELD if held else discord.ButtonStyle.secondary).value,
            "custom_id": self.custom_id,
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


class RollButton(ButtonControl, key="roll"):
    """Roll the dice not held; the label shows the rolls left."""

    turn_move = on_board = live = True
    game_id: Snowflake
    turn: Snowflake
    rolls: Digit

    def board_turn(self) -> int | None:
        return self.turn

    def payload(
        self, left: int = ROLLS_PER_TURN, disabled: bool = False, label: str | None = None
    ) -> dict[str, Any]:
        return {
            "type": discord.ComponentType.button.value,
            "style": discord.ButtonStyle.primary.value,
            "label": label or f"Roll ({left} left)",
            "emoji": {"name": "\N{GAME DIE}"},
            "custom_id": self.custom_id,
            "disabled": left == 0 or disabled,
        }


class BoxSelect(SelectControl, key="box"):
    """The boxes these dice may be scored in now, each with its points."""

    turn_move = on_board = live = True
    game_id: Snowflake
    turn: Snowflake
    rolls: Digit

    def board_turn(self) -> int | None:
        return self.turn

    def payload(
        self,
        options: list[discord.SelectOption] | None = None,
        waiting: str = "Roll first, then pick a box",
        placeholder: str = "Pick a box to score",
        empty: str = "Roll first",
    ) -> dict[str, Any]:
        usable = bool(options)
        choices = options or [discord.SelectOption(label=empty, value="none")]
        return {
            "type": discord.ComponentType.string_select.value,
            "custom_id": self.custom_id,
            "placeholder": placeholder if usable else waiting,
            "options": [option.to_dict() for option in choices],
            "min_values": 1,
            "max_values": 1,
            "disabled": not usable,
        }


class ScorecardButton(GameButton, key="card"):
    """The clicker's own scorecard (or the current player's, for a spectator), private."""

    on_board = live = True


class CardSelect(SelectControl, key="cards"):
    """On a private scorecard: every seat of the game, to see another player's card."""

    game_id: Snowflake

    def select(
        self, options: list[discord.SelectOption] | None = None, placeholder: str = ""
    ) -> Select:
        return Select(
            custom_id=self.custom_id,
            options=options or [discord.SelectOption(label="-", value="-")],
            placeholder=placeholder or None,
        )


class UndoButton(ButtonControl, key="undo"):
    """Take back the scoring shown on this message, until the next roll."""

    turn_move = live = takes_back = True
    game_id: Snowflake
    turn: Snowflake

    def button(self, label: str = "Undo") -> Button:
        return Button(
            label=label,
            emoji="\N{LEFTWARDS ARROW WITH HOOK}",
            style=discord.ButtonStyle.secondary,
            custom_id=self.custom_id,
        )


class EndConfirmButton(GameButton, key="end"):
    """Confirms /yahtzee end."""


class RulesButton(GameButton, key="rules"):
    """The rules, and the preset the game plays by, only for the clicker (/yahtzee rules)."""


class BoardButton(GameButton, key="board"):
    """The game's board again at the bottom of the chat, as /yahtzee board posts it (a
    spectator gets a copy only they see)."""


class QuitButton(GameButton, key="quit"):
    """Leave the game (/yahtzee leave): asks first, as a click is easily made."""


class QuitConfirmButton(GameButton, key="quit-ok"):
    """Leave the game: confirmed."""


class RejoinButton(GameButton, key="rejoin"):
    """An away player takes their seat back from their next turn (/yahtzee rejoin)."""
