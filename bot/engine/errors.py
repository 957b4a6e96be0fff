"""Every way a move can break the rules, as exceptions a player can read as they are."""

from __future__ import annotations

from bot.i18n.words import Sentence


class RuleError(Sentence, ValueError):
    """A move that the rules do not allow; ``str(error)`` is a sentence for the player, in
    English. Its values are kept apart (``template``, ``values``: ``str.format`` fields) so
    that the player's language can say it: ``NotYourTurn("It's {name}'s turn.", name=...)``."""

    def __init__(self, message: str = "", /, **values: object) -> None:
        super().__init__(self.set_sentence(message, values))


class NotYourTurn(RuleError):
    """Someone other than the current player tried to move."""


class NotInGame(RuleError):
    """The player has no seat in this game."""


class NoRollsLeft(RuleError):
    """A fourth roll, or a hold after the third roll."""


class MustRollFirst(RuleError):
    """Holding or scoring before the turn's first roll."""


class BoxAlreadyFilled(RuleError):
    """Scoring in a box that already holds a score."""


class JokerForcesBox(RuleError):
    """A Yahtzee under the Joker rule must go to another box than the one chosen."""


class NothingToUndo(RuleError):
    """Undo when there is no scoring of this player's left to take back."""


class NotAway(RuleError):
    """Rejoining a seat that was never marked away."""


class GameOver(RuleError):
    """A move after the game has ended."""


class InvalidDice(RuleError):
    """Dice that are not five values from 1 to 6, or a die index out of range."""


class InvalidGame(RuleError):
    """A game that cannot be set up: no seats, too many, a seat twice, an unknown preset."""


class InvalidState(ValueError):
    """A saved game dict that this version of the engine cannot read."""
