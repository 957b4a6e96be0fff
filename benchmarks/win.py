"""Playing to win against playing for points: python benchmarks/win.py [--games N]
[--preset NAME] [--seats 2|3]

Plays N games (default 10,000) of the To-win bot (``bot.strategy.winning``) against one
Optimal bot (``--seats 2``, the default) or two (``--seats 3``), under ``--preset`` (default
official; each preset's own table and distributions), each seat starting in turn, with fair
seeded dice, on both cores. Prints the To-win bot's win rate (finishing strictly ahead of
every other seat; level with the best of them counts half) with its 95% confidence
interval, the bots' mean scores with their standard errors, and the time per game.

Each game is also played again with the Optimal bot in the To-win bot's seat, on the same
dice: every seat's dice are fixed by position (a die rolled shows its position's face
whatever was held), so the other seat plays the very same game, and the difference between
the two outcomes is the To-win bot's decisions alone. Most games do not differ at all, so
this paired gain has a far narrower confidence interval than the win rate itself.
``--margin`` and ``--last-turns`` set the bot's (see ``WinningPlayer``). The table and the
distributions are loaded from ``--data`` (default ``data``), or built and saved there first
(about 40 s of CPU the first time, 70 s for bonus-turn, on both cores).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import DailyDice, Game, Preset
from bot.strategy.distribution import Distributions
from bot.strategy.players import OptimalPlayer, play_out
from bot.strategy.states import BOXES, Table
from bot.strategy.table_file import (
    distributions_path,
    load_or_build,
    load_or_build_distributions,
)
from bot.strategy.winning import MARGIN, WinningPlayer

_table: Table | None = None  # each worker's copy (inherited by fork)
_dists: Distributions | None = None
SETTINGS: dict[str, float] = {}  # WinningPlayer's keyword arguments from the command line
PRESET = ["official"]  # the games' preset (from the command line)
SEATS = [2]  # how many seats: the To-win bot and one or two Optimal bots
#: Unused (``faces`` below is the seats' own); ``Game.roll`` only needs a ``DailyDice``.
KEY = b"benchmarks/win.py seat dice"


class SeatDice(DailyDice):
    """Fair dice by position, a stream of its own for each seat: the die at position ``i``
    of roll ``r`` of a seat's turn ``t`` shows the same face whatever that seat (or the
    other) decided. So the same game played again with the Optimal bot in the To-win bot's
    seat meets the same dice, and the other seat plays exactly the same game: the pair
    differs only by the To-win bot's decisions."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed, KEY)
        self.game: Game | None = None

    def faces(self, turn: int, roll: int) -> tuple[int, ...]:
        # The SHA-256 of the seed, the seat, the turn and the roll: the faces the daily dice
        # gave before they took a key, so a seed is the same game as in the figures of
        # docs/performance.md.
        assert self.game is not None
        text = f"yahtzee-daily:{self.day}:{self.game.current}:{turn}:{roll}"
        digest = hashlib.sha256(text.encode()).digest()
        return tuple([b % 6 + 1 for b in digest if b < 252][:5])


def one_game(seed: str, seats: list[tuple[str, str]], players: dict[str, object]) -> dict[str, int]:
    dice = SeatDice(seed)
    game = Game(seats, PRESET[0], dice_source=dice)
    dice.game = game
    play_out(game, players)  # type: ignore[arg-type]
    return {seat.player_id: seat.card.total for seat in game.seats}


def play(seed_and_count: tuple[int, int]) -> list[tuple[int, int, int]]:
    """For ``count`` games from ``seed``: (To-win bot's score, the best other seat's score,
    the score the Optimal bot makes in the To-win bot's seat on the same dice)."""
    seed, count = seed_and_count
    assert _table is not None and _dists is not None
    winner = WinningPlayer(_table, _dists, **SETTINGS)  # type: ignore[arg-type]
    optimal = OptimalPlayer(_table)
    out = []
    for n in range(count):
        seats = [("w", "To-win bot"), ("o", "Optimal bot"), ("p", "Optimal bot 2")][: SEATS[0]]
        turn = (seed + n) % len(seats)
        seats = seats[turn:] + seats[:turn]  # each starts in turn
        key = f"bench:{seed}:{n}"
        others = [pid for pid, _ in seats if pid != "w"]
        scores = one_game(key, seats, {"w": winner} | dict.fromkeys(others, optimal))
        same_dice = one_game(key, seats, dict.fromkeys(["w", *others], optimal))
        # the other seats' games are the same games
        assert all(same_dice[o] == scores[o] for o in others)
        out.append((scores["w"], max(scores[o] for o in others), same_dice["w"]))
    return out


