"""Make the fallback fonts in bot/render/fonts/ (run by hand; the bot only reads the result).

    python -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools
    apt-get download fonts-droid-fallback fonts-symbola   # Debian's packages
    for f in *.deb; do dpkg-deb -x "$f" x; done
    /tmp/ft/bin/python scripts/subset_fonts.py x

The names players choose are drawn in DejaVu Sans Condensed; a character it lacks is drawn
in the first fallback that has it (bot/render/text.py). The fallbacks are cut down to keep
the repository small: CJK to the ideographs of GB 2312, JIS X 0208 and Big5 level 1 plus
the 2350 common Hangul syllables (1.7 MB instead of 3.4 MB), Symbola to the emoji and
symbols DejaVu does not have (0.8 MB instead of 3.1 MB).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fontTools.ttLib import TTFont  # type: ignore[import-not-found]

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


def subset(source: Path, points: list[int], target: Path) -> None:
    unicodes = ",".join(f"U+{cp:04X}" for cp in points)
    tool = Path(sys.executable).with_name("pyftsubset")
    subprocess.run(
        [str(tool), str(source), f"--unicodes={unicodes}", "--no-hinting",
         f"--output-file={target}"],
        check=True,
    )  # fmt: skip
    print(f"{target.name}: {len(points)} characters, {target.stat().st_size // 1024} KB")


def main(extracted: Path) -> None:
    droid = extracted / "usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf"
    symbola = extracted / "usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"
    subset(droid, cjk_points(), FONTS / "DroidSansFallback-subset.ttf")
    subset(symbola, emoji_points(symbola), FONTS / "Symbola-subset.ttf")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
