"""How long players watch computer turns: python benchmarks/computer_turns.py [--rounds N]

Runs ``python -m bot`` with its default ``BOT_MOVE_DELAY`` against the fake Discord of
tests/e2e: Ann plays with the Optimal bot and the Casual bot seated after her (two computer
seats in a row). Ann scores Chance or her next open box at once after one roll; the
computers play. Prints, per computer turn, the time from the post of its board to the post
of the next board (a computer's turn as the channel sees it, the wait for Ann's Undo
included for the first), and the whole wait between Ann's scoring and her next turn:
median and maximum. Issue 26 asks for at most 4 s per computer turn with the defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import itertools

from benchmarks.load import bot_env, connect, prepare, stop
from bot.engine import Category
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord, find_component


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="yahtzee-computers-"))
    fake = FakeDiscord()
    await fake.start()
    setting, _ = await prepare(work, False, None, [str(GUILD_ID)])
    bot = await connect(fake, sys.executable, "-m", "bot", env=bot_env(fake, **setting),
                        log=work / "bot.log")  # fmt: skip
    turns: list[float] = []
    waits: list[float] = []
    try:
        ann = fake.user("Ann")
        channel = fake.channel("general")
        await fake.slash(ann, channel, "yahtzee start")
        lobby = fake.last(channel)
        await fake.click(ann, lobby, "Add bot (Optimal)")
        await fake.click(ann, lobby, "Add bot (Casual)")
        await fake.click(ann, lobby, "Start")
        for box in list(Category)[: args.rounds]:
            await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{ann['id']}>"),
                                timeout=30)  # fmt: skip
            board = fake.last(channel)
            await fake.click(ann, board, "Roll")
            select = next(
                c for row in fake.messages[board["id"]]["components"] for c in row["components"]
                if c["type"] == 3
            )  # fmt: skip
            values = [o["value"] for o in select["options"]]
            scored = await fake.choose(ann, board, box.value if box.value in values else values[0])
            began = scored.created
            await fake.wait_for(
                lambda b=board: (
                    fake.last(channel)["id"] != b["id"]
                    and fake.last(channel)["content"].startswith(f"<@{ann['id']}>")
                ),
                timeout=30,
            )
            waits.append(fake.posted_at[fake.last(channel)["id"]] - began)
            posted = sorted(
                fake.posted_at[m["id"]] for m in fake.channel_messages(channel)
                if m["id"] in fake.posted_at and fake.posted_at[m["id"]] > began
            )  # fmt: skip
            turns += [later - earlier for earlier, later in itertools.pairwise(posted)]
        assert find_component(fake.last(channel), "Roll") is not None
    finally:
        await stop(bot)
        await fake.stop()
    print(f"computer turns: {len(turns)}, median {statistics.median(turns):.2f} s, "
          f"max {max(turns):.2f} s")  # fmt: skip
    print(f"Ann's wait for her next turn (two computer turns): median "
          f"{statistics.median(waits):.2f} s, max {max(waits):.2f} s")  # fmt: skip
    print(f"(measured {time.strftime('%Y-%m-%d')}, {args.rounds} rounds)")


if __name__ == "__main__":
    asyncio.run(main())
