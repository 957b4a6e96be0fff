"""The game's pictures: the turn image, the final image and one player's scorecard.

Pure functions from engine state to PNG bytes. Everything that does not change within a
game (the dice sprites, the empty grid for a seat count, the labels, every text tile) is
drawn once and cached; a call pastes the pieces that changed and encodes a palette PNG.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.engine import (
    DICE_COUNT,
    LOWER,
    ROLLS_PER_TURN,
    ROUNDS,
    UPPER,
    Category,
    Game,
    Scorecard,
    Seat,
)
from bot.engine import UPPER_BONUS_THRESHOLD as TARGET

from . import style as s
from .text import ELLIPSIS, clean, fit, has_glyph, text_tile, text_width

Row = str | Category

# The two sections, each a table of its own with the row of names on top. At 1-4 seats
# they stand side by side (a landscape board); at 5-8 one table holds both, upper first.
UPPER_ROWS: tuple[Row, ...] = (*UPPER, "upper", "bonus", "uppertotal")
LOWER_ROWS: tuple[Row, ...] = (*LOWER, "ybonus", "total")
STACKED_ROWS: tuple[Row, ...] = (*UPPER, "upper", "bonus", *LOWER, "ybonus", "total")
SIDE_BY_SIDE_SEATS = 4
PLACE = "place"  # the final sheet's last row
# The engine's box names, shortened where a phone-width column needs it.
LABELS: dict[Row, str] = {
    **{c: c.label for c in Category},
    "upper": "Upper",
    "bonus": "Bonus 63+",
    "uppertotal": "Upper total",
    Category.THREE_OF_A_KIND: "3 of a kind",
    Category.FOUR_OF_A_KIND: "4 of a kind",
    Category.FULL_HOUSE: "Full house",
    Category.SMALL_STRAIGHT: "Sm straight",
    Category.LARGE_STRAIGHT: "Lg straight",
    "ybonus": "Yahtzee +",
    "total": "Total",
    PLACE: "Place",
}
BAND_ROWS = frozenset({"upper", "bonus", "uppertotal", "ybonus", "total", PLACE})
FONT = s.BOARD_FONT_SIZE
ROW_H = s.BOARD_ROW_H
FORBIDDEN_MARK = "\u2715" if has_glyph("\u2715", FONT, False) else "x"
BAR_H = 3
NARROW_COL_W = 80  # below this a column's names may shrink to fit (3, 4, 7 and 8 seats)
HEADER_MIN_FONT = 18  # px: as small as they shrink, before they are cut with an ellipsis
CELL_PAD = 4
NARROW_HEADER_PAD = 2  # a narrow column's name may come this close to its edges


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes: one or two panels of rows, each with a column per seat."""

    columns: int
    col_w: int
    top: int  # y of the tables' row of names
    panels: tuple[tuple[Row, ...], ...]
    width: int

    @property
    def panel_w(self) -> int:
        return s.BOARD_LABEL_W + self.columns * self.col_w

    @property
    def height(self) -> int:
        return self.top + (1 + max(len(rows) for rows in self.panels)) * ROW_H

    def panel_x(self, panel: int) -> int:
        return panel * (self.panel_w + s.GUTTER)

    def col_x(self, panel: int, column: int) -> int:
        return self.panel_x(panel) + s.BOARD_LABEL_W + column * self.col_w

    def row_y(self, row: int) -> int:
        """y of a table row; row -1 is the row of names."""
        return self.top + (row + 1) * ROW_H

    def find(self, row: Row) -> tuple[int, int]:
        """(panel, row index) of a row."""
        for p, rows in enumerate(self.panels):
            if row in rows:
                return p, rows.index(row)
        raise KeyError(row)

    def cell(self, column: int, row: Row) -> tuple[int, int, int, int]:
        """The box (left, top, right, bottom) of one seat's cell in a row."""
        p, r = self.find(row)
        x, y = self.col_x(p, column), self.row_y(r)
        return (x, y, x + self.col_w, y + ROW_H)


