"""The dice drawn as dice (issue 30): the bot's application emojis, made once at start-up from
the renderer's dice and found by name afterwards, on the die buttons, in the box menu and in
the turn lines; without them, the dice are numbers as before."""

from __future__ import annotations

import io
import logging

import pytest
from PIL import Image

from bot.engine import ScriptedDice
from cogs.shared.emojis import DiceFaces

from .conftest import StartBot
from .fake_discord import FakeDiscord
from .helpers import die_labels, start_game

NAMES = {f"yz1_die{face}{held}" for face in range(1, 7) for held in ("", "_held")}


def faces_of(bot: object) -> DiceFaces:
    cog = bot.get_cog("Core")  # type: ignore[attr-defined]
    assert cog is not None
    faces: DiceFaces = cog.parts.publisher.faces
    return faces


def emoji_posts(fake: FakeDiscord) -> int:
    return sum(1 for m, path, _ in fake.requests if m == "POST" and path.endswith("/emojis"))


async def test_the_dice_are_emojis_on_the_buttons_in_the_menu_and_in_the_words(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """At start-up the bot makes its twelve die emojis (each face, plain and held) from
    square PNGs; a roll's buttons carry them (no label, the face is the picture), a held die
    is green with the held face, the menu's upper boxes show their face, and a restart finds
    the emojis by name instead of making them again."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    await fake.wait_for(lambda: faces_of(bot).ready)
    assert {e["name"] for e in fake.app_emojis.values()} == NAMES
    for name, image in fake.emoji_images.items():
        picture = Image.open(io.BytesIO(image))
        assert picture.format == "PNG" and picture.width == picture.height >= 48, name
    board = await start_game(fake, channel, ann, bob)
    dice.extend([3, 3, 5, 2, 6])
    await fake.click(ann, board, "Roll")
    await fake.click(ann, fake.messages[board["id"]], "5")  # hold the 5
    buttons = fake.messages[board["id"]]["components"][0]["components"]
    names = [b["emoji"]["name"] for b in buttons]
    assert names == ["yz1_die3", "yz1_die3", "yz1_die5_held", "yz1_die2", "yz1_die6"]
    assert all("label" not in b and b["emoji"]["id"] in fake.app_emojis for b in buttons)
    assert [b["style"] for b in buttons] == [2, 2, 3, 2, 2]  # held: the success style
    assert die_labels(fake.messages[board["id"]]) == ["3", "3", "5", "2", "6"]
    menu = fake.messages[board["id"]]["components"][2]["components"][0]
    emoji_of = {o["value"]: (o.get("emoji") or {}).get("name") for o in menu["options"]}
    assert (emoji_of["threes"], emoji_of["sixes"], emoji_of["chance"]) == (
        "yz1_die3", "yz1_die6", None,
    )  # fmt: skip
    scored = await fake.choose(ann, fake.messages[board["id"]], "threes")
    assert scored.response_type == 7, scored.ephemeral_text
    said = fake.messages[board["id"]]["embeds"][0]["description"]
    three = next(e["id"] for e in fake.app_emojis.values() if e["name"] == "yz1_die3")
    assert f"<:yz1_die3:{three}>" in said and "(3-3-5-2-6)" in said, said
    made = emoji_posts(fake)
    await bot.close()
    bot = await start_bot()
    await fake.wait_for(lambda: faces_of(bot).ready)
    assert emoji_posts(fake) == made == 12 and len(fake.app_emojis) == 12


async def test_refused_emojis_leave_the_dice_as_numbers(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """If Discord refuses the emojis, the game is played as before: numbered dice, a lock on
    a held one, and one warning in the log saying what to check."""
    fake.emoji_refusal = 50001
    ann = fake.user("Ann")
    channel = fake.channel("general")
    with caplog.at_level(logging.WARNING, logger="cogs.shared.emojis"):
        bot = await start_bot()
        board = await start_game(fake, channel, ann)
        dice.extend([4, 1, 4, 6, 2])
        await fake.click(ann, board, "Roll")
        held = await fake.click(ann, fake.messages[board["id"]], "6")
        assert held.response_type == 7, held.ephemeral_text
    buttons = fake.messages[board["id"]]["components"][0]["components"]
    assert [b["label"] for b in buttons] == ["4", "1", "4", "6", "2"]
    assert buttons[3]["emoji"] == {"name": "\N{LOCK}"} and buttons[3]["style"] == 3
    warnings = [r for r in caplog.records if "dice emojis could not be made" in r.message]
    assert len(warnings) == 1 and not faces_of(bot).ready
