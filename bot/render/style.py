"""The look shared by every image: colours, fonts, sizes and the fixed 256-colour palette.

Images are composed directly in palette ("P") mode from cached, pre-quantized pieces, so a
turn image costs a few pastes and a small PNG encode instead of a full-colour quantize.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import Image, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
DICE_DIR = Path(__file__).resolve().parents[2] / "assets" / "dice"

RGB = tuple[int, int, int]

# -- colours ---------------------------------------------------------------------------------
FELT: RGB = (36, 89, 59)  # the table the dice lie on
FELT_TEXT: RGB = (255, 255, 255)
FELT_MUTED: RGB = (190, 214, 199)
PAPER: RGB = (251, 248, 239)  # the score sheet
BAND: RGB = (238, 232, 214)  # sum rows
HEADER: RGB = (52, 58, 64)  # the row of player names
HEADER_TEXT: RGB = (255, 255, 255)
HILITE: RGB = (255, 233, 160)  # the current player's column
HILITE_BAND: RGB = (246, 219, 130)
HILITE_HEADER: RGB = (214, 151, 18)
INK: RGB = (31, 35, 40)  # filled scores and labels
MUTED: RGB = (134, 138, 144)  # open boxes, secondary text
PREVIEW: RGB = (37, 110, 196)  # what the current dice would score: lighter and blue
JOKER: RGB = (196, 234, 196)  # a box the Joker allows
FORBID: RGB = (196, 62, 52)  # a box the Joker forbids
GRID: RGB = (214, 206, 186)
BAR: RGB = (60, 150, 86)  # upper-section progress
BAR_EMPTY: RGB = (214, 206, 186)
GOLD: RGB = (214, 151, 18)  # winner
WHITE: RGB = (255, 255, 255)

UI_COLOURS: tuple[RGB, ...] = (
    FELT, FELT_TEXT, FELT_MUTED, PAPER, BAND, HEADER, HEADER_TEXT, HILITE, HILITE_BAND,
    HILITE_HEADER, INK, MUTED, PREVIEW, JOKER, FORBID, GRID, BAR, BAR_EMPTY, GOLD, WHITE,
)  # fmt: skip

# Text colour on background colour: every pair gets an anti-aliasing ramp in the palette.
TEXT_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    (FELT_TEXT, FELT),
    (FELT_MUTED, FELT),
    (HEADER_TEXT, HEADER),
    (HEADER_TEXT, HILITE_HEADER),
    (INK, PAPER),
    (INK, BAND),
    (INK, HILITE),
    (INK, HILITE_BAND),
    (INK, JOKER),
    (MUTED, PAPER),
    (MUTED, HILITE),
    (MUTED, BAND),
    (PREVIEW, HILITE),
    (PREVIEW, JOKER),
    (FORBID, HILITE),
    (INK, WHITE),
    (WHITE, GOLD),
    (INK, GOLD),
)
RAMP_STEPS = 7

# -- sizes -----------------------------------------------------------------------------------
FONT_SIZE = 26  # body text; Discord shows these images about 400 px wide (see docs/rendering.md)
SMALL_FONT_SIZE = 20
ROW_H = 36
PAD = 10
TITLE_H = 42

# The game boards (landscape: upper and lower sections side by side, see docs/rendering.md).
BOARD_FONT_SIZE = 23  # shown 400 px wide, a 640 px board's text is 14 px tall
BOARD_ROW_H = 28
BOARD_TITLE_H = 44  # the final sheet's and the scorecard's felt title
BOARD_LABEL_W = 132  # the column of box names ("Sm straight")
PANEL_W = 318  # one section at 1-4 seats; two of them and a gutter make 640 px
GUTTER = 4
BOARD_MIN_WIDTH = 2 * PANEL_W + GUTTER
BOARD_MIN_COL_W = 50  # a seat's column still fits "375" in bold
BOARD_MAX_COL_W = 110
DIE_SIZE = 64
DIE_GAP = 6
STRIP_H = DIE_SIZE + 16  # the felt strip with the dice and, beside them, whose turn it is


# Where DejaVu has no glyph: CJK, then monochrome emoji (subsets, see scripts/subset_fonts.py).
FALLBACK_FONTS = ("DroidSansFallback-subset.ttf", "Symbola-subset.ttf")
# Emoji in colour: a subset of Noto Color Emoji whose one bitmap strike is 34 ppem (bitmaps
# 42 x 40 px); FreeType opens a bitmap font only at a size it has, so text.py scales them.
EMOJI_FONT = "NotoColorEmoji-subset.ttf"
EMOJI_STRIKE = 34


def _main_font_file(bold: bool) -> str:
    name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
    return str(FONT_DIR / name)


@cache
def font(size: int = FONT_SIZE, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans Condensed, laid out the same on every machine."""
    return ImageFont.truetype(_main_font_file(bold), size, layout_engine=ImageFont.Layout.BASIC)


