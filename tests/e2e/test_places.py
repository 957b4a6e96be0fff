"""Playing anywhere (issue 43): the bot's DM, group DMs, servers that never added the bot.

The fake follows Discord's rules of each place (docs/places.md): in a group DM and a server
that never added the bot, channel routes answer 403 50001, a sixth follow-up 40094, a token
older than 15 minutes 50027. Each test checks the bot never tried any of them."""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from typing import Any

import pytest

from bot.engine import Category, RandomDice, ScriptedDice
from bot.store import plans
from cogs.shared.computers import NoComputers

from ..clock import FakeClock
from ..conftest import Database, fetch
from .conftest import StartBot
from .fake_discord import EPHEMERAL, USE_EXTERNAL_APPS, FakeDiscord, find_component, text_of
from .helpers import die_ids, friends_game, live_board, play_turn
from .test_timers import tick


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
    card = final_card(fake, channel)
    analysis = await fake.click(bob, card, "Analysis")
    assert analysis.response is not None and analysis.response["flags"] & EPHEMERAL
    again = await fake.click(bob, card, "Play again")
    assert again.error is None and again.response is not None, again.ephemeral_text
    rematch = fake.last(channel)
    assert find_component(rematch, "Join") is not None  # a new lobby, hosted by Bob
    assert (channel, again.response["id"], ann["id"]) in fake.pings  # Ann invited, notified
    assert forbidden_tries(fake, channel) == []


