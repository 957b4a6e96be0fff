"""The coaching's buttons.

=====================================  ==========================================================
custom_id                              component
=====================================  ==========================================================
``yz:hint:<game>``                     the best choices now (private)
``yz:analysis:<game>``                 a player's report card (private), on a final message
=====================================  ==========================================================
"""

from __future__ import annotations

import discord

from cogs.shared.controls import GAME, Button, Control, game_button


class HintButton(Control[Button], key="hint", fields=GAME, handler="show_hint"):
    """The best three choices for the player whose turn it is (private)."""

    def __init__(self, game_id: int, label: str = "Hint", disabled: bool = False) -> None:
        button = game_button(
            type(self), game_id, label, discord.ButtonStyle.secondary,
            "\N{ELECTRIC LIGHT BULB}", disabled, row=1,
        )  # fmt: skip
        super().__init__(button, game_id=game_id)


class AnalysisButton(Control[Button], key="analysis", fields=GAME, handler="show_analysis"):
    """A player's report card for the finished game (private)."""

    def __init__(self, game_id: int, label: str = "Analysis") -> None:
        button = game_button(
            type(self), game_id, label, discord.ButtonStyle.secondary, "\N{BAR CHART}"
        )
        super().__init__(button, game_id=game_id)
