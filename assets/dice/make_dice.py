"""Draw the dice sprites in this folder: python assets/dice/make_dice.py

Writes die-1.png ... die-6.png, die-1-held.png ... die-6-held.png and die-blank.png.
The committed PNGs are this script's output; tests/render/test_dice_art.py checks that.
Each die is drawn at 4x and scaled down, which anti-aliases every edge.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
SIZE = 64  # the sprite's side in pixels: five dice beside the title on a 640 px board
SCALE = 4  # drawn at 4x, then scaled down
U = SIZE / 84  # every measure below was designed on an 84 px sprite
DIE = 68 * U  # the die's side within the sprite
RADIUS = 12 * U

FACE = (250, 249, 244, 255)
EDGE = (176, 170, 155, 255)
PIP = (31, 35, 40, 255)
SHADOW = (0, 0, 0, 90)
HELD_FACE = (255, 238, 186, 255)
HELD_EDGE = (214, 151, 18, 255)
BADGE = (31, 35, 40, 255)
BADGE_RING = (255, 255, 255, 255)
LOCK = (255, 206, 64, 255)
BLANK_EDGE = (255, 255, 255, 150)

# Pip positions on a 3x3 grid (column, row), by face.
PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def _s(value: float) -> int:
    return round(value * SCALE)


def _die_box(offset_y: float = 0) -> tuple[int, int, int, int]:
    left = (SIZE - DIE) / 2
    top = (SIZE - DIE) / 2 - 4 * U + offset_y
    return (_s(left), _s(top), _s(left + DIE), _s(top + DIE))


def draw_die(face: int | None, held: bool) -> Image.Image:
    """One sprite: a die showing ``face`` (``None``: an empty slot), held or not."""
    big = Image.new("RGBA", (_s(SIZE), _s(SIZE)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    box = _die_box(offset_y=6 * U if held else 0)  # a held die is set down, as on a real table
    if face is None:
        draw.rounded_rectangle(box, radius=_s(RADIUS), outline=BLANK_EDGE, width=_s(2.5 * U))
        return big.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    shadow = (box[0] + _s(2 * U), box[1] + _s(4 * U), box[2] + _s(2 * U), box[3] + _s(4 * U))
    draw.rounded_rectangle(shadow, radius=_s(RADIUS), fill=SHADOW)
    fill, edge, width = (HELD_FACE, HELD_EDGE, 5.0 * U) if held else (FACE, EDGE, 1.5)
    draw.rounded_rectangle(box, radius=_s(RADIUS), fill=fill, outline=edge, width=_s(width))
    left, top = box[0] / SCALE, box[1] / SCALE
    step, pip = DIE / 4, DIE * 0.085
    for col, row in PIPS[face]:
        cx, cy = left + step * (col + 1), top + step * (row + 1)
        draw.ellipse((_s(cx - pip), _s(cy - pip), _s(cx + pip), _s(cy + pip)), fill=PIP)
    if held:
        _draw_lock_badge(draw)
    return big.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def _draw_lock_badge(draw: ImageDraw.ImageDraw) -> None:
    """A padlock in a dark disc over the die's top-right corner: held, without relying on colour."""
    r = 11.5 * U
    cx, cy = SIZE - r - 0.5, r + 0.5
    draw.ellipse((_s(cx - r), _s(cy - r), _s(cx + r), _s(cy + r)), fill=BADGE_RING)
    r2 = r - 2 * U
    draw.ellipse((_s(cx - r2), _s(cy - r2), _s(cx + r2), _s(cy + r2)), fill=BADGE)
    # the shackle, then the body
    draw.rounded_rectangle(
        (_s(cx - 4.2 * U), _s(cy - 8 * U), _s(cx + 4.2 * U), _s(cy + 1 * U)),
        radius=_s(4 * U),
        outline=LOCK,
        width=_s(2 * U),
    )
    draw.rounded_rectangle(
        (_s(cx - 6.5 * U), _s(cy - 2 * U), _s(cx + 6.5 * U), _s(cy + 7 * U)),
        radius=_s(1.5 * U),
        fill=LOCK,
    )


def sprites() -> dict[str, Image.Image]:
    """Every sprite by file name."""
    out = {"die-blank.png": draw_die(None, False)}
    for face in range(1, 7):
        out[f"die-{face}.png"] = draw_die(face, False)
        out[f"die-{face}-held.png"] = draw_die(face, True)
    return out


def main(target: Path = HERE) -> None:
    """Write every sprite into ``target``."""
    for name, image in sprites().items():
        image.save(target / name, optimize=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
