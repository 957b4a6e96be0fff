"""The game's pictures: the turn image, the final image and one player's scorecard.

Pure functions from engine state to PNG bytes. Everything that does not change within a
game (the dice sprites, the empty grid for a seat count, the labels, every text tile) is
drawn once and cached; a call pastes the pieces that changed and encodes a palette PNG.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from bot.engine import DICE_COUNT, LOWER, ROLLS_PER_TURN, ROUNDS, UPPER, Category, Game, Seat
from bot.engine import UPPER_BONUS_THRESHOLD as TARGET

from . import style as s
from .text import fit, has_glyph, text_tile

# Rows of the table, top to bottom, after the row of names.
ROWS: tuple[str | Category, ...] = (*UPPER, "upper", "bonus", *LOWER, "ybonus", "total")
# The engine's box names, shortened where a phone-width column needs it.
LABELS: dict[str | Category, str] = {
    **{c: c.label for c in Category},
    "upper": "Upper",
    "bonus": "Bonus 63+",
    Category.THREE_OF_A_KIND: "3 of a kind",
    Category.FOUR_OF_A_KIND: "4 of a kind",
    Category.FULL_HOUSE: "Full house",
    Category.SMALL_STRAIGHT: "Sm straight",
    Category.LARGE_STRAIGHT: "Lg straight",
    "ybonus": "Yahtzee +",
    "total": "Total",
}
BAND_ROWS = frozenset({"upper", "bonus", "ybonus", "total"})
FORBIDDEN_MARK = "\u2715" if has_glyph("\u2715", s.FONT_SIZE, False) else "x"
BAR_H = 4
PLACE_ROW_LABEL = "Place"
NARROW_COL_W = 100  # below this a column's header shows the seat number, not the name


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes for a given number of columns and strips."""

    columns: int
    col_w: int
    width: int
    top: int  # y of the table's row of names
    rows: int  # table rows after the names

    @property
    def height(self) -> int:
        return self.top + (1 + self.rows) * s.ROW_H

    def col_x(self, column: int) -> int:
        return s.LABEL_W + column * self.col_w

    def row_y(self, row: int) -> int:
        """y of a table row; row -1 is the row of names."""
        return self.top + (row + 1) * s.ROW_H


def layout(columns: int, top: int, extra_rows: int = 0) -> Layout:
    """The geometry for ``columns`` seats below a strip of ``top`` pixels."""
    col_w = max(s.MIN_COL_W, (s.MIN_WIDTH - s.LABEL_W) // columns)
    return Layout(columns, col_w, s.LABEL_W + columns * col_w, top, len(ROWS) + extra_rows)


@cache
def _sprite(face: int | None, held: bool) -> Image.Image:
    """A die sprite composed onto the felt, in the palette."""
    name = "die-blank.png" if face is None else f"die-{face}{'-held' if held else ''}.png"
    sprite = Image.open(s.DICE_DIR / name).convert("RGBA")
    tile = Image.new("RGB", sprite.size, s.FELT)
    tile.paste(sprite, (0, 0), sprite)
    return s.to_palette(tile)


def _cell_bg(row: str | Category, highlighted: bool, gold: bool = False) -> s.RGB:
    if gold:
        return s.HILITE
    band = row in BAND_ROWS or row == PLACE_ROW_LABEL
    if highlighted:
        return s.HILITE_BAND if band else s.HILITE
    return s.BAND if band else s.PAPER


@cache
def _base(columns: int, highlighted: frozenset[int], top: int, extra_rows: int) -> Image.Image:
    """The empty sheet for a seat count and highlighted columns: bands, grid, labels."""
    lay = layout(columns, top, extra_rows)
    rows: list[str | Category] = [*ROWS, *([PLACE_ROW_LABEL] * extra_rows)]
    image = Image.new("RGB", (lay.width, lay.height), s.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, lay.width, top - 1), fill=s.FELT)
    draw.rectangle((0, lay.row_y(-1), lay.width, lay.row_y(0) - 1), fill=s.HEADER)
    for r, row in enumerate(rows):
        y = lay.row_y(r)
        draw.rectangle((0, y, lay.width, y + s.ROW_H - 1), fill=_cell_bg(row, False))
        for c in highlighted:
            x = lay.col_x(c)
            draw.rectangle((x, y, x + lay.col_w - 1, y + s.ROW_H - 1), fill=_cell_bg(row, True))
        draw.line((0, y, lay.width, y), fill=s.GRID)
    for c in range(columns):
        x = lay.col_x(c)
        draw.line((x, lay.row_y(0), x, lay.height), fill=s.GRID)
    draw.line((0, lay.row_y(len(UPPER) + 2), lay.width, lay.row_y(len(UPPER) + 2)), fill=s.INK)
    image = s.to_palette(image)
    for r, row in enumerate(rows):
        bold = row == "total"
        label = fit(LABELS.get(row, str(row)), s.LABEL_W - 2 * s.PAD, s.FONT_SIZE, bold)
        tile = text_tile(
            label, s.LABEL_W - s.PAD, s.ROW_H - 2, s.INK, _cell_bg(row, False), s.FONT_SIZE,
            bold, "left",
        )  # fmt: skip
        image.paste(tile, (s.PAD, lay.row_y(r) + 1))
    return image


