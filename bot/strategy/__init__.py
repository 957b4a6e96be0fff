"""Optimal play: the exact solitaire solver, its saved table, and decisions from it.

Pure Python and numpy; nothing here knows Discord.
"""

from .solver import solve
from .states import RULES, Table

__all__ = ["RULES", "Table", "solve"]
