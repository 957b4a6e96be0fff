"""Text that never breaks an image: unknown characters, long names, empty names, names in
other scripts.

Every character is drawn in the first font that has it: DejaVu Sans Condensed (Latin,
Greek, Cyrillic, Hebrew, Arabic, many symbols), then a CJK font, then a monochrome emoji
font (``style.FALLBACK_FONTS``). A name whose first strong character is right-to-left
(Hebrew, Arabic) is laid out right to left, its letters joined by Raqm, which Pillow's
wheels bundle; everything else uses Pillow's basic layout, the same pixels everywhere.
A character no font has becomes a white square.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from .style import FALLBACK_FONTS, RGB, fallback_font, font, rtl_font, to_palette

PLACEHOLDER = "\u25a1"  # WHITE SQUARE, drawn where no font has a glyph
ELLIPSIS = "\u2026"
_SURELY_MISSING = "\u0378"  # an unassigned code point: a font draws its "missing" box
NOWHERE = -1
Run = tuple[str, ImageFont.FreeTypeFont]


def _fonts(size: int, bold: bool) -> list[ImageFont.FreeTypeFont]:
    return [font(size, bold)] + [fallback_font(i, size) for i in range(len(FALLBACK_FONTS))]


@cache
def _missing(f: ImageFont.FreeTypeFont) -> tuple[tuple[int, int], bytes]:
    mask = f.getmask(_SURELY_MISSING)
    return mask.size, bytes(mask)


@lru_cache(maxsize=16384)
def font_index(char: str, size: int, bold: bool) -> int:
    """Which font draws ``char``: 0 the main font, 1... a fallback, ``NOWHERE`` none."""
    if char == " ":
        return 0
    for i, f in enumerate(_fonts(size, bold)):
        mask = f.getmask(char)
        if (mask.size, bytes(mask)) != _missing(f):
            return i
    return NOWHERE


def has_glyph(char: str, size: int, bold: bool) -> bool:
    """Whether some shipped font draws ``char`` (rather than a missing-glyph box)."""
    return font_index(char, size, bold) != NOWHERE


def clean(text: str, size: int, bold: bool = False) -> str:
    """``text`` with control and invisible characters dropped and unknown ones replaced."""
    out: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            continue  # controls, zero-width joiners, bidi marks
        if category.startswith("M") and not has_glyph(char, size, bold):
            continue  # a combining mark (or emoji variation selector) no font has
        if category == "Zs":
            char = " "
        out.append(char if has_glyph(char, size, bold) else PLACEHOLDER)
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
    """``text`` cut where the font that draws it changes (in reading order)."""
    fonts = _fonts(size, bold)
    out: list[tuple[str, int]] = []
    for char in text:
        index = max(font_index(char, size, bold), 0)
        if out and (index == out[-1][1] or char == " "):
            out[-1] = (out[-1][0] + char, out[-1][1])
        else:
            out.append((char, index))
    rtl = is_rtl(text)
    return tuple((part, rtl_font(size, bold) if rtl and i == 0 else fonts[i]) for part, i in out)


def _length(run: Run) -> float:
    part, f = run
    return f.getlength(part, direction="rtl") if _is_raqm(f) else f.getlength(part)


def _is_raqm(f: ImageFont.FreeTypeFont) -> bool:
    return f.layout_engine == ImageFont.Layout.RAQM


def text_width(text: str, size: int, bold: bool = False) -> float:
    """How wide ``text`` is drawn, in pixels."""
    return sum(_length(run) for run in runs(text, size, bold))


@lru_cache(maxsize=8192)
def fit(text: str, width: int, size: int, bold: bool = False, empty: str = "?") -> str:
    """Clean ``text`` and shorten it with an ellipsis until it is at most ``width`` pixels."""
    text = clean(text, size, bold) or empty
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + ELLIPSIS, size, bold) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


@lru_cache(maxsize=4096)
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
    total = sum(_length(run) for run in parts)
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
        if _is_raqm(f):
            draw.text((x, baseline), part, font=f, fill=fg, anchor="ls", direction="rtl")
        else:
            draw.text((x, baseline), part, font=f, fill=fg, anchor="ls")
        x += _length(run)
    return to_palette(tile)
