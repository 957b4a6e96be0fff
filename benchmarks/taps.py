"""Taps a turn: python benchmarks/taps.py [--games N] [--seed S]

Plays N solo games (official rules) on the real YahtzeeBot against the fake Discord of
tests/e2e, as a player who follows the hints: each decision is the hint's first choice (the
strategy table's best move), made by tapping the board. Counts every tap a phone player makes:
Roll, each die tap (holding or releasing a die), and two for a scoring (open the menu, pick the
box). Once with the turn's first roll left to the player (as before issue 30), once with
``/yahtzee autoroll on``, on the same dice. Prints taps per turn and the parts of each.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402

from benchmarks.load import prepare  # noqa: E402
from bot.app import YahtzeeBot  # noqa: E402
from bot.engine import Dice, RandomDice, ScriptedDice  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.store import plans  # noqa: E402
from bot.strategy.decisions import best  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, find_component  # noqa: E402

TOKEN = "fake.bot.token"


async def tap(fake: FakeDiscord, user: Any, message: dict[str, Any], custom_id: str,
              values: list[str] | None = None) -> None:  # fmt: skip
    answer = await fake.press(user, message, custom_id, values)
    await asyncio.wait_for(answer.responded.wait(), 10)
    assert answer.response_type == 7, answer.ephemeral_text


async def play(games: int, seed: int, autoroll: bool) -> Counter[str]:
    """``games`` solo games following the hints; the taps of each kind, and the turns."""
    work = Path(tempfile.mkdtemp(prefix="yahtzee-taps-"))
    setting, _ = await prepare(work, timer=False, postgres=None, guilds=[])
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    dice = ScriptedDice(fallback=RandomDice(random.Random(seed)))
    bot = YahtzeeBot(
        Settings(token=TOKEN, database_path=Path(setting["DATABASE_PATH"]), bot_move_delay=0),
        dice=dice,
    )
    task = asyncio.create_task(bot.start(TOKEN))
    while not bot.is_ready() or bot.analyst.table is None:  # noqa: ASYNC110 - no event to wait on
        await asyncio.sleep(0.05)
    await fake.settle()
    table = bot.analyst.table
    ann = fake.user("Ann")
    channel = fake.channel("general")
    taps: Counter[str] = Counter()
    if autoroll:
        await fake.slash(ann, channel, "yahtzee autoroll", setting="on")
    for _ in range(games):
        await fake.slash(ann, channel, "yahtzee start")
        await fake.click(ann, fake.last(channel), "Start")
        while True:
            boards = fake.live_boards(channel)
            if not boards:
                break
            board = fake.messages[boards[-1]["id"]]
            row = await bot.store.read(plans.get_game, int(board["components"][1]["components"][0]
                                              ["custom_id"].split(":")[2]))  # fmt: skip
            assert row is not None and row.state is not None
            game = bot.games.keeper.game_of(row)
            if game.dice is None:
                roll = find_component(board, "Roll")
                assert roll is not None
                await tap(fake, ann, board, roll["custom_id"])
                taps["roll"] += 1
                continue
            choice = best(table, game.current_seat.card, Dice(game.dice), game.rolls_left)
            if choice.box is not None:
                menu = board["components"][2]["components"][0]
                await tap(fake, ann, board, menu["custom_id"], [choice.box.value])
                taps["menu"] += 2
                taps["turns"] += 1
                await fake.wait_for(lambda b=board: fake.live_boards(channel)[-1:] != [b])
                continue
            wanted = list(choice.keep or ())
            for index, face in enumerate(game.dice):
                keep = face in wanted
                if keep:
                    wanted.remove(face)
                if keep != game.held[index]:
                    die = board["components"][0]["components"][index]
                    await tap(fake, ann, fake.messages[board["id"]], die["custom_id"])
                    taps["die"] += 1
            roll = find_component(fake.messages[board["id"]], "Roll")
            assert roll is not None
            await tap(fake, ann, fake.messages[board["id"]], roll["custom_id"])
            taps["roll"] += 1
    await bot.close()
    task.cancel()
    await fake.stop()
    return taps


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(f"{args.games} solo games following the hints (official rules), the same dice each way")
    for autoroll in (False, True):
        taps = await play(args.games, args.seed, autoroll)
        turns = taps["turns"]
        parts = {kind: taps[kind] / turns for kind in ("roll", "die", "menu")}
        total = sum(parts.values())
        print(
            f"first roll {'made for the player' if autoroll else 'tapped':<27} "
            f"{total:.2f} taps a turn: Roll {parts['roll']:.2f}, dice {parts['die']:.2f}, "
            f"menu {parts['menu']:.2f} ({turns} turns)"
        )


if __name__ == "__main__":
    asyncio.run(main())
