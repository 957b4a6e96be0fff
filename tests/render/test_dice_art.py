"""The committed dice sprites are exactly what assets/dice/make_dice.py draws."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PIL import Image, ImageChops

SCRIPT = Path(__file__).resolve().parents[2] / "assets" / "dice" / "make_dice.py"


def _load_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("make_dice", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_script_reproduces_every_committed_sprite(tmp_path: Path) -> None:
    """Running the script writes 13 sprites equal to the committed ones (within 2 levels)."""
    script = _load_script()
    script.main(tmp_path)
    written = sorted(p.name for p in tmp_path.glob("*.png"))
    committed = sorted(p.name for p in SCRIPT.parent.glob("*.png"))
    assert written == committed and len(written) == 13
    for name in written:
        fresh = Image.open(tmp_path / name).convert("RGBA")
        kept = Image.open(SCRIPT.parent / name).convert("RGBA")
        assert fresh.size == kept.size == (64, 64), name
        extrema = ImageChops.difference(fresh, kept).getextrema()
        assert max(high for _, high in extrema) <= 2, name


def test_held_dice_differ_by_more_than_colour() -> None:
    """A held die's shape differs (lock badge, set lower): its greyscale differs visibly."""
    for face in range(1, 7):
        free = Image.open(SCRIPT.parent / f"die-{face}.png").convert("LA")
        held = Image.open(SCRIPT.parent / f"die-{face}-held.png").convert("LA")
        alpha_diff = ImageChops.difference(free.getchannel("A"), held.getchannel("A"))
        changed = sum(alpha_diff.histogram()[65:])
        assert changed > 200, f"face {face}: held outline differs in only {changed} pixels"
