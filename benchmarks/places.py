"""Clicks by place: python benchmarks/places.py [--games N] [--seed S]

Plays two-player games (official rules) on the real YahtzeeBot against the fake Discord of
tests/e2e, in one run and turn by turn side by side: one in a server channel (the bot posts
by channel routes) and one in a group DM (only the interactions' tokens reach it: each next
board is a follow-up, issue 43). Every turn is Roll, two die taps, Roll, and a box from the
menu. Prints, per place, the time from a click sent to its answer received (p50, p99) and
the group DM's over the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402

from benchmarks.load import prepare  # noqa: E402
from bot.app import YahtzeeBot  # noqa: E402
from bot.engine import Category, RandomDice, ScriptedDice  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, find_component  # noqa: E402

TOKEN = "fake.bot.token"


async def click(fake: FakeDiscord, user: Any, board: dict[str, Any], custom_id: str,
                values: list[str] | None = None) -> float:  # fmt: skip
    """One click; seconds from sent to answered."""
    answer = await fake.press(user, board, custom_id, values)
    await asyncio.wait_for(answer.responded.wait(), 10)
    assert answer.response_type == 7, answer.ephemeral_text
    assert answer.answered is not None
    return answer.answered - answer.created


async def turn(fake: FakeDiscord, channel: str, user: Any, box: Category) -> list[float]:
    """Roll, tap two dice, Roll, score ``box``; each click's time."""
    await fake.wait_for(lambda: fake.live_boards(channel) != [])
    board = fake.live_boards(channel)[-1]
    times = []
    roll = find_component(board, "Roll")
    assert roll is not None
    times.append(await click(fake, user, board, roll["custom_id"]))
    for index in (0, 1):
        die = fake.messages[board["id"]]["components"][0]["components"][index]
        times.append(await click(fake, user, fake.messages[board["id"]], die["custom_id"]))
    roll = find_component(fake.messages[board["id"]], "Roll")
    assert roll is not None
    times.append(await click(fake, user, fake.messages[board["id"]], roll["custom_id"]))
    menu = fake.messages[board["id"]]["components"][2]["components"][0]
    times.append(await click(fake, user, fake.messages[board["id"]], menu["custom_id"],
                             [box.value]))  # fmt: skip
    await fake.wait_for(lambda: fake.live_boards(channel)[-1:] != [board] or box is Category.CHANCE)
    return times


async def run(games: int, seed: int) -> dict[str, list[float]]:
    work = Path(tempfile.mkdtemp(prefix="yahtzee-places-"))
    setting, _ = await prepare(work, timer=False, postgres=None, guilds=[])
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    bot = YahtzeeBot(
        Settings(token=TOKEN, database_path=Path(setting["DATABASE_PATH"]), bot_move_delay=0),
        dice=ScriptedDice(fallback=RandomDice(random.Random(seed))),
    )
    task = asyncio.create_task(bot.start(TOKEN))
    while not bot.is_ready():  # noqa: ASYNC110 - no event to wait on
        await asyncio.sleep(0.05)
    await fake.settle()
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    times: dict[str, list[float]] = {"server": [], "group DM": []}
    for number in range(games):
        # a new channel and group each game (a lobby right after another is paced)
        places = {
            "server": fake.add_channel(f"game-{number}")["id"],
            "group DM": fake.group_dm(ann, bob, name=f"Dice night {number}"),
        }
        for channel in places.values():
            await fake.slash(ann, channel, "yahtzee start")
            lobby = fake.last(channel)
            await fake.click(bob, lobby, "Join")
            await fake.click(ann, lobby, "Start")
        for box in Category:
            for player in (ann, bob):
                for name, channel in places.items():
                    times[name] += await turn(fake, channel, player, box)
        await fake.settle()
    await bot.close()
    task.cancel()
    await fake.stop()
    return times


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    times = await run(args.games, args.seed)
    print(f"{args.games} two-player games per place, side by side, click sent to answer received")
    for name, values in times.items():
        print(
            f"{name:<9} {len(values):>4} clicks: p50 {statistics.median(values) * 1000:6.1f} ms, "
            f"p99 {p99(values) * 1000:6.1f} ms"
        )
    server, group = times["server"], times["group DM"]
    print(
        f"group DM / server: p50 x{statistics.median(group) / statistics.median(server):.2f}, "
        f"p99 x{p99(group) / p99(server):.2f}"
    )


if __name__ == "__main__":
    asyncio.run(main())
