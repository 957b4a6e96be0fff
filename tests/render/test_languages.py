"""The pictures and the text scorecard in the game's language: every word translated, every
label inside its column at a readable size in each of the seven languages, English as it was,
and no drawn piece of one language reused for another."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.engine import Category, Game
from bot.i18n import ENGLISH, lang
from bot.render import (
    TableRow,
    final_png,
    render_final,
    render_scorecard,
    render_stats,
    render_table,
    render_turn,
    scorecard_png,
    style,
    turn_png,
)
from bot.render.cards import DICE_ROW_W, ordinal
from bot.render.sheet import (
    FONT,
    HEADER_MIN_FONT,
    LABEL_INNER,
    LABEL_MIN_FONT,
    LOWER_ROWS,
    PLACE,
    STACKED_ROWS,
    STATUS_MIN_FONT,
    UPPER_ROWS,
    board_label,
    layout,
    row_words,
    shrink_to_fit,
)
from bot.render.text import ELLIPSIS, text_width
from bot.render.text_card import LABEL_W, SHORT_W, card_text, label, short_label

from . import states

LANGUAGES = [ENGLISH, "de", "fr", "es", "pt_BR", "pl", "ru"]
ROWS = tuple(dict.fromkeys((*UPPER_ROWS, *LOWER_ROWS, *STACKED_ROWS, PLACE)))


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_label_fits_its_column_whole(code: str) -> None:
    """Each row's label, as the board draws it, is measured with the renderer's own font at
    the size it is drawn: never wider than the label column (122 px of the 132), never cut
    with an ellipsis, and at least 20 px (12.5 px when the board is shown 400 px wide)."""
    for row in ROWS:
        text, size = board_label(row, code)
        bold = row == "total"
        assert text_width(text, size, bold) <= LABEL_INNER, (code, row, text, size)
        assert LABEL_MIN_FONT <= size <= FONT, (code, row, text, size)
        assert not text.endswith(ELLIPSIS), (code, row, text)
        assert text in row_words(row, code), (code, row, text)
    assert LABEL_INNER < style.BOARD_LABEL_W


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_words_beside_the_dice_and_in_the_places_fit(code: str) -> None:
    """The longest status line ("Round 13/13 · Roll 3 of 3") fits beside the dice whole (shrunk
    at most to 20 px), and every place (1st ... 8th, or "left") fits the narrowest column."""
    _ = lang(code)
    status = _("Round {round}/{rounds} · Roll {roll} of {rolls}", round=13, rounds=13, roll=3,
               rolls=3)  # fmt: skip
    inner = style.BOARD_MIN_WIDTH - DICE_ROW_W - 3 * style.PAD
    text, size = shrink_to_fit((status,), inner, FONT, STATUS_MIN_FONT)
    assert text == status and size >= STATUS_MIN_FONT, (code, status)
    narrowest = min(layout(n, 0, final=True).col_w for n in range(1, 9))
    for word in [ordinal(place, code) for place in range(1, 9)] + [_("left")]:
        text, size = shrink_to_fit((word,), narrowest - 4, FONT, HEADER_MIN_FONT, True)
        assert text == word, (code, word)


def test_box_names_are_the_engines_translated() -> None:
    """A box's name is the engine's label in the catalog's words; the five long ones show the
    board's short form where the catalog gives one."""
    for code in LANGUAGES:
        _ = lang(code)
        for category in (Category.ONES, Category.SIXES, Category.YAHTZEE, Category.CHANCE):
            assert board_label(category, code)[0] == _(category.label)
    assert board_label(Category.SMALL_STRAIGHT, "de") == ("Kl. Straße", FONT)
    assert board_label(Category.LARGE_STRAIGHT, "ru") == ("Бол. стрит", FONT)
    assert board_label(Category.SMALL_STRAIGHT, "pl") == ("Mały strit", FONT)
    assert board_label(Category.FOUR_OF_A_KIND, "de")[0] == "Viererpasch"
    assert board_label("total", "de") == ("Gesamt", FONT)


