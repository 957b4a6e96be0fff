"""The dice drawn as dice on the buttons and in the text: the bot's application emojis.

An application emoji belongs to the bot, not to a server: it shows in every server the bot is
in and takes none of a server's emoji slots (Discord allows an application 2,000). At start-up
``DiceFaces.start`` finds the bot's die-face emojis by name and creates the missing ones once
from the renderer's dice (``bot.render.emoji``, reached through the service); until they are
there, or if Discord refuses them, the dice are numbers as before, and the refusal is logged
once.

The names carry the art's version (``ART``): new dice art gets new names, so the old emojis
are never shown beside the new (an operator may delete the old ones in the Developer Portal).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

import discord

from bot.games import die_emoji_png

log = logging.getLogger(__name__)

ART = 1  # the version of the dice art in the emojis' names
FACES = range(1, 7)


def emoji_name(face: int, held: bool) -> str:
    """``yz1_die3`` or ``yz1_die3_held``: 2 to 32 letters, digits and underscores."""
    return f"yz{ART}_die{face}{'_held' if held else ''}"


class DiceFaces:
    """The twelve die-face emojis (each face plain and held), or none: all or nothing, so a
    board never mixes pictures and numbers."""

    def __init__(self) -> None:
        self._emojis: dict[tuple[int, bool], discord.PartialEmoji] = {}
        self._task: asyncio.Task[None] | None = None

    @property
    def ready(self) -> bool:
        return bool(self._emojis)

    def emoji(self, face: int, held: bool = False) -> discord.PartialEmoji | None:
        """The emoji of a die showing ``face``, None while the dice are numbers."""
        return self._emojis.get((face, held))

    def button_emoji(self, face: int, held: bool) -> dict[str, Any] | None:
        """The ``emoji`` field of a die button's JSON, None while the dice are numbers."""
        emoji = self._emojis.get((face, held))
        if emoji is None:
            return None
        return {"id": str(emoji.id), "name": emoji.name, "animated": False}

    def text(self, dice: Iterable[int], held: Iterable[bool] | None = None) -> str:
        """Dice in a line of text: small dice with their numbers after them, ``5-6-5-5-3``
        (read aloud by screen readers, found by search), or the numbers alone while there
        are no emojis."""
        faces = list(dice)
        numbers = "-".join(map(str, faces))
        if not self._emojis or not faces:
            return numbers
        marks = list(held) if held is not None else [False] * len(faces)
        drawn = "".join(str(self._emojis[(f, h)]) for f, h in zip(faces, marks, strict=True))
        return f"{drawn} ({numbers})"

    def start(self, client: discord.Client) -> None:
        """Make sure the emojis exist, in the background (the bot serves meanwhile)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self.ensure(client), name="dice-emojis")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def ensure(self, client: discord.Client) -> None:
        """Find the die-face emojis by name; create each one missing from the renderer's
        dice. A failed creation is tried once more after listing again: another process of
        this bot (a second shard, a deploy overlapping the old process) may have just made
        that emoji, so its name is taken. Any refusal after that (no permission, a full emoji
        list, Discord down) leaves the dice as numbers and is logged once, with what to do."""
        for attempt in (1, 2):
            try:
                emojis, created = await self._make(client)
            except (discord.HTTPException, OSError, ValueError) as exc:
                if attempt == 1 and isinstance(exc, discord.HTTPException):
                    continue
                log.warning(
                    "the dice emojis could not be made (%s): the dice show as numbers. They "
                    "are made at start-up; check the bot's application in the Developer "
                    "Portal (Emojis) if this persists",
                    exc,
                )
                return
            self._emojis = emojis
            log.info("dice emojis ready (%d made now, %d found)", created, len(emojis) - created)
            return

    @staticmethod
    async def _make(
        client: discord.Client,
    ) -> tuple[dict[tuple[int, bool], discord.PartialEmoji], int]:
        """The twelve emojis, listed and made where missing; how many were made."""
        found = {emoji.name: emoji for emoji in await client.fetch_application_emojis()}
        emojis: dict[tuple[int, bool], discord.PartialEmoji] = {}
        created = 0
        for face in FACES:
            for held in (False, True):
                name = emoji_name(face, held)
                emoji = found.get(name)
                if emoji is None:
                    image = die_emoji_png(face, held)
                    emoji = await client.create_application_emoji(name=name, image=image)
                    created += 1
                emojis[(face, held)] = discord.PartialEmoji(name=emoji.name, id=emoji.id)
        return emojis, created
