"""The day's dice: the same rolls for everyone whatever they hold, the same on every
machine, and fair."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

from bot.engine import DailyDice, Game

DAY = "2026-11-24"


def play(day: str, holds: list[list[bool]]) -> list[str]:
    """One turn: the first roll, then a roll after each of ``holds``; the dice shown."""
    game = Game(["me"], dice_source=DailyDice(day))
    shown = [str(game.roll("me"))]
    for held in holds:
        game.set_held("me", held)
        shown.append(str(game.roll("me")))
    return shown


def test_the_same_day_and_keeps_give_the_same_rolls() -> None:
    keeps = [[True, True, False, False, False], [True, True, True, False, False]]
    assert play(DAY, keeps) == play(DAY, keeps)


def test_a_rolled_die_shows_its_position_s_face_whatever_is_held() -> None:
    """Two players keep different dice after the same first roll: every die either rolled
    shows the same face at the same position."""
    first = play(DAY, [])[0]
    one = play(DAY, [[True, False, False, False, False]])[1].split("-")
    two = play(DAY, [[False, False, False, False, True]])[1].split("-")
    start = first.split("-")
    for i in range(1, 4):  # rolled by both
        assert one[i] == two[i]
    assert one[0] == start[0] and two[4] == start[4]  # held
    assert one[4] == play(DAY, [[False] * 5])[1].split("-")[4]  # rolled, as for anyone


def test_another_day_other_dice_and_another_turn_other_dice() -> None:
    assert play(DAY, []) != play("2026-11-25", [])
    dice = DailyDice(DAY)
    assert dice.faces(0, 0) != dice.faces(1, 0) != dice.faces(1, 1)


def test_every_machine_gives_the_same_faces() -> None:
    """Another process (another hash seed) computes the same faces for the day."""
    code = (
        "from bot.engine import DailyDice\n"
        f"print([DailyDice('{DAY}').faces(t, r) for t in range(13) for r in range(3)])"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout
    here = DailyDice(DAY)
    assert out.strip() == str([here.faces(t, r) for t in range(13) for r in range(3)])


def test_a_year_of_days_is_fair() -> None:
    """365 days x 13 turns x 3 rolls x 5 dice: the chi-square statistic of the faces is
    under 20.515, the 0.1% critical value for five degrees of freedom (fixed days: the same
    figure every run)."""
    counts: Counter[int] = Counter()
    for day in range(365):
        dice = DailyDice(f"2027-day-{day}")
        for turn in range(13):
            for roll in range(3):
                counts.update(dice.faces(turn, roll))
    total = sum(counts.values())
    expected = total / 6
    statistic = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert statistic < 20.515, (statistic, counts)
