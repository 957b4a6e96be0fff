"""The scorecard grid the game's pictures are made of: its rows and their words, its layout
for a number of seats, the players' names in the header, and every cell, each drawn once and
cached (``cards`` puts them together).

Every word is in the game's language, written ``_("...")`` here with its English text, as in
``cards``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.engine import (
    LOWER,
    UPPER,
    Category,
    Scorecard,
    Seat,
)
from bot.engine import UPPER_BONUS_THRESHOLD as TARGET
from bot.i18n import ENGLISH, Lang, lang

from . import style as s
from .text import clean, fit, has_glyph, text_tile, text_width

Row = str | Category

# The two sections, each a table of its own with the row of names on top. At 1-4 seats
# they stand side by side (a landscape board); at 5-8 one table holds both, upper first.
UPPER_ROWS: tuple[Row, ...] = (*UPPER, "upper", "bonus", "uppertotal")
LOWER_ROWS: tuple[Row, ...] = (*LOWER, "ybonus", "total")
STACKED_ROWS: tuple[Row, ...] = (*UPPER, "upper", "bonus", *LOWER, "ybonus", "total")
SIDE_BY_SIDE_SEATS = 4
PLACE = "place"  # the final sheet's last row
BAND_ROWS = frozenset({"upper", "bonus", "uppertotal", "ybonus", "total", PLACE})
FONT = s.BOARD_FONT_SIZE
ROW_H = s.BOARD_ROW_H
FORBIDDEN_MARK = "\u2715" if has_glyph("\u2715", FONT, False) else "x"
BAR_H = 3
NARROW_COL_W = 80  # below this a column is narrow (3, 4, 7 and 8 seats): see the names
HEADER_MIN_FONT = 18  # px: as small as names shrink in a column, before they are cut
NARROW_HEADER_MIN_FONT = 16  # px: in a narrow column, where every letter shown counts
CELL_PAD = 4
NARROW_HEADER_PAD = 2  # a narrow column's name may come this close to its edges
LABEL_INNER = s.BOARD_LABEL_W - 2 * CELL_PAD - 2  # px a row's label may take (122)
LABEL_MIN_FONT = 20  # px: a long label shrinks to this (12.5 px shown 400 px wide)
STATUS_MIN_FONT = 20  # px: the strip's "Round 13/13 · Roll 3 of 3" likewise


def row_words(row: Row, language: str = ENGLISH) -> tuple[str, ...]:
    """What a row of the sheet is called in ``language``, the words to try in order: for
    the five boxes whose English name is too long for the label column, the board's own
    word first ("Sm straight", which a catalog gives as the language's short form), then
    the box's name (``_(category.label)``); else the box's or the sum's name. A board word
    a catalog lacks comes after the box's name, so a missing one is never shown in
    English while the name is translated."""
    _ = lang(language)
    if row == "upper":
        return (_("Upper"),)
    if row == "bonus":
        # TRANSLATORS: the upper section's bonus row (35 points for 63 or more). The
        # board's label column: at most 11 characters, like every label of the sheet.
        return (_("Bonus 63+"),)
    if row == "uppertotal":
        # TRANSLATORS: the upper section's sum with its bonus; at most 11 characters.
        return (_("Upper total"),)
    if row == "ybonus":
        # TRANSLATORS: the row of Yahtzee bonuses (+100 each); the game's name, then " +".
        return (_("Yahtzee +"),)
    if row == "total":
        return (_("Total"),)
    if row == PLACE:
        # TRANSLATORS: the final sheet's last row: each player's place (1st, 2nd ...).
        return (_("Place"),)
    if not isinstance(row, Category):
        raise KeyError(row)
    name = _(row.label)
    english = _board_word(row, lang(ENGLISH))
    if english is None:
        return (name,)
    word = _board_word(row, _)
    assert word is not None
    return (word, name) if _.translates(english) else (name, word)


def _board_word(category: Category, _: Lang) -> str | None:
    """The board's own word for a box whose name is too long for its label column (and the
    text scorecard's: at most 11 characters and about 120 px at 23 px)."""
    if category is Category.THREE_OF_A_KIND:
        # TRANSLATORS: Three of a Kind on the board: at most 11 characters (else shortened).
        return _("3 of a kind")
    if category is Category.FOUR_OF_A_KIND:
        # TRANSLATORS: Four of a Kind on the board: at most 11 characters (else shortened).
        return _("4 of a kind")
    if category is Category.FULL_HOUSE:
        # TRANSLATORS: Full House on the board: at most 11 characters (else shortened).
        return _("Full house")
    if category is Category.SMALL_STRAIGHT:
        # TRANSLATORS: Small Straight on the board: at most 11 characters ("Kl. Straße").
        return _("Sm straight")
    if category is Category.LARGE_STRAIGHT:
        # TRANSLATORS: Large Straight on the board: at most 11 characters ("Gr. Straße").
        return _("Lg straight")
    return None


@lru_cache(maxsize=512)
def shrink_to_fit(
    words: tuple[str, ...], width: int, largest: int, smallest: int, bold: bool = False
) -> tuple[str, int]:
    """The first of ``words`` that fits ``width`` px at the largest size from ``largest``
    down to ``smallest``, and that size; if none does, the first cut with an ellipsis at
    ``smallest``. What it returns is never wider than ``width``."""
    cleaned = [clean(word, largest, bold) or "?" for word in words]
    for size in range(largest, smallest - 1, -1):
        for word in cleaned:
            if text_width(word, size, bold) <= width:
                return word, size
    return fit(cleaned[0], width, smallest, bold), smallest


def board_label(row: Row, language: str = ENGLISH) -> tuple[str, int]:
    """A row's label in the board's label column and its size in px: the first of its
    words (``row_words``) that fits the column at the board's 23 px, else at a size
    down to ``LABEL_MIN_FONT``, else cut; never wider than the column."""
    return shrink_to_fit(row_words(row, language), LABEL_INNER, FONT, LABEL_MIN_FONT,
                         row == "total")  # fmt: skip


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


def layout(
    columns: int, top: int, final: bool = False, min_width: int = 0, stacked: bool = False
) -> Layout:
    """The geometry for ``columns`` seats below a felt strip of ``top`` pixels: the two
    sections side by side up to ``SIDE_BY_SIDE_SEATS`` seats unless ``stacked``, else one
    above the other (the columns as wide as the picture allows)."""
    tail: tuple[Row, ...] = (PLACE,) if final else ()
    if columns <= SIDE_BY_SIDE_SEATS and not stacked:
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
def die_sprite(face: int | None, held: bool) -> Image.Image:
    """A die sprite composed onto the felt, in the palette."""
    name = "die-blank.png" if face is None else f"die-{face}{'-held' if held else ''}.png"
    sprite = Image.open(s.DICE_DIR / name).convert("RGBA")
    tile = Image.new("RGB", sprite.size, s.FELT)
    tile.paste(sprite, (0, 0), sprite)
    return s.to_palette(tile)


def cell_background(row: Row, highlighted: bool, gold: bool = False) -> s.RGB:
    if gold:
        return s.HILITE
    band = row in BAND_ROWS
    if highlighted:
        return s.HILITE_BAND if band else s.HILITE
    return s.BAND if band else s.PAPER


@cache
def grid_base(
    columns: int,
    highlighted: frozenset[int],
    top: int,
    final: bool,
    width: int,
    stacked: bool = False,
) -> Image.Image:
    """The empty sheet for a seat count and highlighted columns: bands, grid, labels."""
    lay = layout(columns, top, final, width, stacked)
    image = Image.new("RGB", (lay.width, lay.height), s.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, lay.width, lay.height), fill=s.FELT)
    for p, rows in enumerate(lay.panels):
        x0 = lay.panel_x(p)
        x1 = lay.width - 1 if p == len(lay.panels) - 1 else x0 + lay.panel_w - 1
        draw.rectangle((x0, lay.row_y(-1), x1, lay.row_y(0) - 1), fill=s.HEADER)
        for r, row in enumerate(rows):
            y = lay.row_y(r)
            draw.rectangle((x0, y, x1, y + ROW_H - 1), fill=cell_background(row, False))
            for c in highlighted:
                x = lay.col_x(p, c)
                draw.rectangle(
                    (x, y, x + lay.col_w - 1, y + ROW_H - 1), fill=cell_background(row, True)
                )
            draw.line((x0, y, x1, y), fill=s.GRID)
            if row == LOWER[0] and r:  # stacked: the lower section starts under a rule
                draw.line((x0, y, x1, y), fill=s.INK)
        bottom = lay.row_y(len(rows)) - 1
        if bottom < lay.height - 1:  # the shorter panel: paper to the bottom
            draw.rectangle((x0, bottom + 1, x1, lay.height - 1), fill=s.PAPER)
        for c in range(columns):
            x = lay.col_x(p, c)
            draw.line((x, lay.row_y(0), x, bottom), fill=s.GRID)
    return s.to_palette(image)


