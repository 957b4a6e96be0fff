"""The coaching's buttons.

=====================================  ==========================================================
custom_id                              component
=====================================  ==========================================================
``yz:hint:<game>``                     the best choices now (private)
``yz:analysis:<game>``                 a player's report card (private), on a final message
=====================================  ==========================================================
"""

from __future__ import annotations

from cogs.shared.controls import GameButton


class HintButton(GameButton, key="hint"):
    """The best three choices for the player whose turn it is (private)."""

    on_board = live = True


class AnalysisButton(GameButton, key="analysis"):
    """A player's report card for the finished game (private)."""
