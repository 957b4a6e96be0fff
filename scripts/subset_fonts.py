"""Make the fallback fonts in bot/render/fonts/ (run by hand; the bot only reads the result).

    python -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools pillow
    apt-get download fonts-droid-fallback fonts-symbola fonts-noto-color-emoji unicode-data
    for f in *.deb; do dpkg-deb -x "$f" x; done
    /tmp/ft/bin/python scripts/subset_fonts.py x

The names players choose are drawn in DejaVu Sans Condensed; a character it lacks is drawn
in the first fallback that has it, and an emoji in colour (bot/render/text.py). The
fallbacks are cut down to keep the repository small: CJK to the ideographs of GB 2312,
JIS X 0208 and Big5 level 1 plus the 2350 common Hangul syllables (1.7 MB instead of
3.4 MB), Symbola to the emoji and symbols DejaVu does not have (0.8 MB instead of 3.1 MB),
Noto Color Emoji to its emoji of one code point (names are drawn a character at a time,
so sequences, flags and skin tones are never looked up) with its 136 x 128 px bitmaps
shrunk to 42 x 40 px in at most 64 colours (1.3 MB instead of 10.9 MB): the bot draws
emoji at most 30 px tall.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from fontTools.ttLib import TTFont  # type: ignore[import-not-found]
from PIL import Image

FONTS = Path(__file__).resolve().parents[1] / "bot" / "render" / "fonts"
EMOJI_RANGES = [
    (0x2190, 0x21FF), (0x2300, 0x23FF), (0x2460, 0x24FF), (0x25A0, 0x27BF), (0x2900, 0x297F),
    (0x2B00, 0x2BFF), (0x1F1E6, 0x1F1FF), (0x1F300, 0x1F64F), (0x1F680, 0x1F6FF),
    (0x1F900, 0x1F9FF),
]  # fmt: skip


def _encodes(char: str, codec: str) -> bytes | None:
    try:
        return char.encode(codec)
    except UnicodeEncodeError:
        return None


def cjk_points() -> list[int]:
    """Common CJK: what the national standards' main character sets hold."""
    points = set(range(0x3000, 0x3100)) | set(range(0x3130, 0x3190)) | set(range(0xFF00, 0xFFF0))
    for cp in range(0x4E00, 0xA000):
        char = chr(cp)
        big5 = _encodes(char, "big5")
        if (
            _encodes(char, "gb2312")
            or _encodes(char, "shift_jis")
            or (big5 and 0xA440 <= int.from_bytes(big5, "big") <= 0xC67E)
        ):
            points.add(cp)
    for cp in range(0xAC00, 0xD7A4):
        encoded = _encodes(chr(cp), "euc_kr")
        if encoded is not None and len(encoded) == 2:  # KS X 1001's own 2350
            points.add(cp)
    return sorted(points)


def emoji_points(symbola: Path) -> list[int]:
    """Symbola's emoji and symbols that DejaVu does not draw."""
    dejavu = set(TTFont(FONTS / "DejaVuSansCondensed.ttf").getBestCmap())
    has = set(TTFont(symbola).getBestCmap())
    wanted = {cp for a, b in EMOJI_RANGES for cp in range(a, b + 1)}
    return sorted((wanted & has) - dejavu)


EMOJI_HEIGHT = 40  # px: the shipped strike's bitmaps (Noto's are 128 px tall at 109 ppem)
EMOJI_COLOURS = 64  # per bitmap; the images are drawn in a 256-colour palette anyway
SKIN_TONES = range(0x1F3FB, 0x1F400)  # alone they are colour swatches: the bot drops them


def emoji_property(data: Path, name: str) -> set[int]:
    """The code points that have property ``name`` in Unicode's emoji-data.txt."""
    points: set[int] = set()
    for line in data.read_text(encoding="utf-8").splitlines():
        fields = [field.strip() for field in line.split("#")[0].split(";")]
        if len(fields) == 2 and fields[1] == name:
            first, _, last = fields[0].partition("..")
            points.update(range(int(first, 16), int(last or first, 16) + 1))
    return points


def colour_emoji_points(noto: Path, data: Path) -> list[int]:
    """Noto's emoji of one code point, less ASCII (keycap bases) and the skin tones."""
    emoji = emoji_property(data, "Emoji")
    has = set(TTFont(noto).getBestCmap())
    return sorted(cp for cp in has & emoji if cp >= 0x80 and cp not in SKIN_TONES)


def shrink_strike(path: Path, height: int) -> int:
    """Scale the one bitmap strike of a CBDT colour font to ``height`` px tall bitmaps, in
    at most ``EMOJI_COLOURS`` colours each; return the new strike's size in ppem."""
    font = TTFont(path)
    sizes = font["CBLC"].strikes[0].bitmapSizeTable
    scale = height / 128  # Noto's bitmaps are 136 x 128 px
    for glyph in font["CBDT"].strikeData[0].values():
        glyph.decompile()
        image = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        size = (round(image.width * scale), round(image.height * scale))
        image = image.resize(size, Image.Resampling.LANCZOS)
        image = image.quantize(EMOJI_COLOURS, method=Image.Quantize.FASTOCTREE)
        buffer = io.BytesIO()
        image.save(buffer, "PNG", optimize=True)
        glyph.imageData = buffer.getvalue()
        m = glyph.metrics
        m.width, m.height = size
        m.BearingX, m.BearingY = round(m.BearingX * scale), round(m.BearingY * scale)
        m.Advance = round(m.Advance * scale)
    sizes.ppemX = sizes.ppemY = round(sizes.ppemY * scale)
    for line in (sizes.hori, sizes.vert):
        line.ascender, line.descender = round(line.ascender * scale), round(line.descender * scale)
        line.widthMax = round(line.widthMax * scale)
    font.save(path)
    return int(sizes.ppemY)


def subset(source: Path, points: list[int], target: Path, *options: str) -> None:
    unicodes = ",".join(f"U+{cp:04X}" for cp in points)
    tool = Path(sys.executable).with_name("pyftsubset")
    subprocess.run(
        [str(tool), str(source), f"--unicodes={unicodes}", "--no-hinting",
         f"--output-file={target}", *options],
        check=True,
    )  # fmt: skip
    print(f"{target.name}: {len(points)} characters, {target.stat().st_size // 1024} KB")


def main(extracted: Path) -> None:
    droid = extracted / "usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf"
    symbola = extracted / "usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"
    subset(droid, cjk_points(), FONTS / "DroidSansFallback-subset.ttf")
    subset(symbola, emoji_points(symbola), FONTS / "Symbola-subset.ttf")
    noto = extracted / "usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
    data = extracted / "usr/share/unicode/emoji/emoji-data.txt"
    target = FONTS / "NotoColorEmoji-subset.ttf"
    subset(noto, colour_emoji_points(noto, data), target, "--layout-features=")
    ppem = shrink_strike(target, EMOJI_HEIGHT)
    print(f"{target.name}: {ppem} ppem (bot/render/style.py EMOJI_STRIKE), "
          f"{target.stat().st_size // 1024} KB")  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]))
