"""The game's pictures: valid PNGs of the right size, stable against golden copies, and
showing holds, previews and names as they should."""

from __future__ import annotations

import io
from pathlib import Path

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
from bot.render.cards import final_title
from bot.render.sheet import layout

from . import states

C = Category


def decode(png: bytes) -> Image.Image:
    """Decode PNG bytes, checking the signature first."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


# Sizes worked out by hand from the layout. A board is 640 px wide at least (two 318 px
# sections and a 4 px gutter), so that Discord's 400 px phone width shows its 23 px text at
# 14 px. At 1-4 seats the sections stand side by side: a section is a 132 px label column
# plus a column per seat of (318 - 132) // seats px, between 50 and 110 px; its height is the
# 80 px dice strip plus 10 rows of 28 px (names, 9 boxes or sums) = 360 px. At 5-8 seats one
# table of 18 rows holds both sections: 80 + 18 x 28 = 584 px, columns of
# max(50, (640 - 132) // seats) px.
@pytest.mark.parametrize(
    ("seats", "size"),
    [
        (1, (640, 360)),  # 2 x (132 + 110) + 4 = 488, widened to 640
        (2, (640, 360)),  # columns of 93 px: 2 x (132 + 186) + 4 = 640
        (4, (668, 360)),  # columns of 50 px: 2 x (132 + 200) + 4 = 668
        (5, (640, 584)),  # 132 + 5 x 101 = 637, widened to 640
        (8, (640, 584)),  # 132 + 8 x 63 = 636, widened to 640
    ],
)
def test_turn_image_dimensions(seats: int, size: tuple[int, int]) -> None:
    """1 to 8 seats give the expected width and height."""
    image = decode(render_turn(states.before_first_roll(seats)))
    assert image.format == "PNG"
    assert image.size == size


def test_final_and_scorecard_dimensions() -> None:
    """The final image has a 44 px title and a row of places; the scorecard is one column."""
    # three seats: columns of (318 - 132) // 3 = 62 px, 2 x (132 + 186) + 4 = 640 wide;
    # 44 + 11 rows x 28 = 352 high
    assert decode(render_final(states.finished())).size == (640, 44 + 11 * 28)
    # one column of 110 px: 2 x (132 + 110) + 4 = 488 wide, 44 + 10 x 28 high
    assert decode(render_scorecard(states.two_seats_mid_turn(), 1)).size == (488, 44 + 10 * 28)


def test_a_game_played_alone_ends_with_its_score_not_a_winner_nor_places() -> None:
    """Found by a play-through: the final picture of a solo game (and of a daily challenge,
    one seat too) said "Ann won" and "Place 1st". Alone, nobody wins against anybody: the
    title says the score, and there is no row of places."""
    faces: list[int] = []
    for _ in range(13):
        faces += [1, 2, 3, 4, 6]
    game = Game([("1", "Ann")], dice_source=ScriptedDice(faces))
    while not game.is_over:  # 1 2 3 4 0 6, then 0 0 0 30 0 0 16: 16 + 46 = 62, no bonus
        game.roll("1")
        game.score("1", game.current_seat.card.open_boxes[0])
    assert final_title(game) == "Game over · 62 points"
    assert final_title(game, "de") == "Spielende · 62 Punkte"
    # as wide as the solo game's boards (640); 44 + 10 rows x 28 (names, 9 rows), no places
    assert decode(render_final(game)).size == (640, 44 + 10 * 28)
    two = states.finished()  # with others, the winners: Bob and Cat tie for first
    assert final_title(two) == "Game over · Bob, Cat won"


def test_two_seat_board_is_within_budget_and_readable() -> None:
    """Issue 14: a landscape board of about 640 x 360, at most 30 KB, text 14 px at 400 px."""
    png = render_turn(states.two_seats_mid_turn())
    width, height = decode(png).size
    assert width <= 640 and height <= 360 and width > height
    assert len(png) <= 30_000
    assert style.BOARD_FONT_SIZE * 400 / width >= 14


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


def test_a_hold_changes_nothing_in_the_picture() -> None:
    """A hold is answered by editing the buttons alone (issue 27), so the picture must not
    show holds: holding and releasing dice leaves every pixel as it was."""
    g = states.two_seats_mid_turn()
    before = decode(render_turn(g)).convert("RGB")
    g.toggle_hold("1", 2)
    g.toggle_hold("1", 4)
    after = decode(render_turn(g)).convert("RGB")
    assert ImageChops.difference(before, after).getbbox() is None


def test_the_docs_say_holds_are_on_the_buttons_not_in_the_picture() -> None:
    """The picture shows no holds (above), so the README, the players' manual and the
    renderer's manual may not say that held dice sit lower with a padlock in it."""
    root = Path(__file__).resolve().parents[2]
    for doc in ("README.md", "docs/playing.md", "docs/rendering.md"):
        text = " ".join((root / doc).read_text().split())
        assert "sit lower" not in text and "set lower on the felt" not in text, doc
        assert "dice held](docs/images/turn-2-seats" not in text, doc
        assert "dice held](images/turn-2-seats" not in text, doc
    playing = " ".join((root / "docs" / "playing.md").read_text().split())
    assert "which are held is on the die buttons" in playing