def layout(columns: int, top: int, final: bool = False, min_width: int = 0) -> Layout:
    """The geometry for ``columns`` seats below a felt strip of ``top`` pixels."""
    tail: tuple[Row, ...] = (PLACE,) if final else ()
    if columns <= SIDE_BY_SIDE_SEATS:
        col_w = (s.PANEL_W - s.BOARD_LABEL_W) // columns
        col_w = min(s.BOARD_MAX_COL_W, max(s.BOARD_MIN_COL_W, col_w))
        panels: tuple[tuple[Row, ...], ...] = ((*UPPER_ROWS, *tail), (*LOWER_ROWS, *tail))
        width = 2 * (s.BOARD_LABEL_W + columns * col_w) + s.GUTTER
    else:
        col_w = max(s.BOARD_MIN_COL_W, (s.BOARD_MIN_WIDTH - s.BOARD_LABEL_W) // columns)
        panels = ((*STACKED_ROWS, *tail),)
        width = s.BOARD_LABEL_W + columns * col_w
    return Layout(columns, col_w, top, panels, max(width, min_width))


@cache
def _sprite(face: int | None, held: bool) -> Image.Image:
    """A die sprite composed onto the felt, in the palette."""
    name = "die-blank.png" if face is None else f"die-{face}{'-held' if held else ''}.png"
    sprite = Image.open(s.DICE_DIR / name).convert("RGBA")
    tile = Image.new("RGB", sprite.size, s.FELT)
    tile.paste(sprite, (0, 0), sprite)
    return s.to_palette(tile)


def _cell_bg(row: Row, highlighted: bool, gold: bool = False) -> s.RGB:
    if gold:
        return s.HILITE
    band = row in BAND_ROWS
    if highlighted:
        return s.HILITE_BAND if band else s.HILITE
    return s.BAND if band else s.PAPER


@cache
def _base(
    columns: int, highlighted: frozenset[int], top: int, final: bool, width: int
) -> Image.Image:
    """The empty sheet for a seat count and highlighted columns: bands, grid, labels."""
    lay = layout(columns, top, final, width)
    image = Image.new("RGB", (lay.width, lay.height), s.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, lay.width, lay.height), fill=s.FELT)
    for p, rows in enumerate(lay.panels):
        x0 = lay.panel_x(p)
        x1 = lay.width - 1 if p == len(lay.panels) - 1 else x0 + lay.panel_w - 1
        draw.rectangle((x0, lay.row_y(-1), x1, lay.row_y(0) - 1), fill=s.HEADER)
        for r, row in enumerate(rows):
            y = lay.row_y(r)
            draw.rectangle((x0, y, x1, y + ROW_H - 1), fill=_cell_bg(row, False))
            for c in highlighted:
                x = lay.col_x(p, c)
                draw.rectangle((x, y, x + lay.col_w - 1, y + ROW_H - 1), fill=_cell_bg(row, True))
            draw.line((x0, y, x1, y), fill=s.GRID)
            if row == LOWER[0] and r:  # stacked: the lower section starts under a rule
                draw.line((x0, y, x1, y), fill=s.INK)
        bottom = lay.row_y(len(rows)) - 1
        if bottom < lay.height - 1:  # the shorter panel: paper to the bottom
            draw.rectangle((x0, bottom + 1, x1, lay.height - 1), fill=s.PAPER)
        for c in range(columns):
            x = lay.col_x(p, c)
            draw.line((x, lay.row_y(0), x, bottom), fill=s.GRID)
    image = s.to_palette(image)
    for p, rows in enumerate(lay.panels):
        for r, row in enumerate(rows):
            bold = row == "total"
            inner = s.BOARD_LABEL_W - 2 * CELL_PAD - 2
            label = fit(LABELS.get(row, str(row)), inner, FONT, bold)
            tile = text_tile(
                label, inner, ROW_H - 2, s.INK, _cell_bg(row, False), FONT, bold, "left"
            )
            image.paste(tile, (lay.panel_x(p) + CELL_PAD + 2, lay.row_y(r) + 1))
    return image


def _cell(
    image: Image.Image,
    lay: Layout,
    column: int,
    row: Row,
    text: str,
    fg: s.RGB,
    bg: s.RGB,
    bold: bool = False,
    height: int = ROW_H - 2,
) -> None:
    """Write a cell's text in every panel that has the row (the final's places are in both)."""
    tile = text_tile(text, lay.col_w - 2 * CELL_PAD, height, fg, bg, FONT, bold)
    for p, rows in enumerate(lay.panels):
        if row in rows:
            image.paste(tile, (lay.col_x(p, column) + CELL_PAD, lay.row_y(rows.index(row)) + 1))


