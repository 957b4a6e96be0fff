"""A game's values: its seats, what a scoring did, the standings, the timeout policies and
the table's fixed numbers (rounds, rolls, seats)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .categories import Category
from .dice import DICE_COUNT, Dice
from .scorecard import Scorecard


class TimeoutPolicy(Enum):
    """What happens to a seat whose turns run out of time."""

    PLAY = "play"  # the turn is played for them as a stand-in (the Optimal bot) chooses
    SCRATCH = "scratch"  # the turn is played for them: roll if needed, take the lowest box
    SKIP_SEAT = "skip-seat"  # as scratch, and after two timeouts in a row the seat is away


#: What a server that never chose gets: a friendly game is not punished with a 0.
DEFAULT_TIMEOUT_POLICY = TimeoutPolicy.PLAY


#: Timeouts in a row after which ``SKIP_SEAT`` marks a seat away.
AWAY_AFTER_TIMEOUTS = 2

MIN_SEATS = 1
MAX_SEATS = 8
ROUNDS = 13
ROLLS_PER_TURN = 3
#: Version of the dict written by ``Game.to_dict``; bump it with a reader for the old one.
FORMAT_VERSION = 1

NO_HOLDS: tuple[bool, ...] = (False,) * DICE_COUNT


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: who sits there, their card, and how many turns they have had."""

    player_id: str
    name: str
    card: Scorecard
    turns: int = 0
    left: bool = False
    away: bool = False  # skipped after timing out twice in a row, until the player rejoins
    timeouts: int = 0  # turns in a row that ran out of time

    @property
    def done(self) -> bool:
        """The seat has no turns left to play (all 13 taken, or the player left)."""
        return self.left or self.turns >= ROUNDS

    @property
    def playing(self) -> bool:
        """The seat still takes turns: not done and not away."""
        return not self.done and not self.away


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """What one scoring did: the box (``YAHTZEE`` for a bonus turn), its points, the bonus."""

    player_id: str
    category: Category
    points: int
    bonus: int
    dice: Dice
    bonus_turn: bool = False


@dataclass(frozen=True, slots=True)
class Standing:
    """A seat's place in the ranking; seats that left have no place."""

    place: int | None
    seat: int
    player_id: str
    name: str
    total: int


def seat_to_dict(seat: Seat) -> dict[str, Any]:
    return {
        "player_id": seat.player_id,
        "name": seat.name,
        "card": seat.card.to_dict(),
        "turns": seat.turns,
        "left": seat.left,
        "away": seat.away,
        "timeouts": seat.timeouts,
    }


def seat_from_dict(data: Mapping[str, Any]) -> Seat:
    return Seat(
        str(data["player_id"]),
        str(data["name"]),
        Scorecard.from_dict(data["card"]),
        int(data["turns"]),
        bool(data.get("left", False)),
        bool(data.get("away", False)),
        int(data.get("timeouts", 0)),
    )
