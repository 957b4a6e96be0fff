"""What a click on a game's board asks of the turns (``Turns``): a small typed command, made by
the Discord side from the click, instead of a row of loose ids."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BoardClick:
    """A click on a game's message: the game, who clicked, the message clicked (None where
    the click came without one) and the turn its buttons were made for."""

    game_id: int
    user_id: int
    message_id: int | None
    turn: int


@dataclass(frozen=True, slots=True)
class TurnMove(BoardClick):
    """A move of a turn (a die, Roll, a box): also how many rolls the board had seen, so a
    click made before the dice changed is told apart from one made after."""

    rolls_used: int