@lru_cache(maxsize=1024)
def header_names(names: tuple[str, ...], col_w: int) -> tuple[tuple[str, ...], int]:
    """The names as a board's columns of ``col_w`` px show them, and their size in px.

    Every name whole, at the board's size or, in a narrow column, at the largest size down
    to ``HEADER_MIN_FONT`` at which they all fit; else at that size, each cut with an
    ellipsis to its column. Two names that would then read the same keep the end that tells
    them apart ("Player 1", "Player 2": "Pla…1", "Pla…2").
    """
    width = col_w - 2 * _header_pad(col_w)
    smallest = HEADER_MIN_FONT if col_w < NARROW_COL_W else FONT
    whole = [clean(name, FONT, True) or "Player" for name in names]
    for size in range(FONT, smallest - 1, -1):
        if all(text_width(name, size, True) <= width for name in whole):
            return tuple(whole), size
    shown = [fit(name, width, smallest, True) for name in whole]
    return tuple(_tell_apart(whole, shown, width, smallest)), smallest


def _header_pad(col_w: int) -> int:
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


def _draw_names(
    image: Image.Image,
    lay: Layout,
    seats: Sequence[Seat],
    gold: frozenset[int],
    current: int | None,
) -> None:
    draw = ImageDraw.Draw(image)
    names, size = header_names(tuple(seat.name for seat in seats), lay.col_w)
    pad = _header_pad(lay.col_w)
    for c, name in enumerate(names):
        bg = s.HILITE_HEADER if c in gold or c == current else s.HEADER
        tile = text_tile(name, lay.col_w - 2 * pad, ROW_H - 2, s.HEADER_TEXT, bg, size, True)
        for p in range(len(lay.panels)):
            x = lay.col_x(p, c)
            box = (x, lay.row_y(-1), x + lay.col_w - 1, lay.row_y(0) - 1)
            draw.rectangle(box, fill=s.index_of(bg))
            image.paste(tile, (x + pad, lay.row_y(-1) + 1))


def _draw_column(
    image: Image.Image,
    lay: Layout,
    column: int,
    seat: Seat,
    highlighted: bool,
    preview: dict[Category, int] | None,
    joker: bool,
    bonus_preview: int,
) -> None:
    """Paste one seat's column, drawn once per state of its card and previews (cached)."""
    shown = None if preview is None else tuple(preview.items())
    tiles = _column_tiles(
        lay, column, seat.card, seat.left, highlighted, shown, joker, bonus_preview
    )
    for p, tile in enumerate(tiles):
        image.paste(tile, (lay.col_x(p, column), lay.row_y(0)))


#: Seats' columns kept drawn: at most ``COLUMN_CACHE`` (each ~100 KB of pixels: 1,024 of them
#: held ~100 MB in the drawing process at 1,000 games). A column with the dice's preview
#: changes with every roll; the others' columns are the ones reused.
COLUMN_CACHE = 128


@lru_cache(maxsize=COLUMN_CACHE)
def _column_tiles(
    lay: Layout,
    column: int,
    card: Scorecard,
    left: bool,
    highlighted: bool,
    preview: tuple[tuple[Category, int], ...] | None,
    joker: bool,
    bonus_preview: int,
) -> tuple[Image.Image, ...]:
    """A seat's column, one tile per panel: a hold or another seat's click reuses it."""
    final = PLACE in lay.panels[0]
    lit = frozenset({column}) if highlighted else frozenset()
    image = _base(lay.columns, lit, lay.top, final, lay.width).copy()
    shown = None if preview is None else dict(preview)
    for rows in lay.panels:
        for row in rows:
            if row != PLACE:
                _draw_cell(image, lay, column, row, card, left, highlighted, shown, joker,
                           bonus_preview)  # fmt: skip
    tiles = []
    for p, rows in enumerate(lay.panels):
        x = lay.col_x(p, column)
        tiles.append(image.crop((x, lay.row_y(0), x + lay.col_w, lay.row_y(len(rows)))))
    return tuple(tiles)


