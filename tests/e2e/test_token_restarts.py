"""Restarts where only tokens reach (issue 49): a group DM and a server that never added the
bot, restarted at chosen moments; after each, a game shows at most one live board, and a
click on it is taken, never refused nor turned into another player's board."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.engine import RandomDice, ScriptedDice

from ..clock import FakeClock
from ..conftest import Database, fetch
from .conftest import StartBot
from .fake_discord import FakeDiscord, controls_of, find_component, text_of
from .helpers import friends_game, live_board, open_lobby
from .test_places import forbidden_tries


def enabled_roll(message: dict[str, Any]) -> bool:
    """Whether a message offers a Roll that can be clicked."""
    return any(
        str(c.get("custom_id", "")).startswith("yz:roll:") and not c.get("disabled")
        for c in controls_of(message)
    )


def live(fake: FakeDiscord, channel: str) -> list[dict[str, Any]]:
    """The channel's messages with turn controls a player can click (a Roll not greyed)."""
    return [m for m in fake.channel_messages(channel) if enabled_roll(m)]


async def two_friends(fake: FakeDiscord, start_bot: StartBot, where: str) -> tuple[Any, ...]:
    return await friends_game(fake, start_bot, where)


@pytest.mark.parametrize("where", ["group_dm", "user_server"])
async def test_an_undo_after_a_restart_leaves_one_live_board(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock, where: str
) -> None:
    """Ann scores; Bob's board comes; the bot restarts (its tokens kept in the store for
    their 15 minutes); Ann takes her move back with the Undo on her summary: her board is
    live again and Bob's waits without controls (the kept token of her scoring reaches it),
    so one board is live; scored anew, Bob's turn comes back on his message."""
    bot, channel, ann, _bob, board = await two_friends(fake, start_bot, where)
    dice.extend([1, 2, 3, 4, 5])
    await fake.click(ann, board, "Roll")
    await fake.choose(ann, fake.messages[board["id"]], "large_straight")
    bob_board = await live_board(fake, channel)
    assert bob_board["id"] != board["id"]
    await bot.close()
    bot = await start_bot()
    clock.advance(5)
    undone = await fake.click(ann, fake.messages[board["id"]], "Undo")
    assert undone.error is None and undone.response_type == 7, undone.ephemeral_text
    await fake.settle()
    assert [m["id"] for m in live(fake, channel)] == [board["id"]]
    assert not enabled_roll(fake.messages[bob_board["id"]])
    await fake.choose(ann, fake.messages[board["id"]], "large_straight")
    await fake.settle()
    assert [m["id"] for m in live(fake, channel)] == [bob_board["id"]]
    assert forbidden_tries(fake, channel) == []


@pytest.mark.parametrize("where", ["group_dm", "user_server"])
async def test_a_click_on_a_board_no_token_could_retire_is_not_turned_into_anothers(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, database: Database, where: str
) -> None:
    """As above, but the tokens were not kept (their store write failed: logged, and the
    game goes on), so after the restart nothing reaches Bob's board: after Ann's Undo,
    Bob's Roll on his old board is answered on it (the game went back to Ann, with a link
    to her board) and it is retired there; his message does not become Ann's board, and
    her board stays as it was."""
    bot, channel, ann, bob, board = await two_friends(fake, start_bot, where)
    dice.extend([1, 2, 3, 4, 5])
    await fake.click(ann, board, "Roll")
    await fake.choose(ann, fake.messages[board["id"]], "large_straight")
    bob_board = await live_board(fake, channel)
    await bot.close()
    await fetch(database, "DELETE FROM place_tokens")
    bot = await start_bot()
    undone = await fake.click(ann, fake.messages[board["id"]], "Undo")
    assert undone.error is None and undone.response_type == 7, undone.ephemeral_text
    await fake.settle()
    ann_board = fake.messages[board["id"]]
    assert enabled_roll(ann_board) or find_component(ann_board, "Large Straight") is not None
    rolled = await fake.click(bob, fake.messages[bob_board["id"]], "Roll")
    assert rolled.error is None and rolled.response_type == 7, rolled.ephemeral_text
    retired = fake.messages[bob_board["id"]]
    assert not enabled_roll(retired) and "Ann" not in retired["content"], retired
    assert f"/{board['id']}" in text_of(retired), text_of(retired)  # where the board is
    assert fake.messages[board["id"]] == ann_board  # untouched
    assert [m["id"] for m in live(fake, channel)] == [board["id"]]
    assert forbidden_tries(fake, channel) == []


