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

import discord

from cogs.shared.controls import GAME, ID, Button, Control, choice, game_button

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


class PlayAgainButton(Control[Button], key="again", fields=GAME, handler="play_again"):
    """A new lobby that invites the same players."""

    def __init__(self, game_id: int, label: str = "Play again") -> None:
        button = game_button(type(self), game_id, label, discord.ButtonStyle.success)
        super().__init__(button, game_id=game_id)