def _draw_cell(
    image: Image.Image,
    lay: Layout,
    column: int,
    row: Row,
    card: Scorecard,
    left: bool,
    highlighted: bool,
    preview: dict[Category, int] | None,
    joker: bool,
    bonus_preview: int,
) -> None:
    bg = _cell_bg(row, highlighted)
    text, fg, bold = "", s.INK, False
    if isinstance(row, Category):
        value = card[row]
        if value is not None:
            text = str(value)  # a bonus turn's Yahtzee keeps its 50; the bonus shows below
        elif preview is not None and row in preview:
            text, fg = str(preview[row]), s.PREVIEW
            if joker:
                bg = s.JOKER
        elif preview is not None and joker:
            text, fg = FORBIDDEN_MARK, s.FORBID
        if left and value is None:
            text, fg = "", s.MUTED
    elif row == "upper":
        text = str(card.upper_total)
    elif row == "bonus":
        if card.upper_bonus:
            text = str(card.upper_bonus)
        elif all(card.is_filled(c) for c in UPPER):
            text, fg = "0", s.MUTED
    elif row == "uppertotal":
        text = str(card.upper_total + card.upper_bonus)
    elif row == "ybonus":
        if bonus_preview:
            text, fg = f"+{bonus_preview}", s.PREVIEW  # what this roll adds, always
        elif card.yahtzee_bonus:
            text = str(card.yahtzee_bonus)
    elif row == "total":
        text, bold = str(card.total), True
    x0, y0, x1, y1 = lay.cell(column, row)
    if bg != _cell_bg(row, highlighted):
        ImageDraw.Draw(image).rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=s.index_of(bg))
    if row == "upper":  # the number sits higher, above its progress bar
        _cell(image, lay, column, row, text, fg, bg, bold, ROW_H - BAR_H - 4)
        _draw_progress(image, lay, column, card.upper_total)
    elif text:
        _cell(image, lay, column, row, text, fg, bg, bold)


def _draw_progress(image: Image.Image, lay: Layout, column: int, upper: int) -> None:
    """A thin bar under the upper subtotal: how far it is towards 63."""
    x0, _, x1, y1 = lay.cell(column, "upper")
    x0, x1, y = x0 + 8, x1 - 8, y1 - BAR_H - 3
    draw = ImageDraw.Draw(image)
    draw.rectangle((x0, y, x1, y + BAR_H - 1), fill=s.index_of(s.BAR_EMPTY))
    filled = x0 + round((x1 - x0) * min(upper, TARGET) / TARGET)
    if filled > x0:
        draw.rectangle((x0, y, filled, y + BAR_H - 1), fill=s.index_of(s.BAR))


def _line(
    image: Image.Image, x: int, y: int, width: int, height: int, text: str, fg: s.RGB,
    bold: bool = False, align: str = "left",
) -> None:  # fmt: skip
    """One line of felt text, shortened to fit ``width``."""
    tile = text_tile(fit(text, width, FONT, bold), width, height, fg, s.FELT, FONT, bold, align)
    image.paste(tile, (x, y))


def _title(image: Image.Image, width: int, left: str, right: str) -> None:
    """The felt title of a sheet without dice: what it is on the left, the preset on the right."""
    right_w = min(200, round(text_width(right, FONT)) + 4)
    left_w = width - right_w - 3 * s.PAD
    _line(image, s.PAD, 0, left_w, s.BOARD_TITLE_H, left, s.FELT_TEXT, True)
    _line(image, width - right_w - s.PAD, 0, right_w, s.BOARD_TITLE_H, right, s.FELT_MUTED,
          align="right")  # fmt: skip


def dice_slot(index: int) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) of die ``index``'s sprite on the felt strip."""
    x = s.PAD + index * (s.DIE_SIZE + s.DIE_GAP)
    y = (s.STRIP_H - s.DIE_SIZE) // 2
    return (x, y, x + s.DIE_SIZE, y + s.DIE_SIZE)


DICE_ROW_W = dice_slot(DICE_COUNT - 1)[2]


def _draw_dice(image: Image.Image, game: Game) -> None:
    # The dice as rolled, never which are held: a hold changes only the board's buttons
    # (the picture is not drawn again for it), so the picture must not show holds either.
    for i in range(DICE_COUNT):
        x, y, _, _ = dice_slot(i)
        image.paste(_sprite(game.dice[i] if game.dice is not None else None, False), (x, y))


