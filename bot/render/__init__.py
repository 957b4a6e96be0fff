"""Pillow drawing: pure functions from engine state to PNG bytes (no Discord, no database).

They are synchronous and CPU-bound: the bot runs them in a drawing process (``bot.workers``),
from a game's saved state (``from_state``), or in a thread.
"""

from .cards import render_final, render_scorecard, render_turn
from .from_state import final_png, scorecard_png, turn_png
from .toolkit import TableRow, render_chart, render_stats, render_table

__all__ = [
    "TableRow",
    "final_png",
    "render_chart",
    "render_final",
    "render_scorecard",
    "render_stats",
    "render_table",
    "render_turn",
    "scorecard_png",
    "turn_png",
]