def test_english_is_as_it_was() -> None:
    """English keeps the board's own words and sizes (the golden images check the pixels)."""
    expected = {
        Category.THREE_OF_A_KIND: "3 of a kind",
        Category.FOUR_OF_A_KIND: "4 of a kind",
        Category.FULL_HOUSE: "Full house",
        Category.SMALL_STRAIGHT: "Sm straight",
        Category.LARGE_STRAIGHT: "Lg straight",
        Category.ONES: "Ones",
        "upper": "Upper",
        "bonus": "Bonus 63+",
        "uppertotal": "Upper total",
        "ybonus": "Yahtzee +",
        "total": "Total",
        PLACE: "Place",
    }
    for row, word in expected.items():
        assert board_label(row) == (word, FONT)
        assert label(row) == word
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th",
    ]  # fmt: skip
    game = states.two_seats_mid_turn()
    assert render_turn(game) == render_turn(game, ENGLISH) == render_turn(game, "xx")


def test_places_in_each_language() -> None:
    assert [ordinal(n, "de") for n in (1, 2, 3)] == ["1.", "2.", "3."]
    assert [ordinal(n, "fr") for n in (1, 2, 3)] == ["1er", "2e", "3e"]
    assert [ordinal(n, "es") for n in (1, 2)] == ["1.º", "2.º"]
    ie = "\N{CYRILLIC SMALL LETTER IE}"  # the Russian ending: 1-e (mesto)
    assert [ordinal(n, "ru") for n in (1, 2)] == [f"1-{ie}", f"2-{ie}"]


def test_a_drawn_piece_of_one_language_is_never_shown_in_another() -> None:
    """The caches (label columns, text tiles, columns) are keyed so that drawing in German
    between two English boards changes nothing in the English one, and the German board
    differs from it where there are words."""
    game = states.finished()
    english = render_final(game)
    german = render_final(game, "de")
    russian = render_final(game, "ru")
    assert render_final(game) == english
    assert render_final(game, "de") == german
    a, b = decode(english), decode(german)
    assert a.size == b.size
    lay = layout(3, style.BOARD_TITLE_H, final=True)
    labels = (0, lay.row_y(0), style.BOARD_LABEL_W, lay.row_y(len(lay.panels[0])))
    assert ImageChops.difference(a.crop(labels), b.crop(labels)).getbbox() is not None
    assert ImageChops.difference(b.crop(labels), decode(russian).crop(labels)).getbbox()
    # the seats' columns carry numbers only: the same pixels in every language
    column = (lay.col_x(0, 0), lay.row_y(0), lay.col_x(0, 3), lay.row_y(len(lay.panels[0]) - 1))
    assert ImageChops.difference(a.crop(column), b.crop(column)).getbbox() is None


def test_the_drawing_process_functions_take_the_language() -> None:
    game = states.two_seats_mid_turn()
    state = game.to_dict()
    assert turn_png(state, "ru") == render_turn(game, "ru")
    assert final_png(states.finished().to_dict(), "de") == render_final(states.finished(), "de")
    assert scorecard_png(state, 0, "pl") == render_scorecard(game, 0, "pl")
    assert scorecard_png(state, 0, "pl") != scorecard_png(state, 0)


def test_a_seat_that_left_is_named_so_in_its_language() -> None:
    """Four seats (the narrowest columns, 50 px) of which one left: the final draws."""
    game = Game([("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")])
    game.leave("4")
    while not game.is_over:
        game.roll(game.current_player_id)
        game.score(game.current_player_id, game.current_seat.card.open_boxes[0])
    for code in LANGUAGES:
        assert decode(render_final(game, code)).size == (668, 44 + 11 * 28)


