"""Every choice of a position, valued from the solved table: which dice to keep, which box.

Legality and points come from the engine (``Scorecard.options`` and ``fill``); the table
gives what the rest of the game is worth. Values are expected *final* scores.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from bot.engine import (
    UPPER,
    UPPER_BONUS_POINTS,
    Category,
    Dice,
    Game,
    Scorecard,
)
from bot.engine.categories import YAHTZEE_POINTS
from bot.engine.dice import as_dice
from bot.i18n.words import Said, Word

from .dice_space import dice_space
from .solver import Solver, keep_averages
from .states import BOX_ORDER, UPPER_CAP, Table, flag_of


@dataclass(frozen=True, slots=True)
class Choice:
    """One decision and the expected final score that follows it under optimal play."""

    value: float
    box: Category | None = None  # score these dice in this box now
    keep: tuple[int, ...] | None = None  # or keep these dice and roll the others
    points: int | None = None  # what scoring in ``box`` gets now (0: a scratch)
    bonus_turn: bool = False  # ``bonus-turn``: ``box`` is the filled Yahtzee box, the bonus

    def describe(self, within: bool = False) -> Said:
        """The choice in plain words ("Scratch Large Straight now" for 0 points); ``str()``
        of it is the English. ``within``: as it reads inside a sentence (lower case)."""
        if self.bonus_turn:
            if within:
                return Said("take the bonus turn now (+{points})", points=self.points)
            return Said("Take the bonus turn now (+{points})", points=self.points)
        if self.box is not None:
            box = Word(self.box.label)
            if self.points == 0:
                if within:
                    return Said("scratch {box} now (0 points)", box=box)
                return Said("Scratch {box} now (0 points)", box=box)
            return Said("score {box} now", box=box) if within else Said("Score {box} now", box=box)
        assert self.keep is not None
        if not self.keep:
            return Said("roll all five again") if within else Said("Roll all five again")
        kept = "-".join(map(str, self.keep))
        if within:
            return {
                1: Said("keep {kept} and roll four", kept=kept),
                2: Said("keep {kept} and roll three", kept=kept),
                3: Said("keep {kept} and roll two", kept=kept),
                4: Said("keep {kept} and roll one", kept=kept),
            }[len(self.keep)]
        return {
            1: Said("Keep {kept} and roll four", kept=kept),
            2: Said("Keep {kept} and roll three", kept=kept),
            3: Said("Keep {kept} and roll two", kept=kept),
            4: Said("Keep {kept} and roll one", kept=kept),
        }[len(self.keep)]


def count_word(n: int) -> str:
    """One to five in words ("roll two")."""
    return {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}[n]


def state_of(card: Scorecard) -> tuple[int, int, int]:
    """The table's state for a card: (filled boxes mask, capped upper total, Yahtzee flag:
    ``solver.flag_of``, 50 in the Yahtzee box and the bonus turns taken)."""
    mask = sum(1 << i for i, (_, v) in enumerate(card) if v is not None)
    flag = flag_of(card.preset.value, card[Category.YAHTZEE] == YAHTZEE_POINTS,
                   card.yahtzee_bonuses)  # fmt: skip
    return mask, min(UPPER_CAP, card.upper_total), flag


def best_box(table: Table, card: Scorecard, dice: Dice | Sequence[int]) -> Category | None:
    """The box optimal play scores these dice in now, read straight off the table: the
    engine's options (Joker rules included), each box's points and upper bonus, plus the
    value of the state it leads to. Tens of microseconds, where ``evaluate`` (which also
    values every keep) takes milliseconds; the Yahtzee bonus is the same for every box."""
    mask, up, flag = state_of(card)
    best: tuple[float, Category] | None = None
    for option in card.choices(dice):
        category, points = option.category, option.points
        box = BOX_ORDER.index(category)
        if option.bonus_turn:  # no box filled: the bonus, and one turn fewer to come
            rest = float(table.value[mask, up, flag + 1])
            if best is None or points + rest > best[0]:
                best = (points + rest, category)
            continue
        gain, new_up = float(points), up
        if category in UPPER:
            new_up = min(UPPER_CAP, up + points)
            gain += UPPER_BONUS_POINTS if up < UPPER_CAP <= up + points else 0
        new_flag = flag or int(category is Category.YAHTZEE and points == YAHTZEE_POINTS)
        rest = float(table.value[mask | 1 << box, new_up, new_flag])  # 0 once the game is over
        if best is None or gain + rest > best[0]:
            best = (gain + rest, category)
    return best[1] if best is not None else None


def stop_now(table: Table, card: Scorecard, dice: Dice | Sequence[int], rolls_left: int,
             box: Category) -> bool:  # fmt: skip
    """Whether scoring ``box`` now is worth at least every keep of these dice (what
    ``evaluate`` ranks first when it is a box: a tie goes to the box). One fill and a max over
    the dice's keeps, not every choice built and sorted: the menu asks on every roll."""
    if rolls_left == 0:
        return True
    d = as_dice(dice)
    new = card.fill(box, d)
    now = card.total + new.total - card.total + future(table, new)  # as ``evaluate`` sums it
    values = keep_values(table, card, rolls_left)
    space = dice_space()
    ordered = sorted(d)
    best_keep = max(
        float(values[space.keep_index[keep]])
        for size in range(5)
        for keep in set(combinations(ordered, size))
    )
    return now >= card.total + best_keep


def future(table: Table, card: Scorecard) -> float:
    """What the rest of the game is worth from this card, under optimal play."""
    _check(table, card)
    mask, up, flag = state_of(card)
    return float(table.value[mask, up, flag])  # 0 once the game is over


