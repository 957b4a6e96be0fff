"""The game's pictures: valid PNGs of the right size, stable against golden copies, and
showing holds, previews and names as they should."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.engine import Category, Game, ScriptedDice
from bot.render import (
    TableRow,
    render_chart,
    render_final,
    render_scorecard,
    render_table,
    render_turn,
    style,
)
from bot.render.cards import ROWS, dice_slot, layout

from . import states

C = Category


def decode(png: bytes) -> Image.Image:
    """Decode PNG bytes, checking the signature first."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


# Sizes worked out from the layout: a 156 px label column, seat columns of
# max(56, (464 - 156) // seats) px, and 42 + 110 + 18 x 36 = 800 px of height.
@pytest.mark.parametrize(("seats", "width"), [(1, 464), (2, 464), (8, 156 + 8 * 56)])
def test_turn_image_dimensions(seats: int, width: int) -> None:
    """1, 2 and 8 seats give the expected width and height."""
    image = decode(render_turn(states.before_first_roll(seats)))
    assert image.format == "PNG"
    assert image.size == (width, 800)


def test_final_and_scorecard_dimensions() -> None:
    """The final image has a row of places; the scorecard is one column wide."""
    # three seats: columns of (464 - 156) // 3 = 102 px
    assert decode(render_final(states.finished())).size == (156 + 3 * 102, 42 + 19 * 36)
    assert decode(render_scorecard(states.two_seats_mid_turn(), 1)).size == (464, 42 + 18 * 36)


@pytest.mark.parametrize("name", sorted(states.GOLDEN_IMAGES))
def test_matches_golden_image(name: str) -> None:
    """Each fixed state still looks as approved (regenerate: python -m tests.render.states)."""
    expected = Image.open(states.GOLDEN / name).convert("RGB")
    actual = decode(states.GOLDEN_IMAGES[name]()).convert("RGB")
    assert actual.size == expected.size
    diff = (
        ImageChops.difference(actual, expected).convert("L").point(lambda v: 255 if v > 24 else 0)
    )
    changed = sum(diff.histogram()[1:])
    assert changed <= actual.width * actual.height * 0.001, f"{changed} pixels differ"


def test_holding_a_die_changes_only_that_die() -> None:
    """Toggling the hold of die 3 changes pixels inside die 3's slot and nowhere else."""
    g = states.two_seats_mid_turn()
    before = decode(render_turn(g)).convert("RGB")
    g.toggle_hold("1", 2)
    after = decode(render_turn(g)).convert("RGB")
    box = ImageChops.difference(before, after).getbbox()
    assert box is not None, "holding a die changed nothing"
    left, top, right, bottom = dice_slot(2, before.width)
    assert left <= box[0] and top <= box[1] and box[2] <= right and box[3] <= bottom


def _cell_ink(
    image: Image.Image, seats: int, column: int, category: Category
) -> tuple[int, int, int]:
    """The darkest pixel in a table cell: the colour its number is drawn in."""
    lay = layout(seats, style.TITLE_H + style.DICE_H)
    row = ROWS.index(category)
    x, y = lay.col_x(column), lay.row_y(row)
    cell = image.convert("RGB").crop((x + 4, y + 4, x + lay.col_w - 4, y + style.ROW_H - 4))
    raw = cell.tobytes()
    pixels = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]
    return min(pixels, key=sum)


def test_preview_is_styled_apart_from_a_filled_score() -> None:
    """Ann's previewed Threes is drawn in the preview colour; her filled Yahtzee in ink."""
    image = decode(render_turn(states.two_seats_mid_turn()))
    preview = _cell_ink(image, 2, 0, C.THREES)
    filled = _cell_ink(image, 2, 0, C.YAHTZEE)
    assert preview[2] > preview[0] + 80, f"preview {preview} is not blue"
    assert max(filled) < 90, f"filled {filled} is not dark ink"


def test_joker_marks_forbidden_boxes() -> None:
    """With a Joker, the open upper boxes are marked forbidden in red, lower ones previewed."""
    image = decode(render_turn(states.joker_turn()))
    forbidden = _cell_ink(image, 3, 0, C.ONES)
    allowed = _cell_ink(image, 3, 0, C.FULL_HOUSE)
    assert forbidden[0] > forbidden[2] + 80, f"{forbidden} is not red"
    assert allowed[2] > allowed[0] + 80, f"{allowed} is not the preview blue"


def test_a_different_preset_shows_in_the_image() -> None:
    """The preset's name is drawn: two presets give different title strips."""

    def title(preset: str) -> Image.Image:
        image = decode(render_turn(Game(["a"], preset))).convert("RGB")
        return image.crop((0, 0, image.width, style.TITLE_H))

    assert ImageChops.difference(title("official"), title("bonus-turn")).getbbox() is not None


def test_awkward_names_render() -> None:
    """40-character, right-to-left, emoji, CJK and empty names all render at the usual size."""
    g = states.long_names()
    assert decode(render_turn(g)).size == (156 + 5 * 61, 800)
    assert decode(render_scorecard(g, 4)).size == (464, 42 + 18 * 36)
    rows = [TableRow(1, name, "1") for name in (s.name for s in g.seats)]
    assert decode(render_table("Names", rows)).width == 520


def test_finished_game_highlights_every_winner() -> None:
    """Tied winners' name cells are both drawn in the winner colour, the loser's is not."""
    image = decode(render_final(states.finished())).convert("RGB")
    lay = layout(3, style.TITLE_H, 1)
    y = lay.row_y(-1) + 2
    colours = [image.getpixel((lay.col_x(c) + 2, y)) for c in range(3)]
    assert colours[1] == colours[2] == style.HILITE_HEADER
    assert colours[0] == style.HEADER


def test_chart_kinds() -> None:
    """Bar and line charts render; an unknown kind is refused."""
    assert decode(render_chart("x", [1, 2, 3], kind="bar")).size == (520, 300)
    assert decode(render_chart("x", [], kind="line")).size == (520, 300)
    with pytest.raises(ValueError, match="bar"):
        render_chart("x", [1], kind="pie")


def test_scripted_dice_feed_the_image() -> None:
    """Two different rolls give two different dice strips."""
    a = Game(["a"], dice_source=ScriptedDice([1, 1, 1, 1, 1]))
    b = Game(["a"], dice_source=ScriptedDice([6, 6, 6, 6, 6]))
    a.roll("a")
    b.roll("a")
    assert render_turn(a) != render_turn(b)
