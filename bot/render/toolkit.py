"""Reusable pictures in the game's style: a ranked table and a small bar or line chart.

The leaderboard and the stats command draw with these; like the game images they are pure
functions that return PNG bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import style as s
from .text import fit, text_tile

TABLE_WIDTH = 520
RANK_W = 64
FIGURE_W = 110
CHART_WIDTH = 520
CHART_HEIGHT = 300


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
    headers: tuple[str, str, str, str] = ("#", "Player", "Score", ""),
    footer: str | None = None,
) -> bytes:
    """A table of ranked rows with a title, column headers and an optional footer line."""
    extra_w = 100 if headers[3] or any(r.extra for r in rows) else 0
    name_w = TABLE_WIDTH - RANK_W - FIGURE_W - extra_w
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
    columns = [(RANK_W, "center"), (name_w, "left"), (FIGURE_W, "right"), (extra_w, "right")]

    def put(
        x: int, y: int, w: int, text: str, fg: s.RGB, bg: s.RGB, bold: bool, align: str
    ) -> None:
        if w <= 2 * s.PAD or not text:
            return
        fitted = fit(text, w - 2 * s.PAD, s.FONT_SIZE, bold, empty="Player")
        tile = text_tile(fitted, w - 2 * s.PAD, s.ROW_H - 2, fg, bg, s.FONT_SIZE, bold, align)
        pal.paste(tile, (x + s.PAD, y + 1))

    _put_title(pal, title, TABLE_WIDTH)
    x = 0
    for (w, align), header in zip(columns, headers, strict=True):
        put(x, s.TITLE_H, w, header, s.HEADER_TEXT, s.HEADER, True, align)
        x += w
    if not rows:
        put(0, s.TITLE_H + s.ROW_H, TABLE_WIDTH, "No results yet", s.MUTED, s.PAPER, False, "left")
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


def _put_title(image: Image.Image, title: str, width: int) -> None:
    """The felt title strip's text, in the game images' style."""
    inner = width - 2 * s.PAD
    tile = text_tile(
        fit(title, inner, s.FONT_SIZE, True), inner, s.TITLE_H, s.FELT_TEXT, s.FELT,
        s.FONT_SIZE, True, "left",
    )  # fmt: skip
    image.paste(tile, (s.PAD, 0))


def render_chart(
    title: str,
    values: Sequence[float],
    labels: Sequence[str] = (),
    kind: str = "bar",
) -> bytes:
    """A bar chart (``kind="bar"``) or a line chart (``"line"``) of ``values``."""
    return _encode(chart_image(title, values, labels, kind))


def render_stats(title: str, recent: Sequence[float], buckets: Sequence[tuple[str, int]]) -> bytes:
    """A player's recent scores as a line over their score distribution as bars."""
    trend = chart_image(title, recent, [str(i + 1) for i in range(len(recent))], "line")
    spread = chart_image(
        "Score distribution", [n for _, n in buckets], [label for label, _ in buckets], "bar"
    )
    image = Image.new("P", (CHART_WIDTH, CHART_HEIGHT * 2))
    image.putpalette(s.palette().getpalette() or [])
    image.paste(trend, (0, 0))
    image.paste(spread, (0, CHART_HEIGHT))
    return _encode(image)


def chart_image(
    title: str,
    values: Sequence[float],
    labels: Sequence[str] = (),
    kind: str = "bar",
) -> Image.Image:
    """The image behind ``render_chart``, in the shared palette."""
    if kind not in ("bar", "line"):
        raise ValueError(f"kind must be 'bar' or 'line', not {kind!r}")
    image = Image.new("RGB", (CHART_WIDTH, CHART_HEIGHT), s.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, CHART_WIDTH, s.TITLE_H - 1), fill=s.FELT)
    left, right = 56, CHART_WIDTH - 16
    top, bottom = s.TITLE_H + 16, CHART_HEIGHT - (34 if labels else 16)
    draw.line((left, bottom, right, bottom), fill=s.INK, width=2)
    peak = max([*values, 0.0]) or 1.0
    n = len(values)
    if n and kind == "bar":
        slot = (right - left) / n
        for i, v in enumerate(values):
            x0 = left + i * slot + slot * 0.15
            x1 = left + (i + 1) * slot - slot * 0.15
            y = bottom - (bottom - top) * max(v, 0) / peak
            if y < bottom - 1:  # a zero draws no bar
                draw.rectangle((x0, y, x1, bottom - 1), fill=s.BAR)
    elif n:
        step = (right - left) / max(n - 1, 1)
        points = [
            (left + i * step, bottom - (bottom - top) * max(v, 0) / peak)
            for i, v in enumerate(values)
        ]
        if len(points) > 1:
            draw.line(points, fill=s.PREVIEW, width=3, joint="curve")
        for x, y in points:
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=s.PREVIEW)
    pal = s.to_palette(image)
    _put_title(pal, title, CHART_WIDTH)
    axis = text_tile(
        _short(peak), left - 6, 24, s.MUTED, s.PAPER, s.SMALL_FONT_SIZE, False, "right"
    )
    pal.paste(axis, (0, top - 12))
    if labels and n:
        slot = (right - left) / n
        for i, label in enumerate(labels[:n]):
            w = max(int(slot), 8)
            x = (
                int(left + i * slot)
                if kind == "bar"
                else int(left + i * (right - left) / max(n - 1, 1) - w / 2)
            )
            tile = text_tile(
                fit(label, w, s.SMALL_FONT_SIZE, empty=""), w, 26, s.MUTED, s.PAPER,
                s.SMALL_FONT_SIZE,
            )  # fmt: skip
            pal.paste(tile, (max(0, min(x, CHART_WIDTH - w)), bottom + 4))
    return pal


def _short(value: float) -> str:
    return f"{value:.0f}" if value >= 10 or value == int(value) else f"{value:.1f}"
