"""Pure message builders whose words the end-to-end tests do not reach: the hint's to-win
line, chances in words, the daily challenge's line and a replay."""

from __future__ import annotations

from bot.engine import Category, Dice, Game, Preset, ScoreResult
from bot.games.replay import Turn
from bot.games.results import Board, Report, Scored
from bot.i18n import lang
from bot.store import DailyEntry, DailyPlace
from bot.strategy.decisions import Choice
from bot.strategy.winning import WinHint
from cogs.coaching.messages import hint_text, percent, report_text
from cogs.daily.messages import daily_board_embed, daily_line, replay_text
from cogs.lobby.messages import thread_name
from cogs.turn.messages import rules_text, summary_embed

from .views import game_view

GAME = Game([("1", "Ann")])
GAME.dice, GAME.rolls_used = Dice(6, 6, 5, 5, 4), 2  # after Ann's second roll
FOR_POINTS = Choice(298.0, box=Category.CHANCE)
EN = lang("en")


def test_the_to_win_line_names_the_other_move_and_both_chances() -> None:
    hint = WinHint("**Bob**", Choice(1 / 216, keep=(5, 5)), 0.0)
    last = hint_text(EN, [FOR_POINTS], GAME, hint).splitlines()[-1]
    assert last == (
        "To beat \\*\\*Bob\\*\\*, though: keep 5-5 and roll three, with **less than 1%** to "
        "finish ahead (choice 1: no chance)."
    )


def test_when_the_move_for_points_is_also_the_move_to_win_it_says_so() -> None:
    hint = WinHint("Bob", Choice(0.62, box=Category.CHANCE), 0.62)
    assert hint_text(EN, [FOR_POINTS], GAME, hint).splitlines()[-1] == (
        "Choice 1 is also your best chance to beat Bob: **about 62%** to finish ahead."
    )
    assert len(hint_text(EN, [FOR_POINTS], GAME).splitlines()) == 2  # no one to beat: no line


def test_chances_in_words() -> None:
    """Never "about under 1%" nor "about 0%": each phrase carries its own hedge."""
    assert [percent(EN, p) for p in (0.0, 0.001, 0.031, 0.5, 0.999, 1.0)] == [
        "no chance", "less than 1%", "about 3%", "about 50%", "more than 99%", "certain",
    ]  # fmt: skip


def test_no_chance_left_says_so() -> None:
    hint = WinHint("Bob", Choice(0.0, box=Category.CHANCE), 0.0)
    assert hint_text(EN, [FOR_POINTS], GAME, hint).splitlines()[-1] == (
        "No move can still beat Bob: choice 1 is for the points."
    )


def test_a_zero_point_box_is_called_a_scratch() -> None:
    """4-5-4-4-4 in Large Straight scores 0: the hint says scratch, not score."""
    assert str(Choice(200.0, box=Category.LARGE_STRAIGHT, points=0).describe()) == (
        "Scratch Large Straight now (0 points)"
    )
    assert str(Choice(200.0, box=Category.CHANCE, points=21).describe()) == "Score Chance now"


def test_the_daily_line_against_the_optimal_bot() -> None:
    """The line under a daily's result compares with the Optimal bot without saying the
    score (the heading above it does), in the reader's plural forms."""
    entry = DailyEntry("2026-11-24", 1, "Ann", 240, 251, 7)
    line = daily_line(EN, entry)
    assert "11 points below the Optimal bot, which scored **251**" in line
    assert "240" not in line and "2026" not in line
    assert "1 point above" in daily_line(EN, DailyEntry("2026-11-24", 1, "Ann", 252, 251, 7))
    level = DailyEntry("2026-11-24", 1, "Ann", 251, 251, 7)
    assert "Level with the Optimal bot" in daily_line(EN, level)
    assert daily_line(EN, DailyEntry("2026-11-24", 1, "Ann", None, None, 7)).endswith(
        "November 24, 2026: not finished."
    )


def test_a_replay_tells_each_turn() -> None:
    turns = [
        Turn("Ann", [((), "1-2-3-4-6"), ((1, 2, 3, 4), "1-2-3-4-5")], Category.LARGE_STRAIGHT, 40),
        Turn("Ann", [((), "2-2-3-3-3")], Category.FULL_HOUSE, 25, by="timeout"),
    ]
    assert replay_text(EN, turns).splitlines() == [
        "1. rolled 1-2-3-4-6; kept 1-2-3-4, rolled 1-2-3-4-5 \N{RIGHTWARDS ARROW} "
        "Large Straight 40",
        "2. rolled 2-2-3-3-3 \N{RIGHTWARDS ARROW} Full House 25 (time ran out)",
    ]


def test_a_to_win_move_better_by_less_than_the_words_show_is_not_named() -> None:
    """47.4% against 47.1% both read 47%: the line says choice 1 is as good, not "keep 6-6
    for about 47% (choice 1: 47%)"."""
    hint = WinHint("Bob", Choice(0.474, keep=(6, 6)), 0.471)
    assert hint.differs
    assert hint_text(EN, [FOR_POINTS], GAME, hint).splitlines()[-1] == (
        "Choice 1 is also your best chance to beat Bob: **about 47%** to finish ahead."
    )


