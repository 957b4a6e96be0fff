"""The daily challenge's buttons.

=====================================  ==========================================================
custom_id                              component
=====================================  ==========================================================
``yz:replay:<game>``                   a daily challenge, turn by turn
``yz:leave:<game>``                    confirm leaving a daily challenge
=====================================  ==========================================================
"""

from __future__ import annotations

import discord

from cogs.shared.controls import GAME, Button, Control, game_button


class ReplayButton(Control[Button], key="replay", fields=GAME, handler="show_replay"):
    """A finished daily challenge told turn by turn (private)."""

    def __init__(self, game_id: int, label: str = "Replay") -> None:
        button = game_button(type(self), game_id, label, discord.ButtonStyle.secondary)
        super().__init__(button, game_id=game_id)


class LeaveConfirmButton(Control[Button], key="leave", fields=GAME, handler="leave_confirmed"):
    """Confirms /yahtzee leave of a daily challenge (it counts as the day's try)."""

    def __init__(self, game_id: int, label: str = "Leave the daily challenge") -> None:
        button = game_button(type(self), game_id, label, discord.ButtonStyle.danger)
        super().__init__(button, game_id=game_id)