def _cell(
    image: Image.Image,
    lay: Layout,
    column: int,
    row: int,
    text: str,
    fg: s.RGB,
    bg: s.RGB,
    bold: bool = False,
    height: int = s.ROW_H - 2,
) -> None:
    tile = text_tile(text, lay.col_w - 2 * 4, height, fg, bg, s.FONT_SIZE, bold)
    image.paste(tile, (lay.col_x(column) + 4, lay.row_y(row) + 1))


def _draw_names(
    image: Image.Image,
    lay: Layout,
    seats: Sequence[Seat],
    gold: frozenset[int],
    current: int | None,
) -> None:
    for c, seat in enumerate(seats):
        bg = s.HILITE_HEADER if c in gold or c == current else s.HEADER
        width = lay.col_w - 8
        if lay.col_w < NARROW_COL_W:
            name = f"#{c + 1}"  # too narrow for names: the message lists seats by number
        else:
            name = fit(seat.name, width, s.FONT_SIZE, bold=True, empty="Player")
        fg = s.HEADER_TEXT
        tile = text_tile(name, width, s.ROW_H - 2, fg, bg, s.FONT_SIZE, True)
        x = lay.col_x(c)
        ImageDraw.Draw(image).rectangle(
            (x, lay.row_y(-1), x + lay.col_w - 1, lay.row_y(0) - 1), fill=s.index_of(bg)
        )
        image.paste(tile, (x + 4, lay.row_y(-1) + 1))


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
    card = seat.card
    for r, row in enumerate(ROWS):
        bg = _cell_bg(row, highlighted)
        text, fg, bold = "", s.INK, False
        if isinstance(row, Category):
            value = card[row]
            if value is not None and not (preview and row is Category.YAHTZEE and row in preview):
                text = str(value)
            elif value is not None:
                text = str(value)  # bonus-turn: the box keeps its 50; the bonus shows below
            elif preview is not None and row in preview:
                text, fg = str(preview[row]), s.PREVIEW
                if joker:
                    bg = s.JOKER
            elif preview is not None and joker:
                text, fg = FORBIDDEN_MARK, s.FORBID
            if seat.left and value is None:
                text, fg = "", s.MUTED
        elif row == "upper":
            text = str(card.upper_total)
        elif row == "bonus":
            if card.upper_bonus:
                text = str(card.upper_bonus)
            elif all(card.is_filled(c) for c in UPPER):
                text, fg = "0", s.MUTED
        elif row == "ybonus":
            if bonus_preview:
                total = card.yahtzee_bonus + bonus_preview
                text, fg = f"+{total}" if not card.yahtzee_bonus else str(total), s.PREVIEW
            elif card.yahtzee_bonus:
                text = str(card.yahtzee_bonus)
        elif row == "total":
            text, bold = str(card.total), True
        if bg != _cell_bg(row, highlighted):
            x, y = lay.col_x(column), lay.row_y(r)
            ImageDraw.Draw(image).rectangle(
                (x + 1, y + 1, x + lay.col_w - 1, y + s.ROW_H - 1), fill=s.index_of(bg)
            )
        if row == "upper":  # the number sits higher, above its progress bar
            _cell(image, lay, column, r, text, fg, bg, bold, s.ROW_H - BAR_H - 6)
            _draw_progress(image, lay, column, r, card.upper_total)
        elif text:
            _cell(image, lay, column, r, text, fg, bg, bold)


def _draw_progress(image: Image.Image, lay: Layout, column: int, row: int, upper: int) -> None:
    """A thin bar under the upper subtotal: how far it is towards 63."""
    x0 = lay.col_x(column) + 8
    x1 = lay.col_x(column) + lay.col_w - 8
    y = lay.row_y(row) + s.ROW_H - BAR_H - 2
    draw = ImageDraw.Draw(image)
    draw.rectangle((x0, y, x1, y + BAR_H - 1), fill=s.index_of(s.BAR_EMPTY))
    filled = x0 + round((x1 - x0) * min(upper, TARGET) / TARGET)
    if filled > x0:
        draw.rectangle((x0, y, filled, y + BAR_H - 1), fill=s.index_of(s.BAR))


