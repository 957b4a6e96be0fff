"""Five six-sided dice as a value object, and the sources that roll them."""

from __future__ import annotations

import hmac
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from .errors import InvalidDice

DICE_COUNT = 5
FACES = range(1, 7)


@dataclass(frozen=True, slots=True)
class Dice:
    """Five dice in the order they lie on the table; ``repr`` parses back with ``eval``."""

    values: tuple[int, int, int, int, int]

    def __init__(self, *values: int | Iterable[int]) -> None:
        # Accept Dice(3, 3, 3, 2, 2), Dice([3, 3, 3, 2, 2]) and Dice(other_dice).
        flat: list[object]
        if len(values) == 1 and not isinstance(values[0], int):
            flat = list(values[0])
        else:
            flat = list(values)
        if len(flat) != DICE_COUNT or not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in flat
        ):
            raise InvalidDice("Dice must be five values from 1 to 6, not {dice}.", dice=repr(flat))
        object.__setattr__(self, "values", tuple(flat))

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Read dice written as digits, with or without separators: ``"33322"``, ``"3-3-3-2-2"``."""
        digits = [int(ch) for ch in text if ch.isdigit()]
        return cls(digits)

    def __iter__(self) -> Iterator[int]:
        return iter(self.values)

    def __len__(self) -> int:
        return DICE_COUNT

    def __getitem__(self, index: int) -> int:
        return self.values[index]

    def __repr__(self) -> str:
        return f"Dice({', '.join(map(str, self.values))})"

    def __str__(self) -> str:
        return "-".join(map(str, self.values))

    @property
    def total(self) -> int:
        """The sum of the five faces."""
        return sum(self.values)

    def counts(self) -> Counter[int]:
        """How many dice show each face."""
        return Counter(self.values)

    @property
    def is_yahtzee(self) -> bool:
        """All five dice show the same face."""
        return len(set(self.values)) == 1


def as_dice(dice: Dice | Sequence[int]) -> Dice:
    """Accept a ``Dice`` or any sequence of five faces."""
    return dice if isinstance(dice, Dice) else Dice(dice)


class DiceSource(Protocol):
    """Where rolled faces come from; inject one to script a game."""

    def roll(self, count: int) -> list[int]:
        """Return ``count`` faces from 1 to 6."""
        ...


class RandomDice:
    """Fair dice from the operating system's random source (the default)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.SystemRandom()

    def roll(self, count: int) -> list[int]:
        """Return ``count`` fair faces."""
        return [self._rng.randint(1, 6) for _ in range(count)]


class ScriptedDice:
    """Faces handed out in a fixed order, for tests and replays.

    Each roll takes the next ``count`` faces from the script; running out raises
    ``LookupError`` so that a test which rolls more than it scripted fails loudly, unless a
    ``fallback`` source is given to roll for anything unscripted.
    """

    def __init__(self, faces: Iterable[int] = (), fallback: DiceSource | None = None) -> None:
        self._faces: list[int] = []
        self.fallback = fallback
        self.extend(faces)

    def extend(self, faces: Iterable[int]) -> None:
        """Append faces to the script."""
        for face in faces:
            if face not in FACES:
                raise InvalidDice("A scripted face must be 1 to 6, not {face}.", face=repr(face))
            self._faces.append(face)

    @property
    def remaining(self) -> int:
        """How many scripted faces are left."""
        return len(self._faces)

    def roll(self, count: int) -> list[int]:
        """Hand out the next ``count`` scripted faces."""
        if count > len(self._faces) and self.fallback is not None and not self._faces:
            return self.fallback.roll(count)
        if count > len(self._faces):
            raise LookupError(
                f"the dice script ran out: {count} faces asked, {len(self._faces)} left"
            )
        taken, self._faces = self._faces[:count], self._faces[count:]
        return taken


class DailyDice:
    """The day's dice, the same for everyone whatever they hold: the die at position ``i``
    shows ``faces(turn, roll)[i]`` whenever it is rolled on that roll of that turn.

    Every face comes from the HMAC-SHA256, under the deployment's secret ``key``, of the day,
    the turn and the roll: every process with the key gives the same faces for the same day,
    and nobody without it can work them out before they are rolled. A game rolls with
    ``faces`` instead of ``roll`` (``Game.roll`` knows the positions); ``roll`` exists only to
    satisfy ``DiceSource``.
    """

    def __init__(self, day: str, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("the daily dice need a secret key of at least 16 bytes")
        self.day = day
        self._key = key

    def __repr__(self) -> str:
        return f"DailyDice({self.day!r}, key=...)"  # the key is a secret: never in a log

    def faces(self, turn: int, roll: int) -> tuple[int, ...]:
        """The five faces that roll ``roll`` (0-2) of turn ``turn`` (0-12) shows, by position."""
        message = f"yahtzee-daily:{self.day}:{turn}:{roll}".encode()
        digest = hmac.digest(self._key, message, "sha256")
        # 252 is a multiple of 6: bytes of 252 and above are skipped, so faces are fair
        faces = [b % 6 + 1 for b in digest if b < 252][:DICE_COUNT]
        assert len(faces) == DICE_COUNT  # 32 bytes: more than five below 252 in practice
        return tuple(faces)

    def roll(self, count: int) -> list[int]:
        raise TypeError("the day's dice are rolled by position: Game.roll uses faces()")