def main() -> None:
    global _table, _dists
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--data", type=Path, default=Path("data"), help="where the tables are")
    parser.add_argument("--margin", type=float, help="WinningPlayer's margin (its default)")
    parser.add_argument("--last-turns", type=int, help="WinningPlayer's last_turns (its default)")
    parser.add_argument("--preset", default="official", choices=[p.value for p in Preset])
    parser.add_argument("--seats", type=int, default=2, choices=(2, 3))
    args = parser.parse_args()
    PRESET[0], SEATS[0] = args.preset, args.seats
    if args.margin is not None:
        SETTINGS["margin"] = args.margin
    if args.last_turns is not None:
        SETTINGS["last_turns"] = args.last_turns
    margin = SETTINGS.get("margin", MARGIN)
    turns = int(SETTINGS.get("last_turns", BOXES))
    print(
        f"{args.preset}, {args.seats} seats. To-win bot: margin {margin}, plays to win in its "
        f"last {turns} turns"
    )
    began = time.perf_counter()
    _table, built = load_or_build(args.data, args.preset)
    print(f"table {'built' if built else 'loaded'} in {time.perf_counter() - began:.1f} s")
    began = time.perf_counter()
    _dists, built = load_or_build_distributions(args.data, _table)
    size = distributions_path(args.data, args.preset).stat().st_size / 1e6
    print(
        f"distributions {'built' if built else 'loaded'} in {time.perf_counter() - began:.1f} s "
        f"({size:.1f} MB on disk)"
    )
    chunk = 100
    jobs = [(args.seed + i, min(chunk, args.games - i)) for i in range(0, args.games, chunk)]
    began = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        results = [pair for part in pool.imap_unordered(play, jobs) for pair in part]
    took = time.perf_counter() - began
    n = len(results)
    wins = sum(1 for w, o, _ in results if w > o)
    ties = sum(1 for w, o, _ in results if w == o)
    rate = (wins + ties / 2) / n
    half = 1.96 * math.sqrt(rate * (1 - rate) / n)
    mine = [w for w, _, _ in results]
    theirs = [o for _, o, _ in results]

    def outcome(mine: int, theirs: int) -> float:
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0

    # Paired: the same game with the Optimal bot in the To-win bot's seat (same dice, and
    # the other seat's game unchanged): the difference is the To-win bot's decisions alone.
    gain = [outcome(w, o) - outcome(s, o) for w, o, s in results]
    mean_gain = statistics.mean(gain)
    gain_half = 1.96 * statistics.stdev(gain) / math.sqrt(n)
    changed = sum(1 for g in gain if g)
    per_game = took / n * 1000
    print(f"games: {n} in {took:.0f} s ({per_game:.0f} ms a game on {args.processes} processes)")
    rivals = "the Optimal bot" if args.seats == 2 else "two Optimal bots"
    print(f"To-win bot against {rivals}: {wins} wins, {ties} ties, {n - wins - ties} losses")
    print(f"win rate {rate:.2%} (95% CI {rate - half:.2%} to {rate + half:.2%})")
    print(
        f"paired with the Optimal bot in its seat on the same dice: {changed} games' outcome "
        f"changed; win rate gained {mean_gain:+.2%} (95% CI {mean_gain - gain_half:+.2%} to "
        f"{mean_gain + gain_half:+.2%})"
    )
    for name, scores in (("To-win bot", mine), ("the best other seat", theirs)):
        se = statistics.stdev(scores) / math.sqrt(n)
        print(f"{name}: mean score {statistics.mean(scores):.2f} +- {se:.2f}")
    diff = [w - s for w, _, s in results]
    print(
        f"mean score paired against the Optimal bot in its seat: {statistics.mean(diff):+.2f} "
        f"+- {1.96 * statistics.stdev(diff) / math.sqrt(n):.2f}"
    )


if __name__ == "__main__":
    main()
