"""The scorecard as monospace text, for a code block: screen readers read it, and it stands
in for the pictures in a channel where the bot may not attach files.

Kept narrow for a phone (a code block that wraps loses its columns): 27 characters for two
seats, a name column as wide as "Optimal" (the computer player's name); from four seats on
the boxes get short names.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import UPPER, Category, Game, Seat

from .cards import LABELS, STACKED_ROWS, Row

SHORT: dict[Row, str] = {
    Category.ONES: "1s",
    Category.TWOS: "2s",
    Category.THREES: "3s",
    Category.FOURS: "4s",
    Category.FIVES: "5s",
    Category.SIXES: "6s",
    "upper": "Up",
    "bonus": "+35",
    Category.THREE_OF_A_KIND: "3K",
    Category.FOUR_OF_A_KIND: "4K",
    Category.FULL_HOUSE: "FH",
    Category.SMALL_STRAIGHT: "SS",
    Category.LARGE_STRAIGHT: "LS",
    Category.YAHTZEE: "Yz",
    Category.CHANCE: "Ch",
    "ybonus": "Y+",
    "total": "Tot",
}
SHORT_FROM_SEATS = 4
NAME_W = 7  # a column's width: names are cut to it ("Optimal" fits whole)
OPEN = "-"


def _cell(seat: Seat, row: Row) -> str:
    card = seat.card
    if isinstance(row, Category):
        value = card[row]
        return OPEN if value is None else str(value)
    if row == "upper":
        return str(card.upper_total)
    if row == "bonus":
        if card.upper_bonus:
            return str(card.upper_bonus)
        return "0" if all(card.is_filled(c) for c in UPPER) else OPEN
    if row == "ybonus":
        return str(card.yahtzee_bonus) if card.yahtzee_bonus else OPEN
    return str(card.total)


def _name(name: str, width: int) -> str:
    """A name for a column ``width`` wide: whole if it fits, else its first word if that
    fits and is not a scrap ("Optimal bot" is "Optimal", "Anna Maria" is "Anna", but "A
    very long name" is "A very…"), else cut with an ellipsis."""
    clean = " ".join(name.replace("`", "'").split()) or "Player"
    if len(clean) <= width:
        return clean
    first = clean.split(" ", 1)[0]
    if width // 2 <= len(first) <= width:
        return first
    return clean[: width - 1] + "…"


def card_text(game: Game, seats: Sequence[int] | None = None) -> str:
    """The card of ``seats`` (default: every seat) as aligned lines, a column per seat."""
    chosen = list(range(len(game.seats))) if seats is None else list(seats)
    short = len(chosen) >= SHORT_FROM_SEATS
    labels = SHORT if short else LABELS
    label_w = max(len(labels[row]) for row in STACKED_ROWS)
    width = 4 if short else NAME_W
    heads = [f"#{i + 1}" if short else _name(game.seats[i].name, width) for i in chosen]
    lines = [" " * label_w + "".join(f" {h:>{width}}" for h in heads)]
    for row in STACKED_ROWS:
        cells = "".join(f" {_cell(game.seats[i], row):>{width}}" for i in chosen)
        lines.append(f"{labels[row]:<{label_w}}{cells}")
        if row == "bonus":
            lines.append("-" * len(lines[0]))
    return "\n".join(lines)


def code_block(text: str) -> str:
    """``text`` in a Discord code block."""
    return f"```\n{text}\n```"
