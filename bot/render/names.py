"""The players' names in a board's header: each whole at the largest size that fits its
column, else cut where a reader still tells it apart from the others (``header_names``), and
drawn on the header row (``draw_names``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine import (
    Seat,
)
from bot.i18n import ENGLISH, lang

from . import style as s
from .sheet import (
    CELL_PAD,
    FONT,
    HEADER_MIN_FONT,
    NARROW_COL_W,
    NARROW_HEADER_MIN_FONT,
    NARROW_HEADER_PAD,
    ROW_H,
    Layout,
)
from .text import ELLIPSIS, clean, fit, text_tile, text_width


@lru_cache(maxsize=1024)
def header_names(
    names: tuple[str, ...], col_w: int, empty: str = "Player"
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The names as a board's columns of ``col_w`` px show them, and each one's size in px.

    Every name whole, at the board's size or at the largest size down to
    ``HEADER_MIN_FONT`` at which they all fit. Else the names that fit at that size are
    drawn whole at it, and each other one is cut with an ellipsis to its column, after a
    whole word if one fits ("Optimal…", not "Optimal b…"), in a narrow column at
    ``NARROW_HEADER_MIN_FONT`` (a letter or two more: "Opt…", not "Op…"). Two names that
    would then read the same keep the end that tells them apart ("Player 1", "Player 2":
    "Pla…1", "Pla…2"). A name with nothing to draw is ``empty`` (the word "Player" in the
    game's language).
    """
    width = col_w - 2 * header_pad(col_w)
    whole = [clean(name, FONT, True) or clean(empty, FONT, True) for name in names]
    for size in range(FONT, HEADER_MIN_FONT - 1, -1):
        if all(text_width(name, size, True) <= width for name in whole):
            return tuple(whole), (size,) * len(whole)
    cut_size = NARROW_HEADER_MIN_FONT if col_w < NARROW_COL_W else HEADER_MIN_FONT
    fits = [text_width(name, HEADER_MIN_FONT, True) <= width for name in whole]
    shown = [
        name if ok else _cut(name, width, cut_size) for name, ok in zip(whole, fits, strict=True)
    ]
    sizes = tuple(HEADER_MIN_FONT if ok else cut_size for ok in fits)
    return tuple(_tell_apart(whole, shown, width, cut_size)), sizes


def names_fit(names: tuple[str, ...], col_w: int, empty: str = "Player") -> bool:
    """Whether every name heads a column of ``col_w`` px whole (``header_names``)."""
    shown, _size = header_names(names, col_w, empty)
    return all(ELLIPSIS not in name for name in shown)


def _cut(name: str, width: int, size: int) -> str:
    """``name`` cut to ``width`` px with an ellipsis, after as many letters as fit; a word
    begun with a letter or two only goes whole ("Optimal…", not "Optimal b…"), unless
    nothing much is left before it ("🦊 F…" stays)."""
    cut = _cut_at_word(fit(name, width, size, True))
    if not cut.endswith(ELLIPSIS):
        return cut
    head, space, begun = cut[: -len(ELLIPSIS)].rpartition(" ")
    head = head.rstrip(" ([{")
    if space and len(begun) <= 2 and sum(char.isalnum() for char in head) >= 3:
        return head + ELLIPSIS
    return cut


def _cut_at_word(shown: str) -> str:
    """A cut name without a space or an opening bracket dangling before its ellipsis
    ("Zen (…" reads "Zen…")."""
    if not shown.endswith(ELLIPSIS):
        return shown
    kept = shown[: -len(ELLIPSIS)].rstrip(" ([{")
    return kept + ELLIPSIS if kept else shown


def header_pad(col_w: int) -> int:
    return NARROW_HEADER_PAD if col_w < NARROW_COL_W else CELL_PAD


def _tell_apart(whole: list[str], shown: list[str], width: int, size: int) -> list[str]:
    """``shown`` (names cut to ``width``), where two different names read the same, each
    cut in the middle instead: as much of its start as fits, an ellipsis, and the shortest
    end that no such twin of it has."""
    out = list(shown)
    for i, name in enumerate(whole):
        twins = [other for j, other in enumerate(whole) if shown[j] == shown[i] and other != name]
        if not twins:
            continue  # told apart already
        ends = (name[-k:] for k in range(1, len(name)))
        end = next((e for e in ends if not any(t.endswith(e) for t in twins)), None)
        if end is None:
            continue  # the name is the end of its twin's: nothing of it tells them apart
        start = name[: len(name) - len(end)]
        for cut in range(len(start), -1, -1):
            candidate = start[:cut].rstrip() + ELLIPSIS + end.lstrip()
            if text_width(candidate, size, True) <= width:
                out[i] = candidate
                break
    return out


def draw_names(
    image: Image.Image,
    lay: Layout,
    seats: Sequence[Seat],
    gold: frozenset[int],
    current: int | None,
    language: str = ENGLISH,
) -> None:
    _ = lang(language)
    draw = ImageDraw.Draw(image)
    names, sizes = header_names(tuple(seat.name for seat in seats), lay.col_w, _("Player"))
    pad = header_pad(lay.col_w)
    for c, (name, size) in enumerate(zip(names, sizes, strict=True)):
        bg = s.HILITE_HEADER if c in gold or c == current else s.HEADER
        tile = text_tile(name, lay.col_w - 2 * pad, ROW_H - 2, s.HEADER_TEXT, bg, size, True)
        for p in range(len(lay.panels)):
            x = lay.col_x(p, c)
            box = (x, lay.row_y(-1), x + lay.col_w - 1, lay.row_y(0) - 1)
            draw.rectangle(box, fill=s.index_of(bg))
            image.paste(tile, (x + pad, lay.row_y(-1) + 1))
