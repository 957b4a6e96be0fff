"""The To-win bot: decisions in end-game positions worked out by hand, the chance of winning
against a known score, and whole games by the engine's rules."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import Category, Dice, Game, RandomDice, Scorecard, ScriptedDice
from bot.strategy import Table
from bot.strategy.decisions import best
from bot.strategy.distribution import Distributions
from bot.strategy.players import OptimalPlayer, play_out
from bot.strategy.winning import WinningPlayer, chances_of, win_hint

C = Category


def card(*fills: tuple[Category, str]) -> Scorecard:
    out = Scorecard("official")
    for box, dice in fills:
        out = out.fill(box, Dice.parse(dice))
    return out


# Mine: every box but Chance, Yahtzee 50. By hand: upper 3+6+9+12+15+18 = 63, bonus 35;
# 3K 12, 4K 17, Full House 25, Small Straight 30, Large Straight 40, Yahtzee 50: 272.
MINE = card(
    (C.ONES, "11123"), (C.TWOS, "22213"), (C.THREES, "33312"), (C.FOURS, "44412"),
    (C.FIVES, "55512"), (C.SIXES, "66612"), (C.THREE_OF_A_KIND, "33312"),
    (C.FOUR_OF_A_KIND, "44441"), (C.FULL_HOUSE, "22333"), (C.SMALL_STRAIGHT, "12346"),
    (C.LARGE_STRAIGHT, "12345"), (C.YAHTZEE, "11111"),
)  # fmt: skip
# Theirs, finished: upper 4+8+12+16+20+24 = 84, bonus 35; 3K 29, 4K 29, FH 25, SS 30, LS 40,
# Yahtzee 50, Chance 29: 351, which is 79 ahead of mine. My Chance scores at most 30, so only
# a Yahtzee (its +100, and then Chance as a Joker) can win: a chance of winning is exactly the
# chance of rolling five alike.
THEIRS = card(
    (C.ONES, "11112"), (C.TWOS, "22221"), (C.THREES, "33331"), (C.FOURS, "44441"),
    (C.FIVES, "55551"), (C.SIXES, "66661"), (C.THREE_OF_A_KIND, "66665"),
    (C.FOUR_OF_A_KIND, "66665"), (C.FULL_HOUSE, "22333"), (C.SMALL_STRAIGHT, "12346"),
    (C.LARGE_STRAIGHT, "12345"), (C.YAHTZEE, "11111"), (C.CHANCE, "66665"),
)  # fmt: skip


def test_the_hand_made_cards() -> None:
    assert (MINE.total, THEIRS.total) == (272, 351)


@pytest.mark.parametrize(
    ("dice", "rolls_left", "keep", "chance"),
    [
        # one roll left, a pair kept: the other three must match, (1/6)^3
        ([6, 6, 5, 5, 4], 1, "pair", 1 / 216),
        ([6, 5, 5, 4, 4], 1, "pair", 1 / 216),
        # three alike kept: the other two must match, (1/6)^2
        ([6, 6, 6, 5, 4], 1, (6, 6, 6), 1 / 36),
        # nothing alike: one die kept and four rolled, (1/6)^4, equals five rolled, 6/6^5
        ([6, 5, 4, 3, 2], 1, "any", 1 / 1296),
    ],
)
def test_last_turn_needing_a_yahtzee_it_goes_for_it(
    official_values: Table,
    to_win: Distributions,
    dice: list[int],
    rolls_left: int,
    keep: object,
    chance: float,
) -> None:
    """79 behind with only Chance open: the Optimal bot plays for the Chance points, the
    To-win bot for five alike, and its chance of winning is the hand-worked one."""
    box, kept, p = chances_of(official_values, to_win, MINE, THEIRS, dice, rolls_left)
    assert box is None and kept is not None
    if keep == "pair":
        assert len(kept) == 2 and kept[0] == kept[1]
    elif keep != "any":
        assert kept == keep
    assert p == pytest.approx(chance, rel=1e-9)


def test_where_the_optimal_bot_takes_the_chance_points_the_to_win_bot_does_not(
    official_values: Table, to_win: Distributions
) -> None:
    """With 6-6-5-5-4 and one roll left the Optimal bot scores Chance (28 now beats what a
    roll is worth on average), which here loses for certain."""
    assert best(official_values, MINE, Dice(6, 6, 5, 5, 4), 1).box is C.CHANCE
    box, kept, _ = chances_of(official_values, to_win, MINE, THEIRS, [6, 6, 5, 5, 4], 1)
    assert box is None and kept in ((5, 5), (6, 6))


def test_a_sure_win_is_taken_at_once(official_values: Table, to_win: Distributions) -> None:
    """Ahead, play safe: with a lead of more than the 30 a Chance can add, scoring now wins
    for certain; the Optimal bot rolls again for more points."""
    behind = card(*[(box, "12346") for box in C])  # finished with 62 (1+2+3+4+6, 30, 16)
    assert behind.total == 62
    box, kept, p = chances_of(official_values, to_win, MINE, behind, [6, 6, 6, 1, 1], 2)
    assert (box, kept, p) == (C.CHANCE, None, 1.0)
    assert best(official_values, MINE, Dice(6, 6, 6, 1, 1), 2).keep == (6, 6, 6)


def test_whole_games_follow_the_rules_and_a_solo_game_is_the_optimal_bots(
    official_values: Table, to_win: Distributions
) -> None:
    """Against the Optimal bot, a game ends with both cards full (every move went through
    the engine); alone, with no one to beat, it plays the Optimal bot's very game."""
    seats = [("w", "To-win bot"), ("o", "Optimal bot")]
    game = Game(seats, dice_source=RandomDice(random.Random(4)))
    players = {"w": WinningPlayer(official_values, to_win), "o": OptimalPlayer(official_values)}
    play_out(game, players)  # type: ignore[arg-type]
    assert game.is_over and all(seat.card.is_complete for seat in game.seats)
    faces = [random.Random(9).randint(1, 6) for _ in range(13 * 15)]
    solo = [Game(["me"], dice_source=ScriptedDice(faces)) for _ in range(2)]
    play_out(solo[0], {"me": WinningPlayer(official_values, to_win)})  # type: ignore[dict-item]
    play_out(solo[1], {"me": OptimalPlayer(official_values)})  # type: ignore[dict-item]
    assert solo[0].to_dict() == solo[1].to_dict()