def test_tables_and_charts_say_their_own_words_in_the_language() -> None:
    rows = [TableRow(1, "Ann", "312")]
    assert render_table("x", rows, language="de") != render_table("x", rows)
    assert render_table("x", [], language="ru") != render_table("x", [])
    spread = [1, 0, 0, 2]
    french = render_stats("x", [100, 200], spread, 50, "fr")
    assert french != render_stats("x", [100, 200], spread, 50)


@pytest.mark.parametrize("code", LANGUAGES)
def test_text_card_keeps_its_widths_in_every_language(code: str) -> None:
    """Two seats: at most 27 characters a line (a phone's code block); eight: at most 45;
    columns line up; labels at most 11 characters (short ones 5), none cut."""
    for row in STACKED_ROWS:
        assert len(label(row, code)) <= LABEL_W and not label(row, code).endswith("…")
        assert len(short_label(row, code)) <= SHORT_W
    two = card_text(states.finished(), [0, 1], code).splitlines()
    assert max(len(line) for line in two) <= 27, "\n".join(two)
    assert len({len(line) for line in two}) == 1
    eight = card_text(states.before_first_roll(8), None, code).splitlines()
    assert max(len(line) for line in eight) <= 45, "\n".join(eight)
    three = card_text(states.finished(), None, code).splitlines()
    assert len({len(line) for line in three}) == 1


def test_text_card_speaks_the_language() -> None:
    german = card_text(states.finished(), [0, 1], "de")
    assert "Kl. Straße" in german and "Dreierpasch" in german and "Gesamt" in german
    russian = card_text(states.finished(), [0, 1], "ru")
    assert "Бол. стрит" in russian and "Итого" in russian
    assert card_text(states.finished(), None, ENGLISH) == card_text(states.finished())
    assert card_text(Game([("1", ""), ("2", "Bob")]), None, "de").splitlines()[0].split()[0] == (
        "Spieler"
    )


def _glossary() -> dict[str, list[list[str]]]:
    """The boxes' names in docs/translating.md's glossary: row name -> per language (de, fr,
    es, pt_BR, pl, ru) its words."""
    path = Path(__file__).resolve().parents[2] / "docs" / "translating.md"
    rows: dict[str, list[list[str]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == len(LANGUAGES) and cells[0] in GLOSSARY_ROWS:  # English + six
            rows[cells[0]] = [[w.strip() for w in cell.split(",")] for cell in cells[1:]]
    return rows


GLOSSARY_ROWS = ("Ones ... Sixes", "Yahtzee (the box)", "Chance")


def test_the_glossarys_box_names_fit_without_a_short_form() -> None:
    """The boxes the board names by their full name (Ones ... Sixes, Yahtzee, Chance), in
    every language's glossary word, fit the label column whole at 20 px or more: the
    catalogs that give these names (the engine's) need no short forms."""
    glossary = _glossary()
    assert set(glossary) == set(GLOSSARY_ROWS)
    for row, languages in glossary.items():
        for words in languages:
            for word in words:
                text, size = shrink_to_fit((word,), LABEL_INNER, FONT, LABEL_MIN_FONT)
                assert text == word and len(word) <= LABEL_W, (row, word, size)


def test_numbered_columns_say_whose_they_are() -> None:
    """From four seats the columns are numbered (#1 ...): a legend under the card names
    each number's player, in seat order, within the card's width."""
    game = Game([("1", "Ann"), ("2", "Bob"), ("3", "Optimal bot"), ("4", "Anna Maria Lopez")])
    lines = card_text(game).splitlines()
    assert lines[0].split() == ["#1", "#2", "#3", "#4"]
    table = lines[: len(STACKED_ROWS) + 2]  # the heads, the rows, the rule under the bonus
    legend = "  ".join(lines[len(table) :])
    assert legend == "#1 Ann  #2 Bob  #3 Optimal bot  #4 Anna Maria…", lines
    assert max(len(line) for line in lines) <= len(lines[0])
    assert "#1" not in card_text(game, [0, 1])  # three seats or fewer: names head the columns
