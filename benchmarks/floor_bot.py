"""The floor for benchmarks/load.py: a discord.py bot that does nothing but answer a button
click by editing its message. What a click costs in discord.py and on the wire, without
any game: the Yahtzee bot's figures are reported as multiples of this.

Run by load.py (``python benchmarks/floor_bot.py`` with DISCORD_TOKEN and the fake's address).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

import discord


class FloorBot(discord.AutoShardedClient):
    """Edits the clicked message to say how many clicks it has seen (sharded like the game
    bot, so it also asks the fake for its gateway)."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.clicks = 0

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        self.clicks += 1
        await interaction.response.edit_message(content=f"click {self.clicks}")

    async def on_ready(self) -> None:
        print("floor bot ready", flush=True)


async def main() -> None:
    async with FloorBot() as bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
