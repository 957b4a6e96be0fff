"""The scorecard as text: the numbers worked out by hand, columns that line up."""

from __future__ import annotations

from bot.engine import Game
from bot.render.text_card import card_text

from . import states


def test_finished_game_by_hand() -> None:
    """Each round Ann rolls 1-2-3-4-6, Bob and Cat 2-3-4-5-6, and each takes the first open
    box. Ann: 1, 2, 3, 4, 0, 6 (upper 16), Small Straight 30, Chance 16, total 62. Bob and
    Cat: 0, 2, 3, 4, 5, 6 (upper 20), straights 30 and 40, Chance 20, total 110."""
    lines = card_text(states.finished()).splitlines()
    rows = {" ".join(w for w in line.split() if not w.isdigit() and w != "-"): line.split()
            for line in lines}  # fmt: skip
    assert lines[0].split() == ["Ann", "Bob", "Cat"]
    assert rows["Ones"][-3:] == ["1", "0", "0"]
    assert rows["Fives"][-3:] == ["0", "5", "5"]
    assert rows["Upper"][-3:] == ["16", "20", "20"]
    assert rows["Sm straight"][-3:] == ["30", "30", "30"]
    assert rows["Lg straight"][-3:] == ["0", "40", "40"]
    assert rows["Chance"][-3:] == ["16", "20", "20"]
    assert rows["Total"][-3:] == ["62", "110", "110"]
    assert len({len(line) for line in lines}) == 1, "columns do not line up"


def test_open_boxes_many_seats_and_awkward_names() -> None:
    """Open boxes show '-'; four seats or more use short box names and seat numbers, and
    stay narrow enough for a phone; a backtick cannot end the code block."""
    text = card_text(states.before_first_roll(8))
    assert text.splitlines()[0].split() == [f"#{i}" for i in range(1, 9)]
    assert max(len(line) for line in text.splitlines()) <= 45
    assert text.splitlines()[1].split() == ["1s"] + ["-"] * 8
    odd = card_text(Game([("1", "a`b`c"), ("2", "A very long name indeed"), ("-10", "Optimal")]))
    header = odd.splitlines()[0]
    assert "`" not in odd
    assert "a'b'c" in header and "A very\u2026" in header  # cut to 7 characters
    assert "Optimal" in header.split()  # the computer player's name whole
    seats = card_text(Game([("1", "Anna Maria"), ("-10", "Optimal bot"), ("2", "Bartholomew")]))
    assert seats.splitlines()[0].split() == ["Anna", "Optimal", "Bartho\u2026"]  # first words
    two = card_text(Game([("1", "Ann"), ("-10", "Optimal")]))
    assert max(len(line) for line in two.splitlines()) <= 27  # a phone's code block
