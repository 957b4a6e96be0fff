"""Text that never breaks an image: unknown characters, long names, empty names."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .style import RGB, font, to_palette

PLACEHOLDER = "\u25a1"  # WHITE SQUARE, drawn where the font has no glyph
ELLIPSIS = "\u2026"
_SURELY_MISSING = "\u0378"  # an unassigned code point: the font draws its "missing" box


@lru_cache(maxsize=8192)
def has_glyph(char: str, size: int, bold: bool) -> bool:
    """Whether the shipped font draws ``char`` (rather than its missing-glyph box)."""
    f = font(size, bold)
    if char == " ":
        return True
    mask, missing = f.getmask(char), f.getmask(_SURELY_MISSING)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


def clean(text: str, size: int, bold: bool = False) -> str:
    """``text`` with control and invisible characters dropped and unknown ones replaced."""
    out: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            continue  # controls, zero-width joiners, variation selectors' kin
        if category.startswith("M") and not has_glyph(char, size, bold):
            continue  # a combining mark the font lacks: the base letter alone reads fine
        if category == "Zs":
            char = " "
        out.append(char if has_glyph(char, size, bold) else PLACEHOLDER)
    return " ".join("".join(out).split())


def fit(text: str, width: int, size: int, bold: bool = False, empty: str = "?") -> str:
    """Clean ``text`` and shorten it with an ellipsis until it is at most ``width`` pixels."""
    text = clean(text, size, bold) or empty
    f = font(size, bold)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + ELLIPSIS) > width:
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
    f: ImageFont.FreeTypeFont = font(size, bold)
    y = height // 2
    if align == "left":
        draw.text((0, y), text, font=f, fill=fg, anchor="lm")
    elif align == "right":
        draw.text((width, y), text, font=f, fill=fg, anchor="rm")
    else:
        draw.text((width // 2, y), text, font=f, fill=fg, anchor="mm")
    return to_palette(tile)
