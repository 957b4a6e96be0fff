"""A game as the Discord side sees it (``GameView``), made whole for a test: the real value
object, not a stand-in with the few attributes one test reads."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from bot.engine import Preset
from bot.games import GameStatus, GameView


def game_view(**values: Any) -> GameView:
    """Ann's running game (id 7) in a server's channel 100 (guild 1), its board message 200
    and its last scoring's Undo 300, unless ``values`` say otherwise."""
    base: dict[str, Any] = {f.name: None for f in fields(GameView)}
    base.update(id=7, guild_id=1, channel_id=100, host_id=5, status=GameStatus.ACTIVE,
                preset=Preset.OFFICIAL, players=[(5, "Ann")], version=3, board_message_id=200,
                undo_message_id=300, turn_seconds=300, hints=True, pictures=True,
                language="en", place="channel")  # fmt: skip
    base.update(values)
    base["status"] = GameStatus(base["status"])
    return GameView(**base)
