"""Pillow drawing: pure functions from engine state to PNG bytes (no Discord, no database).

They are synchronous and CPU-bound: call them through ``asyncio.to_thread``.
"""

from .cards import render_final, render_scorecard, render_turn
from .toolkit import TableRow, render_chart, render_stats, render_table

__all__ = [
    "TableRow",
    "render_chart",
    "render_final",
    "render_scorecard",
    "render_stats",
    "render_table",
    "render_turn",
]
