"""The rules of Yahtzee as pure Python: dice, boxes, score sheets, presets and games.

Nothing here does I/O, logging or Discord; every illegal move raises a ``RuleError``
subclass whose message is written for the player.
"""

from .categories import LOWER, UPPER, Category, joker_score, score
from .dice import DICE_COUNT, DailyDice, Dice, DiceSource, RandomDice, ScriptedDice
from .errors import (
    BoxAlreadyFilled,
    GameOver,
    InvalidDice,
    InvalidGame,
    InvalidState,
    JokerForcesBox,
    MustRollFirst,
    NoRollsLeft,
    NotAway,
    NothingToUndo,
    NotInGame,
    NotYourTurn,
    RuleError,
)
from .game import (
    FORMAT_VERSION,
    MAX_SEATS,
    MIN_SEATS,
    ROLLS_PER_TURN,
    ROUNDS,
    Game,
    ScoreResult,
    Seat,
    Standing,
    TimeoutPolicy,
)
from .presets import BONUS_TURN_LIMIT, DEFAULT_PRESET, Preset
from .scorecard import (
    UPPER_BONUS_POINTS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS_POINTS,
    Scorecard,
)

__all__ = [
    "BONUS_TURN_LIMIT",
    "DEFAULT_PRESET",
    "DICE_COUNT",
    "FORMAT_VERSION",
    "LOWER",
    "MAX_SEATS",
    "MIN_SEATS",
    "ROLLS_PER_TURN",
    "ROUNDS",
    "UPPER",
    "UPPER_BONUS_POINTS",
    "UPPER_BONUS_THRESHOLD",
    "YAHTZEE_BONUS_POINTS",
    "BoxAlreadyFilled",
    "Category",
    "DailyDice",
    "Dice",
    "DiceSource",
    "Game",
    "GameOver",
    "InvalidDice",
    "InvalidGame",
    "InvalidState",
    "JokerForcesBox",
    "MustRollFirst",
    "NoRollsLeft",
    "NotAway",
    "NotInGame",
    "NotYourTurn",
    "NothingToUndo",
    "Preset",
    "RandomDice",
    "RuleError",
    "ScoreResult",
    "Scorecard",
    "ScriptedDice",
    "Seat",
    "Standing",
    "TimeoutPolicy",
    "joker_score",
    "score",
]