def _strip_text(image: Image.Image, width: int, game: Game) -> None:
    """Beside the dice: whose turn it is and the preset, then the round and the roll."""
    x = DICE_ROW_W + 2 * s.PAD
    inner = width - x - s.PAD
    half = s.STRIP_H // 2
    preset = game.preset.title
    preset_w = min(inner // 2, round(text_width(preset, FONT)) + 4)
    name_w = inner - preset_w - s.PAD
    _line(image, x, 4, name_w, half - 4, game.current_seat.name, s.FELT_TEXT, True)
    _line(image, x + inner - preset_w, 4, preset_w, half - 4, preset, s.FELT_MUTED, align="right")
    _line(image, x, half, inner, half - 4, _status(game), s.FELT_TEXT)


#: zlib level of the live board, drawn at every click: level 2 encodes in 1.3 ms instead of
#: level 6's 3.2 ms (2 seats), for 25 KB instead of 21 KB. Images drawn once keep level 6.
LIVE_BOARD_COMPRESSION = 2


def _encode(image: Image.Image, level: int = 6) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=level)
    return buffer.getvalue()


def _status(game: Game) -> str:
    if game.dice is None:
        return f"Round {game.round}/{ROUNDS} · to roll"
    return f"Round {game.round}/{ROUNDS} · Roll {game.rolls_used} of {ROLLS_PER_TURN}"


def turn_image(game: Game) -> Image.Image:
    """The live board: the dice (holds are on the buttons only), then every seat's column, the
    current one previewed."""
    seats = len(game.seats)
    current = game.current
    lay = layout(seats, s.STRIP_H, min_width=s.BOARD_MIN_WIDTH)
    image = _base(seats, frozenset({current}), s.STRIP_H, False, lay.width).copy()
    _draw_dice(image, game)
    _strip_text(image, lay.width, game)
    _draw_names(image, lay, game.seats, frozenset(), current)
    seat = game.current_seat
    preview = game.options() if game.dice is not None else None
    joker = game.dice is not None and seat.card.joker_applies(game.dice)
    for c, other in enumerate(game.seats):
        is_current = c == current
        bonus = 0
        if is_current and game.dice is not None:
            bonus = other.card.bonus_for(game.dice) or (
                100 if other.card.bonus_turn_available(game.dice) else 0
            )
        _draw_column(
            image, lay, c, other, is_current, preview if is_current else None, joker, bonus
        )
    return image


def render_turn(game: Game) -> bytes:
    """PNG bytes of the live board for ``game``."""
    return _encode(turn_image(game), LIVE_BOARD_COMPRESSION)


def final_image(game: Game) -> Image.Image:
    """The final sheet: every column, winners highlighted, and a row of places."""
    top = s.BOARD_TITLE_H
    standings = game.standings()
    winners = frozenset(st.seat for st in standings if st.place == 1)
    lay = layout(len(game.seats), top, final=True)
    image = _base(len(game.seats), winners, top, True, lay.width).copy()
    names = ", ".join(game.seats[w].name for w in sorted(winners)) or "nobody"
    _title(image, lay.width, f"Game over · {names} won", game.preset.title)
    _draw_names(image, lay, game.seats, winners, None)
    place_of = {st.seat: st.place for st in standings}
    for c, seat in enumerate(game.seats):
        _draw_column(image, lay, c, seat, c in winners, None, False, 0)
        place = place_of.get(c)
        label = ordinal(place) if place is not None else "left"
        fg = s.INK if place is not None else s.MUTED
        _cell(image, lay, c, PLACE, label, fg, _cell_bg(PLACE, c in winners), True)
    return image


def render_final(game: Game) -> bytes:
    """PNG bytes of the final scorecard with places, winners highlighted."""
    return _encode(final_image(game))


def scorecard_image(game: Game, seat_index: int) -> Image.Image:
    """One player's sheet; their open boxes are previewed if it is their turn and dice lie."""
    seat = game.seats[seat_index]
    top = s.BOARD_TITLE_H
    lay = layout(1, top)
    is_current = seat_index == game.current and not game.is_over
    image = _base(1, frozenset({0}) if is_current else frozenset(), top, False, lay.width).copy()
    _title(image, lay.width, f"{seat.name} · {seat.card.total} points", game.preset.title)
    _draw_names(image, lay, [seat], frozenset(), 0 if is_current else None)
    preview = game.options() if is_current and game.dice is not None else None
    joker = preview is not None and game.dice is not None and seat.card.joker_applies(game.dice)
    bonus = 0
    if preview is not None and game.dice is not None:
        bonus = seat.card.bonus_for(game.dice)
    _draw_column(image, lay, 0, seat, is_current, preview, joker, bonus)
    return image


def render_scorecard(game: Game, seat_index: int) -> bytes:
    """PNG bytes of one player's scorecard."""
    return _encode(scorecard_image(game, seat_index))


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"
