"""The floor for benchmarks/load.py: a discord.py bot that does nothing but answer a button
click by editing its message. What a click costs in discord.py and on the wire, without
any game: the Yahtzee bot's figures are reported as multiples of this.

Two floors: the button ``floor`` edits the text only; ``floor-picture`` edits in an embed
with a picture as large as a live board (the PNG at ``FLOOR_PICTURE``, drawn beforehand),
as every Yahtzee click's answer does: the upload's cost without the drawing.

Run by load.py (``python benchmarks/floor_bot.py`` with DISCORD_TOKEN and the fake's address).
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
from pathlib import Path
from typing import Any

import discord


class FloorBot(discord.AutoShardedClient):
    """Edits the clicked message to say how many clicks it has seen (sharded like the game
    bot, so it also asks the fake for its gateway)."""

    def __init__(self, picture: bytes) -> None:
        super().__init__(intents=discord.Intents.default())
        self.clicks = 0
        self.picture = picture

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        self.clicks += 1
        if (interaction.data or {}).get("custom_id") != "floor-picture":
            await interaction.response.edit_message(content=f"click {self.clicks}")
            return
        embed = discord.Embed(description=f"click {self.clicks}")
        embed.set_image(url="attachment://board.png")
        await interaction.response.edit_message(
            embed=embed, attachments=[discord.File(io.BytesIO(self.picture), "board.png")]
        )

    async def on_ready(self) -> None:
        print("floor bot ready", flush=True)


async def main(picture: bytes) -> None:
    async with FloorBot(picture) as bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    try:
        asyncio.run(main(Path(os.environ["FLOOR_PICTURE"]).read_bytes()))
    except KeyboardInterrupt:
        sys.exit(0)
