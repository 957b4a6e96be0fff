"""Names in any script, tables whose columns fit their content, charts with real axes."""

from __future__ import annotations

import io
import itertools
import math
import re

import pytest
from PIL import Image

from bot.games.leaderboards import FIGURE_HEADERS
from bot.i18n import lang
from bot.render import TableRow, render_chart, style
from bot.render.text import PLACEHOLDER, clean, fit, font_index, is_rtl, text_width
from bot.render.toolkit import (
    CHART_HEIGHT,
    CHART_LEFT,
    CHART_RIGHT,
    CHART_WIDTH,
    LABEL_GAP,
    AxisLabel,
    category_axis,
    table_columns,
    ticks,
    value_axis,
)

FONT = style.BOARD_FONT_SIZE


@pytest.mark.parametrize(
    ("text", "font"),
    [("Ann", 0), ("Ωμέγα", 0), ("שלום", 0), ("漢", 1), ("名前", 1), ("김", 1), ("😀", 0),
     ("🎲🦊🚀", 2)],
)  # fmt: skip
def test_each_script_is_drawn_by_a_font_that_has_it(text: str, font: int) -> None:
    """0 is DejaVu (it has the emoticons block), 1 the CJK fallback, 2 the emoji fallback;
    nothing is a white square. (Emoji are drawn in colour all the same: test_names.py.)"""
    assert {font_index(c, FONT, False) for c in text} == {font}
    assert PLACEHOLDER not in clean(text, FONT)


def test_what_no_font_has_becomes_a_square_and_invisibles_go() -> None:
    """A hieroglyph (no shipped font has one) is a white square; an unassigned code point
    and a zero-width joiner disappear."""
    assert clean("a\U00013000b\u0378", FONT) == f"a{PLACEHOLDER}b"
    assert clean("👩\u200d👩", FONT) == "👩👩"


def test_right_to_left_is_told_by_the_first_strong_character() -> None:
    assert is_rtl("שלום world") and is_rtl("123 مرحبا")
    assert not is_rtl("world שלום") and not is_rtl("123")


def test_a_32_character_name_is_cut_with_an_ellipsis_to_its_width() -> None:
    name = "Bartholomew-Maximilian Oppenheim"
    assert len(name) == 32
    cut = fit(name, 150, FONT, True)
    assert cut.endswith("\u2026") and text_width(cut, FONT, True) <= 150
    assert fit("漢字の名前", 400, FONT) == "漢字の名前"  # fits: left whole


@pytest.mark.parametrize("figure", sorted(FIGURE_HEADERS.values()))
def test_table_headers_are_never_cut(figure: str) -> None:
    """Issue 14 item 4: every column is as wide as its bold header (was "Ga…", "Aver…")."""
    rows = [TableRow(1, "Ann", "1,575.5", "1234"), TableRow(22, "Bob", "12", "3")]
    headers = ("#", "Player", figure, "Games")
    widths = table_columns(rows, headers)
    for header, width in zip(headers, widths, strict=True):
        assert text_width(header, style.FONT_SIZE, True) <= width - 2 * style.PAD
    assert sum(widths) == 520 and widths[1] >= 200  # the name keeps most of the room


def test_axis_ticks_are_round_and_cover_the_peak() -> None:
    """By hand: 254 points -> steps of 100 up to 300; 4 games -> steps of 1; 0 -> 0 and 1."""
    assert ticks(254) == [0, 100, 200, 300]
    assert ticks(4) == [0, 1, 2, 3, 4]
    assert ticks(0) == [0.0, 1.0]
    assert ticks(1000) == [0, 200, 400, 600, 800, 1000]
    assert ticks(1) == pytest.approx([0, 0.2, 0.4, 0.6, 0.8, 1.0])  # a score axis may
    assert ticks(1, whole=True) == [0, 1]  # a count of games may not: no "0.2 games"
    assert ticks(3, whole=True) == [0, 1, 2, 3]


LANGUAGES = ["en", "de", "fr", "es", "pt_BR", "pl", "ru"]