@pytest.mark.parametrize("then", ["Bob rolls", "Ann ends the game"])
async def test_an_undo_that_can_no_longer_undo_keeps_its_line(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, database: Database, then: str
) -> None:
    """Ann scores; the bot restarts with no token kept (nothing can close her line's Undo);
    then Bob rolls (or Ann ends the game): her line still offers Undo. Clicked, it says it
    can no longer take the scoring back (privately), and the line keeps what it says, only
    without its Undo: the game's story is not overwritten."""
    bot, channel, ann, bob, board = await two_friends(fake, start_bot, "group_dm")
    dice.extend([1, 2, 3, 4, 5])
    await fake.click(ann, board, "Roll")
    await fake.choose(ann, fake.messages[board["id"]], "large_straight")
    bob_board = await live_board(fake, channel)
    line = fake.messages[board["id"]]
    assert "scored **40** in **Large Straight**" in text_of(line)
    await bot.close()
    await fetch(database, "DELETE FROM place_tokens")
    bot = await start_bot()
    if then == "Bob rolls":
        dice.extend([6, 6, 6, 6, 6])
        await fake.click(bob, fake.messages[bob_board["id"]], "Roll")
    else:
        asked = await fake.slash(ann, channel, "yahtzee end")
        assert asked.response is not None
        ended = await fake.click(ann, asked.response, "End the game")
        assert ended.error is None, ended.ephemeral_text
    assert find_component(fake.messages[board["id"]], "Undo") is not None  # nothing reached it
    said_before = fake.messages[board["id"]]["embeds"]
    clicked = await fake.click(ann, fake.messages[board["id"]], "Undo")
    assert clicked.error is None and clicked.response_type == 7, clicked.ephemeral_text
    await fake.settle()
    after = fake.messages[board["id"]]
    assert find_component(after, "Undo") is None
    assert after["embeds"] == said_before  # the line as it was
    assert any("can no longer be taken back" in f["content"] for f in clicked.followups)
    assert forbidden_tries(fake, channel) == []


@pytest.mark.parametrize("where", ["group_dm", "user_server"])
async def test_a_restart_during_a_computers_turn_goes_on_by_itself(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, where: str
) -> None:
    """Ann and a Casual bot; the bot stops while the computer plays its turn. Started
    again, it carries the computer's turn on by itself through the tokens it kept (nobody
    clicks): the turn comes back to Ann on one live board, and no message is left saying
    the computer is playing."""
    dice.fallback = RandomDice(random.Random(11))
    ann = fake.user("Ann")
    fake.install(ann)
    channel = fake.group_dm(ann, fake.user("Bob")) if where == "group_dm" else (
        fake.user_install_guild())  # fmt: skip
    bot = await start_bot(bot_move_delay=0.5)  # its moves at a pace one can stop it in
    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    await fake.click(ann, lobby, "Add bot (Casual)")
    await fake.click(ann, lobby, "Start")
    board = await live_board(fake, channel)
    await fake.click(ann, board, "Roll")
    menu = next(c for c in controls_of(fake.messages[board["id"]]) if c["type"] == 3)
    scoring = asyncio.create_task(
        fake.choose(ann, fake.messages[board["id"]], menu["options"][0]["value"])
    )
    for _ in range(200):  # as it shows (a wait that settles would see the turn's end)
        if any("is playing its turn" in text_of(m) for m in fake.channel_messages(channel)):
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the computer's turn never showed")
    await bot.close()  # mid-turn: its run stops with it
    await asyncio.wait({scoring}, timeout=5)
    await start_bot()
    await fake.wait_for(
        lambda: any(m["content"].startswith(f"<@{ann['id']}>") for m in live(fake, channel)),
        timeout=20,
    )
    await fake.settle()
    assert len(live(fake, channel)) == 1
    frozen = [m for m in fake.channel_messages(channel) if "is playing its turn" in text_of(m)]
    assert frozen == [], [text_of(m)[:200] for m in frozen]
    assert forbidden_tries(fake, channel) == []