async def test_eight_seats_with_computers_in_a_group_dm(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Two friends and six computer seats (8 players) in a group DM: after Bob's scoring the
    six computers play by themselves, shown through his click's token, and Ann is named in
    a new message; no interaction sends more than 5 follow-ups, no channel route is tried.
    Ann's Undo, Hint and Scorecard answer by clicks too."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    channel = fake.group_dm(ann, bob)
    await start_bot()
    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    await fake.click(bob, lobby, "Join")
    for _ in range(6):
        added = await fake.click(ann, lobby, "Add bot (Casual)")
        assert added.response_type == 7, added.ephemeral_text
    await fake.click(ann, lobby, "Start")
    board = await live_board(fake, channel)
    dice.extend([6, 6, 6, 6, 6])
    await fake.click(ann, board, "Roll")
    scorecard = await fake.click(ann, fake.messages[board["id"]], "Scorecard")
    assert scorecard.response is not None and scorecard.response["flags"] & EPHEMERAL
    await fake.choose(ann, board, "sixes")
    undo = await fake.click(ann, fake.messages[board["id"]], "Undo")
    assert undo.response_type == 7, undo.ephemeral_text
    await fake.choose(ann, fake.messages[board["id"]], "yahtzee")
    board = await live_board(fake, channel)
    assert board["content"].startswith(f"<@{bob['id']}>")
    dice.extend([1, 2, 3, 4, 5] * 60)  # the computers' rolls, and more
    await play_turn(fake, dice, bob, channel, [[2, 3, 4, 5, 6]], "large_straight",
                    expect_next=False)  # fmt: skip
    await fake.wait_for(
        lambda: any(m["content"].startswith(f"<@{ann['id']}>") for m in fake.live_boards(channel)),
        timeout=30,
    )
    [ann_board] = fake.live_boards(channel)
    assert (channel, ann_board["id"], ann["id"]) in fake.pings  # notified: a new message
    assert forbidden_tries(fake, channel) == []


async def group_game(
    fake: FakeDiscord, start_bot: StartBot, **bot_settings: Any
) -> tuple[Any, str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Ann (who installed the app) and Bob start a game in a group DM: (the bot, the
    channel, Ann, Bob, the first board)."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    channel = fake.group_dm(ann, bob)
    bot = await start_bot(**bot_settings)
    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    await fake.click(bob, lobby, "Join")
    await fake.click(ann, lobby, "Start")
    return bot, channel, ann, bob, await live_board(fake, channel)


async def test_a_restart_in_a_group_dm_loses_nothing(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """The bot restarts mid-game in a group DM: nothing is posted there by a channel route
    at start (the place is remembered), Ann's next click carries on from the store. Then a
    restart that came between Bob's scoring and the post of Ann's board: the restart shows
    her board through the token of Bob's click (kept for its 15 minutes), naming her; her
    click on the Undo Bob's summary offers is answered privately."""
    bot, channel, ann, bob, board = await group_game(fake, start_bot)
    dice.extend([3, 3, 3, 5, 6])
    await fake.click(ann, board, "Roll")
    await bot.close()
    bot = await start_bot()
    dice.extend([3, 3])
    for die in die_ids(board)[:3]:  # the three 3s, held after the restart
        held = await fake.click(ann, fake.messages[board["id"]], die)
        assert held.response_type == 7, held.ephemeral_text
    rolled = await fake.click(ann, fake.messages[board["id"]], "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
    await fake.choose(ann, fake.messages[board["id"]], "threes")
    assert "scored **15** in **Threes**" in fake.messages[board["id"]]["embeds"][0]["description"]
    bob_board = await live_board(fake, channel)
    assert bob_board["content"].startswith(f"<@{bob['id']}>")
    # Bob scores; his click's follow-up (Ann's board) never arrives: the bot stops first.
    dice.extend([1, 2, 3, 4, 5])
    await fake.click(bob, bob_board, "Roll")
    fake.hang("POST", r"^/webhooks/\d+/[^/]+$")
    task = asyncio.create_task(fake.choose(bob, fake.messages[bob_board["id"]], "large_straight"))
    await asyncio.wait_for(fake.hung.wait(), 5)
    await bot.close()
    await asyncio.wait({task}, timeout=6)
    assert fake.live_boards(channel) == []  # nobody has a board to click
    bot = await start_bot()
    # Bob's click's token was kept (its 15 minutes): the restart's repair posts Ann's board
    # through it at once, naming her, with no channel route tried
    ann_board = await live_board(fake, channel)
    clock.advance(15)  # (a moment later)
    summary = fake.messages[bob_board["id"]]
    refused = await fake.click(ann, summary, "Undo")
    assert refused.response is not None and refused.response["flags"] & EPHEMERAL
    assert [m["id"] for m in fake.live_boards(channel)] == [ann_board["id"]]
    assert ann_board["content"].startswith(f"<@{ann['id']}>")
    assert (channel, ann_board["id"], ann["id"]) in fake.pings
    dice.extend([6, 6, 6, 6, 6])
    await play_turn(fake, dice, ann, channel, [[6, 6, 6, 6, 6]], "yahtzee")
    assert forbidden_tries(fake, channel) == []


async def test_a_turn_timer_in_a_group_dm(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Turns are timed in a group DM as on a server that never chose (5 minutes, played as
    the Optimal bot would). While a click's token is fresh the timer shows its move through
    it at once, naming the next player in a new message; once every token is too old (15
    minutes: the bot may not post there by itself) the timer's move waits in the store and
    the next click of anyone in the game shows it. No token is used after 15 minutes."""
    bot, channel, ann, bob, board = await group_game(fake, start_bot)
    await bot.analyst.wait()  # the Optimal bot's table, to play for Ann
    dice.extend([2, 3, 4, 5, 6] * 6)
    clock.advance(301)
    fake.advance(301)
    await tick(bot, fake)
    said = fake.messages[board["id"]]["embeds"][0]["description"]
    assert "Time ran out" in said, said
    bob_board = await live_board(fake, channel)
    assert bob_board["content"].startswith(f"<@{bob['id']}>")
    # Nobody clicks for 20 minutes: Bob's turn runs out, but no token may show it.
    clock.advance(20 * 60)
    fake.advance(20 * 60)
    await tick(bot, fake)
    assert fake.live_boards(channel) == [fake.messages[bob_board["id"]]]  # as it was
    clock.advance(15)
    # Ann clicks Roll on Bob's board (the one on record, which no token reached to retire):
    # it says the game moved on, and her board comes at the bottom, naming her
    late = await fake.click(ann, fake.messages[bob_board["id"]], "Roll")
    assert late.response_type == 7, late.ephemeral_text
    assert "The game moved on" in text_of(fake.messages[bob_board["id"]])
    assert find_component(fake.messages[bob_board["id"]], "Roll") is None
    ann_board = await live_board(fake, channel)
    assert ann_board["content"].startswith(f"<@{ann['id']}>"), ann_board["content"]
    assert (channel, ann_board["id"], ann["id"]) in fake.pings
    assert forbidden_tries(fake, channel) == []
    expired = [r for r in fake.interactions.values() if r.error and "50027" in r.error]
    assert expired == []


async def test_what_makes_no_sense_somewhere_says_why(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """/yahtzee-admin is offered in no DM nor group DM (a server's settings); in a server
    that never added the bot, a member without Use External Apps would be the only one to
    see a lobby: it is refused, saying why, in their language (German here); the group DM's
    lobby says how its turn timer works where the bot only answers clicks."""
    ann, bob = fake.user("Ann"), fake.user("Bob", locale="de")
    fake.install(ann, bob)
    group, foreign = fake.group_dm(ann, bob), fake.user_install_guild()
    await start_bot()
    await fake.wait_for(lambda: fake.command("yahtzee-admin") is not None)
    for place in (group, fake.bot_dm(ann), foreign):
        assert not fake.offers(ann, place, "yahtzee-admin")
        assert fake.offers(ann, place, "yahtzee")
    fake.deny_member(foreign, bob, USE_EXTERNAL_APPS)
    refused = await fake.slash(bob, foreign, "yahtzee start")
    assert refused.response is not None and refused.response["flags"] & EPHEMERAL
    assert "externen Apps" in refused.ephemeral_text, refused.ephemeral_text
    assert fake.channel_messages(foreign) == []
    await fake.slash(ann, group, "yahtzee start")
    assert "moves on at the next click" in text_of(fake.last(group))


@pytest.mark.both_databases
async def test_results_by_place(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, database: Database
) -> None:
    """Ann finishes a solo game on a server, one in a group DM, one in a DM with Bob: the
    server's leaderboard shows only the server's game; the group's only its own (not the
    server's, not the other DM's); her stats in the bot's DM count all three."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    server, group, other = (
        fake.channel("general"),
        fake.group_dm(ann, bob),
        fake.dm_between(ann, bob),
    )
    bot = await start_bot()
    # by hand: 2-3-4-5-6 in sheet order: upper 20, Small 30, Large 40, Chance 20: 110;
    # 1-2-3-4-6: upper 16, Small 30, Chance 16: 62; 1-1-2-3-4: upper 1+1+2+3+4 = 11, Small
    # Straight 30, Chance 11: 52.
    for channel, faces in ((server, [2, 3, 4, 5, 6]), (group, [1, 2, 3, 4, 6]),
                           (other, [1, 1, 2, 3, 4])):  # fmt: skip
        await fake.slash(ann, channel, "yahtzee start")
        await fake.click(ann, fake.last(channel), "Start")
        for box in Category:
            await play_turn(fake, dice, ann, channel, [faces], box.value)
    guild = int(fake.guild_of(server))
    assert [(r.name, r.figure) for r in await bot.store.read(plans.leaderboard, guild, "high")] == [
        ("Ann", 110)
    ]
    in_group = await bot.store.read(plans.leaderboard, None, "high", channel_id=int(group))
    assert [(r.name, r.figure) for r in in_group] == [("Ann", 62)]
    board = await fake.slash(ann, group, "yahtzee leaderboard")
    assert board.response is not None and "62 in 1 game" in text_of(board.response), text_of(
        board.response
    )
    everywhere = await bot.games.leaderboards.stats(None, int(ann["id"]), "Ann")
    assert (everywhere.games, everywhere.best) == (3, 110)
    stats = await fake.slash(ann, fake.bot_dm(ann), "yahtzee stats")
    assert stats.response is not None and stats.response["flags"] & EPHEMERAL, stats.error
    # another player's figures from everywhere are not Ann's to see
    theirs = await fake.slash(ann, fake.bot_dm(ann), "yahtzee stats", player=bob)
    assert "only your own figures" in (theirs.ephemeral_text or ""), theirs.ephemeral_text
    # her name once for the server, once for every place outside servers (SQLite kept a row
    # per game there before migration 019: NULL guilds are distinct in its key)
    names = await fetch(database, "SELECT guild_id FROM player_names WHERE user_id = ? "
                        "ORDER BY guild_id", int(ann["id"]))  # fmt: skip
    assert names == [(0,), (guild,)]


async def test_the_bots_dm(fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice) -> None:
    """In the bot's own DM (it may post there: channel routes, no threads): the rules, a
    whole game against a computer seat with a hint on the way, the report card (Analysis),
    stats, and the daily challenge's private board."""
    ann = fake.user("Ann")
    dm = fake.bot_dm(ann)
    dice.fallback = RandomDice(random.Random(43))  # the computer's dice, and Ann's
    bot = await start_bot()
    await bot.analyst.wait()  # the Optimal bot's table
    rules = await fake.slash(ann, dm, "yahtzee rules")
    assert rules.response is not None and rules.response["flags"] & EPHEMERAL
    await fake.slash(ann, dm, "yahtzee start")
    lobby = fake.last(dm)
    await fake.click(ann, lobby, "Add bot (Optimal)")
    await fake.click(ann, lobby, "Start")
    hinted, previous = False, ""
    mine = f"<@{ann['id']}>"

    def ann_to_move(before: str) -> list[dict[str, Any]]:
        return [
            m for m in fake.live_boards(dm) if m["content"].startswith(mine) and m["id"] != before
        ]

    for box in Category:
        await fake.wait_for(lambda before=previous: ann_to_move(before) != [], timeout=20)
        board = ann_to_move(previous)[-1]
        await fake.click(ann, board, "Roll")
        if not hinted:
            hint = await fake.slash(ann, dm, "yahtzee hint")
            assert hint.response is not None and hint.response["flags"] & EPHEMERAL
            hinted = True
        scored = await fake.choose(ann, fake.messages[board["id"]], box.value)
        assert scored.response_type == 7, scored.ephemeral_text
        previous = board["id"]
    await fake.wait_for(lambda: any(find_component(m, "Play again") for m in
                                    fake.channel_messages(dm)), timeout=20)  # fmt: skip
    card = final_card(fake, dm)
    report = await fake.click(ann, card, "Analysis")
    assert report.response is not None and report.response["flags"] & EPHEMERAL
    stats = await fake.slash(ann, dm, "yahtzee stats")
    assert stats.response is not None and "1" in text_of(stats.response)
    daily = await fake.slash(ann, dm, "yahtzee daily")
    assert daily.response is not None and daily.response["flags"] & EPHEMERAL
    assert find_component(daily.response, "Roll") is not None
    assert fake.requests_to("POST", r"/threads") == []


@pytest.mark.parametrize("where", ["group_dm", "bot_dm", "user_server"])
async def test_outside_a_server_the_game_speaks_its_openers_language(
    fake: FakeDiscord, start_bot: StartBot, where: str
) -> None:
    """A group DM and the bot's DM have no server language: the lobby, its buttons and a
    shared stats card are in the language of the German friend who opened or shared them
    (Discord's ``locale`` of her client), not English. A server without the bot has one
    (``guild_locale``, French here): its lobby speaks French whoever opens it."""
    gerda, bob = fake.user("Gerda", locale="de"), fake.user("Bob")
    fake.install(gerda, bob)
    if where == "group_dm":
        channel = fake.group_dm(gerda, bob)
    elif where == "bot_dm":
        channel = fake.bot_dm(gerda)
    else:
        channel = fake.user_install_guild()
        fake.guild_locales[fake.guild_of(channel)] = "fr"
    await start_bot()
    await fake.slash(gerda, channel, "yahtzee start")
    lobby = fake.last(channel)
    labels = ("Rejoindre", "Commencer") if where == "user_server" else ("Beitreten", "Starten")
    assert all(find_component(lobby, label) for label in labels), lobby
    assert find_component(lobby, "Join") is None
    if where == "user_server":
        return
    shared = await fake.slash(gerda, channel, "yahtzee leaderboard")
    assert shared.response is not None, shared.error
    # the shared board's title, as the German catalog has it (bot/i18n/locales/de)
    assert "Bestenliste" in text_of(shared.response) or "Rangliste" in text_of(shared.response)


@pytest.mark.parametrize("where", ["group_dm", "bot_dm"])
async def test_outside_a_server_nothing_speaks_of_this_server(
    fake: FakeDiscord, start_bot: StartBot, where: str
) -> None:
    """Stats with no game yet and today's daily board, asked in a group DM or the bot's DM,
    say where they count (this chat; everywhere) and never "this server"."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    channel = fake.group_dm(ann, bob) if where == "group_dm" else fake.bot_dm(ann)
    await start_bot()
    stats = await fake.slash(ann, channel, "yahtzee stats")
    assert stats.response is not None, stats.error
    said = text_of(stats.response)
    expected = "in this chat yet" if where == "group_dm" else "Ann has no finished game yet"
    assert expected in said and "server" not in said, said
    board = await fake.slash(ann, channel, "yahtzee daily-board")
    assert board.response is not None, board.error
    said = text_of(board.response)
    assert ": everyone" in said and "server" not in said, said


async def test_a_leave_after_a_timer_nobody_saw_shows_the_next_board(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Ann's turn runs out while nobody clicks (no token may show it: Bob is to move, his
    board unseen); then Ann leaves with /yahtzee leave. Her old board, which no token
    reaches any more, must not be taken for Bob's: his board comes as a new message that
    notifies him, and his Roll on it is answered in place. (Found by test_lifecycle: the
    edit of the old board reached nothing, yet was recorded as shown, so no click brought
    the game on.)"""
    dice.fallback = RandomDice(random.Random(43))
    bot, channel, ann, bob, board = await group_game(fake, start_bot)
    clock.advance(20 * 60)  # Ann's 5 minutes run out; every token is too old to show it
    fake.advance(20 * 60)
    await tick(bot, fake)
    assert fake.live_boards(channel) == [fake.messages[board["id"]]]  # as it was
    left = await fake.slash(ann, channel, "yahtzee leave")
    assert "You left the game" in left.ephemeral_text, left.ephemeral_text
    bob_board = await live_board(fake, channel)
    assert bob_board["id"] != board["id"]
    assert bob_board["content"].startswith(f"<@{bob['id']}>"), bob_board["content"]
    assert (channel, bob_board["id"], bob["id"]) in fake.pings
    rolled = await fake.click(bob, bob_board, "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
    assert forbidden_tries(fake, channel) == []


async def unseen_timeout(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A group-DM game where Ann's turn ran out while nobody clicked for 20 minutes: the
    timer moved it on to Bob, with no token to show it. (The channel, Ann, Bob, Ann's old
    board.)"""
    dice.fallback = RandomDice(random.Random(43))
    bot, channel, ann, bob, board = await group_game(fake, start_bot)
    fake.install(bob)
    clock.advance(20 * 60)
    fake.advance(20 * 60)
    assert await tick(bot, fake) == 1
    assert fake.live_boards(channel) == [fake.messages[board["id"]]]  # as it was
    return channel, ann, bob, board


async def test_a_click_right_after_a_timer_nobody_saw_shows_its_move(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """A click in the same second as the timer's move shows that move: Bob's board, a new
    message that notifies him (a timer's move is not a person's, which another process may
    still be showing for 10 s)."""
    channel, _ann, bob, board = await unseen_timeout(fake, start_bot, dice, clock)
    late = await fake.click(bob, fake.messages[board["id"]], "Roll")
    assert late.response_type == 7, late.ephemeral_text  # Ann's old board says it moved on
    bob_board = await live_board(fake, channel)
    assert bob_board["content"].startswith(f"<@{bob['id']}>"), bob_board["content"]
    assert (channel, bob_board["id"], bob["id"]) in fake.pings
    assert forbidden_tries(fake, channel) == []


@pytest.mark.parametrize("command", ["yahtzee rules", "yahtzee scorecard", "yahtzee stats"])
async def test_any_command_after_a_timer_nobody_saw_shows_its_move(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock, command: str
) -> None:
    """Not only a click: any /yahtzee command in the group DM, once answered, shows what
    the game's messages miss, through its own token (before, only clicks did)."""
    channel, ann, bob, _board = await unseen_timeout(fake, start_bot, dice, clock)
    clock.advance(15)  # (a moment later)
    answer = await fake.slash(ann, channel, command)
    assert answer.response is not None and answer.response["flags"] & EPHEMERAL
    bob_board = await live_board(fake, channel)
    assert bob_board["content"].startswith(f"<@{bob['id']}>"), bob_board["content"]
    assert (channel, bob_board["id"], bob["id"]) in fake.pings
    assert forbidden_tries(fake, channel) == []


TIMER_HERE = "moves on at the next click of anyone in the game"


@pytest.mark.parametrize("where", ["group_dm", "user_server", "server"])
async def test_the_lobby_and_every_board_say_how_timers_work_there(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, where: str
) -> None:
    """Where the bot only answers clicks, a timed game says so from the lobby (also when
    /yahtzee board posts it again) to every board, as it moves and as the turns pass: a turn
    whose time ran out moves on at the next click. A server that added the bot says
    nothing of the kind (its timers act on time)."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    channel = {
        "group_dm": lambda: fake.group_dm(ann, bob),
        "user_server": fake.user_install_guild,
        "server": lambda: fake.channel("general"),
    }[where]()
    said = where != "server"
    await start_bot()
    await fake.slash(ann, channel, "yahtzee start")
    assert (TIMER_HERE in text_of(fake.last(channel))) is said
    again = await fake.slash(ann, channel, "yahtzee board")
    assert again.error is None, again.error
    lobby = fake.last(channel)  # the lobby, posted again at the bottom
    assert find_component(lobby, "Join") is not None
    assert (TIMER_HERE in text_of(lobby)) is said, text_of(lobby)
    await fake.click(bob, lobby, "Join")
    await fake.click(ann, fake.messages[lobby["id"]], "Start")
    board = await live_board(fake, channel)
    assert "Time runs out" in text_of(board)
    assert (TIMER_HERE in text_of(board)) is said, text_of(board)
    dice.extend([2, 3, 4, 5, 6])
    await fake.click(ann, board, "Roll")  # the board edited in place
    assert (TIMER_HERE in text_of(fake.messages[board["id"]])) is said
    await fake.choose(ann, fake.messages[board["id"]], "large_straight")
    nxt = await live_board(fake, channel)  # Bob's, a new message
    assert nxt["content"].startswith(f"<@{bob['id']}>")
    assert (TIMER_HERE in text_of(nxt)) is said, text_of(nxt)


@pytest.mark.parametrize(
    "who,what",
    [
        ("Bob", "Roll"),  # on his old board (the one on record)
        ("Ann", "Scorecard"),  # on Bob's old board
        ("Ann", "Undo"),  # on her summary, whose Undo no token could close
        ("Bob", "/yahtzee rules"),
        ("Ann", "/yahtzee scorecard"),
    ],
)
async def test_no_game_is_left_where_no_click_moves_it_on(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
    clock: FakeClock,
    who: str,
    what: str,
) -> None:
    """A group-DM game: Ann scores, Bob's board is up; the bot restarts, and nobody clicks
    for 20 minutes (Bob's turn runs out: Ann is to move, and nothing could show it). Then
    any click of a player on any message of the game, or any /yahtzee command, carries on:
    it gets a plain answer, and Ann's board comes as a new message that notifies her, on
    which she plays. Bob's old board, which no token reaches, keeps its buttons until
    clicked: then it is retired, saying where Ann's board is (it never becomes hers)."""
    dice.fallback = RandomDice(random.Random(43))
    bot, channel, ann, bob, board = await group_game(fake, start_bot)
    fake.install(bob)
    await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], "large_straight")
    bob_board = await live_board(fake, channel)
    assert bob_board["content"].startswith(f"<@{bob['id']}>")
    await bot.close()
    bot = await start_bot()
    clock.advance(20 * 60)
    fake.advance(20 * 60)
    assert await tick(bot, fake) == 1  # Bob's turn ran out, unseen
    assert fake.live_boards(channel) == [fake.messages[bob_board["id"]]]
    person = {"Ann": ann, "Bob": bob}[who]
    if what.startswith("/"):
        answer = await fake.slash(person, channel, what[1:])
    elif what == "Undo":
        answer = await fake.click(person, fake.messages[board["id"]], "Undo")
    else:
        answer = await fake.click(person, fake.messages[bob_board["id"]], what)
    assert answer.error is None and answer.response is not None, answer.error
    flags = answer.response.get("flags", 0)  # a plain answer: the board moved on, or a word
    assert answer.response_type == 7 or flags & EPHEMERAL, answer.response
    assert "Something went wrong" not in answer.ephemeral_text
    if (who, what) == ("Bob", "Roll"):  # his board, out of date, says what nobody saw played
        told = text_of(fake.messages[bob_board["id"]])
        assert "board out of date" in told and "**Bob**: " in told, told
        assert "(time ran out)" in told, told
    ann_board = await live_board(fake, channel)
    assert ann_board["id"] != bob_board["id"]
    assert ann_board["content"].startswith(f"<@{ann['id']}>"), ann_board["content"]
    assert (channel, ann_board["id"], ann["id"]) in fake.pings
    if find_component(fake.messages[bob_board["id"]], "Roll") is not None:
        # Bob's old board kept its buttons (nothing could reach it): his click on it is
        # answered there, retiring it with a link to Ann's board; it never becomes her board
        back = await fake.click(bob, fake.messages[bob_board["id"]], "Roll")
        assert back.response_type == 7, back.ephemeral_text
        here = fake.messages[bob_board["id"]]
        assert f"<@{ann['id']}>" not in here["content"], here["content"]
        assert f"/channels/@me/{channel}/{ann_board['id']}" in text_of(here), text_of(here)
        assert fake.live_boards(channel) == [fake.messages[ann_board["id"]]]
    rolled = await fake.click(ann, fake.messages[ann_board["id"]], "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
    assert forbidden_tries(fake, channel) == []
    assert [r for r in fake.interactions.values() if r.error and "50027" in r.error] == []


async def test_a_reminder_never_takes_the_place_of_a_board(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Nobody clicks for 13¾ minutes while the timer plays turns and reminds (the timer
    ticking every 75 s): its boards and reminders are follow-ups of the last clicks, at most 5
    each. A reminder (which may be left out) never takes the last follow-up's place by an
    edit: before, the fifth follow-up, Ann's board, became her reminder, recorded as such,
    and was deleted when her turn ended."""
    dice.fallback = RandomDice(random.Random(5))
    bot, channel, ann, _bob, _board = await group_game(fake, start_bot)
    for _ in range(11):  # 825 s: every token is still fresh (14 minutes)
        clock.advance(75)
        fake.advance(75)
        await tick(bot, fake)
    [board] = fake.live_boards(channel)  # Ann's, for round 2 (her first turn and Bob's ran out)
    assert board["content"].startswith(f"<@{ann['id']}>, your turn"), board["content"]
    assert "round 2" in text_of(board)
    reminders = [m for m in fake.channel_messages(channel) if "half your turn" in m["content"]]
    assert len(reminders) == 1 and find_component(reminders[0], "Roll") is None
    await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], "large_straight")
    assert board["id"] in fake.messages  # her board is the turn's summary, not deleted
    assert "scored" in text_of(fake.messages[board["id"]])
    assert fake.channel_messages(channel) and not [
        m for m in fake.channel_messages(channel) if "half your turn" in m["content"]
    ]  # the reminder went with its turn
    assert forbidden_tries(fake, channel) == []
    assert [r for r in fake.interactions.values() if r.error and "50027" in r.error] == []


@pytest.mark.parametrize("lobby_first", [False, True])
async def test_a_server_that_adds_the_bot_is_served_by_channel_routes_from_then_on(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
    clock: FakeClock,
    database: Database,
    lobby_first: bool,
) -> None:
    """Ann plays by her own install in a server that never added the bot (the channel is
    noted as reached by tokens only); then the server adds the bot. Her next /yahtzee start
    there (or, ``lobby_first``, the clicks on the lobby her install opened before, which
    still carry only her install) is served by the channel's routes: the board is posted by
    the bot itself, the place is no longer kept as a token place (a restart would not skip
    it), and a turn that runs out with nobody clicking is shown at once, as in any server."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    channel = fake.user_install_guild()
    bot = await start_bot()
    await fake.wait_for(lambda: fake.command("yahtzee") is not None)
    rules = await fake.slash(ann, channel, "yahtzee rules")
    assert rules.error is None and rules.response is not None
    assert await fetch(database, "SELECT channel_id FROM token_places") == [(int(channel),)]

    if lobby_first:
        await fake.slash(ann, channel, "yahtzee start")
        lobby = fake.last(channel)
        # the game keeps where it is played, as the interaction that opened it said
        assert await fetch(database, "SELECT place FROM games") == [("token",)]
    await fake.add_bot_to(channel)
    await fake.wait_for(lambda: bot.get_guild(int(fake.guild_of(channel))) is not None)
    posts_before = len(fake.requests)
    if not lobby_first:
        answer = await fake.slash(ann, channel, "yahtzee start")
        assert answer.error is None, answer.ephemeral_text
        lobby = fake.last(channel)
    await fake.click(bob, lobby, "Join")
    started = await fake.click(ann, lobby, "Start")
    assert started.error is None, started.ephemeral_text
    board = await live_board(fake, channel)
    assert board["content"].startswith(f"<@{ann['id']}>")
    by_channel = [
        p for m, p, _ in fake.requests[posts_before:]
        if m == "POST" and p == f"/channels/{channel}/messages"
    ]  # fmt: skip
    assert by_channel, "the board was not posted by the channel's routes"
    assert await fetch(database, "SELECT channel_id FROM token_places") == []
    assert await fetch(database, "SELECT place FROM games") == [("channel",)]

    # Nobody clicks for 20 minutes (every token too old): the timer's turn is shown anyway.
    await bot.analyst.wait()
    dice.extend([2, 3, 4, 5, 6] * 6)
    clock.advance(20 * 60)
    fake.advance(20 * 60)
    await tick(bot, fake)
    assert "Time ran out" in fake.messages[board["id"]]["embeds"][0]["description"]
    bob_board = await live_board(fake, channel)
    assert bob_board["content"].startswith(f"<@{bob['id']}>"), bob_board["content"]
    assert fake.live_boards(channel) == [bob_board]


async def test_a_computer_seat_waits_quietly_while_nobody_clicks(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Ann, Bob and a Casual bot in a group DM; the computer's run dies as its turn comes
    and nobody clicks for 20 minutes (no token to show anything): the ticks leave its turn
    waiting without a warning each time; Ann's next click shows the computer's turn going
    on, and the turn comes back to her."""
    dice.fallback = RandomDice(random.Random(7))
    bot, channel, ann, bob, _ = await friends_game(fake, start_bot, "group_dm", computer="Casual")
    cog = bot.get_cog("TurnTimers")
    assert cog is not None
    await play_turn(fake, dice, ann, channel, [[6, 5, 4, 3, 1]], "chance")
    cog.publisher.computers = NoComputers()  # its run "dies" before it starts
    await play_turn(fake, dice, bob, channel, [[6, 5, 4, 3, 1]], "chance", expect_next=False)
    cog.publisher.computers = cog.computers
    for minutes in (15, 5, 5, 5):
        clock.advance(minutes * 60)
        fake.advance(minutes * 60)
        with caplog.at_level("WARNING"):
            await tick(bot, fake)
    assert "turn stalled" not in caplog.text
    board = fake.messages[(await live_board(fake, channel))["id"]]
    await fake.click(ann, board, "Scorecard")
    await fake.wait_for(
        lambda: (
            fake.live_boards(channel) != []
            and fake.live_boards(channel)[-1]["content"].startswith(f"<@{ann['id']}>")
        ),
        timeout=20,
    )
    assert forbidden_tries(fake, channel) == []


async def test_a_member_whose_answers_discord_keeps_private_is_not_seated_nor_posted_through(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """In a server that never added the bot, Discord shows the answers to a member without
    Use External Apps to them alone (found by a review): Cat is told why she cannot join;
    and Bob, who lost the permission once seated, scores without taking the next board
    away from everyone (it is never posted through his token: Ann is named in public)."""
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    fake.install(ann)
    channel = fake.user_install_guild()
    fake.deny_member(channel, cat, USE_EXTERNAL_APPS)
    await start_bot()
    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    refused = await fake.click(cat, lobby, "Join")
    assert "use external apps" in (refused.ephemeral_text or ""), refused.ephemeral_text
    await fake.click(bob, fake.messages[lobby["id"]], "Join")
    await fake.click(ann, fake.messages[lobby["id"]], "Start")
    await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], "large_straight")
    fake.deny_member(channel, bob, USE_EXTERNAL_APPS)
    await play_turn(fake, dice, bob, channel, [[1, 1, 1, 1, 1]], "yahtzee", expect_next=False)
    await fake.settle()
    public = [m for m in fake.live_boards(channel) if not m.get("flags", 0) & EPHEMERAL]
    assert public and public[-1]["content"].startswith(f"<@{ann['id']}>"), public
    assert (channel, public[-1]["id"], ann["id"]) in fake.pings
