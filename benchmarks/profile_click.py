"""Where a click's time goes: python benchmarks/profile_click.py [--turns N] [--sort cumtime]

Runs the real YahtzeeBot in this process against the fake Discord of tests/e2e, plays N
solo turns (at most 12: roll, two holds, roll, roll, score), and prints cProfile's view of the
bot's work during those clicks (the fake's own work is in the same process and shows too: look
at the bot's functions), then each kind of click's median time to answer.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
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
from bot.settings import Settings  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, find_component  # noqa: E402

TOKEN = "fake.bot.token"


async def click(fake: FakeDiscord, user: Any, message: dict[str, Any], custom_id: str,
                values: list[str] | None = None) -> float:  # fmt: skip
    record = await fake.press(user, message, custom_id, values)
    await asyncio.wait_for(record.responded.wait(), 10)
    assert record.response_type == 7, record.ephemeral_text
    assert record.answered is not None
    return record.answered - record.created


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--sort", default="cumtime")
    parser.add_argument("--lines", type=int, default=40)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="yahtzee-profile-"))
    # the strategy table in place and the database migrated, as load.py does
    setting, _ = await prepare(work, timer=False, postgres=None, guilds=[])
    database = Path(setting["DATABASE_PATH"])

    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    bot = YahtzeeBot(Settings(token=TOKEN, database_path=database, bot_move_delay=0))
    task = asyncio.create_task(bot.start(TOKEN))
    while not bot.is_ready() or bot.analyst.table is None:  # noqa: ASYNC110 - no event to wait on
        await asyncio.sleep(0.05)
    await fake.settle()
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await fake.slash(ann, channel, "yahtzee start")
    await fake.click(ann, fake.last(channel), "Start")
    times: dict[str, list[float]] = {}
    profile = cProfile.Profile()
    for _ in range(args.turns):
        board = fake.live_boards(channel)[-1]
        board_id = board["id"]

        async def timed(
            kind: str, custom_id: str, values: list[str] | None = None, board_id: str = board_id
        ) -> None:
            profile.enable()
            took = await click(fake, ann, fake.messages[board_id], custom_id, values)
            profile.disable()
            times.setdefault(kind, []).append(took)
            await fake.settle(0.02)

        def roll_id(board_id: str = board_id) -> str:
            return str(find_component(fake.messages[board_id], "Roll")["custom_id"])  # type: ignore[index]

        await timed("roll", roll_id())
        dice = fake.messages[board["id"]]["components"][0]["components"]
        await timed("hold", dice[0]["custom_id"])
        await timed("hold", dice[1]["custom_id"])
        await timed("roll", roll_id())
        await timed("roll", roll_id())
        current = fake.messages[board["id"]]
        select = next(c for r in current["components"] for c in r["components"] if c["type"] == 3)
        await timed("score", select["custom_id"], [select["options"][0]["value"]])
        await fake.wait_for(lambda board=board: fake.live_boards(channel)[-1:] not in ([], [board]))
    await bot.close()
    task.cancel()
    await fake.stop()
    stats = pstats.Stats(profile)
    stats.sort_stats(args.sort).print_stats(os.environ.get("PROFILE_FILTER", ""), args.lines)
    for kind, values in times.items():
        print(f"{kind}: {len(values)} clicks, median {statistics.median(values) * 1000:.2f} ms")


if __name__ == "__main__":
    asyncio.run(main())
