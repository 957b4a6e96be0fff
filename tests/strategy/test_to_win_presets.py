"""The To-win bot under ``bonus-turn``: its distributions count a bonus turn as a turn
played and follow the preset's own table, and in a last turn worked out by hand it plays
for the Yahtzee whose bonus turn wins, where the Optimal bot takes the points."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from bot.engine import Category, Dice, Game, Preset, Scorecard, ScriptedDice
from bot.strategy import Table
from bot.strategy.decisions import best, state_of
from bot.strategy.distribution import Distributions
from bot.strategy.players import OptimalPlayer
from bot.strategy.winning import WinningPlayer, win_hint

C = Category


def bonus_card(boxes: dict[Category, int], bonuses: int) -> Scorecard:
    return Scorecard(Preset.BONUS_TURN, boxes, bonuses)


def filled_but(*open_boxes: Category, **points: int) -> dict[Category, int]:
    """Every box but ``open_boxes``, 0 in each unless named (by the category's value)."""
    out = {c: 0 for c in C if c not in open_boxes}
    for name, value in points.items():
        out[C(name)] = value
    return out


# Ann: ten boxes (0 in each, 50 in Yahtzee) and two bonus turns taken: 12 turns played,
# one to go, Ones, Twos and Chance open; 50 + 2 x 100 = 250 points.
ANN = bonus_card(filled_but(C.ONES, C.TWOS, C.CHANCE, yahtzee=50), 2)
# Bob: eleven boxes and two bonus turns: 13 turns, finished. 50 + 30 + 25 + 30 + 200 = 335,
# 85 ahead of Ann: her last turn adds at most 30 in a box, so only a Yahtzee wins, taken as
# the bonus turn (+100; this preset has no Joker).
BOB = bonus_card(
    filled_but(C.ONES, C.TWOS, yahtzee=50, chance=30, full_house=25, small_straight=30), 2
)


def test_the_hand_made_cards() -> None:
    assert (ANN.total, BOB.total) == (250, 335)


def test_a_bonus_turn_is_a_turn_played(bonus_turn_to_win: Distributions) -> None:
    """Built for the last turn: Ann's card (10 boxes, 2 bonuses) is covered, the same boxes
    with no bonus taken (3 turns to go) are not; Bob's (11 boxes, 2 bonuses) is over:
    nothing more to come."""
    mask, _, flag = state_of(ANN)
    assert bonus_turn_to_win.covers(mask, flag) and not bonus_turn_to_win.covers(mask, 1)
    over = bonus_turn_to_win.of(*state_of(BOB))
    assert over[0] == 1.0 and not over[1:].any()


def test_every_state_built_has_the_bonus_turn_tables_mean(
    bonus_turn_values: Table, bonus_turn_to_win: Distributions
) -> None:
    """Each distribution's mean is the ``bonus-turn`` table's value (bonus turns among the
    choices), counted forwards instead of backwards, bonus turns already taken included."""
    states = np.argwhere(bonus_turn_to_win.ids >= 0)
    flags = {int(f) for _, _, f in states}
    assert {2, 3, 4} <= flags  # one, two, three bonus turns taken
    rng = np.random.default_rng(44)
    for mask, up, flag in states[rng.choice(len(states), 3000, replace=False)]:
        s = bonus_turn_to_win.of(int(mask), int(up), int(flag))
        mean = float(s[1:].sum(dtype=np.float64))
        assert mean == pytest.approx(float(bonus_turn_values.value[mask, up, flag]), abs=0.02)


def last_turn() -> dict[str, Any]:
    """Ann to play her last turn against Bob, 6-6-5-5-4 showing after her second roll."""
    seats = [
        {"player_id": "1", "name": "Ann", "card": ANN.to_dict(), "turns": 12},
        {"player_id": "2", "name": "Bob", "card": BOB.to_dict(), "turns": 13},
    ]
    return {
        "format": 1, "preset": "bonus-turn", "seats": seats, "current": 0,
        "dice": [6, 6, 5, 5, 4], "held": [False] * 5, "rolls_used": 2, "undo": None,
    }  # fmt: skip


def test_behind_it_keeps_a_pair_for_the_bonus_turn(
    bonus_turn_values: Table, bonus_turn_to_win: Distributions
) -> None:
    """For points, Chance (25 sure points beat a 1 in 216 shot at 100); to win, a pair kept
    and three dice rolled: all three must match it, (1/6)^3; Chance wins nothing. The bot
    plays it, and takes the bonus turn when the Yahtzee comes."""
    game = Game.from_dict(last_turn())
    for_points = best(bonus_turn_values, ANN, Dice(6, 6, 5, 5, 4), 1)
    assert for_points.box is C.CHANCE
    hint = win_hint(bonus_turn_values, bonus_turn_to_win, game, for_points)
    assert hint is not None and hint.differs and hint.points_choice_chance == 0.0
    assert hint.choice.keep in ((5, 5), (6, 6)) and hint.choice.value == pytest.approx(1 / 216)

    optimal = Game.from_dict(last_turn(), ScriptedDice([6, 6, 6]))
    first = next(iter(OptimalPlayer(bonus_turn_values).moves(optimal)))
    assert not isinstance(first, str) and first.category is C.CHANCE
    winning = Game.from_dict(last_turn(), ScriptedDice([6, 6, 6, 5, 5, 5]))
    moves = iter(WinningPlayer(bonus_turn_values, bonus_turn_to_win).moves(winning))
    assert next(moves) == "roll"
    kept = [f for f, h in zip([6, 6, 5, 5, 4], winning.held, strict=True) if h]
    assert len(kept) == 2 and kept[0] == kept[1]
    if kept[0] == 6:  # the scripted dice made five sixes: the bonus turn, and the win
        scored = next(moves)
        assert not isinstance(scored, str) and scored.bonus_turn
        assert winning.seats[0].card.total == 350 > BOB.total


def test_a_bot_of_one_preset_plays_another_as_the_optimal_bot(
    official_values: Table, to_win: Distributions
) -> None:
    """Official distributions say nothing of a ``bonus-turn`` game: no chances prepared."""
    assert WinningPlayer(official_values, to_win).prepare(Game.from_dict(last_turn())) is None
