"""Playing to win instead of to score: every decision maximises the chance of finishing
ahead of the other seats, given every card.

``distribution`` gives, for every state, the exact distribution of the points still to
come when the Optimal bot plays it. The seats' futures are independent, so after any choice
(a box to score, or dice to keep) the chance of finishing ahead is exact *if every seat then
plays as the Optimal bot*: the sum, over our possible totals, of the chance that every other
seat ends below it (a tie counts half). Within the turn the chances are averaged over the
dice still to come and the best keep taken at every roll, as the solver does with points.

Choosing by these chances is one step of policy improvement over the Optimal bot: against
it (or anyone who plays like it) the result can only win more often than it does, and the
next turn chooses again with what the other seats have rolled meanwhile. It is not the exact
two-player solution (Pawlewicz, 2010, at a far larger cost), which would also count on
playing to win in later turns. It does what a strong player does: behind, chase the Yahtzee
or the big box; ahead, take the sure points. ``benchmarks/win.py`` measures it against the
Optimal bot.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from bot.engine import (
    DICE_COUNT,
    ROUNDS,
    UPPER_BONUS_POINTS,
    Category,
    Dice,
    Game,
    Scorecard,
    ScoreResult,
    Seat,
)

from .decisions import Choice, state_of
from .dice_space import dice_space
from .distribution import Distributions, Rival
from .players import OptimalPlayer, hold_exactly
from .solver import Solver, keep_averages
from .states import BOX_ORDER, BOXES, UPPER_BOXES, UPPER_CAP, YAHTZEE, Table, turns_used

Array = np.ndarray

#: A move is played instead of the Optimal bot's only when its chance of winning is higher
#: by more than this: about what the stored distributions can tell apart (``QUANTUM``).
MARGIN = 1e-4


class TurnChances:
    """The chance of winning from every roll and keep of one turn, for one seat's card
    against the other seats' cards."""

    def __init__(
        self, table: Table, dists: Distributions, card: Scorecard, opponents: Sequence[Scorecard]
    ) -> None:
        self.table = table
        self.dists = dists
        self.card = card
        self.preset_card = card
        self.rival = Rival([(c.total, dists.of(*state_of(c))) for c in opponents])
        self.space = dice_space()
        self.solver = Solver(table.rules, False, table.value)
        self.now = self._score_now()  # (252,): the best chance when scoring each roll now
        self._keeps: dict[int, Array] = {}

    def _chance(self, total: Array, mask: Array, up: Array, flag: Array) -> Array:
        """The chance of winning with ``total`` points on the card and the rest of the game
        played from state (mask, up, flag), for arrays of cards (each distinct one once)."""
        flag = np.where((mask >> YAHTZEE) & 1 == 1, flag, 0)
        ids = self.dists.ids[mask, up, flag].astype(np.intp)
        total = np.asarray(total, dtype=np.intp)
        top = Rival.TOP  # no total reaches it: (id, total) pairs as one number
        keys, inverse = np.unique(ids * top + total, return_inverse=True)
        chances = self.rival.chances(self.dists.rows(keys // top), keys % top)
        result: Array = chances[inverse.ravel()]
        return result

    def _score_now(self) -> Array:
        """For each of the 252 rolls, the best chance of winning over the boxes it may be
        scored in: every open box at its plain points, and (the Yahtzee box filled) the
        Yahtzees by the engine's own Joker rules and bonus."""
        mask, up, flag = state_of(self.card)
        total = self.card.total
        plain = self.solver.plain
        rolls = len(self.space.rolls)
        totals, masks, ups, flags = [], [], [], []
        for box in range(BOXES):
            if mask >> box & 1:
                continue
            points = plain[box].astype(np.intp)
            if box < UPPER_BOXES:
                up2 = np.minimum(UPPER_CAP, up + points)
                gain = points + np.where(
                    (up < UPPER_CAP) & (up2 >= UPPER_CAP), UPPER_BONUS_POINTS, 0
                )
            else:
                up2, gain = np.full(rolls, up), points
            flag2 = np.full(rolls, flag)
            if box == YAHTZEE:
                flag2 = np.where(points > 0, 1, flag)
            totals.append(total + gain)
            masks.append(np.full(rolls, mask | 1 << box))
            ups.append(up2)
            flags.append(flag2)
        chances = self._chance(*(np.concatenate(x) for x in (totals, masks, ups, flags)))
        best: Array = chances.reshape(-1, rolls).max(axis=0)
        if mask >> YAHTZEE & 1:
            for face in range(1, 7):
                r = self.solver.yahtzee_rolls[face - 1]
                best[r] = self._best_box(Dice([face] * DICE_COUNT))[1]
        return best

    def _best_box(self, dice: Dice) -> tuple[Category, float]:
        """The box (of the engine's options for these dice) with the best chance."""
        choices = []
        for category in self.preset_card.options(dice):
            after = self.preset_card.fill(category, dice)
            mask, up, flag = state_of(after)
            chance = self._chance(
                np.array([float(after.total)]), np.array([mask]), np.array([up]), np.array([flag])
            )
            choices.append((float(chance[0]), -BOX_ORDER.index(category), category))
        best, _, box = max(choices)  # ties: the box earlier on the card
        return box, best

    def keeps(self, rolls_left: int) -> Array:
        """For every keep (``dice_space().keeps``), the chance of winning when keeping it
        and rolling the rest with ``rolls_left`` rolls to go, playing on for the win."""
        if rolls_left not in self._keeps:
            after = self.now[:, None]
            for _ in range(rolls_left - 1):
                after, _ = self.solver.reroll(after, None)
            self._keeps[rolls_left] = keep_averages(after)[:, 0]
        return self._keeps[rolls_left]

    def chance_of(
        self, dice: Dice, rolls_left: int, box: Category | None, keep: tuple[int, ...] | None
    ) -> float:
        """The chance of winning after one given choice: scoring ``box`` now, or keeping
        ``keep`` and rolling the others."""
        if box is not None:
            after = self.preset_card.fill(box, dice)
            mask, up, flag = state_of(after)
            total = np.array([float(after.total)])
            return float(self._chance(total, *(np.array([x]) for x in (mask, up, flag)))[0])
        assert keep is not None and rolls_left > 0
        return float(self.keeps(rolls_left)[self.space.keep_index[tuple(sorted(keep))]])

    def best(
        self, dice: Dice, rolls_left: int
    ) -> tuple[Category | None, tuple[int, ...] | None, float]:
        """The best choice for these dice: (box, None, chance) to score now, or
        (None, keep, chance) to keep those dice and roll the others."""
        box, now = self._best_box(dice)
        if rolls_left == 0:
            return box, None, now
        values = self.keeps(rolls_left)
        index = self.space.keep_index
        keep, chance = max(
            (
                (k, float(values[index[k]]))
                for size in range(DICE_COUNT)
                for k in sorted(set(combinations(sorted(dice), size)))
            ),
            key=lambda item: item[1],
        )
        if now >= chance - 1e-12:
            return box, None, now
        return None, keep, chance


class WinningPlayer:
    """Plays for the best chance of finishing ahead of the other seats in its last
    ``last_turns`` turns (by default all of them), and as the Optimal bot does otherwise: a
    solo game, a game of another preset than its table's and distributions', and any move
    no better for winning than the Optimal bot's (by more than ``margin``)."""

    def __init__(
        self,
        table: Table,
        dists: Distributions,
        name: str = "To-win bot",
        margin: float = MARGIN,
        last_turns: int = BOXES,
    ) -> None:
        self.table = table
        self.dists = dists
        self.name = name
        #: Play for the win only in the last ``last_turns`` turns of its card.
        self.last_turns = last_turns
        #: How much better (as a chance of winning) a move must be than the Optimal bot's to
        #: be played instead: among moves alike for winning, points decide.
        self.margin = margin
        self._turns: OrderedDict[tuple[Scorecard, ...], TurnChances] = OrderedDict()

    def prepare(self, game: Game) -> TurnChances | None:
        """The chances of the current turn (None where it plays as the Optimal bot): tens of
        milliseconds of numpy the first time, then kept for the turn's later moves, so a
        caller can do this part off its event loop."""
        rivals = [seat.card for seat in rivals_of(game)]
        card = game.current_seat.card
        mask, _, flag = state_of(card)
        open_boxes = ROUNDS - int(turns_used(mask, flag))  # the turns it has left
        if (
            not rivals
            or game.preset.value != self.dists.rules
            or self.table.rules != self.dists.rules
            or open_boxes > self.last_turns
            or not covered(self.dists, card, *rivals)
        ):
            return None
        key = (card, *rivals)
        found = self._turns.get(key)
        if found is None:
            found = self._turns[key] = TurnChances(self.table, self.dists, card, rivals)
            while len(self._turns) > 64:  # a turn or two of each game being played
                self._turns.popitem(last=False)
        return found

    def moves(self, game: Game) -> Iterator[str | ScoreResult]:
        seat = game.current_player_id
        chances = self.prepare(game)
        if chances is None:
            yield from OptimalPlayer(self.table).moves(game)
            return
        usual = OptimalPlayer(self.table).turn(game.current_seat.card)
        while True:
            if game.dice is None:
                game.roll(seat)
                yield "roll"
                continue
            box, keep, chance = chances.best(game.dice, game.rolls_left)
            # The Optimal bot's move unless playing to win is better by more than the margin:
            # among moves alike for winning (a game already won or lost) points decide.
            usual_box, usual_keep = usual(game.dice, game.rolls_left)
            usual_chance = chances.chance_of(game.dice, game.rolls_left, usual_box, usual_keep)
            if chance - usual_chance <= self.margin:
                box, keep = usual_box, usual_keep
            if box is not None:
                yield game.score(seat, box)
                return
            assert keep is not None
            hold_exactly(game, keep)
            game.roll(seat)
            yield "roll"


def covered(dists: Distributions, *cards: Scorecard) -> bool:
    """Whether the distributions cover these cards' states (a partial build, as tests
    make, covers only the last turns)."""
    return all(
        card.preset.value == dists.rules and dists.covers(*state_of(card)[::2]) for card in cards
    )


def rivals_of(game: Game) -> list[Seat]:
    """The seats the current player races: every other seat still in the game."""
    return [s for i, s in enumerate(game.seats) if i != game.current and not s.left]


@dataclass(frozen=True, slots=True)
class WinHint:
    """The choice with the best chance of finishing ahead of ``rival`` (a name, or "everyone
    else" in a larger game; the choice's ``value`` is that chance), and the chance the best
    choice for points gives."""

    rival: str
    choice: Choice
    points_choice_chance: float

    @property
    def differs(self) -> bool:
        """Whether playing to win means another move than playing for points."""
        return self.choice.value > self.points_choice_chance + MARGIN


def to_win_applies(game: Game) -> bool:
    """Whether a hint in ``game`` gives to-win advice: someone to beat (any preset)."""
    return bool(rivals_of(game))


def win_hint(table: Table, dists: Distributions, game: Game, for_points: Choice) -> WinHint | None:
    """For a hint in a game with someone to beat (dice rolled; ``table`` and ``dists`` of
    the game's preset): the to-win choice beside ``for_points``, the best choice for the
    expected score."""
    rivals = rivals_of(game)
    if (
        not rivals
        or game.dice is None
        or table.rules != dists.rules
        or not covered(dists, game.current_seat.card, *(seat.card for seat in rivals))
    ):
        return None
    turn = TurnChances(table, dists, game.current_seat.card, [seat.card for seat in rivals])
    box, keep, chance = turn.best(game.dice, game.rolls_left)
    theirs = turn.chance_of(game.dice, game.rolls_left, for_points.box, for_points.keep)
    name = rivals[0].name if len(rivals) == 1 else "everyone else"
    return WinHint(name, Choice(chance, box=box, keep=keep), theirs)


def chances_of(
    table: Table, dists: Distributions, mine: Scorecard, theirs: Scorecard,
    dice: Sequence[int], rolls_left: int,
) -> tuple[Category | None, tuple[int, ...] | None, float]:  # fmt: skip
    """The to-win choice for ``dice`` on ``mine`` against ``theirs`` (for hints and tests)."""
    turn = TurnChances(table, dists, mine, [theirs])
    return turn.best(Dice(list(dice)), rolls_left)