@cache
def rtl_font(size: int = FONT_SIZE, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu laid out by Raqm: right-to-left text, Arabic letters joined."""
    return ImageFont.truetype(_main_font_file(bold), size, layout_engine=ImageFont.Layout.RAQM)


@cache
def fallback_font(index: int, size: int = FONT_SIZE) -> ImageFont.FreeTypeFont:
    """Fallback font ``index`` (no bold cut: bold text falls back to the regular one)."""
    path = str(FONT_DIR / FALLBACK_FONTS[index])
    return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)


@cache
def emoji_font() -> ImageFont.FreeTypeFont:
    """The colour emoji font at its one size (draw with ``embedded_color=True``)."""
    path = str(FONT_DIR / EMOJI_FONT)
    return ImageFont.truetype(path, EMOJI_STRIKE, layout_engine=ImageFont.Layout.BASIC)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@cache
def palette() -> Image.Image:
    """The fixed palette every image is drawn in: UI colours, text ramps, then dice colours."""
    colours: list[RGB] = []

    def add(colour: RGB) -> None:
        if colour not in colours:
            colours.append(colour)

    for colour in UI_COLOURS:
        add(colour)
    for fg, bg in TEXT_PAIRS:
        for step in range(1, RAMP_STEPS + 1):
            add(_mix(bg, fg, step / (RAMP_STEPS + 1)))
    dice = _dice_collage().quantize(256 - len(colours), method=Image.Quantize.MEDIANCUT)
    flat = dice.getpalette() or []
    used = sorted({int(c) for _, c in dice.getcolors() or []})  # type: ignore[arg-type]
    for index in used:
        add((flat[3 * index], flat[3 * index + 1], flat[3 * index + 2]))
    colours = colours[:256]
    image = Image.new("P", (1, 1))
    image.putpalette([v for c in colours for v in c] + [0] * (3 * (256 - len(colours))))
    return image


def _dice_collage() -> Image.Image:
    names = ["die-blank.png"] + [f"die-{f}{h}.png" for f in range(1, 7) for h in ("", "-held")]
    collage = Image.new("RGB", (DIE_SIZE * len(names), DIE_SIZE), FELT)
    for i, name in enumerate(names):
        sprite = Image.open(DICE_DIR / name).convert("RGBA")
        collage.paste(sprite, (i * DIE_SIZE, 0), sprite)
    return collage


@cache
def index_of(colour: RGB) -> int:
    """The palette index of a UI colour (for flat shapes drawn straight in palette mode)."""
    flat = palette().getpalette() or []
    for i in range(0, len(flat), 3):
        if tuple(flat[i : i + 3]) == colour:
            return i // 3
    raise KeyError(colour)


def to_palette(image: Image.Image) -> Image.Image:
    """Map a full-colour image onto the fixed palette (nearest colour, no dithering)."""
    return image.convert("RGB").quantize(palette=palette(), dither=Image.Dither.NONE)