async def test_a_scoring_line_is_never_overwritten_by_a_repair(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Found by a review: Bob scores; the bot dies after Ann's ping line is posted, before
    it is on record; it comes back 16 minutes later (no token left) and the timer plays
    Ann's turn. Ann's click on the only control she sees (the Undo on Bob's line) is
    answered, and Bob's line keeps saying what he scored: the repair that follows does not
    turn it into "board out of date"."""
    dice.fallback = RandomDice(random.Random(9))
    bot, channel, ann, bob, bob_board = await friends_game(fake, start_bot, "group_dm", "Bob")
    dice.extend([1, 2, 3, 4, 5])
    await fake.click(bob, bob_board, "Roll")
    fake.hang("POST", r"^/webhooks/\d+/[^/]+$", after=True)  # Ann's ping line, unheard
    task = asyncio.create_task(fake.choose(bob, fake.messages[bob_board["id"]], "large_straight"))
    await asyncio.wait_for(fake.hung.wait(), 5)
    await bot.close()
    await asyncio.wait({task}, timeout=6)
    clock.advance(16 * 60)
    fake.advance(16 * 60)
    bot = await start_bot()  # its tick plays Ann's turn: time ran out
    cog = bot.get_cog("TurnTimers")
    assert cog is not None
    await cog.tick()  # (if the timer's own first tick has not come yet)
    await fake.settle()
    line = fake.messages[bob_board["id"]]
    assert "**Bob** scored **40** in **Large Straight**" in text_of(line)
    clicked = await fake.click(ann, line, "Undo")
    assert clicked.error is None and clicked.response_type == 7, clicked.ephemeral_text
    await fake.settle()
    after = text_of(fake.messages[bob_board["id"]])
    assert "**Bob** scored **40** in **Large Straight**" in after, after
    assert "board out of date" not in after
    assert len(live(fake, channel)) == 1  # Bob's turn now, at the bottom
    assert forbidden_tries(fake, channel) == []


async def test_a_scorecard_click_on_a_board_the_timer_moved_on_retires_it(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Found by a review: nobody clicks for 16 minutes and the timer plays Bob's turn
    unseen; Bob's Scorecard click on his old board retires that board in its answer (it
    says what was played since) before his card comes privately, and Ann's board comes at
    the bottom: one live board, not two."""
    dice.fallback = RandomDice(random.Random(5))
    bot, channel, ann, bob, board = await two_friends(fake, start_bot, "group_dm")
    await bot.analyst.wait()
    dice.extend([2, 3, 4, 5, 6])
    await fake.click(ann, board, "Roll")
    await fake.choose(ann, fake.messages[board["id"]], "large_straight")
    bob_board = await live_board(fake, channel)
    clock.advance(16 * 60)
    fake.advance(16 * 60)
    cog = bot.get_cog("TurnTimers")
    assert cog is not None and await cog.tick() == 1  # Bob's turn runs out, unseen
    card = await fake.click(bob, fake.messages[bob_board["id"]], "Scorecard")
    assert card.error is None and card.response_type == 7, card.ephemeral_text
    await fake.settle()
    assert any(f.get("flags", 0) & 64 for f in card.followups)  # his card, for him alone
    retired = text_of(fake.messages[bob_board["id"]])
    assert "board out of date" in retired and "(time ran out)" in retired, retired
    boards = live(fake, channel)
    assert len(boards) == 1 and boards[0]["content"].startswith(f"<@{ann['id']}>"), boards
    assert forbidden_tries(fake, channel) == []


@pytest.mark.parametrize("where", ["server", "group_dm"])
async def test_a_board_an_undo_parked_survives_a_restart(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, where: str
) -> None:
    """Found by a review (on a server too): Ann scores, Bob's board comes; her Undo parks
    it (waiting, no controls); the bot restarts; she scores anew: Bob's waiting message
    becomes his board again (an edit: he is pinged once in all), nothing is left saying it
    waits, and one board is live."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    if where == "server":
        channel = fake.channel("general")
        bot = await start_bot()
        lobby = await open_lobby(fake, channel, ann)
        await fake.click(bob, lobby, "Join")
        await fake.click(ann, fake.messages[lobby["id"]], "Start")
        board = await live_board(fake, channel)
    else:
        bot, channel, ann, bob, board = await two_friends(fake, start_bot, where)
    dice.extend([1, 2, 3, 4, 5])
    await fake.click(ann, board, "Roll")
    await fake.choose(ann, fake.messages[board["id"]], "large_straight")
    parked = await live_board(fake, channel)
    assert parked["id"] != board["id"]
    await fake.click(ann, fake.messages[board["id"]], "Undo")
    await fake.settle()
    assert not enabled_roll(fake.messages[parked["id"]])
    await bot.close()
    await start_bot()
    await fake.choose(ann, fake.messages[board["id"]], "small_straight")
    await fake.settle()
    said = text_of(fake.messages[parked["id"]])
    assert "when the scoring is made anew" not in said, said
    assert [m["id"] for m in live(fake, channel)] == [parked["id"]]
    assert sum(1 for p in fake.pings if p[2] == bob["id"]) == 1


async def test_a_clicks_repair_and_the_timers_do_not_both_post_the_board(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Found by fresh-clone CI runs: after a restart where no token is left, a click's
    repair (through its fresh token) and the timer's repair of boards left behind (which
    that same token makes possible) both posted the board: two live boards. Held exactly in
    between: while the click's repair is under way, the timer's tick leaves the game to it."""
    dice.fallback = RandomDice(random.Random(9))
    bot, channel, ann, _, bob_board = await friends_game(fake, start_bot, "group_dm", "Bob")
    await bot.close()
    clock.advance(16 * 60)
    fake.advance(16 * 60)
    bot = await start_bot()
    cog = bot.get_cog("TurnTimers")
    assert cog is not None
    await cog.tick()  # Bob's turn ran out unseen: no token reaches the group to show it
    await fake.settle()
    repairs = cog.repairs
    started, release = asyncio.Event(), asyncio.Event()
    calls: list[int] = []
    real_repair = repairs.repair

    async def held_repair(row: Any, refresh: bool = False) -> bool:
        calls.append(row.id)
        started.set()
        await release.wait()
        return await real_repair(row, refresh)

    repairs.repair = held_repair  # type: ignore[method-assign]
    line = fake.messages[bob_board["id"]]
    click = asyncio.create_task(fake.click(ann, line, "Scorecard"))
    await asyncio.wait_for(started.wait(), 5)  # the click's repair is under way
    # the timer's: the click's fresh token reaches the group now (were it to repair the game
    # too, it would wait here on the held repair)
    await asyncio.wait_for(cog.tick(), 5)
    release.set()
    await click
    await fake.settle()
    assert len(calls) == 1  # one repair showed the game, the other left it alone
    assert len(live(fake, channel)) == 1
