"""Issue 26 item 8, pictures that say who is who: every seat count names its columns (3, 4,
7 and 8 seats used to show "#1 #2 ..."), letters in "fancy" Unicode are drawn as letters
(they were white squares), and emoji are drawn in colour (they were black outlines)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.engine import MAX_SEATS, Game, ScriptedDice
from bot.render import TableRow, render_final, render_table, render_turn, style
from bot.render.cards import final_layout
from bot.render.names import header_names
from bot.render.sheet import layout
from bot.render.text import ELLIPSIS, PLACEHOLDER, clean, text_tile

from . import states

FONT = style.BOARD_FONT_SIZE
# Longer than a column at 3, 4, 7 or 8 seats; no two start alike.
LONG = (
    "Alexander", "Bartholomew", "Catherine", "Dominique", "Evangeline", "Frederick",
    "Gwendolyn", "Hildegard",
)  # fmt: skip


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _close(a: Image.Image, b: Image.Image) -> bool:
    """Whether two pictures are the same but for rounding (no channel off by more than 24)."""
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return diff.getbbox() is None


def _shown_name(cell: Image.Image, name: str, bg: style.RGB) -> str | None:
    """Which of the name, or a start of it cut with an ellipsis, at some size from 16 px to
    the board's 23 px, is the one drawn (centred) in the header ``cell``; None if none is."""
    for size in range(16, FONT + 1):
        for k in range(len(name), 0, -1):
            text = name if k == len(name) else name[:k] + ELLIPSIS
            drawn = text_tile(text, cell.width, cell.height, style.HEADER_TEXT, bg, size, True)
            if _close(cell, drawn.convert("RGB")):
                return text
    return None


def _header_cells(
    image: Image.Image, seats: int, top: int, final: Game | None = None
) -> list[list[Image.Image]]:
    """Each seat's header cells, one per panel: [[cell, ...] per seat] (of the final sheet
    of the game ``final``)."""
    lay = final_layout(final) if final else layout(seats, top, min_width=image.width)
    y = lay.row_y(-1) + 1
    return [
        [image.crop((lay.col_x(p, c), y, lay.col_x(p, c) + lay.col_w, y + style.BOARD_ROW_H - 2))
         for p in range(len(lay.panels))]
        for c in range(seats)
    ]  # fmt: skip


@pytest.mark.parametrize("seats", range(1, MAX_SEATS + 1))
def test_every_seat_count_shows_the_names(seats: int) -> None:
    """Each header shows its seat's name, whole or its first two or more letters and an
    ellipsis, in both sections (the current seat's header is gold)."""
    names = LONG[:seats]
    image = decode(render_turn(Game([(str(i), n) for i, n in enumerate(names)])))
    for c, cells in enumerate(_header_cells(image, seats, style.STRIP_H)):
        bg = style.HILITE_HEADER if c == 0 else style.HEADER
        for cell in cells:
            shown = _shown_name(cell, names[c], bg)
            assert shown is not None, f"seat {c + 1} of {seats}: {names[c]!r} is not in its header"
            assert shown == names[c] or len(shown) >= 3, f"only {shown!r} of {names[c]!r}"


def test_a_three_seat_board_names_its_columns() -> None:
    """The issue's case: three names too long for 62 px columns (a Fraktur one and one with
    an emoji among them) each head their column, not "#1 #2 #3"."""
    image = decode(render_turn(states.three_long_names()))
    plain = ("Alexandra", "Dragon Slayer")  # the Fraktur one as it is drawn
    cells = _header_cells(image, 3, style.STRIP_H)
    assert _shown_name(cells[0][0], plain[0], style.HEADER) is not None
    assert _shown_name(cells[1][0], plain[1], style.HILITE_HEADER) is not None  # to play
    assert _colourful(cells[2][0]) > 20, "the fox of '🦊 Fox Queen' is not in its header"


def test_the_final_card_names_its_columns() -> None:
    """The final sheet of three long names: each in its header, the tied winners' gold."""
    names = LONG[:3]
    game = states.finished(names)
    image = decode(render_final(game))
    for c, cells in enumerate(_header_cells(image, 3, style.BOARD_TITLE_H, game)):
        bg = style.HEADER if c == 0 else style.HILITE_HEADER  # Bob's and Cat's seats win
        for cell in cells:
            assert _shown_name(cell, names[c], bg) is not None, f"{names[c]!r} is not shown"


