"""Text that never breaks an image: unknown characters, long names, empty names, names in
other scripts, "fancy" letters and emoji.

Every character is drawn in the first font that has it: DejaVu Sans Condensed (Latin,
Greek, Cyrillic, Hebrew, Arabic, many symbols), then a CJK font, then a monochrome emoji
font (``style.FALLBACK_FONTS``). An emoji is drawn in colour instead (``style.EMOJI_FONT``,
scaled to the text): a pictograph from U+1F000 on, one of the few older characters that
are emoji by default, or any emoji followed by U+FE0F; U+FE0E asks for the monochrome one.
A name whose first strong character is right-to-left (Hebrew, Arabic) is laid out right to
left, its letters joined by Raqm, which Pillow's wheels bundle; everything else uses
Pillow's basic layout, the same pixels everywhere. A character no font has is drawn as its
compatibility form where that has glyphs (the mathematical, enclosed and fullwidth letters
players use for style: Dragon in bold Fraktur is drawn "Dragon"), else as a white square.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from .style import FALLBACK_FONTS, RGB, emoji_font, fallback_font, font, rtl_font, to_palette

PLACEHOLDER = "\u25a1"  # WHITE SQUARE, drawn where no font has a glyph
ELLIPSIS = "\u2026"
_SURELY_MISSING = "\u0378"  # an unassigned code point: a font draws its "missing" box
NOWHERE = -1
COLOUR = len(FALLBACK_FONTS) + 1  # font_index of the colour emoji font, the last resort
TEXT_STYLE, EMOJI_STYLE = "\ufe0e", "\ufe0f"  # variation selectors 15 and 16
# Skin tones: drawn a character at a time (no sequences), one would be a swatch of its own.
SKIN_TONES = frozenset(chr(cp) for cp in range(0x1F3FB, 0x1F400))
# Below U+1F000, the characters that are emoji unless U+FE0E follows (Unicode 15's
# Emoji_Presentation=Yes); from U+1F000 on, every pictograph the colour font has is drawn
# in colour, as Discord does.
EMOJI_BY_DEFAULT = frozenset(
    "\u231a\u231b\u23e9\u23ea\u23eb\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2648\u2649"
    "\u264a\u264b\u264c\u264d\u264e\u264f\u2650\u2651\u2652\u2653\u267f\u2693\u26a1\u26aa"
    "\u26ab\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd\u2705"
    "\u270a\u270b\u2728\u274c\u274e\u2753\u2754\u2755\u2757\u2795\u2796\u2797\u27b0\u27bf"
    "\u2b1b\u2b1c\u2b50\u2b55"
)
EMOJI_SCALE = 1.1  # an emoji's bitmap (a little margin round the picture) is 1.1 em tall
# Letters white on a black circle or square have no compatibility form: their letters.
_NEGATIVE_LETTERS = (0x1F150, 0x1F170)  # each the first of A-Z
Run = tuple[str, ImageFont.FreeTypeFont]


def _fonts(size: int, bold: bool) -> list[ImageFont.FreeTypeFont]:
    fallbacks = [fallback_font(i, size) for i in range(len(FALLBACK_FONTS))]
    return [font(size, bold), *fallbacks, emoji_font()]


@cache
def _missing(f: ImageFont.FreeTypeFont) -> tuple[tuple[int, int], bytes]:
    mask = f.getmask(_SURELY_MISSING)
    return mask.size, bytes(mask)


def _draws(f: ImageFont.FreeTypeFont, char: str) -> bool:
    mask = f.getmask(char)
    return (mask.size, bytes(mask)) != _missing(f)


@lru_cache(maxsize=16384)
def font_index(char: str, size: int, bold: bool) -> int:
    """Which font draws ``char`` where it is not a colour emoji: 0 the main font, 1... a
    fallback, ``COLOUR`` only the colour emoji font, ``NOWHERE`` none."""
    if char == " ":
        return 0
    for i, f in enumerate(_fonts(size, bold)):
        if _draws(f, char):
            return i
    return NOWHERE


def has_glyph(char: str, size: int, bold: bool) -> bool:
    """Whether some shipped font draws ``char`` (rather than a missing-glyph box)."""
    return font_index(char, size, bold) != NOWHERE


@lru_cache(maxsize=4096)
def _in_colour_font(char: str) -> bool:
    return _draws(emoji_font(), char)


def in_colour(char: str, after: str = "") -> bool:
    """Whether ``char`` followed by ``after`` (a character or "") is drawn as a colour emoji."""
    if after == TEXT_STYLE:
        return False
    emoji = after == EMOJI_STYLE or char in EMOJI_BY_DEFAULT or ord(char) >= 0x1F000
    return emoji and _in_colour_font(char)


def readable(char: str, size: int, bold: bool = False) -> str:
    """What stands for ``char``, which no font has: its compatibility form (Unicode's NFKC:
    a bold Fraktur D is D, a squared A is A, a parenthesized a is "(a)") if every character
    of that has a glyph, else a white square."""
    form = unicodedata.normalize("NFKC", char)
    for first in _NEGATIVE_LETTERS:
        if first <= ord(char) < first + 26:
            form = chr(ord("A") + ord(char) - first)
    if form != char and form.strip() and all(has_glyph(c, size, bold) for c in form):
        return form
    return PLACEHOLDER


def clean(text: str, size: int, bold: bool = False) -> str:
    """``text`` with control and invisible characters dropped and unknown ones replaced."""
    out: list[str] = []
    for char in text:
        if char in (TEXT_STYLE, EMOJI_STYLE):  # kept after a character: runs() reads it
            if out and out[-1] not in (" ", TEXT_STYLE, EMOJI_STYLE):
                out.append(char)
            continue
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or char in SKIN_TONES:
            continue  # controls, zero-width joiners, bidi marks, skin tones
        if category.startswith("M") and not has_glyph(char, size, bold):
            continue  # a combining mark (or variation selector) no font has
        if category == "Zs":
            char = " "
        elif "\uff01" <= char <= "\uff5e":  # fullwidth ASCII: drawn as Latin, not spaced out
            char = unicodedata.normalize("NFKC", char)
        out.append(char if has_glyph(char, size, bold) else readable(char, size, bold))
    return " ".join("".join(out).split())


def is_rtl(text: str) -> bool:
    """Whether ``text`` reads right to left: its first strong character does."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