@lru_cache(maxsize=64)
def _label_column(rows: tuple[Row, ...], language: str) -> Image.Image:
    """A panel's column of row labels in ``language``, drawn as ``base`` draws the rest of
    its rows (bands and rules), to paste at the panel's left under the row of names."""
    image = Image.new("RGB", (s.BOARD_LABEL_W, len(rows) * ROW_H), s.PAPER)
    draw = ImageDraw.Draw(image)
    right = s.BOARD_LABEL_W - 1
    for r, row in enumerate(rows):
        y = r * ROW_H
        draw.rectangle((0, y, right, y + ROW_H - 1), fill=cell_background(row, False))
        draw.line((0, y, right, y), fill=s.GRID)
        if row == LOWER[0] and r:
            draw.line((0, y, right, y), fill=s.INK)
    image = s.to_palette(image)
    for r, row in enumerate(rows):
        label, size = board_label(row, language)
        tile = text_tile(label, LABEL_INNER, ROW_H - 2, s.INK, cell_background(row, False), size,
                         row == "total", "left")  # fmt: skip
        image.paste(tile, (CELL_PAD + 2, r * ROW_H + 1))
    return image


def draw_labels(image: Image.Image, lay: Layout, language: str) -> None:
    for p, rows in enumerate(lay.panels):
        image.paste(_label_column(rows, lang(language).code), (lay.panel_x(p), lay.row_y(0)))


