"""The game pictures drawn from a game's saved state (``Game.to_dict()``): what a drawing
process receives, since a state crosses between processes where a ``Game`` (with its dice
source) does not. ``language`` is a ``bot.i18n`` catalog code: the pictures' words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine import Game
from bot.i18n import ENGLISH

from .cards import render_final, render_scorecard, render_turn


def turn_png(state: Mapping[str, Any], language: str = ENGLISH) -> bytes:
    """``render_turn`` of the game in ``state``."""
    return render_turn(Game.from_dict(state), language)


def final_png(state: Mapping[str, Any], language: str = ENGLISH) -> bytes:
    """``render_final`` of the game in ``state``."""
    return render_final(Game.from_dict(state), language)


def scorecard_png(state: Mapping[str, Any], seat: int, language: str = ENGLISH) -> bytes:
    """``render_scorecard`` of one seat of the game in ``state``."""
    return render_scorecard(Game.from_dict(state), seat, language)