def _readable(labels: list[AxisLabel]) -> None:
    """Each label on the picture, drawn whole, ending ``LABEL_GAP`` before the next."""
    for label in labels:
        assert label.left >= 0 and label.right <= CHART_WIDTH, label
        assert label.width == pytest.approx(text_width(label.text, style.SMALL_FONT_SIZE))
        room = math.ceil(label.width) + 1  # the tile it is drawn in
        assert fit(label.text, room, style.SMALL_FONT_SIZE) == label.text  # not cut
    for a, b in itertools.pairwise(labels):
        assert b.left - a.right >= LABEL_GAP, (a, b)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize(
    ("best", "bin_width"),
    [(49, 50), (299, 50), (575, 50), (1500, 50), (1575, 50), (0, 50), (2, 1), (0, 1)],
)
def test_the_score_axis_labels_never_run_together(code: str, best: int, bin_width: int) -> None:
    """The score distribution's x axis, from 0 to past the best score (one bin, a few, up
    to Yahtzee's 1,575), in every language's numbers: round steps (1, 2 or 5 times a power
    of ten, at least a bin), 0 first, each label whole and clear of the next."""
    _ = lang(code)
    high = (best // bin_width + 1) * bin_width
    labels = value_axis(high, lambda v: _.number(int(v)), bin_width)
    _readable(labels)
    assert labels[0].text == "0" and len(labels) >= 2
    said = [clean(_.number(i), style.SMALL_FONT_SIZE) for i in range(0, high + 1)]
    step = said.index(labels[1].text)
    assert step >= bin_width and step / 10 ** (len(str(step)) - 1) in (1, 2, 5)
    assert [label.text for label in labels] == said[::step][: len(labels)]
    assert int(re.sub(r"\D", "", labels[-1].text)) + step > high


def test_the_score_axis_steps_by_hand() -> None:
    """English, 436 pixels of axis, a digit about 11 pixels wide: 0..300 fits a label every
    50 (73 px apart, "300" 33 px + 12); 0..600 does not (36 px): every 100; 0..1,550 not
    every 200 (56 px for "1,000" at 50 px + 12): every 500."""
    say = lang("en").number
    assert CHART_RIGHT - CHART_LEFT == 436
    texts = [[label.text for label in value_axis(h, say, 50)] for h in (300, 600, 1550)]
    assert texts[0] == ["0", "50", "100", "150", "200", "250", "300"]
    assert texts[1] == ["0", "100", "200", "300", "400", "500", "600"]
    assert texts[2] == ["0", "500", "1,000", "1,500"]


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("games", [1, 2, 10, 20, 100, 1000])
def test_the_games_axis_labels_never_run_together(code: str, games: int) -> None:
    """The recent games' x axis (a line of ``games`` points, as the chart spaces them):
    the first game's number always shown, the others as many as fit, none touching."""
    _ = lang(code)
    inset = 16
    step = (CHART_RIGHT - CHART_LEFT - 2 * inset) / max(games - 1, 1)
    centres = [CHART_LEFT + inset + i * step for i in range(games)]
    labels = category_axis(centres, [_.number(i + 1) for i in range(games)])
    _readable(labels)
    assert labels[0].text == "1"
    if games <= 10:
        assert len(labels) == games  # 45 px apart at least: every number fits


def test_a_bar_label_sits_under_its_bar() -> None:
    """The only bar (third of four) and the only label ("W") share a centre."""
    image = Image.open(io.BytesIO(render_chart("x", [0, 0, 5, 0], ["", "", "W", ""]))).convert(
        "RGB"
    )
    bar = [x for x in range(image.width) if image.getpixel((x, CHART_HEIGHT - 60)) == style.BAR]
    assert bar, "no bar drawn"
    band = image.crop((70, CHART_HEIGHT - 38, image.width, CHART_HEIGHT - 10))
    ink = [
        x + 70
        for x in range(band.width)
        if any(sum(band.getpixel((x, y))) < 600 for y in range(band.height))
    ]
    assert ink, "no label drawn"
    assert abs((min(bar) + max(bar)) / 2 - (min(ink) + max(ink)) / 2) <= 3
