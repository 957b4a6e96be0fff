"""Computer players that drive an engine ``Game`` for their seat: optimal and casual.

A player only makes the moves a person could make (hold, roll, score), through the engine,
so every rule still applies to them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Protocol

from bot.engine import DICE_COUNT, Category, DailyDice, Dice, Game, Preset, Scorecard, ScoreResult

from .decisions import future, keep_values
from .dice_space import dice_space
from .states import Table


class Player(Protocol):
    """Plays whole turns for a seat."""

    name: str

    def moves(self, game: Game) -> Iterator[str | ScoreResult]:
        """Make the current seat's turn one move at a time: "roll" for a roll (after any
        holds), the ``ScoreResult`` for the scoring that ends the turn."""
        ...


def keep_mask(dice: Dice, keep: tuple[int, ...]) -> list[bool]:
    """Which of the dice to hold so that exactly the multiset ``keep`` stays on the table
    (the first of equal faces)."""
    wanted = Counter(keep)
    held = []
    for face in dice:
        take = wanted[face] > 0
        if take:
            wanted[face] -= 1
        held.append(take)
    return held


def hold_exactly(game: Game, keep: tuple[int, ...]) -> None:
    """Hold dice so that exactly the multiset ``keep`` stays on the table."""
    assert game.dice is not None
    game.set_held(game.current_player_id, keep_mask(game.dice, keep))


class OptimalPlayer:
    """Maximises the expected final score with the solved table of the game's preset.

    Given the official table for a game under another preset, it plays by the official
    values (an approximation), choosing only among the moves the engine allows.
    """

    def __init__(self, table: Table, name: str = "Optimal bot") -> None:
        self.table = table
        self.name = name

    def moves(self, game: Game) -> Iterator[str | ScoreResult]:
        seat = game.current_player_id
        card = game.current_seat.card
        turn = self.turn(card)
        while True:
            if game.dice is None:
                game.roll(seat)
                yield "roll"
                continue
            box, keep = turn(game.dice, game.rolls_left)
            if box is not None:
                yield game.score(seat, box)
                return
            assert keep is not None
            hold_exactly(game, keep)
            game.roll(seat)
            yield "roll"

    def decide(self, game: Game) -> Category | tuple[int, ...]:
        """The current seat's next move on the dice on the table: the box to score now, or
        the dice to keep for another roll (what ``moves`` would do; the timer's stand-in for
        a player whose time ran out makes the moves itself)."""
        assert game.dice is not None
        box, keep = self.turn(game.current_seat.card)(game.dice, game.rolls_left)
        if box is not None:
            return box
        assert keep is not None
        return keep

    def turn(
        self, card: Scorecard
    ) -> Callable[[Dice, int], tuple[Category | None, tuple[int, ...] | None]]:
        """The choices of one turn on ``card``: for dice and rolls left, (box, None) to score
        now or (None, keep) to keep those dice and roll the others."""
        read = as_table_card(self.table, card)
        by_rolls_left = {n: keep_values(self.table, read, n) for n in (1, 2)}
        space = dice_space()

        def choose(dice: Dice, rolls_left: int) -> tuple[Category | None, tuple[int, ...] | None]:
            box, box_value = self._best_box(card, dice)
            if rolls_left == 0:
                return box, None
            values = by_rolls_left[rolls_left]
            keep, keep_value = max(
                (
                    (k, float(values[space.keep_index[k]]))
                    for size in range(DICE_COUNT)
                    for k in set(combinations(sorted(dice), size))
                ),
                key=lambda item: item[1],
            )
            if box_value - card.total >= keep_value - 1e-9:
                return box, None
            return None, keep

        return choose

    def _best_box(self, card: Scorecard, dice: Dice) -> tuple[Category, float]:
        best: tuple[Category, float] | None = None
        for box in card.options(dice):
            after = card.fill(box, dice)
            value = after.total + future(self.table, as_table_card(self.table, after))
            if best is None or value > best[1]:
                best = (box, value)
        assert best is not None
        return best


def as_table_card(table: Table, card: Scorecard) -> Scorecard:
    """The card as ``table`` reads it: itself under the table's preset; read as an official
    card by the official table (an approximation for another preset)."""
    if table.rules == card.preset.value:
        return card
    if table.rules == Preset.OFFICIAL.value:
        return card.under(Preset.OFFICIAL)
    raise ValueError(f"a {table.rules} table cannot play a {card.preset.value} card")


class CasualPlayer:
    """A simple greedy player: holds the most common face, then takes the best box now."""

    def __init__(self, name: str = "Casual bot") -> None:
        self.name = name

    def moves(self, game: Game) -> Iterator[str | ScoreResult]:
        seat = game.current_player_id
        while True:
            if game.dice is None:
                game.roll(seat)
                yield "roll"
                continue
            choice = self.decide(game)
            if isinstance(choice, Category):
                yield game.score(seat, choice)
                return
            hold_exactly(game, choice)
            game.roll(seat)
            yield "roll"

    def decide(self, game: Game) -> Category | tuple[int, ...]:
        """The next move on the dice on the table: the best box now if it is the last roll
        or worth it (25 points or more, a Yahtzee, a large straight), else keep the most
        common face (the highest among equals) and roll the others."""
        assert game.dice is not None
        options = game.options()
        box = max(options, key=lambda c: (options[c], -list(Category).index(c)))
        good = options[box] >= 25 or box in (Category.YAHTZEE, Category.LARGE_STRAIGHT)
        if game.rolls_left == 0 or (good and options[box] > 0):
            return box
        face, _ = max(Counter(game.dice).items(), key=lambda item: (item[1], item[0]))
        return (face,) * Counter(game.dice)[face]


def play_out(game: Game, players: dict[str, Player]) -> None:
    """Play every remaining turn with the given players (by player id)."""
    while not game.is_over:
        for _ in players[game.current_player_id].moves(game):
            pass


def daily_optimal_score(table: Table, day: str, key: bytes) -> int:
    """What the Optimal bot scores on ``day``'s dice (under the deployment's ``key``): the
    daily challenge's yardstick."""
    game = Game([("optimal", "Optimal bot")], dice_source=DailyDice(day, key))
    play_out(game, {"optimal": OptimalPlayer(table)})
    return game.seats[0].card.total
