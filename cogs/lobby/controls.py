"""The lobby's buttons.

=====================================  ==========================================================
custom_id                              component
=====================================  ==========================================================
``yz:lobby:<action>:<game>``           join, leave, start, cancel, bot-optimal, bot-casual,
                                       bot-winning, hints, unseat (the last bot)
``yz:again:<game>``                    Play again (on a final message): a new lobby inviting
                                       the players
=====================================  ==========================================================
"""

from __future__ import annotations

from typing import Annotated

import discord

from cogs.shared.controls import Button, ButtonControl, GameButton, Snowflake, one_of

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
LobbyAction = Annotated[str, one_of(*LOBBY_ACTIONS)]


class LobbyButton(ButtonControl, key="lobby"):
    """Join, Leave, Start, Cancel, a computer player or the hints switch, on a lobby."""

    live = True

    action: LobbyAction
    game_id: Snowflake

    def button(
        self,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        disabled: bool = False,
    ) -> Button:
        return Button(
            label=label or self.action.title(), style=style, custom_id=self.custom_id, row=row,
            disabled=disabled,
        )  # fmt: skip


class PlayAgainButton(GameButton, key="again"):
    """A new lobby that invites the same players."""
