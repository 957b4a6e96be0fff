"""Playing anywhere (issue 43): the bot's DM, group DMs, servers that never added the bot.

The fake follows Discord's rules of each place (docs/places.md): in a group DM and a server
that never added the bot, channel routes answer 403 50001, a sixth follow-up 40094, a token
older than 15 minutes 50027. Each test checks the bot never tried any of them."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from bot.engine import Category, ScriptedDice

from .conftest import StartBot
from .fake_discord import EPHEMERAL, FakeDiscord, find_component, text_of
from .helpers import live_board, play_turn


def forbidden_tries(fake: FakeDiscord, channel: str) -> list[tuple[str, str]]:
    """Requests the bot sent that the place forbids: a channel route of a token place, a
    sixth follow-up of one interaction."""
    routes = [(m, p) for m, p, _ in fake.requests if p.startswith(f"/channels/{channel}")]
    followups = Counter(
        p for m, p, _ in fake.requests if m == "POST" and re.fullmatch(r"/webhooks/\d+/[^/]+", p)
    )
    return routes + [("POST", p) for p, n in followups.items() if n > 5]


def final_card(fake: FakeDiscord, channel: str) -> dict[str, Any]:
    """The game-over message (its Play again button)."""
    return next(
        m for m in reversed(fake.channel_messages(channel)) if find_component(m, "Play again")
    )


@pytest.mark.parametrize("where", ["group_dm", "user_server", "dm"])
async def test_two_friends_play_a_whole_game_by_clicks(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, where: str
) -> None:
    """Ann installed the app; in a group DM with Bob (or a server that never added the bot,
    or their own DM) she opens a lobby, Bob joins by a click, and the two play all 13
    rounds by clicks: each next player is named in a new message (a follow-up: an edit
    would notify nobody), the final card shows both, and nothing forbidden is tried."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    if where == "group_dm":
        channel = fake.group_dm(ann, bob, name="Dice night")
    elif where == "dm":
        channel = fake.dm_between(ann, bob)
    else:
        channel = fake.user_install_guild()
    await start_bot()
    await fake.wait_for(lambda: fake.command("yahtzee") is not None)  # published
    assert not fake.offers(bob, channel, "yahtzee")  # Bob has not installed it
    answer = await fake.slash(ann, channel, "yahtzee start")
    assert answer.response_type == 4, answer.ephemeral_text
    assert answer.response is not None and not answer.response.get("flags", 0) & EPHEMERAL
    lobby = fake.last(channel)
    await fake.click(bob, lobby, "Join")
    started = await fake.click(ann, lobby, "Start")
    assert started.response_type == 7, started.ephemeral_text
    board = await live_board(fake, channel)
    assert board["content"].startswith(f"<@{ann['id']}>")
    assert [u["id"] for u in board["mentions"]] == [ann["id"]]  # a new message: notified
    # Ann: 2-3-4-5-6 every turn, boxes in sheet order: upper 2+3+4+5+6 = 20, Small Straight
    # 30, Large Straight 40, Chance 20: 110. Bob: 1-1-1-1-1: Ones 5, Three and Four of a
    # Kind 5 each, Yahtzee 50, Chance 5, and a second Yahtzee's bonus 100: 170.
    for box in Category:
        await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], box.value)
        nxt = await live_board(fake, channel)
        assert nxt["content"].startswith(f"<@{bob['id']}>"), nxt["content"]
        last = box is list(Category)[-1]
        await play_turn(fake, dice, bob, channel, [[1, 1, 1, 1, 1]], box.value, expect_next=False)
        if not last:
            await fake.wait_for(lambda: fake.live_boards(channel) != [])
    await fake.wait_for(lambda: any(find_component(m, "Play again") for m in
                                    fake.channel_messages(channel)))  # fmt: skip
    final = text_of(final_card(fake, channel))
    assert "Bob wins with 170" in final and "**Ann**: **110**" in final, final
    assert forbidden_tries(fake, channel) == []
