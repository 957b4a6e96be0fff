"""Reusable pictures in the game's style: a ranked table and a small bar or line chart.

The leaderboard and the stats command draw with these; like the game images they are pure
functions that return PNG bytes. The words they add themselves (default headers, "No results
yet", the stats chart's titles) are in ``language`` (a ``bot.i18n`` catalog code); titles,
headers and cells the caller gives are drawn as given.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import ENGLISH, Lang, lang

from . import style as s
from .text import clean, fit, text_tile, text_width

TABLE_WIDTH = 520
RANK_W = 64
CHART_WIDTH = 520
CHART_HEIGHT = 300
CHART_LEFT = 64  # the y axis; the x axis runs from here to CHART_RIGHT
CHART_RIGHT = CHART_WIDTH - 20
LABEL_GAP = 12  # the least room between two labels of the x axis, in pixels


@dataclass(frozen=True, slots=True)
class TableRow:
    """One line of a ranked table: rank (shared ranks allowed), name, figure, extra column."""

    rank: int | None
    name: str
    figure: str
    extra: str = ""
    highlight: bool = False


def _encode(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()


def render_table(
    title: str,
    rows: Sequence[TableRow],
    headers: tuple[str, str, str, str] | None = None,
    footer: str | None = None,
    language: str = ENGLISH,
) -> bytes:
    """A table of ranked rows with a title, column headers (by default #, Player, Score)
    and an optional footer line."""
    _ = lang(language)
    if headers is None:
        headers = ("#", _("Player"), _("Score"), "")
    player = _("Player")
    rank_w, name_w, figure_w, extra_w = table_columns(rows, headers)
    body = max(len(rows), 1)
    height = s.TITLE_H + s.ROW_H * (1 + body) + (s.ROW_H if footer else 0)
    image = Image.new("RGB", (TABLE_WIDTH, height), s.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, TABLE_WIDTH, s.TITLE_H - 1), fill=s.FELT)
    draw.rectangle((0, s.TITLE_H, TABLE_WIDTH, s.TITLE_H + s.ROW_H - 1), fill=s.HEADER)
    for i, row in enumerate(rows):
        y = s.TITLE_H + s.ROW_H * (1 + i)
        bg = s.HILITE if row.highlight else (s.PAPER if i % 2 == 0 else s.BAND)
        draw.rectangle((0, y, TABLE_WIDTH, y + s.ROW_H - 1), fill=bg)
    pal = s.to_palette(image)
    columns = [(rank_w, "center"), (name_w, "left"), (figure_w, "right"), (extra_w, "right")]

    def put(
        x: int, y: int, w: int, text: str, fg: s.RGB, bg: s.RGB, bold: bool, align: str
    ) -> None:
        if w <= 2 * s.PAD or not text:
            return
        fitted = fit(text, w - 2 * s.PAD, s.FONT_SIZE, bold, empty=player)
        tile = text_tile(fitted, w - 2 * s.PAD, s.ROW_H - 2, fg, bg, s.FONT_SIZE, bold, align)
        pal.paste(tile, (x + s.PAD, y + 1))

    _put_title(pal, title, TABLE_WIDTH)
    x = 0
    for (w, align), header in zip(columns, headers, strict=True):
        put(x, s.TITLE_H, w, header, s.HEADER_TEXT, s.HEADER, True, align)
        x += w
    if not rows:
        empty = _("No results yet")
        put(0, s.TITLE_H + s.ROW_H, TABLE_WIDTH, empty, s.MUTED, s.PAPER, False, "left")
    for i, row in enumerate(rows):
        y = s.TITLE_H + s.ROW_H * (1 + i)
        bg = s.HILITE if row.highlight else (s.PAPER if i % 2 == 0 else s.BAND)
        cells = ["" if row.rank is None else str(row.rank), row.name, row.figure, row.extra]
        x = 0
        for (w, align), text, bold in zip(columns, cells, (True, False, True, False), strict=True):
            put(x, y, w, text, s.INK, bg, bold, align)
            x += w
    if footer:
        y = height - s.ROW_H
        ImageDraw.Draw(pal).line((0, y, TABLE_WIDTH, y), fill=s.index_of(s.GRID))
        put(0, y, TABLE_WIDTH, footer, s.INK, s.PAPER, False, "left")
    return _encode(pal)


def table_columns(
    rows: Sequence[TableRow], headers: tuple[str, str, str, str]
) -> tuple[int, int, int, int]:
    """The widths of the rank, name, figure and extra columns: each as wide as its header
    or its widest cell; the name takes what is left of the 520 px."""
    rank_w = _column_width(headers[0], [str(r.rank or "") for r in rows], RANK_W)
    figure_w = _column_width(headers[2], [r.figure for r in rows])
    extra_w = 0
    if headers[3] or any(r.extra for r in rows):
        extra_w = _column_width(headers[3], [r.extra for r in rows])
    return rank_w, TABLE_WIDTH - rank_w - figure_w - extra_w, figure_w, extra_w


def _column_width(header: str, cells: Sequence[str], least: int = 0) -> int:
    """A column as wide as its header (bold) or its widest cell, whichever is wider."""
    widest = max(
        [text_width(header, s.FONT_SIZE, True)] + [text_width(c, s.FONT_SIZE, True) for c in cells]
    )
    return max(least, math.ceil(widest) + 2 * s.PAD)


#: The smallest size a title shrinks to before it is cut (a long title in German or
#: Portuguese: "Maiores pontuações · Todos os tempos").
TITLE_MIN_FONT = 19


def _put_title(image: Image.Image, title: str, width: int) -> None:
    """The felt title strip's text, in the game images' style: shrunk to fit, down to
    ``TITLE_MIN_FONT``, before it is cut."""
    inner = width - 2 * s.PAD
    size = s.FONT_SIZE
    while size > TITLE_MIN_FONT and text_width(title, size, True) > inner:
        size -= 1
    tile = text_tile(
        fit(title, inner, size, True), inner, s.TITLE_H, s.FELT_TEXT, s.FELT, size, True, "left"
    )
    image.paste(tile, (s.PAD, 0))


def render_chart(
    title: str,
    values: Sequence[float],
    labels: Sequence[str] = (),
    kind: str = "bar",
    axes: tuple[str, str] = ("", ""),
    language: str = ENGLISH,
) -> bytes:
    """A bar chart (``kind="bar"``) or a line chart (``"line"``) of ``values``; ``axes``
    names the x and the y axis; the y axis's numbers as ``language`` writes them."""
    return _encode(chart_image(title, values, labels, kind, axes, language=language))


def render_stats(
    title: str,
    recent: Sequence[float],
    spread: Sequence[int],
    bin_width: float,
    language: str = ENGLISH,
) -> bytes:
    """A player's recent scores as a line over their score distribution as bars:
    ``spread[i]`` games scored from ``i * bin_width`` up to the next bin."""
    _ = lang(language)
    # TRANSLATORS: the stats chart's axes: "game" (each of the last games), "score" (points).
    axes = (_("game"), _("score"))
    labels = [_.number(i + 1) for i in range(len(recent))]
    trend = chart_image(title, recent, labels, "line", axes, language=language)
    bars = chart_image(
        _("Score distribution"), spread, (),
        # TRANSLATORS: the score distribution's axes: "score" (points), "games" (how many).
        "bar", (_("score"), _("games")), whole=True, language=language, bins=bin_width,
    )  # fmt: skip
    image = Image.new("P", (CHART_WIDTH, CHART_HEIGHT * 2))
    image.putpalette(s.palette().getpalette() or [])
    image.paste(trend, (0, 0))
    image.paste(bars, (0, CHART_HEIGHT))
    return _encode(image)


@dataclass(frozen=True, slots=True)
class AxisLabel:
    """A label of the x axis as drawn: its text, where the text starts and how wide it is."""

    text: str
    left: float
    width: float

    @property
    def right(self) -> float:
        return self.left + self.width


def nice_steps(least: float) -> Iterator[float]:
    """1, 2 and 5 times the powers of ten, from the first at least ``least`` up."""
    power = 10 ** math.floor(math.log10(least))
    while True:
        for factor in (1, 2, 5):
            if factor * power >= least - 1e-9:
                yield factor * power
        power *= 10


def _placed(text: str, centre: float) -> AxisLabel:
    """A label centred on ``centre``, moved in to stay on the picture (its text as drawn:
    a character the fonts lack replaced, as French's narrow space in "1 500")."""
    text = clean(text, s.SMALL_FONT_SIZE)
    width = text_width(text, s.SMALL_FONT_SIZE)
    left = min(max(centre - width / 2, 0.0), CHART_WIDTH - width)
    return AxisLabel(text, left, width)


def _apart(labels: Sequence[AxisLabel]) -> bool:
    """Whether each label ends at least ``LABEL_GAP`` before the next begins."""
    return all(b.left - a.right >= LABEL_GAP for a, b in itertools.pairwise(labels))


def value_axis(
    high: float, say: Callable[[float], str], unit: float = 1,
    start: float = CHART_LEFT, end: float = CHART_RIGHT,
) -> list[AxisLabel]:  # fmt: skip
    """The labels of an x axis of values from 0 (at pixel ``start``) to ``high`` (at
    ``end``): round values (steps of 1, 2 or 5 times a power of ten, at least ``unit``),
    each said by ``say`` (a language's numbers), at the first step where every label keeps
    ``LABEL_GAP`` from the next, however wide the numbers are written."""
    if high <= 0:
        return [_placed(say(0), start)]
    per = (end - start) / high
    for step in nice_steps(unit):
        count = math.floor(high / step + 1e-9)
        labels = [_placed(say(i * step), start + i * step * per) for i in range(count + 1)]
        if count <= 1 or _apart(labels):
            return labels
    raise AssertionError("unreachable: one step always fits")


def category_axis(centres: Sequence[float], texts: Sequence[str]) -> list[AxisLabel]:
    """The labels of an x axis of things in a row (games 1, 2, 3 ...), centred under
    ``centres``: every one, else every 2nd, 5th, 10th ... (the first always), at the first
    such spacing where each label keeps ``LABEL_GAP`` from the next."""
    pairs = list(zip(centres, texts, strict=False))
    for every in nice_steps(1):
        labels = [_placed(t, x) for i, (x, t) in enumerate(pairs) if i % every == 0 and t]
        if len(labels) <= 1 or _apart(labels):
            return labels
    raise AssertionError("unreachable: one label always fits")


def ticks(peak: float, most: int = 5, whole: bool = False) -> list[float]:
    """Round values from 0 up to at least ``peak`` for a y axis: steps of 1, 2 or 5 times a
    power of ten, at most ``most`` of them above 0; ``whole``: the axis counts things, so
    no step is below 1 (no "0.2 games")."""
    if peak <= 0:
        return [0.0, 1.0]
    step = 10 ** math.floor(math.log10(peak / most))
    for factor in (1, 2, 5, 10):
        if math.ceil(peak / (step * factor)) <= most:
            step *= factor
            break
    if whole:
        step = max(step, 1)
    count = math.ceil(peak / step - 1e-9)
    return [i * step for i in range(count + 1)]


def chart_image(
    title: str,
    values: Sequence[float],
    labels: Sequence[str] = (),
    kind: str = "bar",
    axes: tuple[str, str] = ("", ""),
    whole: bool = False,
    language: str = ENGLISH,
    bins: float | None = None,
) -> Image.Image:
    """The image behind ``render_chart``, in the shared palette (``whole``: values are
    counts, the axis has whole steps; ``bins``: bars of a histogram, ``values[i]`` for
    ``i * bins`` up to the next, over an x axis of values instead of ``labels``)."""
    if kind not in ("bar", "line"):
        raise ValueError(f"kind must be 'bar' or 'line', not {kind!r}")
    _ = lang(language)
    x_name, y_name = axes
    image = Image.new("RGB", (CHART_WIDTH, CHART_HEIGHT), s.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, CHART_WIDTH, s.TITLE_H - 1), fill=s.FELT)
    left, right = CHART_LEFT, CHART_RIGHT
    numbered = bool(labels) or bins is not None
    top = s.TITLE_H + (44 if y_name else 24)
    bottom = CHART_HEIGHT - 14 - (26 if numbered else 0) - (24 if x_name else 0)
    scale = ticks(max([*values, 0.0]), whole=whole)
    peak = scale[-1]

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * max(value, 0) / peak

    for tick in scale[1:]:
        draw.line((left, y_of(tick), right, y_of(tick)), fill=s.GRID)
    n = len(values)
    centres: list[float] = []
    if n and kind == "bar":
        slot = (right - left) / n
        centres = [left + (i + 0.5) * slot for i in range(n)]
        for x, v in zip(centres, values, strict=True):
            if y_of(v) < bottom - 1:  # a zero draws no bar
                draw.rectangle((x - slot * 0.35, y_of(v), x + slot * 0.35, bottom - 1), fill=s.BAR)
    elif n:
        inset = 16  # the first and last points keep clear of the axes
        step = (right - left - 2 * inset) / max(n - 1, 1)
        centres = [left + inset + i * step for i in range(n)] if n > 1 else [(left + right) / 2]
        points = [(x, y_of(v)) for x, v in zip(centres, values, strict=True)]
        if len(points) > 1:
            draw.line(points, fill=s.PREVIEW, width=3, joint="curve")
        for x, y in points:
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=s.PREVIEW)
    draw.line((left, top - 8, left, bottom), fill=s.INK, width=2)
    draw.line((left, bottom, right, bottom), fill=s.INK, width=2)
    pal = s.to_palette(image)
    _put_title(pal, title, CHART_WIDTH)

    def put(text: str, x: float, y: float, w: int, align: str, fg: s.RGB = s.MUTED) -> None:
        fitted = fit(text, w, s.SMALL_FONT_SIZE, empty="")
        tile = text_tile(fitted, w, 24, fg, s.PAPER, s.SMALL_FONT_SIZE, False, align)
        pal.paste(tile, (max(0, min(round(x), CHART_WIDTH - w)), round(y)))

    for tick in scale:
        put(_number(_, tick), 0, y_of(tick) - 12, left - 8, "right")
    if y_name:
        put(y_name, 4, s.TITLE_H + 2, 200, "left", s.INK)
    if bins is not None:
        marks = value_axis(n * bins, lambda v: _number(_, v), bins) if n else []
    else:
        marks = category_axis(centres, labels) if labels and centres else []
    for mark in marks:  # each as wide as its text: the axis functions keep them apart
        put(mark.text, math.floor(mark.left), bottom + 5, math.ceil(mark.width) + 1, "left")
    if x_name:  # centred under the axis, below its labels
        below = bottom + (31 if numbered else 5)
        put(x_name, (left + right) / 2 - 100, below, 200, "center", s.INK)
    return pal


def _number(_: Lang, value: float) -> str:
    """An axis's number as the language writes it (1,500 / 1.500 / 1 500; 0.2 / 0,2)."""
    if value == int(value):
        return _.number(int(value))
    return _.decimal(value, 1)
