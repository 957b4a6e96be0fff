"""The dice as emoji images: each die sprite of ``assets/dice`` on a transparent square,
trimmed to the die (an emoji is shown at about 22 px, so no margin is wasted)."""

from __future__ import annotations

import io

from PIL import Image

from .style import DICE_DIR

#: Discord's limit for an emoji's image.
EMOJI_MAX_BYTES = 256 * 1024


def die_emoji_png(face: int, held: bool = False) -> bytes:
    """The PNG of die ``face`` (1-6) for an application emoji; ``held`` adds the sprite's
    lock badge, so a held die reads as held without its button's colour."""
    if not 1 <= face <= 6:
        raise ValueError(f"a die shows 1 to 6, not {face}")
    sprite = Image.open(DICE_DIR / f"die-{face}{'-held' if held else ''}.png").convert("RGBA")
    box = sprite.getchannel("A").point(lambda a: 255 if a > 24 else 0).getbbox()
    if box is not None:
        sprite = sprite.crop(box)
    side = max(sprite.size)
    square = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    square.paste(sprite, ((side - sprite.width) // 2, (side - sprite.height) // 2))
    out = io.BytesIO()
    square.save(out, "PNG", optimize=True)
    return out.getvalue()