def test_a_report_card_says_perfect_only_for_a_whole_game() -> None:
    """Every decision optimal is a perfect game, unless the player left midway."""
    whole = Report(loss=0.0, decisions=40, optimal=40, costliest=[])
    assert "A perfect game!" in report_text(EN, whole)
    one = Report(loss=0.0, decisions=1, optimal=0, costliest=[])
    assert report_text(EN, one).startswith("**0 of your 1 decision** (0%) was exactly")
    left = Report(loss=0.0, decisions=4, optimal=4, costliest=[], left=True)
    assert "perfect" not in report_text(EN, left).lower()
    assert report_text(EN, left).startswith("You left this game before it ended")


def _scored(points: int, bonus: int, box: Category, status: str = "active") -> Scored:
    result = ScoreResult("1", box, points, bonus, Dice(2, 2, 2, 2, 2))
    return Scored(Board(game_view(status=status)), result, "Ann", 12)


def _summary(points: int, bonus: int, box: Category) -> str:
    return str(summary_embed(_scored(points, bonus, box)).description)


def test_a_summary_points_below_only_while_the_game_goes_on() -> None:
    """Found by a play-through: the last turn of a game everyone walked away from said
    "the live board is below" above the message saying the game had ended. A scoring that
    ended the game (finished: the final card is below; abandoned: why) says no such thing."""
    live = summary_embed(_scored(10, 0, Category.TWOS))
    assert live.footer.text == "This turn is over; the live board is below."
    for status in ("finished", "abandoned"):
        assert summary_embed(_scored(10, 0, Category.TWOS, status)).footer.text is None


def test_five_alike_is_cheered_only_as_a_yahtzee() -> None:
    """Five 2s scored as a Yahtzee (50) or as a Joker with its bonus are cheered; five 2s
    put in Twos (10, the Yahtzee box still open) or scratched into Ones for 0 (the Joker's
    last resort) are not."""
    assert "**Yahtzee!**" in _summary(50, 0, Category.YAHTZEE)
    assert "**Yahtzee!**" in _summary(25, 100, Category.FULL_HOUSE)
    assert "Yahtzee!" not in _summary(10, 0, Category.TWOS)
    scratched = _summary(0, 0, Category.ONES)
    assert "Yahtzee!" not in scratched and "scored **0** in **Ones**" in scratched


def test_a_thread_name_keeps_whole_names_within_100_characters() -> None:
    """Names that fit are listed whole; the rest is "…"; a single name longer than the room
    is cut at a word. By hand: "Yahtzee: " is 9 characters, French "Yahtzee : " 10 (two
    names and ", …" make 103 there)."""
    assert thread_name(EN, ["Ann", "Bob"]) == "Yahtzee: Ann, Bob"
    names = ["A" * 44, "B" * 44, "C"]  # 9 + 44 + 2 + 44 = 99 with two; a third: 102
    assert thread_name(EN, names) == f"Yahtzee: {'A' * 44}, \N{HORIZONTAL ELLIPSIS}"
    assert thread_name(lang("fr"), names) == f"Yahtzee : {'A' * 44}, \N{HORIZONTAL ELLIPSIS}"
    long = "word " * 30  # one name of 150 characters
    name = thread_name(EN, [long.strip()])
    assert len(name) <= 100 and name.endswith("word\N{HORIZONTAL ELLIPSIS}")


def test_the_daily_board_shows_shared_places() -> None:
    """Two tied second places both get the silver medal, and the next is fourth."""
    entries = [
        DailyPlace("2026-11-24", 1, "Ann", 200, 250, 1, 1),
        DailyPlace("2026-11-24", 2, "Cat", 150, 250, 2, 2),
        DailyPlace("2026-11-24", 3, "Bob", 150, 250, 3, 2),
        DailyPlace("2026-11-24", 4, "Dan", 100, 250, 4, 4),
    ]
    lines = daily_board_embed(lang("en"), entries, "2026-11-24", False).description or ""
    medals = [line.split()[0] for line in lines.splitlines()[:4]]
    assert medals == ["\N{FIRST PLACE MEDAL}", "\N{SECOND PLACE MEDAL}",
                      "\N{SECOND PLACE MEDAL}", "4."]  # fmt: skip


def test_the_rules_point_at_the_undo_of_the_scoring_message() -> None:
    """The rules are their own message, which has no Undo: in every language they point at
    the Undo on the message where the player scored, never at "this message's" (French,
    German and Polish said so)."""
    this_message = {"fr": "de ce message", "de": "an dieser Nachricht", "pl": "przy tej wiadom"}
    for code, wrong in this_message.items():
        said = rules_text(lang(code), Preset.OFFICIAL, "U")
        undo_line = next(line for line in said.splitlines() if line.startswith("**U**"))
        assert wrong not in undo_line, undo_line