def _title(image: Image.Image, width: int, left: str, right: str) -> None:
    right_w = min(200, round(s.font(s.FONT_SIZE).getlength(right)) + 4)
    left_w = width - right_w - 3 * s.PAD
    left_tile = text_tile(
        fit(left, left_w, s.FONT_SIZE, True), left_w, s.TITLE_H, s.FELT_TEXT, s.FELT,
        s.FONT_SIZE, True, "left",
    )  # fmt: skip
    image.paste(left_tile, (s.PAD, 0))
    right_tile = text_tile(
        fit(right, right_w, s.FONT_SIZE), right_w, s.TITLE_H, s.FELT_MUTED, s.FELT, s.FONT_SIZE,
        False, "right",
    )  # fmt: skip
    image.paste(right_tile, (width - right_w - s.PAD, 0))


def dice_slot(index: int, width: int) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) of die ``index``'s sprite and caption."""
    row_w = DICE_COUNT * s.DIE_SIZE + (DICE_COUNT - 1) * s.DIE_GAP
    x = (width - row_w) // 2 + index * (s.DIE_SIZE + s.DIE_GAP)
    return (x, s.TITLE_H, x + s.DIE_SIZE, s.TITLE_H + s.DICE_H)


def _draw_dice(image: Image.Image, width: int, game: Game) -> None:
    for i in range(DICE_COUNT):
        x, y, _, _ = dice_slot(i, width)
        if game.dice is None:
            image.paste(_sprite(None, False), (x, y))
            continue
        held = game.held[i]
        image.paste(_sprite(game.dice[i], held), (x, y))
        if held:
            caption = text_tile(
                "HELD", s.DIE_SIZE, 24, s.FELT_TEXT, s.FELT, s.SMALL_FONT_SIZE, True
            )
            image.paste(caption, (x, y + s.DIE_SIZE))


#: zlib level of the live board, drawn at every click: level 2 encodes in 1.3 ms instead of
#: level 6's 3.2 ms (2 seats), for 25 KB instead of 21 KB. Images drawn once keep level 6.
LIVE_BOARD_COMPRESSION = 2


def _encode(image: Image.Image, level: int = 6) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=level)
    return buffer.getvalue()


def _status(game: Game) -> str:
    seat = game.current_seat
    if game.dice is None:
        return f"Round {game.round}/{ROUNDS} · {seat.name} to roll"
    return f"Round {game.round}/{ROUNDS} · Roll {game.rolls_used} of {ROLLS_PER_TURN}"


def turn_image(game: Game) -> Image.Image:
    """The live board: dice with holds over every seat's column, the current one previewed."""
    top = s.TITLE_H + s.DICE_H
    lay = layout(len(game.seats), top)
    current = game.current
    image = _base(len(game.seats), frozenset({current}), top, 0).copy()
    _title(image, lay.width, _status(game), game.preset.title)
    _draw_dice(image, lay.width, game)
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
    top = s.TITLE_H
    standings = game.standings()
    winners = frozenset(st.seat for st in standings if st.place == 1)
    lay = layout(len(game.seats), top, extra_rows=1)
    image = _base(len(game.seats), winners, top, 1).copy()
    names = ", ".join(game.seats[w].name for w in sorted(winners)) or "nobody"
    _title(image, lay.width, f"Game over · {names} won", game.preset.title)
    _draw_names(image, lay, game.seats, winners, None)
    place_of = {st.seat: st.place for st in standings}
    for c, seat in enumerate(game.seats):
        _draw_column(image, lay, c, seat, c in winners, None, False, 0)
        place = place_of.get(c)
        label = ordinal(place) if place is not None else "left"
        fg = s.INK if place is not None else s.MUTED
        _cell(image, lay, c, len(ROWS), label, fg, _cell_bg(PLACE_ROW_LABEL, c in winners), True)
    return image


def render_final(game: Game) -> bytes:
    """PNG bytes of the final scorecard with places, winners highlighted."""
    return _encode(final_image(game))


def scorecard_image(game: Game, seat_index: int) -> Image.Image:
    """One player's sheet; their open boxes are previewed if it is their turn and dice lie."""
    seat = game.seats[seat_index]
    top = s.TITLE_H
    lay = layout(1, top)
    is_current = seat_index == game.current and not game.is_over
    image = _base(1, frozenset({0}) if is_current else frozenset(), top, 0).copy()
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
