"""The scorecard as monospace text, for a code block: screen readers read it, and it stands
in for the pictures in a channel where the bot may not attach files.

Kept narrow for a phone (a code block that wraps loses its columns): 27 characters for two
seats, a name column as wide as "Optimal" (the computer player's name), labels of at most 11
characters (the board's words, ``sheet.row_words``; a language whose word is longer gives a
short form, "Kl. Straße"); from four seats on the boxes get short names of at most 5.
Every word is in the game's language (``language``, a ``bot.i18n`` catalog code).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import UPPER, Category, Game, Seat
from bot.i18n import ENGLISH, lang

from .sheet import STACKED_ROWS, Row, row_words

SHORT_FROM_SEATS = 4
NAME_W = 7  # a column's width: names are cut to it ("Optimal" fits whole)
LABEL_W = 11  # a label's most characters: 11 + 2 x (1 + 7) = 27, a phone's code block
SHORT_W = 5  # a short label's most characters: 5 + 8 x (1 + 4) = 45
OPEN = "-"


def label(row: Row, language: str = ENGLISH) -> str:
    """A row's name in the text scorecard: the first of its words (as the board has them)
    of at most ``LABEL_W`` characters, else the first cut to that with an ellipsis."""
    words = row_words(row, language)
    return next((w for w in words if len(w) <= LABEL_W), words[0][: LABEL_W - 1] + "…")


def short_label(row: Row, language: str = ENGLISH) -> str:
    """A row's short name, for four seats or more ("1s", "3K", "Tot")."""
    _ = lang(language)
    if isinstance(row, Category) and row.face is not None:
        # TRANSLATORS: Ones ... Sixes ({n} is 1 to 6) in the text scorecard of 4 or more
        # players, where each box has a name of at most 5 characters: "1s" ... "6s".
        word = _("{n}s", n=row.face)
    elif row == "bonus":
        word = "+35"
    else:
        words: dict[Row, str] = {
            # TRANSLATORS: the upper section's sum, short (at most 5 characters): "Up".
            "upper": _("Up"),
            # TRANSLATORS: Three of a Kind, short (at most 5 characters): "3K".
            Category.THREE_OF_A_KIND: _("3K"),
            # TRANSLATORS: Four of a Kind, short (at most 5 characters): "4K".
            Category.FOUR_OF_A_KIND: _("4K"),
            # TRANSLATORS: Full House, short (at most 5 characters): "FH".
            Category.FULL_HOUSE: _("FH"),
            # TRANSLATORS: Small Straight, short (at most 5 characters): "SS".
            Category.SMALL_STRAIGHT: _("SS"),
            # TRANSLATORS: Large Straight, short (at most 5 characters): "LS".
            Category.LARGE_STRAIGHT: _("LS"),
            # TRANSLATORS: the Yahtzee box, short (at most 5 characters): "Yz".
            Category.YAHTZEE: _("Yz"),
            # TRANSLATORS: Chance, short (at most 5 characters): "Ch".
            Category.CHANCE: _("Ch"),
            # TRANSLATORS: the Yahtzee bonuses, short (at most 5 characters): "Y+".
            "ybonus": _("Y+"),
            # TRANSLATORS: the total, short (at most 5 characters): "Tot".
            "total": _("Tot"),
        }
        word = words[row]
    return word[:SHORT_W]


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


def _name(name: str, width: int, empty: str = "Player") -> str:
    """A name for a column ``width`` wide: whole if it fits, else its first word if that
    fits and is not a scrap ("Optimal bot" is "Optimal", "Anna Maria" is "Anna", but "A
    very long name" is "A very…"), else cut with an ellipsis."""
    clean = " ".join(name.replace("`", "'").split()) or empty
    if len(clean) <= width:
        return clean
    first = clean.split(" ", 1)[0]
    if width // 2 <= len(first) <= width:
        return first
    return clean[: width - 1].rstrip() + "…"


def card_text(game: Game, seats: Sequence[int] | None = None, language: str = ENGLISH) -> str:
    """The card of ``seats`` (default: every seat) as aligned lines, a column per seat, its
    words in ``language``."""
    _ = lang(language)
    chosen = list(range(len(game.seats))) if seats is None else list(seats)
    short = len(chosen) >= SHORT_FROM_SEATS
    labels = {row: short_label(row, language) if short else label(row, language)
              for row in STACKED_ROWS}  # fmt: skip
    label_w = max(len(labels[row]) for row in STACKED_ROWS)
    width = 4 if short else NAME_W
    player = _("Player")
    heads = [f"#{i + 1}" if short else _name(game.seats[i].name, width, player) for i in chosen]
    lines = [" " * label_w + "".join(f" {h:>{width}}" for h in heads)]
    for row in STACKED_ROWS:
        cells = "".join(f" {_cell(game.seats[i], row):>{width}}" for i in chosen)
        lines.append(f"{labels[row]:<{label_w}}{cells}")
        if row == "bonus":
            lines.append("-" * len(lines[0]))
    if short:  # whose column is whose: "#1 Ann  #2 Bob", wrapped to the table's width
        lines += _legend([f"#{i + 1} {_name(game.seats[i].name, LEGEND_NAME_W, player)}"
                          for i in chosen], len(lines[0]))  # fmt: skip
    return "\n".join(lines)


#: A name's longest form in the legend under a card whose columns are numbered.
LEGEND_NAME_W = 12


def _legend(entries: list[str], width: int) -> list[str]:
    """``entries`` on as few lines of at most ``width`` characters as they fit (two spaces
    apart; an entry longer than a line has one of its own)."""
    lines: list[str] = []
    for entry in entries:
        if lines and len(lines[-1]) + 2 + len(entry) <= width:
            lines[-1] += "  " + entry
        else:
            lines.append(entry)
    return lines


def code_block(text: str) -> str:
    """``text`` in a Discord code block."""
    return f"```\n{text}\n```"
