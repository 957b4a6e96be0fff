"""Turns that run out of time: the scratch choice, the two policies, away seats, rejoining."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    BoxAlreadyFilled,
    Category,
    Game,
    GameOver,
    MustRollFirst,
    NoRollsLeft,
    NotAway,
    Scorecard,
    ScriptedDice,
    TimeoutPolicy,
)

C = Category


@pytest.mark.parametrize(
    ("filled", "dice", "expected"),
    [
        ({}, [2, 3, 4, 5, 6], C.ONES),  # several boxes score 0: Ones can least ever score
        ({C.ONES: 1}, [2, 3, 4, 5, 6], C.FULL_HOUSE),  # next: 0s where the ceiling is lowest (25)
        ({}, [1, 1, 1, 1, 1], C.TWOS),  # 0 in Twos (ceiling 10) before 0 in Full House (25)
        ({C.YAHTZEE: 50}, [4, 4, 4, 4, 4], C.FOURS),  # the Joker allows only Fours
    ],
)
def test_scratch_choice_takes_the_lowest_box(
    filled: dict[Category, int], dice: list[int], expected: Category
) -> None:
    """Worked out by hand: the legal box with the fewest points, ties to the smallest ceiling."""
    assert Scorecard("official", filled).scratch_choice(dice) == expected


def test_timeout_rolls_first_when_nobody_rolled() -> None:
    """A turn that timed out before any roll is rolled once, then scratched."""
    g = Game(["ann", "bob"], dice_source=ScriptedDice([2, 3, 4, 5, 6]))
    result = g.timeout()
    assert (result.category, result.points, list(result.dice)) == (C.ONES, 0, [2, 3, 4, 5, 6])
    assert g.current_player_id == "bob" and g.seats[0].timeouts == 1 and not g.seats[0].away


def test_timeout_keeps_the_dice_already_rolled() -> None:
    """A player who rolled and walked away gets those dice scored."""
    g = Game(["ann"], dice_source=ScriptedDice([6, 6, 6, 6, 6]))
    g.roll("ann")
    result = g.timeout()
    assert list(result.dice) == [6, 6, 6, 6, 6]  # no second roll
    assert (result.category, result.points) == (C.ONES, 0)  # the lowest box, as the rule says


def test_a_timed_out_turn_cannot_be_undone() -> None:
    """The player who timed out has nothing to undo."""
    g = Game(["ann", "bob"], dice_source=ScriptedDice([2, 3, 4, 5, 6]))
    g.timeout()
    assert g.undo_player_id is None


def test_scratch_policy_never_marks_away() -> None:
    """Under scratch, timeouts keep counting but the seat keeps its turns."""
    g = Game(["ann", "bob"], dice_source=ScriptedDice([2, 3, 4, 5, 6] * 6))
    for _ in range(3):
        g.timeout(TimeoutPolicy.SCRATCH)  # ann
        g.roll("bob")
        g.score("bob", g.current_seat.card.open_boxes[0])
    assert g.seats[0].timeouts == 3 and not g.seats[0].away and g.current_player_id == "ann"


def test_skip_seat_after_two_timeouts_in_a_row() -> None:
    """Under skip-seat, the second timeout in a row marks the seat away and it is skipped."""
    g = Game(["ann", "bob"], dice_source=ScriptedDice([2, 3, 4, 5, 6] * 10))
    g.timeout("skip-seat")  # ann, 1
    g.roll("bob")
    g.score("bob", C.CHANCE)
    g.timeout("skip-seat")  # ann, 2: away
    assert g.seats[0].away and g.current_player_id == "bob"
    g.roll("bob")
    g.score("bob", C.SIXES)
    assert g.current_player_id == "bob"  # ann is skipped


def test_a_move_of_ones_own_breaks_the_run() -> None:
    """Timeouts only count in a row: playing a turn yourself resets them."""
    g = Game(["ann", "bob"], dice_source=ScriptedDice([2, 3, 4, 5, 6] * 10))
    g.timeout("skip-seat")
    g.timeout("skip-seat")  # bob
    g.roll("ann")
    assert g.seats[0].timeouts == 0
    g.score("ann", C.CHANCE)
    g.timeout("skip-seat")  # bob, second in a row
    g.timeout("skip-seat")  # ann: first again
    assert not g.seats[0].away and g.seats[1].away


def test_rejoin_takes_the_seat_back_at_the_next_turn() -> None:
    """An away player rejoins and plays again when the rotation reaches them."""
    g = Game(["ann", "bob"], dice_source=ScriptedDice([2, 3, 4, 5, 6] * 10))
    g.timeout("skip-seat")
    g.roll("bob")
    g.score("bob", C.CHANCE)
    g.timeout("skip-seat")  # ann away; bob to play
    g.rejoin("ann")
    assert g.current_player_id == "bob"
    g.roll("bob")
    g.score("bob", C.SIXES)
    assert g.current_player_id == "ann"
    with pytest.raises(NotAway):
        g.rejoin("ann")


def test_everyone_away_ends_the_game_uncompleted() -> None:
    """When no seat still plays, the game is over; nobody completed it."""
    g = Game(["ann"], dice_source=ScriptedDice([2, 3, 4, 5, 6] * 2))
    g.timeout("skip-seat")
    g.timeout("skip-seat")
    assert g.is_over and not g.completed
    with pytest.raises(GameOver):
        g.rejoin("ann")


def test_an_away_seat_does_not_hold_up_the_end() -> None:
    """Bob plays his 13 turns while Ann is away: the game is over and complete."""
    g = Game(["ann", "bob"], dice_source=ScriptedDice([2, 3, 4, 5, 6] * 20))
    g.timeout("skip-seat")
    g.roll("bob")
    g.score("bob", C.CHANCE)
    g.timeout("skip-seat")
    while not g.is_over:
        g.roll("bob")
        g.score("bob", g.current_seat.card.open_boxes[0])
    assert g.completed and g.seats[1].turns == 13 and g.seats[0].turns == 2
    assert [s.place for s in g.standings()] == [1, 2]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(1, 4))
def test_no_absences_leave_a_game_stuck(seed: int, seats: int) -> None:
    """Random plays, timeouts under every policy, rejoins and leaves: it always ends."""
    rng = random.Random(seed)
    g = Game([f"p{i}" for i in range(seats)], dice_source=_Dice(rng))
    for _ in range(13 * seats * 8):
        if g.is_over:
            break
        assert g.current_seat.playing
        player = g.current_player_id
        action = rng.random()
        if action < 0.3:
            policy = rng.choice(list(TimeoutPolicy))
            if policy is TimeoutPolicy.PLAY:  # a stand-in: one roll or more, any open box
                for _ in range(rng.randint(1, 3) - g.rolls_used if g.dice is None else 0):
                    g.roll_for_them([rng.random() < 0.5 for _ in range(5)])
                g.timeout(policy, rng.choice(list(g.current_seat.card.options(g.dice))))
            else:
                g.timeout(policy)
        elif action < 0.35:
            g.leave(player)
        elif action < 0.45:
            away = [s.player_id for s in g.seats if s.away and not s.left]
            if away:
                g.rejoin(rng.choice(away))
        else:
            g.roll(player)
            g.score(player, g.current_seat.card.scratch_choice(g.dice or [1] * 5))
    assert g.is_over


class _Dice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, count: int) -> list[int]:
        return [self.rng.randint(1, 6) for _ in range(count)]


def test_play_policy_scores_the_box_its_stand_in_chose_after_its_rolls() -> None:
    """Under play, the rolls made for the player keep the dice the stand-in held; the box it
    chose is scored at its points (by hand: 6-6-1-5-5, keep 5-5, roll 5-5-2 gives 5-5-5-5-2,
    Fives 20); the seat is never marked away, and the turn cannot be undone."""
    g = Game(["ann", "bob"], dice_source=ScriptedDice([6, 6, 1, 5, 5, 5, 5, 2]))
    g.roll_for_them()
    assert list(g.roll_for_them([False, False, False, True, True])) == [5, 5, 2, 5, 5]
    result = g.timeout(TimeoutPolicy.PLAY, C.FIVES)
    assert (result.category, result.points, result.bonus) == (C.FIVES, 20, 0)
    assert g.current_player_id == "bob" and g.undo_player_id is None
    assert g.seats[0].timeouts == 1 and not g.seats[0].away


def test_rolls_made_for_a_player_keep_their_run_of_timeouts() -> None:
    """A roll made for the player is not their move: two timed-out turns in a row count 2."""
    g = Game(["ann"], dice_source=ScriptedDice([2, 3, 4, 5, 6] * 4))
    for _ in range(2):
        g.roll_for_them()
        g.roll_for_them([True, True, True, True, True])
        g.timeout(TimeoutPolicy.PLAY, g.current_seat.card.open_boxes[0])
    assert g.seats[0].timeouts == 2


def test_play_policy_still_obeys_the_rules() -> None:
    """A stand-in's box goes through the rules (no box twice, no fourth roll, a box only
    after a roll), and the other policies take no box."""
    g = Game(["ann", "bob"], dice_source=ScriptedDice([2, 3, 4, 5, 6] * 8))
    with pytest.raises(MustRollFirst):
        g.timeout(TimeoutPolicy.PLAY, C.CHANCE)
    for _ in range(3):
        g.roll_for_them()
    with pytest.raises(NoRollsLeft):
        g.roll_for_them()
    with pytest.raises(ValueError):
        g.timeout(TimeoutPolicy.SCRATCH, C.CHANCE)
    with pytest.raises(ValueError):
        g.timeout(TimeoutPolicy.PLAY)
    g.timeout(TimeoutPolicy.PLAY, C.CHANCE)
    g.roll("bob")
    g.score("bob", C.ONES)
    g.roll_for_them()
    with pytest.raises(BoxAlreadyFilled):
        g.timeout(TimeoutPolicy.PLAY, C.CHANCE)
