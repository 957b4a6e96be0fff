"""One player's score sheet: which boxes it may take, what they score, and its totals."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n.words import Word, Words

from .categories import LOWER, UPPER, YAHTZEE_POINTS, Category, joker_score, score
from .dice import Dice, as_dice
from .errors import BoxAlreadyFilled, InvalidState, JokerForcesBox
from .presets import Preset

UPPER_BONUS_THRESHOLD = 63
UPPER_BONUS_POINTS = 35
YAHTZEE_BONUS_POINTS = 100

_EMPTY: tuple[int | None, ...] = (None,) * len(Category)
_INDEX = {category: i for i, category in enumerate(Category)}

#: The most each box can ever score, Joker included.
BOX_CEILING = {
    Category.ONES: 5,
    Category.TWOS: 10,
    Category.THREES: 15,
    Category.FOURS: 20,
    Category.FIVES: 25,
    Category.SIXES: 30,
    Category.THREE_OF_A_KIND: 30,
    Category.FOUR_OF_A_KIND: 30,
    Category.FULL_HOUSE: 25,
    Category.SMALL_STRAIGHT: 30,
    Category.LARGE_STRAIGHT: 40,
    Category.YAHTZEE: 50,
    Category.CHANCE: 30,
}


@dataclass(frozen=True, slots=True)
class BoxOption:
    """One box the dice may be scored in now, as the rules value it (what a menu words)."""

    category: Category
    points: int  # the box's own points; for a bonus turn, the bonus it takes
    bonus: int = 0  # a Yahtzee bonus earned on top of the box (the Joker presets)
    joker: bool = False  # the dice are a Yahtzee scored under the Joker rules
    forced: bool = False  # the Joker rules leave this box as the only one
    bonus_turn: bool = False  # ``bonus-turn``: the filled Yahtzee box taken as a bonus

    @property
    def scores(self) -> bool:
        """Whether taking it scores anything (else it is a scratch)."""
        return self.points > 0 or self.bonus > 0 or self.bonus_turn


@dataclass(frozen=True, slots=True, init=False)
class Scorecard:
    """An immutable score sheet played under one preset.

    ``fill`` never changes a card: it returns a new one with the box filled and any
    Yahtzee bonus that scoring earned. Unfilled boxes count as 0 in the totals.
    """

    preset: Preset
    boxes: tuple[int | None, ...]
    yahtzee_bonuses: int

    def __init__(
        self,
        preset: Preset | str = Preset.OFFICIAL,
        boxes: Mapping[Category, int] | None = None,
        yahtzee_bonuses: int = 0,
    ) -> None:
        values = list(_EMPTY)
        for category, points in (boxes or {}).items():
            values[_INDEX[Category(category)]] = int(points)
        object.__setattr__(self, "preset", Preset.parse(preset))
        object.__setattr__(self, "boxes", tuple(values))
        object.__setattr__(self, "yahtzee_bonuses", int(yahtzee_bonuses))

    # -- reading the sheet ---------------------------------------------------------------

    def __getitem__(self, category: Category) -> int | None:
        """The points in a box, or ``None`` while it is open."""
        return self.boxes[_INDEX[category]]

    def __iter__(self) -> Iterator[tuple[Category, int | None]]:
        return zip(Category, self.boxes, strict=True)

    def is_filled(self, category: Category) -> bool:
        """Whether the box holds a score (0 included)."""
        return self[category] is not None

    @property
    def open_boxes(self) -> tuple[Category, ...]:
        """The boxes still open, in sheet order."""
        return tuple(c for c, v in self if v is None)

    @property
    def filled_count(self) -> int:
        """How many boxes hold a score."""
        return sum(v is not None for v in self.boxes)

    @property
    def is_complete(self) -> bool:
        """All 13 boxes are filled."""
        return self.filled_count == len(Category)

    @property
    def upper_total(self) -> int:
        """Ones to Sixes added up, without the bonus."""
        return sum(self[c] or 0 for c in UPPER)

    @property
    def upper_bonus(self) -> int:
        """35 once the upper boxes reach 63, else 0."""
        return UPPER_BONUS_POINTS if self.upper_total >= UPPER_BONUS_THRESHOLD else 0

    @property
    def lower_total(self) -> int:
        """The lower boxes added up, without Yahtzee bonuses."""
        return sum(self[c] or 0 for c in LOWER)

    @property
    def yahtzees(self) -> int:
        """Yahtzees scored as such: 50 in the Yahtzee box, plus one per Yahtzee bonus."""
        return (1 if self[Category.YAHTZEE] == YAHTZEE_POINTS else 0) + self.yahtzee_bonuses

    @property
    def yahtzee_bonus(self) -> int:
        """100 for every Yahtzee bonus earned."""
        return YAHTZEE_BONUS_POINTS * self.yahtzee_bonuses

    @property
    def total(self) -> int:
        """The grand total: upper boxes, upper bonus, lower boxes and Yahtzee bonuses."""
        return self.upper_total + self.upper_bonus + self.lower_total + self.yahtzee_bonus

    # -- what these dice may do ------------------------------------------------------------

    def joker_applies(self, dice: Dice | Sequence[int]) -> bool:
        """These dice are a Yahtzee that the Joker rule governs (not under ``bonus-turn``)."""
        d = as_dice(dice)
        return d.is_yahtzee and self.is_filled(Category.YAHTZEE) and self.preset.rules.joker

    def bonus_turn_available(self, dice: Dice | Sequence[int]) -> bool:
        """Under ``bonus-turn``, these dice may be taken as a Yahtzee bonus."""
        d = as_dice(dice)
        return (
            d.is_yahtzee
            and self[Category.YAHTZEE] == YAHTZEE_POINTS
            and self.yahtzee_bonuses < self.preset.bonus_turns
        )

    def bonus_for(self, dice: Dice | Sequence[int]) -> int:
        """The Yahtzee bonus these dice earn however they are scored now (0 or 100).

        Under ``bonus-turn`` the bonus is a box of its own (``options`` shows it as
        ``YAHTZEE: 100``), so this is 0 there.
        """
        d = as_dice(dice)
        if self.joker_applies(d) and self[Category.YAHTZEE] == YAHTZEE_POINTS:
            return YAHTZEE_BONUS_POINTS
        return 0

    def choices(self, dice: Dice | Sequence[int]) -> list[BoxOption]:
        """``options`` with what each means: the bonus on top, the Joker, a forced box, a
        bonus turn; in the order of the boxes."""
        d = as_dice(dice)
        allowed = self.options(d)
        joker = self.joker_applies(d)
        bonus = self.bonus_for(d)
        bonus_turn = self.bonus_turn_available(d)
        out = []
        for category, points in allowed.items():
            taking_bonus = bonus_turn and category is Category.YAHTZEE
            out.append(
                BoxOption(
                    category,
                    points,
                    bonus=0 if taking_bonus else bonus,
                    joker=joker,
                    forced=joker and len(allowed) == 1,
                    bonus_turn=taking_bonus,
                )
            )
        return out

    def options(self, dice: Dice | Sequence[int]) -> dict[Category, int]:
        """Exactly the boxes these dice may be scored in now, with the points each gets.

        The points are the box's own; a Yahtzee bonus earned on top is ``bonus_for(dice)``.
        Under ``bonus-turn`` a bonus taken by choosing the filled Yahtzee box is listed as
        ``YAHTZEE: 100``.
        """
        d = as_dice(dice)
        open_boxes = self.open_boxes
        if self.bonus_turn_available(d):
            return {
                c: YAHTZEE_BONUS_POINTS if c is Category.YAHTZEE else score(c, d)
                for c in Category
                if c in open_boxes or c is Category.YAHTZEE
            }
        if not self.joker_applies(d):
            return {c: score(c, d) for c in open_boxes}
        # Forced Joker, step 1: the upper box of the rolled face.
        own_upper = Category.for_face(d[0])
        if own_upper in open_boxes:
            return {own_upper: score(own_upper, d)}
        # Step 2: any open lower box, at full Joker value (relaxed: or scratch an upper box).
        lower_open = [c for c in LOWER if c in open_boxes]
        if lower_open:
            allowed = set(lower_open)
            if self.preset.rules.joker_may_scratch_upper:
                allowed.update(c for c in UPPER if c in open_boxes)
            return {c: (joker_score(c, d) if c in LOWER else 0) for c in Category if c in allowed}
        # Step 3: an open upper box, for 0.
        return {c: score(c, d) for c in UPPER if c in open_boxes}

    def scratch_choice(self, dice: Dice | Sequence[int]) -> Category:
        """The lowest-value legal box for these dice: what a timed-out turn scores.

        Fewest points first; among equals, the box that could ever score least (so a 0 goes
        in Ones before it goes in Yahtzee); then sheet order.
        """
        options = self.options(dice)
        return min(options, key=lambda c: (options[c], BOX_CEILING[c], _INDEX[c]))

    def fill(self, category: Category, dice: Dice | Sequence[int]) -> Scorecard:
        """Score the dice in a box and return the new card; this card is left as it was.

        Raises ``BoxAlreadyFilled`` for a filled box and ``JokerForcesBox`` when the Joker
        rule sends this Yahtzee elsewhere.
        """
        d = as_dice(dice)
        allowed = self.options(d)
        if category not in allowed:
            self._refuse(category, d, allowed)
        if category is Category.YAHTZEE and self.is_filled(Category.YAHTZEE):
            # bonus-turn: the bonus uses the turn and fills no box.
            return self._replace(yahtzee_bonuses=self.yahtzee_bonuses + 1)
        boxes = list(self.boxes)
        boxes[_INDEX[category]] = allowed[category]
        bonuses = self.yahtzee_bonuses + (1 if self.bonus_for(d) else 0)
        return self._replace(boxes=tuple(boxes), yahtzee_bonuses=bonuses)

    def _refuse(self, category: Category, dice: Dice, allowed: Mapping[Category, int]) -> None:
        if category is Category.YAHTZEE and self.preset.bonus_turns and dice.is_yahtzee:
            if self[Category.YAHTZEE] == 0:
                raise BoxAlreadyFilled(
                    "Your Yahtzee box holds 0, so this Yahtzee earns no bonus: "
                    "score it in an open box."
                )
            if self.yahtzee_bonuses >= self.preset.bonus_turns:
                raise BoxAlreadyFilled(
                    "You have taken all {limit} Yahtzee bonuses this game: "
                    "score these dice in an open box.",
                    limit=self.preset.bonus_turns,
                )
        if self.is_filled(category):
            raise BoxAlreadyFilled(
                "{box} is already filled ({points}): choose an open box.",
                box=Word(category.label),
                points=self[category],
            )
        labels = [c.label for c in allowed]
        if len(labels) == 1:
            raise JokerForcesBox(
                "Your Yahtzee of {face}s is a Joker and cannot go in {box}: "
                "it must go in {allowed}.",
                face=dice[0],
                box=Word(category.label),
                allowed=Word(labels[0]),
            )
        # TRANSLATORS: {boxes} is the other open boxes' names (translated), joined by ", "
        raise JokerForcesBox(
            "Your Yahtzee of {face}s is a Joker and cannot go in {box}: "
            "it must go in one of {boxes} or {last}.",
            face=dice[0],
            box=Word(category.label),
            boxes=Words(labels[:-1]),
            last=Word(labels[-1]),
        )

    def _replace(
        self, boxes: tuple[int | None, ...] | None = None, yahtzee_bonuses: int | None = None
    ) -> Scorecard:
        card = Scorecard(self.preset)
        object.__setattr__(card, "boxes", self.boxes if boxes is None else boxes)
        object.__setattr__(
            card,
            "yahtzee_bonuses",
            self.yahtzee_bonuses if yahtzee_bonuses is None else yahtzee_bonuses,
        )
        return card

    def under(self, preset: Preset) -> Scorecard:
        """The same boxes and bonuses read under another preset."""
        if preset is self.preset:
            return self
        card = self._replace()
        object.__setattr__(card, "preset", preset)
        return card

    # -- saving ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A plain JSON-able form; ``from_dict`` reads it back."""
        return {
            "preset": self.preset.value,
            "boxes": {c.value: v for c, v in self if v is not None},
            "yahtzee_bonuses": self.yahtzee_bonuses,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scorecard:
        """Read a card written by ``to_dict``."""
        try:
            boxes = {Category(key): int(value) for key, value in dict(data["boxes"]).items()}
            bonuses = int(data.get("yahtzee_bonuses", 0))
            preset = Preset.parse(str(data["preset"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidState(f"not a saved scorecard: {exc}") from exc
        if bonuses < 0:
            raise InvalidState("a scorecard cannot hold a negative number of bonuses")
        return cls(preset, boxes, bonuses)