def last_turn() -> dict[str, Any]:
    """Ann (MINE) to play her last turn against Bob (THEIRS, finished), 6-6-5-5-4 showing
    after her second roll."""
    seats = [
        {"player_id": "1", "name": "Ann", "card": MINE.to_dict(), "turns": 12},
        {"player_id": "2", "name": "Bob", "card": THEIRS.to_dict(), "turns": 13},
    ]
    return {
        "format": 1, "preset": "official", "seats": seats, "current": 0,
        "dice": [6, 6, 5, 5, 4], "held": [False] * 5, "rolls_used": 2, "undo": None,
    }  # fmt: skip


def test_a_hint_names_the_move_to_win_when_it_is_another(
    official_values: Table, to_win: Distributions
) -> None:
    """In the position above, with 6-6-5-5-4 after the second roll: for points, Chance;
    to win, a pair kept (1/216); the Chance itself gives no chance at all."""
    state = last_turn()
    game = Game.from_dict(state)
    assert game.current_seat.name == "Ann" and game.rolls_left == 1
    for_points = best(official_values, MINE, Dice(6, 6, 5, 5, 4), 1)
    hint = win_hint(official_values, to_win, game, for_points)
    assert hint is not None and hint.rival == "Bob" and hint.differs
    assert hint.choice.keep in ((5, 5), (6, 6)) and hint.choice.value == pytest.approx(1 / 216)
    assert hint.points_choice_chance == 0.0
    alone = Game.from_dict({**state, "seats": state["seats"][:1]})
    assert win_hint(official_values, to_win, alone, for_points) is None  # no one to beat


def test_the_bot_itself_goes_for_the_yahtzee_where_the_optimal_bot_takes_the_chance(
    official_values: Table, to_win: Distributions
) -> None:
    """The position above, played by the bots: after the second roll shows 6-6-5-5-4, the
    Optimal bot scores Chance; the To-win bot keeps a pair and rolls the other three."""
    state = last_turn()
    optimal_game = Game.from_dict(state, ScriptedDice([1, 2, 3]))
    first = next(iter(OptimalPlayer(official_values).moves(optimal_game)))
    assert not isinstance(first, str) and first.category is C.CHANCE
    winning_game = Game.from_dict(state, ScriptedDice([1, 2, 3]))
    assert next(iter(WinningPlayer(official_values, to_win).moves(winning_game))) == "roll"
    kept = [f for f, h in zip([6, 6, 5, 5, 4], winning_game.held, strict=True) if h]
    assert len(kept) == 2 and kept[0] == kept[1]


def test_a_turns_chances_are_worked_out_once_and_only_where_it_plays_to_win(
    official_values: Table, to_win: Distributions
) -> None:
    """``prepare`` (what the bot runs off its event loop) keeps the turn's chances for the
    turn's later moves; alone, or before its distributions reach, there are none."""
    player = WinningPlayer(official_values, to_win)
    game = Game.from_dict(last_turn())
    first = player.prepare(game)
    assert first is not None and player.prepare(game) is first
    alone = Game.from_dict({**last_turn(), "seats": last_turn()["seats"][:1]})
    assert player.prepare(alone) is None
    early = Game([("w", "To-win bot"), ("o", "Optimal bot")])
    assert player.prepare(early) is None  # 13 open boxes: beyond the partial build


def test_in_a_larger_game_it_plays_to_beat_everyone(
    official_values: Table, to_win: Distributions
) -> None:
    """The last-turn position with a third seat, finished lower than Bob: beating both
    still needs the Yahtzee (1/216 with a pair kept and one roll left), and the hint says
    "everyone else"."""
    state = last_turn()
    carl = card(*[(box, "12346") for box in C])  # finished with 62
    state["seats"].append({"player_id": "3", "name": "Carl", "card": carl.to_dict(), "turns": 13})
    game = Game.from_dict(state)
    for_points = best(official_values, MINE, Dice(6, 6, 5, 5, 4), 1)
    hint = win_hint(official_values, to_win, game, for_points)
    assert hint is not None and hint.rival == "everyone else"
    assert hint.choice.keep in ((5, 5), (6, 6)) and hint.choice.value == pytest.approx(1 / 216)
    alone_with_carl = Game.from_dict({**state, "seats": [state["seats"][0], state["seats"][2]]})
    easy = win_hint(official_values, to_win, alone_with_carl, for_points)
    assert easy is not None and easy.rival == "Carl" and easy.choice.value == 1.0