@lru_cache(maxsize=4096)
def runs(text: str, size: int, bold: bool = False) -> tuple[Run, ...]:
    """``text`` cut where the font that draws it changes (in reading order); a run in
    ``emoji_font()`` is drawn in colour, its bitmaps scaled (``emoji``)."""
    fonts = _fonts(size, bold)
    out: list[tuple[str, int]] = []
    for at, char in enumerate(text):
        if char in (TEXT_STYLE, EMOJI_STYLE):
            continue  # it chose the font of the character before
        colour = in_colour(char, text[at + 1 : at + 2])
        index = COLOUR if colour else max(font_index(char, size, bold), 0)
        if out and (index == out[-1][1] or (char == " " and out[-1][1] != COLOUR)):
            out[-1] = (out[-1][0] + char, out[-1][1])
        else:
            out.append((char, index))
    rtl = is_rtl(text)
    return tuple((part, rtl_font(size, bold) if rtl and i == 0 else fonts[i]) for part, i in out)


@lru_cache(maxsize=2048)
def emoji(char: str, size: int) -> tuple[Image.Image, int]:
    """``char``'s colour bitmap for text of ``size`` px (RGBA, ``EMOJI_SCALE`` x ``size``
    tall) and how far it reaches above the baseline."""
    f = emoji_font()
    left, top, right, bottom = (round(v) for v in f.getbbox(char, anchor="ls"))
    glyph = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
    ImageDraw.Draw(glyph).text((-left, -top), char, font=f, anchor="ls", embedded_color=True)
    height = round(size * EMOJI_SCALE)
    width = round(glyph.width * height / glyph.height)
    rise = round(-top * height / glyph.height)
    return glyph.resize((width, height), Image.Resampling.LANCZOS), rise


def _length(run: Run, size: int) -> float:
    part, f = run
    if f is emoji_font():
        return sum(emoji(char, size)[0].width for char in part)
    return f.getlength(part, direction="rtl") if _is_raqm(f) else f.getlength(part)


def _is_raqm(f: ImageFont.FreeTypeFont) -> bool:
    return f.layout_engine == ImageFont.Layout.RAQM


def text_width(text: str, size: int, bold: bool = False) -> float:
    """How wide ``text`` is drawn, in pixels."""
    return sum(_length(run, size) for run in runs(text, size, bold))


@lru_cache(maxsize=8192)
def fit(text: str, width: int, size: int, bold: bool = False, empty: str = "?") -> str:
    """Clean ``text`` and shorten it with an ellipsis until it is at most ``width`` pixels."""
    text = clean(text, size, bold) or empty
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + ELLIPSIS, size, bold) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


#: Text tiles kept drawn: ~15 KB each, so at most ~15 MB. Measured (2,000 two-player games
#: of 3,000 names drawn in one process): 4,096 tiles held 85 MiB of RSS at the plateau,
#: 1,024 hold 54 MiB, and a board takes the same 1.63 ms warm either way.
TEXT_TILE_CACHE = 1024


@lru_cache(maxsize=TEXT_TILE_CACHE)
def text_tile(
    text: str,
    width: int,
    height: int,
    fg: RGB,
    bg: RGB,
    size: int,
    bold: bool = False,
    align: str = "center",
) -> Image.Image:
    """A palette tile of ``width`` x ``height`` with ``text`` drawn on ``bg`` (cached)."""
    tile = Image.new("RGB", (width, height), bg)
    draw = ImageDraw.Draw(tile)
    parts = runs(text, size, bold)
    total = sum(_length(run, size) for run in parts)
    if align == "left":
        x = 0.0
    elif align == "right":
        x = width - total
    else:
        x = (width - total) / 2
    ascent, descent = font(size, bold).getmetrics()
    baseline = height / 2 + (ascent - descent) / 2  # every run on the main font's line
    ordered = reversed(parts) if is_rtl(text) else iter(parts)
    for run in ordered:
        part, f = run
        if f is emoji_font():
            for char in part:
                glyph, rise = emoji(char, size)
                y = min(max(round(baseline) - rise, 0), height - glyph.height)
                tile.paste(glyph, (round(x), y), glyph)
                x += glyph.width
            continue
        if _is_raqm(f):
            draw.text((x, baseline), part, font=f, fill=fg, anchor="ls", direction="rtl")
        else:
            draw.text((x, baseline), part, font=f, fill=fg, anchor="ls")
        x += _length(run, size)
    return to_palette(tile)
