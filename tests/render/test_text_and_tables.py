"""Names in any script, tables whose columns fit their content, charts with real axes."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games.leaderboards import FIGURE_HEADERS
from bot.render import TableRow, render_chart, style
from bot.render.text import PLACEHOLDER, clean, fit, font_index, is_rtl, text_width
from bot.render.toolkit import CHART_HEIGHT, table_columns, ticks

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