def test_names_that_would_read_the_same_keep_the_end_that_tells_them_apart() -> None:
    """ "Player 1" ... "Player 8" would all be "Pla…": each keeps its number after the
    ellipsis; so do "Alexander" and "Alexandra" (their last letters)."""
    numbered = tuple(f"Player {i}" for i in range(1, 9))
    shown, _ = header_names(numbered, layout(8, style.STRIP_H).col_w)
    assert len(set(shown)) == 8
    for i, text in enumerate(shown, 1):
        assert text.startswith("Pl") and ELLIPSIS in text and text.endswith(str(i)), text
    (alexander, alexandra), _ = header_names(("Alexander", "Alexandra"), 50)
    assert alexander.startswith("Al") and alexander.endswith(ELLIPSIS + "r"), alexander
    assert alexandra.startswith("Al") and alexandra.endswith(ELLIPSIS + "a"), alexandra
    image = decode(render_turn(Game([(str(i), n) for i, n in enumerate(numbered)])))
    cells = [cells[0] for cells in _header_cells(image, 8, style.STRIP_H)[1:]]
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            assert not _close(a, b), "two seats' headers look the same"


def test_names_that_fit_keep_the_board_size() -> None:
    """Short names are not shrunk: "Ann", "Bob", "Cat" at 3 seats are 23 px, as before."""
    assert header_names(("Ann", "Bob", "Cat"), layout(3, style.STRIP_H).col_w) == (
        ("Ann", "Bob", "Cat"),
        (FONT, FONT, FONT),
    )


FANCY = [
    ("𝕯𝖗𝖆𝖌𝖔𝖓", "Dragon"),  # noqa: RUF001 - mathematical bold Fraktur
    ("𝓐𝓵𝓲𝓬𝓮", "Alice"),  # noqa: RUF001 - mathematical bold script
    ("𝐁𝐨𝐥𝐝 𝘚𝘢𝘯𝘴 𝙼𝚘𝚗𝚘", "Bold Sans Mono"),  # noqa: RUF001 - bold, sans-serif italic, monospace
    ("Ａｌｉｃｅ", "Alice"),  # noqa: RUF001 - fullwidth
    ("🄰🄻🄸🄲🄴", "ALICE"),  # squared
    ("🅐🅛🅘🅒🅔", "ALICE"),  # negative circled (no compatibility form of their own)
    ("🅻🅸🅲🅴", "LICE"),  # negative squared
]


@pytest.mark.parametrize(("fancy", "plain"), FANCY)
def test_fancy_letters_are_drawn_as_their_letters(fancy: str, plain: str) -> None:
    """A name in letters no shipped font has is drawn exactly as its plain letters."""
    assert clean(fancy, FONT, True) == plain
    table = render_table("Names", [TableRow(1, fancy, "1")])
    assert table == render_table("Names", [TableRow(1, plain, "1")])


KEPT = ["Ⓐⓛⓘⓒⓔ", "ᴀʟɪᴄᴇ", "𝟙𝟚𝟛"]  # noqa: RUF001 - circled, small capitals, double-struck


@pytest.mark.parametrize("name", [*KEPT, *(states.NAMES[i] for i in (0, 1, 2, 4, 5))])
def test_names_with_glyphs_are_kept_as_they_are(name: str) -> None:
    """Circled and small-capital letters, double-struck digits (fonts have them) and the
    names in Latin, Hebrew, Arabic, CJK and Korean are drawn as written, no white square."""
    assert clean(name, FONT) == name
    assert PLACEHOLDER not in clean(name, FONT)


def _colourful(image: Image.Image) -> int:
    """How many pixels are far from grey (a channel 60 or more from another)."""
    raw = image.convert("RGB").tobytes()
    return sum(1 for i in range(0, len(raw), 3) if max(raw[i : i + 3]) - min(raw[i : i + 3]) >= 60)


def _tile(text: str, size: int = FONT) -> Image.Image:
    return text_tile(clean(text, size), 200, 34, style.INK, style.PAPER, size)


@pytest.mark.parametrize("size", [style.SMALL_FONT_SIZE, FONT, style.FONT_SIZE])
def test_emoji_are_drawn_in_colour(size: int) -> None:
    """🎲🦊🚀 and a red heart asked for as an emoji (U+FE0F) have colour; the same heart
    without it is a text character, and a die asked for as text (U+FE0E) is black."""
    assert _colourful(_tile("dice", size)) == 0  # the test's own check: ink on paper is grey
    assert _colourful(_tile("🎲🦊 dice 🚀", size)) > 60
    assert _colourful(_tile("\u2764\ufe0f", size)) > 20
    assert _colourful(_tile("\u2764", size)) == 0
    assert _colourful(_tile("🎲\ufe0e", size)) == 0


