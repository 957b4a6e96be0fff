"""The day's dice: the same rolls for everyone whatever they hold, the same on every
machine with the deployment's key, unknowable without it, and fair."""

from __future__ import annotations

import hashlib
import hmac
import os
import subprocess
import sys
from collections import Counter

import pytest

from bot.engine import DailyDice, Game

DAY = "2026-11-24"
KEY = bytes(range(32))  # a deployment's secret (any 32 bytes)
OTHER_KEY = bytes(range(1, 33))  # another deployment's


def play(day: str, holds: list[list[bool]], key: bytes = KEY) -> list[str]:
    """One turn: the first roll, then a roll after each of ``holds``; the dice shown."""
    game = Game(["me"], dice_source=DailyDice(day, key))
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
    dice = DailyDice(DAY, KEY)
    assert dice.faces(0, 0) != dice.faces(1, 0) != dice.faces(1, 1)


def test_every_machine_gives_the_same_faces() -> None:
    """Another process (another hash seed) computes the same faces for the day."""
    code = (
        "from bot.engine import DailyDice\n"
        f"print([DailyDice('{DAY}', {KEY!r}).faces(t, r) for t in range(13) for r in range(3)])"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout
    here = DailyDice(DAY, KEY)
    assert out.strip() == str([here.faces(t, r) for t in range(13) for r in range(3)])


def test_a_year_of_days_is_fair() -> None:
    """365 days x 13 turns x 3 rolls x 5 dice: the chi-square statistic of the faces is
    under 20.515, the 0.1% critical value for five degrees of freedom (fixed days: the same
    figure every run)."""
    counts: Counter[int] = Counter()
    for day in range(365):
        dice = DailyDice(f"2027-day-{day}", KEY)
        for turn in range(13):
            for roll in range(3):
                counts.update(dice.faces(turn, roll))
    total = sum(counts.values())
    expected = total / 6
    statistic = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert statistic < 20.515, (statistic, counts)


def faces_of(digest: bytes) -> tuple[int, ...]:
    """The rule in words: each byte under 252, in order, gives face byte % 6 + 1; the first
    five make the roll."""
    return tuple(b % 6 + 1 for b in digest if b < 252)[:5]


def test_the_faces_are_the_hmac_of_the_day_turn_and_roll_under_the_key() -> None:
    """Worked out here with the standard library's ``hmac.new``: the day's dice are the
    HMAC-SHA256 under the key, not the plain SHA-256 anyone can compute."""
    dice = DailyDice(DAY, KEY)
    for turn in range(13):
        for roll in range(3):
            message = f"yahtzee-daily:{DAY}:{turn}:{roll}".encode()
            expected = faces_of(hmac.new(KEY, message, hashlib.sha256).digest())
            assert dice.faces(turn, roll) == expected
    public = [
        faces_of(hashlib.sha256(f"yahtzee-daily:{DAY}:{t}:{r}".encode()).digest())
        for t in range(13)
        for r in range(3)
    ]
    assert [dice.faces(t, r) for t in range(13) for r in range(3)] != public


def test_another_key_other_dice_on_the_same_day() -> None:
    """Two deployments play other dice the same day: a score cannot be worked out from
    another bot's daily (and every roll of the day differs somewhere)."""
    assert play(DAY, []) != play(DAY, [], OTHER_KEY)
    ours, theirs = DailyDice(DAY, KEY), DailyDice(DAY, OTHER_KEY)
    same = sum(ours.faces(t, r) == theirs.faces(t, r) for t in range(13) for r in range(3))
    assert same == 0  # 39 rolls of five dice: a chance of 39/7776 that one matches by luck


def test_the_key_is_never_shown_and_must_be_a_real_secret() -> None:
    assert KEY.hex() not in repr(DailyDice(DAY, KEY)) and str(KEY) not in repr(DailyDice(DAY, KEY))
    with pytest.raises(ValueError, match="secret key"):
        DailyDice(DAY, b"")
