"""Fixed game states the render tests draw, and the golden images made from them.

Regenerate the golden images (and the examples in docs/images) after an intended visual
change with:
    .venv/bin/python -m tests.render.states
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.engine import Category, Game, ScriptedDice
from bot.render import (
    TableRow,
    render_chart,
    render_final,
    render_scorecard,
    render_stats,
    render_table,
    render_turn,
)

GOLDEN = Path(__file__).resolve().parent / "golden"
C = Category


def two_seats_mid_turn() -> Game:
    """Ann has scored a Yahtzee; Bob a large straight; Ann holds two dice after roll 1."""
    g = Game(
        [("1", "Ann"), ("2", "Bob")],
        dice_source=ScriptedDice([6] * 5 + [1, 2, 3, 4, 5] + [3, 3, 4, 3, 5]),
    )
    g.roll("1")
    g.score("1", C.YAHTZEE)
    g.roll("2")
    g.score("2", C.LARGE_STRAIGHT)
    g.roll("1")
    g.set_held("1", [True, True, False, True, False])
    return g


def before_first_roll(seats: int) -> Game:
    """A fresh game of ``seats`` seats, nobody has rolled."""
    return Game([(str(i), f"Player {i + 1}") for i in range(seats)])


def joker_turn() -> Game:
    """Ann has 50 in Yahtzee and Fives filled, and rolls five 5s: a Joker with +100."""
    faces = [5] * 5 + [1, 1, 2, 2, 6] + [2, 2, 2, 3, 3] + [5] * 10 + [1, 2, 3, 4, 5] + [5] * 5
    g = Game([("1", "Ann"), ("2", "Bob"), ("3", "Cat")], dice_source=ScriptedDice(faces))
    for player, box in [
        ("1", C.YAHTZEE),
        ("2", C.ONES),
        ("3", C.FULL_HOUSE),
        ("1", C.FIVES),  # forced, +100
        ("2", C.FIVES),
        ("3", C.LARGE_STRAIGHT),
    ]:
        g.roll(player)
        g.score(player, box)
    g.roll("1")
    return g


def finished(names: tuple[str, str, str] = ("Ann", "Bob", "Cat")) -> Game:
    """A finished three-seat game in which the second and third seats (Bob and Cat) tie
    for first and the first (Ann) comes third."""
    faces: list[int] = []
    for _ in range(13):
        faces += [1, 2, 3, 4, 6] + [2, 3, 4, 5, 6] * 2
    g = Game([(str(i + 1), n) for i, n in enumerate(names)], dice_source=ScriptedDice(faces))
    while not g.is_over:
        player = g.current_player_id
        g.roll(player)
        g.score(player, g.current_seat.card.open_boxes[0])
    return g


def long_names() -> Game:
    """Names that must not break the renderer: long, right-to-left, emoji, CJK, empty."""
    names = ["A" * 40, "שלום עולם مرحبا", "🎲🎲 dice 😀", "漢字の名前", ""]
    g = Game([(str(i), n) for i, n in enumerate(names)], dice_source=ScriptedDice([4, 4, 4, 1, 2]))
    g.roll("0")
    return g


# Names in Latin with diacritics, Hebrew and Arabic (right to left), emoji, Chinese and
# Japanese, Korean, 32 characters (Discord's longest display name), and "Dragon" in the
# mathematical bold Fraktur letters no shipped font has, with a red heart (U+2764 U+FE0F).
NAMES = [
    "Zoë Ångström-Lee",
    "שלום עולם",
    "مرحبا بك",
    "🎲🦊 dice 🚀",
    "漢字の名前",
    "김민준",
    "Bartholomew-Maximilian Oppenheim",
    "𝕯𝖗𝖆𝖌𝖔𝖓 \u2764\ufe0f",  # noqa: RUF001
]
# Names too long for a column at three seats (62 px): they used to become "#1 #2 #3".
LONG_THREE = ("Alexandra", "𝕯𝖗𝖆𝖌𝖔𝖓 Slayer", "🦊 Fox Queen")  # noqa: RUF001


def named_seats() -> Game:
    """Four seats named in four scripts; the first has rolled."""
    g = Game([(str(i), n) for i, n in enumerate(NAMES[:4])], dice_source=ScriptedDice([4] * 5))
    g.roll("0")
    return g


def three_long_names() -> Game:
    """Three seats whose names do not fit their columns whole; the second has rolled."""
    g = Game([(str(i), n) for i, n in enumerate(LONG_THREE)], dice_source=ScriptedDice([4] * 10))
    g.roll("0")
    g.score("0", C.FOURS)
    g.roll("1")
    return g


def wide_names() -> Game:
    """Two seats: Chinese and Japanese, and a 32-character name."""
    g = Game([("1", NAMES[4]), ("2", NAMES[6])], dice_source=ScriptedDice([1, 2, 3, 4, 6]))
    g.roll("1")
    return g


GOLDEN_IMAGES: dict[str, Callable[[], bytes]] = {
    "turn-2-seats.png": lambda: render_turn(two_seats_mid_turn()),
    "turn-8-seats-before-roll.png": lambda: render_turn(before_first_roll(8)),
    "turn-joker.png": lambda: render_turn(joker_turn()),
    "final.png": lambda: render_final(finished()),
    "scorecard.png": lambda: render_scorecard(two_seats_mid_turn(), 0),
    "table.png": lambda: render_table(
        "High scores",
        [
            TableRow(1, "Ann", "312", "4"),
            TableRow(2, "Bob", "250", "2", True),
            TableRow(2, "Cat", "250"),
        ],
        ("#", "Player", "Best", "Games"),
        footer="Your rank: 2nd",
    ),
    "chart.png": lambda: render_chart(
        "Recent scores", [180, 220, 254, 199], ["1", "2", "3", "4"], "line", ("game", "score")
    ),
    "stats.png": lambda: render_stats(
        "Ann: last 10 games",
        [180, 220, 254, 199, 230, 160, 301, 240, 210, 190],
        [0, 0, 1, 4, 3, 1, 1],
        50,
    ),
    "names-turn-4-seats.png": lambda: render_turn(named_seats()),
    "names-turn-2-seats.png": lambda: render_turn(wide_names()),
    "names-turn-3-seats.png": lambda: render_turn(three_long_names()),
    "names-final-3-seats.png": lambda: render_final(finished(LONG_THREE)),
    # The board and the final card in German and Russian (bot.i18n catalogs): the words
    # that are longest there (Dreierpasch, Kl. Straße, Четвёрки, Мал. стрит) fit their column.
    "turn-2-seats-de.png": lambda: render_turn(two_seats_mid_turn(), "de"),
    "final-de.png": lambda: render_final(finished(), "de"),
    "turn-2-seats-ru.png": lambda: render_turn(two_seats_mid_turn(), "ru"),
    "final-ru.png": lambda: render_final(finished(), "ru"),
    "names-table.png": lambda: render_table(
        "High scores · All time",
        [TableRow(i + 1, name, str(300 - 7 * i), str(i + 1)) for i, name in enumerate(NAMES)],
        ("#", "Player", "Average", "Games"),
        footer="Zoë Ångström-Lee: 1st of 8, 300 in 1 game",
    ),
}


DOCS = Path(__file__).resolve().parents[2] / "docs" / "images"
DOC_IMAGES = (
    "turn-2-seats.png", "turn-joker.png", "final.png", "table.png", "stats.png",
    "names-table.png", "names-turn-3-seats.png", "turn-2-seats-de.png",
)  # fmt: skip


def regenerate() -> None:
    """Write every golden image from the current renderer, and the examples in docs/images."""
    GOLDEN.mkdir(exist_ok=True)
    DOCS.mkdir(parents=True, exist_ok=True)
    for name, make in GOLDEN_IMAGES.items():
        png = make()
        (GOLDEN / name).write_bytes(png)
        print("wrote", GOLDEN / name)
        if name in DOC_IMAGES:
            (DOCS / name).write_bytes(png)


if __name__ == "__main__":
    regenerate()