def draw_cell_text(
    image: Image.Image,
    lay: Layout,
    column: int,
    row: Row,
    text: str,
    fg: s.RGB,
    bg: s.RGB,
    bold: bool = False,
    height: int = ROW_H - 2,
    size: int = FONT,
    pad: int = CELL_PAD,
) -> None:
    """Write a cell's text in every panel that has the row (the final's places are in both)."""
    tile = text_tile(text, lay.col_w - 2 * pad, height, fg, bg, size, bold)
    for p, rows in enumerate(lay.panels):
        if row in rows:
            image.paste(tile, (lay.col_x(p, column) + pad, lay.row_y(rows.index(row)) + 1))


def draw_column(
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
    stacked = len(lay.panels) == 1
    image = grid_base(lay.columns, lit, lay.top, final, lay.width, stacked).copy()
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
    bg = cell_background(row, highlighted)
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
    if bg != cell_background(row, highlighted):
        ImageDraw.Draw(image).rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=s.index_of(bg))
    if row == "upper":  # the number sits higher, above its progress bar
        draw_cell_text(image, lay, column, row, text, fg, bg, bold, ROW_H - BAR_H - 4)
        _draw_progress(image, lay, column, card.upper_total)
    elif text:
        draw_cell_text(image, lay, column, row, text, fg, bg, bold)


def _draw_progress(image: Image.Image, lay: Layout, column: int, upper: int) -> None:
    """A thin bar under the upper subtotal: how far it is towards 63."""
    x0, _, x1, y1 = lay.cell(column, "upper")
    x0, x1, y = x0 + 8, x1 - 8, y1 - BAR_H - 3
    draw = ImageDraw.Draw(image)
    draw.rectangle((x0, y, x1, y + BAR_H - 1), fill=s.index_of(s.BAR_EMPTY))
    filled = x0 + round((x1 - x0) * min(upper, TARGET) / TARGET)
    if filled > x0:
        draw.rectangle((x0, y, filled, y + BAR_H - 1), fill=s.index_of(s.BAR))


def draw_line(
    image: Image.Image, x: int, y: int, width: int, height: int, text: str, fg: s.RGB,
    bold: bool = False, align: str = "left",
) -> None:  # fmt: skip
    """One line of felt text, shortened to fit ``width``."""
    tile = text_tile(fit(text, width, FONT, bold), width, height, fg, s.FELT, FONT, bold, align)
    image.paste(tile, (x, y))


def draw_title(image: Image.Image, width: int, left: str, right: str) -> None:
    """The felt title of a sheet without dice: what it is on the left, the preset on the right."""
    right_w = min(200, round(text_width(right, FONT)) + 4)
    left_w = width - right_w - 3 * s.PAD
    draw_line(image, s.PAD, 0, left_w, s.BOARD_TITLE_H, left, s.FELT_TEXT, True)
    draw_line(image, width - right_w - s.PAD, 0, right_w, s.BOARD_TITLE_H, right, s.FELT_MUTED,
          align="right")  # fmt: skip
