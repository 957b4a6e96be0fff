"""The daily challenge's buttons.

=====================================  ==========================================================
custom_id                              component
=====================================  ==========================================================
``yz:replay:<game>``                   a daily challenge, turn by turn
``yz:leave:<game>``                    confirm leaving a daily challenge
=====================================  ==========================================================
"""

from __future__ import annotations

from cogs.shared.controls import GameButton


class ReplayButton(GameButton, key="replay"):
    """A finished daily challenge told turn by turn (private)."""


class LeaveConfirmButton(GameButton, key="leave"):
    """Confirms /yahtzee leave of a daily challenge (it counts as the day's try)."""
