"""Optimal play: the exact solitaire solver, its saved table, and decisions from it.

Pure Python and numpy; nothing here knows Discord.
"""

from .solver import RULES, Table, solve

__all__ = ["RULES", "Table", "solve"]
