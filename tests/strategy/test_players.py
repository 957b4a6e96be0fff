"""Computer players: they finish games under every preset, and play as well as they should."""

from __future__ import annotations

import random
import statistics

import pytest

from bot.engine import Game, Preset, RandomDice
from bot.strategy import Table
from bot.strategy.players import CasualPlayer, OptimalPlayer, play_out

GAMES = 200


def solo_scores(player: object, seed: int, games: int = GAMES) -> list[int]:
    rng = random.Random(seed)
    scores = []
    for _ in range(games):
        game = Game([("bot", "bot")], "official", RandomDice(rng))
        play_out(game, {"bot": player})  # type: ignore[dict-item]
        scores.append(game.seats[0].card.total)
    return scores


def test_optimal_player_scores_what_the_table_promises(official: Table) -> None:
    """200 solo games with a fixed seed: the mean lies within 254.59 +- 13 (three standard
    errors of 59.61 / sqrt(200)); the casual player's mean is clearly below it."""
    optimal = solo_scores(OptimalPlayer(official), seed=2026)
    casual = solo_scores(CasualPlayer(), seed=2026)
    assert abs(statistics.mean(optimal) - 254.59) <= 13
    assert statistics.mean(casual) < statistics.mean(optimal) - 20


@pytest.mark.parametrize("preset", list(Preset), ids=lambda p: p.value)
def test_bots_finish_games_under_every_preset(official: Table, preset: Preset) -> None:
    """An optimal and a casual bot play a whole two-seat game under each preset."""
    game = Game([("o", "Optimal"), ("c", "Casual")], preset, RandomDice(random.Random(7)))
    play_out(game, {"o": OptimalPlayer(official), "c": CasualPlayer()})
    assert game.is_over and all(seat.turns == 13 for seat in game.seats)


def test_the_optimal_player_never_passes_up_a_yahtzee(official: Table) -> None:
    """Given five sixes on the first roll of an empty card, it scores the Yahtzee."""

    class Sixes:
        def roll(self, count: int) -> list[int]:
            return [6] * count

    game = Game([("o", "Optimal")], "official", Sixes())
    moves = list(OptimalPlayer(official).moves(game))
    assert moves[0] == "roll" and len(moves) == 2
    assert moves[1].category.value == "yahtzee"  # type: ignore[union-attr]
    assert game.seats[0].card.yahtzees == 1
