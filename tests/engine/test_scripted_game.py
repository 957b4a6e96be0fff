"""A whole two-seat game with scripted dice, checked against totals worked out by hand."""

from __future__ import annotations

import pytest

from bot.engine import Category, Game, JokerForcesBox, ScriptedDice

C = Category

# Ann rolls once a turn. (dice, box, points of the box, Yahtzee bonus)
ANN = [
    ([6, 6, 6, 6, 6], C.YAHTZEE, 50, 0),
    ([1, 1, 1, 2, 3], C.ONES, 3, 0),
    ([2, 2, 2, 5, 5], C.TWOS, 6, 0),
    ([3, 3, 3, 1, 2], C.THREES, 9, 0),
    ([4, 4, 4, 4, 4], C.FOURS, 20, 100),  # second Yahtzee: forced into Fours, +100
    ([5, 5, 5, 1, 1], C.FIVES, 15, 0),
    ([6, 6, 6, 6, 6], C.SIXES, 30, 100),  # third Yahtzee: forced into Sixes, +100
    ([1, 2, 3, 4, 5], C.LARGE_STRAIGHT, 40, 0),
    ([2, 3, 4, 5, 5], C.SMALL_STRAIGHT, 30, 0),
    ([3, 3, 2, 2, 2], C.FULL_HOUSE, 25, 0),
    ([5, 5, 5, 4, 1], C.THREE_OF_A_KIND, 20, 0),
    ([6, 6, 6, 6, 2], C.FOUR_OF_A_KIND, 26, 0),
    ([1, 1, 1, 1, 1], C.CHANCE, 5, 100),  # Ones filled, only Chance open: Joker, +100
]
# Ann by hand: upper 3+6+9+20+15+30 = 83 (>= 63, so +35 = 118);
# lower 50+40+30+25+20+26+5 = 196; bonuses 3 x 100 = 300. Grand total 614.
ANN_TOTAL = 614

# Bob's turns: (rolls, holds before each re-roll, box, points)
BOB = [
    ([[2, 3, 4, 6, 6], [5, 1]], [[True, True, True, False, False]], C.LARGE_STRAIGHT, 40),
    ([[3, 3, 3, 3, 3]], [], C.THREE_OF_A_KIND, 15),  # Yahtzee box open: plain 15
    ([[1, 2, 4, 5, 6]], [], C.YAHTZEE, 0),  # scratch
    ([[2, 2, 2, 2, 2]], [], C.TWOS, 10),  # Joker with 0 banked: forced into Twos, no bonus
    ([[6, 6, 6, 5, 5]], [], C.FULL_HOUSE, 25),
    ([[1, 1, 2, 3, 4]], [], C.SMALL_STRAIGHT, 30),
    ([[6, 6, 6, 1, 2]], [], C.SIXES, 18),
    ([[5, 5, 5, 5, 2]], [], C.FOUR_OF_A_KIND, 22),
    ([[4, 4, 4, 1, 2]], [], C.FOURS, 12),
    ([[5, 5, 1, 2, 3]], [], C.FIVES, 10),
    ([[3, 3, 3, 1, 2]], [], C.THREES, 9),  # first misplaced in Ones, then undone
    ([[1, 1, 3, 4, 6]], [], C.ONES, 2),
    ([[6, 5, 4, 2, 2]], [], C.CHANCE, 19),
]
# Bob by hand: upper 2+10+9+12+10+18 = 61 (< 63, no bonus);
# lower 15+22+25+30+40+0+19 = 151; no Yahtzee bonus. Grand total 212.
BOB_TOTAL = 212


def test_two_seat_game_matches_hand_totals() -> None:
    """Ann 614 and Bob 212, with Jokers, bonuses, a re-roll, a refused move and an undo."""
    faces: list[int] = []
    for (ann_dice, *_), (bob_rolls, *_) in zip(ANN, BOB, strict=True):
        faces += ann_dice
        for roll in bob_rolls:
            faces += roll
    g = Game([("a", "Ann"), ("b", "Bob")], "official", ScriptedDice(faces))

    for turn, (ann, bob) in enumerate(zip(ANN, BOB, strict=True)):
        dice, box, points, bonus = ann
        assert list(g.roll("a")) == dice
        result = g.score("a", box)
        assert (result.points, result.bonus) == (points, bonus), f"Ann, turn {turn + 1}"

        rolls, holds, box, points = bob
        g.roll("b")
        for held in holds:
            g.set_held("b", held)
            g.roll("b")
        if len(rolls) > 1:
            kept = [face for face, h in zip(rolls[0], holds[-1], strict=True) if h]
            assert list(g.dice or []) == kept + rolls[-1]
        if box is C.TWOS:
            with pytest.raises(JokerForcesBox):
                g.score("b", C.FULL_HOUSE)
        if box is C.THREES:
            g.score("b", C.ONES)  # a slip of the finger...
            g.undo("b")  # ...taken back before Ann rolls
        result = g.score("b", box)
        assert (result.points, result.bonus) == (points, 0), f"Bob, turn {turn + 1}"

    assert g.is_over
    ann_card, bob_card = g.seats[0].card, g.seats[1].card
    assert (ann_card.upper_total, ann_card.upper_bonus, ann_card.yahtzee_bonus) == (83, 35, 300)
    assert (bob_card.upper_total, bob_card.upper_bonus, bob_card.yahtzee_bonus) == (61, 0, 0)
    assert [(s.place, s.name, s.total) for s in g.standings()] == [
        (1, "Ann", ANN_TOTAL),
        (2, "Bob", BOB_TOTAL),
    ]
