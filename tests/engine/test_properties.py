"""Invariants over random games with random legal moves, for every preset (hypothesis)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import UPPER, Category, Game, Preset, Scorecard


class LoadedDice:
    """Fair dice that now and then throw all-equal faces, so Jokers and bonuses come up often."""

    def __init__(self, seed: int, yahtzee_rate: float) -> None:
        self._rng = random.Random(seed)
        self._rate = yahtzee_rate

    def roll(self, count: int) -> list[int]:
        if self._rng.random() < self._rate:
            return [self._rng.randint(1, 6)] * count
        return [self._rng.randint(1, 6) for _ in range(count)]


def independent_total(card: Scorecard) -> int:
    """Sum of the boxes plus bonuses, computed from the raw sheet."""
    filled = [v or 0 for _, v in card]
    upper = sum((card[c] or 0) for c in UPPER)
    return sum(filled) + (35 if upper >= 63 else 0) + 100 * card.yahtzee_bonuses


def check_invariants(g: Game, previous: list[Scorecard]) -> None:
    for seat, before in zip(g.seats, previous, strict=True):
        card = seat.card
        assert card.total == independent_total(card)
        for category, value in before:
            if value is not None:
                assert card[category] == value, "a filled box changed"
        assert card.yahtzee_bonuses >= before.yahtzee_bonuses
    if g.dice is not None:
        card = g.current_seat.card
        for category in g.options():
            if card.is_filled(category):
                assert g.preset is Preset.BONUS_TURN and category is Category.YAHTZEE
    restored = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert restored.to_dict() == g.to_dict()


@pytest.mark.parametrize("preset", list(Preset), ids=lambda p: p.value)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(1, 3),
    seed=st.integers(0, 2**32),
    rate=st.sampled_from([0.0, 0.3, 0.9]),
    data=st.data(),
)
def test_random_legal_games(
    preset: Preset, seats: int, seed: int, rate: float, data: st.DataObject
) -> None:
    """Ends after 13 rounds; totals add up; filled boxes never change; undo+redo is exact."""
    g = Game([f"p{i}" for i in range(seats)], preset, LoadedDice(seed, rate))
    choices = random.Random(data.draw(st.integers(0, 2**32), label="choices"))
    moves = 0
    while not g.is_over:
        moves += 1
        assert moves < 13 * seats * 12, "the game does not end"
        player = g.current_player_id
        previous = [seat.card for seat in g.seats]
        if g.dice is None or (g.rolls_left and choices.random() < 0.5):
            if g.dice is not None:
                g.set_held(player, [choices.random() < 0.5 for _ in range(5)])
            g.roll(player)
        else:
            options = g.options()
            box = choices.choice(list(options))
            before = g.to_dict()
            g.score(player, box)
            after = g.to_dict()
            if not g.is_over and choices.random() < 0.3:
                g.undo(player)
                assert g.to_dict() == before, "undo did not restore the state"
                g.score(player, box)
                assert g.to_dict() == after, "undo then the same move differs"
        check_invariants(g, previous)
    for seat in g.seats:
        assert seat.turns == 13
        assert (
            seat.card.filled_count
            + (seat.card.yahtzee_bonuses if preset is Preset.BONUS_TURN else 0)
            == 13
        )