def test_emoji_keep_their_size_and_place() -> None:
    """An emoji is about as tall as the text (not its 40 px bitmap) and stays in its tile."""
    tile = _tile("🎲").convert("RGB")
    box = ImageChops.difference(tile, Image.new("RGB", tile.size, style.PAPER)).getbbox()
    assert box is not None
    height = box[3] - box[1]
    assert FONT * 0.7 <= height <= FONT * 1.15, height
    assert box[1] >= 0 and box[3] <= tile.height


def test_a_skin_tone_is_dropped_not_drawn_as_a_swatch() -> None:
    """Names are drawn a character at a time, so a tone would be a square of its own."""
    assert clean("👍🏽 ok", FONT) == "👍 ok"


@pytest.mark.parametrize("seats", [2, 3])
def test_the_french_casual_bots_column_shows_what_it_is(seats: int) -> None:
    """French "Zen (bot)" (was "Détendu (bot)", cut to "Dét…" at three seats): the word
    that tells it from the other computers shows whole, with no " (" left before the cut."""
    from bot.i18n import lang

    name = lang("fr")("Casual bot")
    names = ("Alice", "Bob")[: seats - 1] + (name,)
    shown, _size = header_names(names, layout(seats, 0).col_w)
    assert shown[-1] == "Zen" + ELLIPSIS


def _finished(names: tuple[str, ...]) -> Game:
    """A finished game of ``names``, every seat scoring alike (all tie for first)."""
    faces: list[int] = []
    for _ in range(13 * len(names)):
        faces += [1, 2, 3, 4, 6]
    game = Game([(str(i), n) for i, n in enumerate(names)], dice_source=ScriptedDice(faces))
    while not game.is_over:
        player = game.current_player_id
        game.roll(player)
        game.score(player, game.current_seat.card.open_boxes[0])
    return game


@pytest.mark.parametrize(
    "names", [("Ann", "Bob", "Casual bot"), ("Ann", "Bob", "Cara", "Optimal bot")]
)
def test_the_final_card_names_computer_seats_whole(names: tuple[str, ...]) -> None:
    """Found by a play-through: "Optimal bot", the winner, headed its column as "Op…" on a
    four-seat final card, "Casual bot" as "Cas…" at three seats. A final card has no die
    buttons to fit beside it on a phone's screen, so where a name would be cut side by side
    its sections stand one above the other, and every name is whole (all tie: all gold)."""
    game = _finished(names)
    image = decode(render_final(game))
    assert image.size == (640 - 1 if len(names) == 3 else 640, 44 + 19 * 28)  # one table
    for c, cells in enumerate(_header_cells(image, len(names), style.BOARD_TITLE_H, game)):
        assert [_shown_name(cell, names[c], style.HILITE_HEADER) for cell in cells] == [names[c]]


def test_short_names_keep_the_final_card_side_by_side() -> None:
    """Names that fit side by side keep the final card as it was: two sections."""
    game = _finished(("Ann", "Bob", "Cat", "Dan"))
    assert len(final_layout(game).panels) == 2
    assert decode(render_final(game)).size == (668, 44 + 11 * 28)


def test_a_cut_name_shows_more_of_itself() -> None:
    """The live board stays landscape (its die buttons and box menu fit beside it on a
    phone), so at four seats a computer's name is still cut; it is cut at 16 px, not at the
    18 px of the names that fit whole, a letter more ("Opt…", "Cas…"; they were "Op…" and
    "Ca…"). In a wide column (5-8 seats) names shrink to 18 px before being cut, and a cut
    keeps a whole word ("Optimal…"; it was "Optim…" at 23 px)."""
    four = header_names(("Ann", "Bob", "Optimal bot", "Casual bot"), layout(4, 0).col_w)
    assert four == (("Ann", "Bob", "Opt" + ELLIPSIS, "Cas" + ELLIPSIS), (18, 18, 16, 16))
    five = ("Ann", "Bob", "Cara", "Dan", "Optimal bot")
    assert header_names(five, layout(5, 0).col_w) == (
        ("Ann", "Bob", "Cara", "Dan", "Optimal" + ELLIPSIS),
        (18, 18, 18, 18, 18),
    )