def _cell_ink(
    image: Image.Image, seats: int, column: int, category: Category
) -> tuple[int, int, int]:
    """The darkest pixel in a table cell: the colour its number is drawn in."""
    lay = layout(seats, style.STRIP_H, min_width=image.width)
    x0, y0, x1, y1 = lay.cell(column, category)
    cell = image.convert("RGB").crop((x0 + 4, y0 + 4, x1 - 4, y1 - 4))
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
        return image.crop((0, 0, image.width, style.STRIP_H))

    assert ImageChops.difference(title("official"), title("bonus-turn")).getbbox() is not None


def test_awkward_names_render() -> None:
    """40-character, right-to-left, emoji, CJK and empty names all render at the usual size."""
    g = states.long_names()
    assert decode(render_turn(g)).size == (640, 584)
    assert decode(render_scorecard(g, 4)).size == (488, 44 + 10 * 28)
    rows = [TableRow(1, name, "1") for name in (s.name for s in g.seats)]
    assert decode(render_table("Names", rows)).width == 520


def test_finished_game_highlights_every_winner() -> None:
    """Tied winners' name cells are both drawn in the winner colour, the loser's is not."""
    image = decode(render_final(states.finished())).convert("RGB")
    lay = layout(3, style.BOARD_TITLE_H, final=True)
    y = lay.row_y(-1) + 2
    # the cell's own background, left of its name (which may start 2 px in)
    colours = [image.getpixel((lay.col_x(0, c) + 1, y)) for c in range(3)]
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


def _strip(png: bytes) -> Image.Image:
    image = decode(png).convert("RGB")
    return image.crop((0, 0, image.width, style.STRIP_H))


def test_the_roller_is_named_above_the_board_after_a_roll() -> None:
    """The strip names whose turn it is, before and after they roll."""
    ann = Game([("1", "Ann"), ("2", "Bob")], dice_source=ScriptedDice([3, 3, 4, 3, 5]))
    zoe = Game([("1", "Zoe"), ("2", "Bob")], dice_source=ScriptedDice([3, 3, 4, 3, 5]))
    for g in (ann, zoe):
        assert ImageChops.difference(_strip(render_turn(ann)), _strip(render_turn(zoe))).getbbox()
        g.roll("1")
    assert ImageChops.difference(_strip(render_turn(ann)), _strip(render_turn(zoe))).getbbox()


def test_yahtzee_bonus_preview_is_always_plus_100() -> None:
    """A second Joker shows "+100" in the bonus row, as the first did, not the new total."""
    first = Game(["a"], dice_source=ScriptedDice([5] * 10))
    second = Game(["a"], dice_source=ScriptedDice([5] * 15))
    first.roll("a")
    first.score("a", Category.YAHTZEE)
    first.roll("a")
    second.roll("a")
    second.score("a", Category.YAHTZEE)
    second.roll("a")
    second.score("a", Category.FIVES)
    second.roll("a")
    assert first.current_seat.card.yahtzee_bonus == 0
    assert second.current_seat.card.yahtzee_bonus == 100
    lay = layout(1, style.STRIP_H, min_width=640)
    box = lay.cell(0, "ybonus")
    a = decode(render_turn(first)).convert("RGB").crop(box)
    b = decode(render_turn(second)).convert("RGB").crop(box)
    assert ImageChops.difference(a, b).getbbox() is None
    blank = decode(render_turn(Game(["a"]))).convert("RGB").crop(box)
    assert ImageChops.difference(a, blank).getbbox(), "no preview drawn"
