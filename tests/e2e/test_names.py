"""Names are data: whatever a member calls themselves, it pings nobody, breaks no embed and
no picture (issue 17 item 2)."""

from __future__ import annotations

import json
import re

import pytest

from bot.engine import ScriptedDice

from .conftest import StartBot
from .fake_discord import FakeDiscord
from .helpers import play_turn, start_game

pytestmark = pytest.mark.sqlite_only  # about Discord and the bot, not the database

NAMES = [
    "@everyone",
    "**Bold** __under__ <@&123456789012345678> @here",
    "\u202eevil right-to-left override",
    "Zero\u200bwidth\u200djoin",
    "e\u0301\u0301\u0301\u0301 combining",
    "N" * 120,
    "   ",
    "漢字と🎲",
]
PINGS = re.compile(r"@everyone|@here|<@&\d+>")


async def test_odd_names_ping_nobody_and_break_nothing(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Eight players with hostile or odd names play a turn: no message carries an unescaped
    @everyone, @here or role mention, nothing is pinged but the player to move, every
    embed is within Discord's limits and every board has its picture."""
    players = [fake.user(name) for name in NAMES]
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, players[0], *players[1:])
    dice.extend([2, 3, 4, 5, 6])
    rolled = await fake.click(players[0], board, "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
    await fake.choose(players[0], board, "large_straight")
    await fake.wait_for(lambda: fake.last(channel)["id"] != board["id"])
    scorecard = await fake.click(players[3], fake.last(channel), "Scorecard")
    assert "```" in scorecard.ephemeral_text
    for message in fake.channel_messages(channel):
        text = json.dumps([message["content"], message["embeds"]], ensure_ascii=False)
        assert not PINGS.search(text), text
        assert "\u202e" not in text  # an override would flip the rest of the line
        assert "(   )" not in text  # a blank name reads "a player"
        assert {m["id"] for m in message["mentions"]} <= {players[0]["id"], players[1]["id"]}
        for embed in message["embeds"]:
            assert len(embed.get("title") or "") <= 256
            assert len(embed.get("description") or "") <= 4096
            assert all(len(f["value"]) <= 1024 for f in embed.get("fields", []))
    live = fake.live_boards(channel)
    assert len(live) == 1 and not live[0]["attachments"]  # before its roll: no picture yet
    dice.extend([1, 1, 2, 2, 3])
    rolled = await fake.click(players[1], live[0], "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
    assert fake.messages[live[0]["id"]]["attachments"], "the rolled board has its picture"


async def test_a_name_in_a_refusal_shows_as_typed(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """A member named ``**x** [a](https://e.com)`` is to move: the refusals that name him
    (another player's Roll, her /yahtzee hint, her /yahtzee kick of someone not away) show
    the name as he typed it, not bold text and a masked link."""
    ann, odd = fake.user("Ann"), fake.user("**x** [a](https://e.com)")
    channel = fake.channel("general")
    await start_bot()
    await start_game(fake, channel, ann, odd)
    await play_turn(fake, dice, ann, channel, [[3, 3, 3, 2, 2]], "chance")
    board = fake.last(channel)
    escaped = r"\*\*x\*\* \[a](https://e.com)"  # markdown's own escapes: read as typed
    answers = [
        await fake.click(ann, board, "Roll"),
        await fake.slash(ann, channel, "yahtzee hint"),
        await fake.slash(ann, channel, "yahtzee kick", player=odd),
    ]
    for answer in answers:
        text = answer.ephemeral_text
        assert escaped in text and "**x**" not in text.replace(escaped, ""), text


async def test_discord_s_angle_bracket_syntax_in_a_name_shows_as_typed(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Members named ``<t:0:R>``, ``<#...>`` and ``</yahtzee start:1>``: the lobby, the board
    and a refusal that names one show each name as typed (a zero-width space after its
    "<"), never as a time, a channel link or a command mention."""
    names = ["<t:0:R>", f"<#{fake.channel('general')}>", "</yahtzee start:1>"]
    players = [fake.user(name) for name in names]
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, *players)
    refused = await fake.click(players[1], board, "Roll")  # it is <t:0:R>'s turn
    shown = [
        json.dumps([m["content"], m["embeds"], m.get("components")], ensure_ascii=False)
        for m in fake.channel_messages(channel)
    ]
    assert "<\N{ZERO WIDTH SPACE}t:0:R>" in refused.ephemeral_text, refused.ephemeral_text
    assert "<t:0:R>" not in refused.ephemeral_text
    for name in names:
        escaped = name.replace("<", "<\N{ZERO WIDTH SPACE}")  # as escape_mentions does an @
        assert [text for text in shown if name in text] == [], name
        assert any(escaped in text for text in shown), name