def _check(table: Table, card: Scorecard) -> None:
    if table.rules != card.preset.value:
        raise ValueError(f"a {table.rules} table cannot value a {card.preset.value} card")


def evaluate(
    table: Table, card: Scorecard, dice: Dice | Sequence[int], rolls_left: int
) -> list[Choice]:
    """Every legal choice for these dice, best first: boxes to score now, and (with rolls
    left) every distinct set of dice to keep."""
    _check(table, card)
    d = as_dice(dice)
    choices = [
        Choice(
            card.total + (new := card.fill(o.category, d)).total - card.total + future(table, new),
            box=o.category,
            points=o.points,
            bonus_turn=o.bonus_turn,
        )
        for o in card.choices(d)
    ]
    if rolls_left > 0:
        values = keep_values(table, card, rolls_left)
        space = dice_space()
        seen: set[tuple[int, ...]] = set()
        for size in range(5):
            for keep in combinations(sorted(d), size):
                if keep in seen:
                    continue
                seen.add(keep)
                value = float(values[space.keep_index[keep]])
                choices.append(Choice(card.total + value, keep=keep))
    choices.sort(key=lambda c: -c.value)
    return choices


#: A solver per table in use (one per rule set at most; each holds the table's arrays and
#: its dice tables): making one takes longer than the valuing it is made for.
_solvers: dict[int, tuple[Table, Solver]] = {}


def solver_for(table: Table) -> Solver:
    """The solver that values keeps on ``table`` (made once per table)."""
    kept = _solvers.get(id(table))
    if kept is None or kept[0] is not table:
        if len(_solvers) >= 4:  # tables replaced over and over (tests): keep the bound
            _solvers.clear()
        kept = (table, Solver(table.rules, False, table.value))
        _solvers[id(table)] = kept
    return kept[1]


#: States whose keep values are kept (both levels of a turn, ~4 KB each): a turn's second
#: roll reuses what its first roll worked out, and a hint or the menu's mark on the same
#: state costs nothing more. The least recently used go first.
KEEP_VALUES_CACHE = 256
_keep_cache: OrderedDict[tuple[int, int, int, int], tuple[Table, np.ndarray, np.ndarray]] = (
    OrderedDict()
)


def keep_values(table: Table, card: Scorecard, rolls_left: int) -> np.ndarray:
    """Expected remaining score of keeping each multiset, with ``rolls_left`` rolls to go
    (1 or 2). Working out 2 works out 1 on the way: both are kept for the state."""
    if rolls_left not in (1, 2):
        raise ValueError(f"keep values are for 1 or 2 rolls left, not {rolls_left}")
    _check(table, card)
    mask, up, flag = state_of(card)
    key = (id(table), mask, up, flag)  # the entry holds its table: the id stays its own
    levels = _keep_cache.get(key)
    if levels is None:
        solver = solver_for(table)
        m, u, f = (np.array([x], dtype=np.intp) for x in (mask, up, flag))
        last, _ = solver.final_roll(m, u, f)  # (252, 1): the value of each roll scored at once
        second, _ = solver.reroll(last, None)
        levels = (table, keep_averages(last)[:, 0], keep_averages(second)[:, 0])
        levels[1].flags.writeable = False  # shared by every caller
        levels[2].flags.writeable = False
        _keep_cache[key] = levels
        if len(_keep_cache) > KEEP_VALUES_CACHE:
            _keep_cache.popitem(last=False)
    else:
        _keep_cache.move_to_end(key)
    return levels[1] if rolls_left == 1 else levels[2]


def judge(
    table: Table, game: Game, keep: tuple[int, ...] | None, box: Category | None
) -> tuple[float, Said] | None:
    """What the current player's decision gives up against optimal play, and the decision in
    words (with the better one when it lost): keeping ``keep`` and rolling, or scoring ``box``.

    None when there is nothing to judge: no dice, another preset, or keeping all five (that
    only wastes a roll and is not among the choices).
    """
    if game.dice is None:
        return None
    choices = evaluate(table, game.current_seat.card, game.dice, game.rolls_left)
    did: Said
    if box is not None:
        chosen = next((c for c in choices if c.box is box), None)
        did = Said("you scored {box}", box=Word(box.label))
    else:
        chosen = next((c for c in choices if c.keep == keep), None)
        kept = "-".join(map(str, keep or ()))
        did = Said("you kept {kept}", kept=kept) if keep else Said("you rolled all five again")
    if chosen is None:
        return None
    loss = max(0.0, choices[0].value - chosen.value)
    at, first = game.round, game.rolls_used
    if loss <= 1e-9:
        return loss, (
            Said("Round {round}, first roll: {did}", round=at, did=did)
            if first == 1
            else Said("Round {round}, second roll: {did}", round=at, did=did)
            if first == 2
            else Said("Round {round}, third roll: {did}", round=at, did=did)
        )
    better = choices[0].describe(True)
    values = {"round": at, "did": did, "better": better, "loss": round(loss, 1)}
    return loss, (
        Said("Round {round}, first roll: {did}; {better} was worth {loss} more", **values)
        if first == 1
        else Said("Round {round}, second roll: {did}; {better} was worth {loss} more", **values)
        if first == 2
        else Said("Round {round}, third roll: {did}; {better} was worth {loss} more", **values)
    )


def best(table: Table, card: Scorecard, dice: Dice | Sequence[int], rolls_left: int) -> Choice:
    """The optimal choice."""
    return evaluate(table, card, dice, rolls_left)[0]
