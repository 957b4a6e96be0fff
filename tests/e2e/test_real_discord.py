"""What the real Discord does that a polite fake would not: threads, missing permissions,
deleted messages and channels, slow posts. Each test makes the fake misbehave as Discord
does, and checks that players get a clear sentence and that no game is stuck or lost."""

from __future__ import annotations

import asyncio
import copy
import itertools
import logging
import random
from datetime import UTC, datetime

import pytest

from bot.app import YahtzeeBot
from bot.engine import Category, RandomDice, ScriptedDice
from bot.store import plans

from ..clock import FakeClock
from .conftest import StartBot, stop
from .fake_discord import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    GUILD_ID,
    SEND_MESSAGES,
    FakeDiscord,
    find_component,
    gallery_urls,
    text_of,
)
from .helpers import die_labels, live_board, open_lobby, plain_dice, play_turn, seated, start_game
from .test_timers import one_minute_turns, settings_menu, tick


async def settled_status(bot: YahtzeeBot, game_id: int) -> str | None:
    """A game's status once it has left "active" (or after 2 s): gateway events and
    repairs are handled in the bot's own time."""
    for _ in range(100):
        row = await bot.store.read(plans.get_game, game_id)
        if row is None or row.status != "active":
            break
        await asyncio.sleep(0.02)
    return row.status if row is not None else None


async def threads_on(fake: FakeDiscord, channel: str) -> None:
    """An admin turns on "games in threads" for the server."""
    mod = fake.user("Mod", admin=True)
    menu = await settings_menu(fake, mod, channel)
    answer = await fake.click(mod, menu, "Games in threads")
    assert answer.response_type == 7, answer.ephemeral_text


async def test_links_point_at_the_thread_in_thread_mode(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """A click on an old board in a thread links to the live board in that thread, and a
    second /yahtzee start in the parent channel links there too."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    await threads_on(fake, channel)
    first = copy.deepcopy(await start_game(fake, channel, ann, bob))  # as an old client shows it
    (thread,) = fake.threads(channel)
    await play_turn(fake, dice, ann, thread["id"], [[3, 3, 3, 2, 2]], "full_house")
    (live,) = fake.live_boards(thread["id"])
    expected = f"https://discord.com/channels/{GUILD_ID}/{thread['id']}/{live['id']}"

    old = await fake.click(bob, first, "Roll", stale=True)
    assert "Use the live board" in old.ephemeral_text
    assert expected in old.ephemeral_text

    again = await fake.slash(bob, channel, "yahtzee start")
    assert expected in again.ephemeral_text


async def test_play_again_after_a_game_in_a_thread_links_to_the_new_lobby(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """A solo game played in its thread, to the end; Play again opens the lobby in the
    parent channel and the answer links to it on this server (not a DM's ``@me``)."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    await threads_on(fake, channel)
    await start_game(fake, channel, ann)
    (thread,) = fake.threads(channel)
    for box in Category:
        await play_turn(fake, dice, ann, thread["id"], [[2, 3, 4, 5, 6]], box.value)
    final = fake.last(thread["id"])
    answer = await fake.click(ann, final, "Play again")
    lobby = fake.last(channel)
    assert find_component(lobby, "Join") is not None
    expected = f"https://discord.com/channels/{GUILD_ID}/{channel}/{lobby['id']}"
    assert expected in answer.ephemeral_text, answer.ephemeral_text


async def test_names_are_shown_as_typed(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Markdown and mention syntax in a name are shown as typed (in bold, never "@Ann (Ann)")."""
    odd = fake.user("**Ann_`||")
    everyone = fake.user("@everyone")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(fake, channel, odd, everyone)
    players = seated(fake.messages[lobby["id"]])
    # escaped by hand: every markdown character behind a backslash, @ kept from pinging
    assert "**\\*\\*Ann\\_\\`\\|\\|** (host)" in players
    assert "**@\N{ZERO WIDTH SPACE}everyone**" in players
    await fake.click(odd, lobby, "Start")
    board = await live_board(fake, channel)
    assert board["content"] == f"<@{odd['id']}>, your turn!"  # the mention alone: no echo


async def test_a_quick_undo_keeps_the_board_it_restores(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Undo clicked while the next turn's board is still being posted: the restored board
    stays, the next turn's message goes, and the game goes on from the restored board."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann, bob)
    dice.extend([3, 3, 3, 2, 2])
    await fake.click(ann, board, "Roll")
    fake.slow("POST", rf"^/channels/{channel}/messages$", 1.0)  # the next board's post
    scored = await fake.choose(ann, board, "chance")
    assert scored.response_type == 7, scored.ephemeral_text
    undone = await fake.click(ann, board, "Undo")
    assert undone.response_type == 7, undone.ephemeral_text
    # the slow post arrives after the Undo, and waits without controls for its turn again
    await fake.wait_for(lambda: fake.last(channel)["id"] != board["id"])
    await fake.wait_for(lambda: "taken back" in str(fake.last(channel)["embeds"]))
    waiting = fake.last(channel)
    assert [m["id"] for m in fake.live_boards(channel)] == [board["id"]]
    again = await fake.choose(ann, board, "full_house")
    assert again.response_type == 7, again.ephemeral_text
    await fake.wait_for(lambda: fake.live_boards(channel) != [])
    (live,) = fake.live_boards(channel)
    assert live["id"] == waiting["id"]  # the waiting message is the next turn's board again
    dice.extend([6, 6, 6, 6, 6])
    rolled = await fake.click(bob, live, "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text


async def test_missing_permissions_are_named_before_a_game_starts(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Without Embed Links, /yahtzee start is refused naming it; with Send Messages taken
    away after the lobby opened, Start is refused and the lobby stays open."""
    ann = fake.user("Ann")
    general, games = fake.channel("general"), fake.channel("games")
    bot = await start_bot()
    fake.deny(general, EMBED_LINKS)
    refused = await fake.slash(ann, general, "yahtzee start")
    assert "missing the Embed Links permission" in refused.ephemeral_text
    assert fake.channel_messages(general) == []
    assert await bot.store.read(plans.live_game_in, int(general)) is None

    lobby = await open_lobby(fake, games, ann)
    fake.deny(games, SEND_MESSAGES | EMBED_LINKS)
    start = await fake.click(ann, lobby, "Start")
    assert "missing the Send Messages and Embed Links permissions" in start.ephemeral_text
    row = await bot.store.read(plans.live_game_in, int(games))
    assert row is not None and row.status == "lobby"


async def test_a_channel_without_attach_files_plays_with_text_scorecards(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Issue 14 item 11: where the bot may not attach files, a game is played all the same,
    its boards and final message carrying the scorecard as text in a code block; the
    Scorecard button answers with text. Ann scores a large straight (40) by hand."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    fake.deny(channel, ATTACH_FILES)
    board = await start_game(fake, channel, ann)
    assert board["attachments"] == []
    dice.extend([2, 3, 4, 5, 6])
    rolled = await fake.click(ann, board, "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
    shown = fake.messages[board["id"]]
    assert shown["attachments"] == [] and "image" not in shown["embeds"][0]
    card = next(f["value"] for f in shown["embeds"][0]["fields"] if f["name"] == "Scorecard")
    assert card.startswith("```\n") and "Lg straight" in card
    asked = await fake.click(ann, shown, "Scorecard")
    assert asked.response is not None and asked.response["attachments"] == []
    assert "```" in asked.ephemeral_text and "Ann" in asked.ephemeral_text
    await fake.choose(ann, shown, "large_straight")
    await fake.wait_for(lambda: fake.last(channel)["id"] != board["id"])
    lines = fake.last(channel)["embeds"][0]["fields"]
    text = next(f["value"] for f in lines if f["name"] == "Scorecard")
    row = next(line for line in text.splitlines() if line.startswith("Lg straight"))
    assert row.split() == ["Lg", "straight", "40"]
    assert fake.last(channel)["attachments"] == []
    # The game plays to its end in text: 2-3-4-5-6 in every other box makes, by hand,
    # Twos to Sixes 20, Small Straight 30, Chance 20, Large Straight 40: 110.
    for box in [c for c in Category if c is not Category.LARGE_STRAIGHT]:
        await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], box.value)
    final = fake.last(channel)
    assert text_of(final).startswith("## Game over: Ann scored 110!")  # solo: nobody beaten
    assert final["attachments"] == [] and gallery_urls(final) == []
    assert "```" in text_of(final)
    assert find_component(final, "Play again") is not None


async def test_attach_files_taken_away_mid_game_goes_on_in_text(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """An admin removes Attach Files while Ann plays: Bob's board (posted, as every board
    before its first roll, without a picture) is answered in text when he rolls, and the
    game goes on in text; the final scorecard of a game whose picture is refused is posted
    as text too."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    board = await start_game(fake, channel, ann, bob)
    dice.extend([2, 3, 4, 5, 6])
    await fake.click(ann, board, "Roll")
    assert fake.messages[board["id"]]["attachments"], "the game starts with pictures"
    fake.deny(channel, ATTACH_FILES)
    await fake.choose(ann, board, "large_straight")
    bobs = await live_board(fake, channel)
    assert bobs["id"] != board["id"] and bobs["attachments"] == []
    dice.extend([1, 1, 1, 1, 1])
    rolled = await fake.click(bob, bobs, "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
    shown = fake.messages[bobs["id"]]
    assert shown["attachments"] == []
    assert any(f["name"] == "Scorecard" for f in shown["embeds"][0]["fields"])
    row = await bot.store.read(plans.live_game_in, int(channel))
    assert row is not None and row.status == "active" and not row.pictures


async def test_thread_mode_needs_thread_permissions(fake: FakeDiscord, start_bot: StartBot) -> None:
    """With games in threads on, a channel where the bot cannot start threads is named."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    await threads_on(fake, channel)
    fake.deny(channel, CREATE_PUBLIC_THREADS)
    refused = await fake.slash(ann, channel, "yahtzee start")
    assert "missing the Create Public Threads permission" in refused.ephemeral_text
    # in the reader's language, the permission's name too (as Discord's French client says it)
    pierre = fake.user("Pierre", locale="fr")
    refused = await fake.slash(pierre, channel, "yahtzee start")
    assert "Créer des fils publics" in refused.ephemeral_text, refused.ephemeral_text


async def test_thread_mode_cannot_be_turned_on_without_thread_permissions(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """An admin turning games in threads on where the bot may not start threads is told
    what to grant first, and the setting stays off (every start would fail)."""
    mod = fake.user("Mod", admin=True)
    channel = fake.channel("general")
    await start_bot()
    fake.deny(channel, CREATE_PUBLIC_THREADS)
    menu = await settings_menu(fake, mod, channel)
    answer = await fake.click(mod, menu, "Games in threads")
    assert "need me to have Create Public Threads" in answer.ephemeral_text, answer.ephemeral_text
    label = find_component(fake.messages[menu["id"]], "Games in threads")["label"]
    assert label.endswith("off"), label


async def test_a_first_board_that_cannot_be_posted_ends_the_game(
    fake: FakeDiscord, start_bot: StartBot, clock: FakeClock
) -> None:
    """Discord refuses the first board (403) although the interaction showed the
    permissions: the game ends recording nothing, the host is told why, and no timer plays
    it on unseen."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    lobby = await open_lobby(fake, channel, ann, bob)
    opened = await bot.store.read(plans.live_game_in, int(channel))
    assert opened is not None
    for _ in range(2):  # the board, and the same board again without its picture
        fake.fail("POST", rf"^/channels/{channel}/messages$", 403, 50013, "Missing Permissions")
    start = await fake.click(ann, lobby, "Start")
    assert "not allowed to post its board here" in start.ephemeral_text
    assert "Something went wrong" not in start.ephemeral_text
    assert await bot.store.read(plans.live_game_in, int(channel)) is None
    assert "did not start" in text_of(fake.messages[lobby["id"]])
    assert fake.live_boards(channel) == []
    ended = await bot.store.read(plans.get_game, opened.id)
    assert ended is not None and ended.status == "abandoned"
    assert await bot.store.read(plans.results, opened.id) == []
    clock.advance(3600)
    assert await bot.games.timers.due() == []


async def test_a_computer_turn_goes_on_when_its_board_was_deleted(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """A moderator deletes the board during the computer player's turn (its edit gets 404
    Unknown Message): the bot posts the board again and plays on to Ann's next turn."""
    dice.fallback = RandomDice(random.Random(7))  # the computer rolls whatever comes
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann, computers=["Casual"])
    dice.extend([2, 3, 4, 5, 6])
    await fake.click(ann, board, "Roll")
    # the first edit of any message but Ann's own (her Undo offer) is the computer's board
    fake.fail("PATCH", rf"^/channels/{channel}/messages/(?!{board['id']}$)\d+$", 404, 10008,
              "Unknown Message")  # fmt: skip
    await fake.choose(ann, board, "large_straight")

    def anns_turn() -> bool:
        boards = fake.live_boards(channel)
        return len(boards) == 1 and boards[0]["content"].startswith(f"<@{ann['id']}>")

    await fake.wait_for(anns_turn)
    assert fake.failures == []  # the 404 was met


async def test_games_end_when_their_place_is_gone(
    fake: FakeDiscord, start_bot: StartBot, clock: FakeClock
) -> None:
    """A deleted channel, a deleted thread, or the bot removed from the server: their games
    end recording nothing, and no timer acts on them afterwards."""
    ann = fake.user("Ann")
    general, games = fake.channel("general"), fake.channel("games")
    bot = await start_bot()
    for channel in (general, games):
        await start_game(fake, channel, ann)
    first = await bot.store.read(plans.live_game_in, int(general))
    second = await bot.store.read(plans.live_game_in, int(games))
    assert first is not None and second is not None

    await fake.dispatch("CHANNEL_DELETE", fake._channel_payload(general))

    assert await settled_status(bot, first.id) == "abandoned"
    assert await settled_status(bot, second.id) == "active"

    await fake.dispatch("GUILD_DELETE", {"id": str(GUILD_ID), "unavailable": False})
    assert await settled_status(bot, second.id) == "abandoned"
    assert await bot.store.read(plans.results, second.id) == []
    clock.advance(7 * 24 * 3600)
    assert await bot.games.timers.due() == []


async def test_a_game_goes_on_in_an_archived_thread(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Discord archived the game's thread (a day without a post): clicks still work, as the
    bot unarchives it; the thread is started to stay open as long as Discord allows."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    await threads_on(fake, channel)
    board = await start_game(fake, channel, ann, bob)
    (thread,) = fake.threads(channel)
    assert thread["thread_metadata"]["auto_archive_duration"] == 10080  # a week

    fake.archive(thread["id"])
    dice.extend([3, 3, 3, 2, 2])
    rolled = await fake.click(ann, board, "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
    assert die_labels(fake.messages[board["id"]]) == ["3", "3", "3", "2", "2"]
    fake.archive(thread["id"])
    scored = await fake.choose(ann, board, "full_house")
    assert scored.response_type == 7, scored.ephemeral_text
    await fake.wait_for(lambda: len(fake.live_boards(thread["id"])) == 1
                        and fake.live_boards(thread["id"])[0]["id"] != board["id"])  # fmt: skip
    assert not fake.archived(thread["id"])


@pytest.mark.parametrize(
    ("code", "message"), [(50001, "Missing Access"), (50013, "Missing Permissions")]
)
async def test_a_repair_that_meets_missing_access_ends_the_game(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, code: int, message: str
) -> None:
    """A roll whose answer was lost leaves the board behind; the repair after a reconnect
    finds the channel closed to the bot (403): the game ends recording nothing, instead of
    being retried at every reconnect and played on unseen by the timer."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    board = await start_game(fake, channel, ann)
    game = await bot.store.read(plans.live_game_in, int(channel))
    assert game is not None
    fake.fail("POST", r"^/interactions/\d+/[^/]+/callback$", 404, 10062, "Unknown interaction")
    dice.extend([1, 2, 3, 4, 5])
    await fake.click(ann, board, "Roll")
    behind = await bot.store.read(plans.get_game, game.id)
    assert behind is not None and behind.board_version != behind.version  # not shown

    fake.fail("PATCH", rf"^/channels/{channel}/messages/{board['id']}$", 403, code, message)
    await fake.drop_connections()
    await fake.wait_for(lambda: fake.resumes == 1)
    assert await settled_status(bot, game.id) == "abandoned"
    assert fake.failures == []


async def test_the_timer_repairs_a_board_a_lost_answer_left_behind(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A roll is saved but its answer is lost (Discord refused it): within a timer tick of
    the game going quiet, the board shows the saved dice, with no reconnect needed. The lost
    answer is one warning line, not an "unexpected error" with a traceback."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    board = await start_game(fake, channel, ann)
    fake.fail("POST", r"^/interactions/\d+/[^/]+/callback$", 404, 10062, "Unknown interaction")
    dice.extend([6, 5, 4, 3, 2])
    await fake.click(ann, board, "Roll")
    assert die_labels(fake.messages[board["id"]]) == ["\N{EN DASH}"] * 5
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    late = [r for r in caplog.records if "after Discord's 3 s window" in r.getMessage()]
    assert len(late) == 1 and late[0].levelno == logging.WARNING
    assert await tick(bot, fake) == 0  # a click may still be on its way: not yet
    clock.advance(30)
    assert await tick(bot, fake) == 1
    assert die_labels(fake.messages[board["id"]]) == ["6", "5", "4", "3", "2"]
    assert await tick(bot, fake) == 0  # repaired once


async def lose_a_roll_answer(
    fake: FakeDiscord, dice: ScriptedDice, user: dict, board: dict
) -> None:
    """A roll that is saved but whose answer Discord refuses: the board is left behind."""
    fake.fail("POST", r"^/interactions/\d+/[^/]+/callback$", 404, 10062, "Unknown interaction")
    dice.extend([6, 5, 4, 3, 2])
    await fake.click(user, board, "Roll")


async def test_repairs_after_a_resume_are_paced(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Four boards left behind are repaired after a resume one after another, with a pause
    between them, so that a mass repair cannot use up the rate limits clicks need."""
    ann = fake.user("Ann")
    channels = [fake.add_channel(f"table-{i}")["id"] for i in range(4)]
    await start_bot()
    boards = []
    for channel in channels:
        boards.append(await start_game(fake, channel, ann))
        await lose_a_roll_answer(fake, dice, ann, boards[-1])
    await fake.drop_connections()
    await fake.wait_for(lambda: all(die_labels(fake.messages[b["id"]])[0] == "6" for b in boards))
    edits = sorted(
        at
        for (method, path, _), at in zip(fake.requests, fake.request_times, strict=True)
        if method == "PATCH" and any(path.endswith(f"/messages/{b['id']}") for b in boards)
    )
    assert len(edits) == 4
    assert all(b - a >= 0.045 for a, b in itertools.pairwise(edits))  # at most ~20 a second


async def test_a_global_rate_limit_does_not_hold_clicks(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Discord's global rate limit stops the bot's posts for a while (here 3 s); clicks are
    still answered at once: interaction answers are exempt from it."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann)
    fake.rate_limit("POST", rf"^/channels/{channel}/messages$", 3.0, everywhere=True)
    moved = await fake.slash(ann, channel, "yahtzee board", quiet=False)  # its post: 429
    assert moved.response_type == 4, moved.ephemeral_text
    await fake.wait_for(lambda: fake.rate_limits == [], timeout=2)
    dice.extend([1, 1, 1, 1, 1])
    record = await fake.press(ann, board, find_component(board, "Roll")["custom_id"])  # type: ignore[index]
    await asyncio.wait_for(record.responded.wait(), 3)
    assert record.response_type == 7
    assert record.answered is not None and record.answered - record.created < 1.5


async def test_a_game_ends_when_its_thread_is_deleted(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Thread mode: a moderator deletes the game's thread; the game ends recording nothing
    and the channel is free for a new one."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    await threads_on(fake, channel)
    await start_game(fake, channel, ann)
    (thread,) = fake.threads(channel)
    game = await bot.store.read(plans.live_game_in, int(channel))
    assert game is not None and game.thread_id == int(thread["id"])

    await fake.dispatch("THREAD_DELETE", {"id": thread["id"], "guild_id": str(GUILD_ID),
                                          "parent_id": channel, "type": 11})  # fmt: skip
    assert await settled_status(bot, game.id) == "abandoned"
    await open_lobby(fake, channel, fake.user("Bob"))  # the channel is free (Ann herself is
    # asked to wait a few seconds before she opens another lobby: the posts' pace)


async def test_an_undo_never_deletes_a_message_that_pinged(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Bob was pinged for his turn, then Ann took her scoring back: the message that pinged
    Bob stays (no ghost ping), without controls, saying it waits; Ann's board is live again."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann, bob)
    await play_turn(fake, dice, ann, channel, [[3, 3, 3, 2, 2]], "chance")
    pinged = fake.last(channel)
    assert pinged["content"].startswith(f"<@{bob['id']}>")
    undone = await fake.click(ann, board, "Undo")
    assert undone.response_type == 7, undone.ephemeral_text
    assert pinged["id"] in fake.messages  # not deleted
    note = fake.messages[pinged["id"]]
    assert find_component(note, "Roll") is None and note["attachments"] == []
    assert "undone" in note["embeds"][0]["description"]
    assert [m["id"] for m in fake.live_boards(channel)] == [board["id"]]


@pytest.mark.sqlite_only  # about the bot's memory, not the database
async def test_what_the_publisher_keeps_about_a_game_goes_when_it_ends_any_way(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Three games, each with a ping kept and one with a board an Undo parked: one ended by
    its host, one by its channel's deletion, one abandoned after a day without a move.
    Nothing is kept about any of them afterwards (and the parked board is deleted)."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    ended, deleted = fake.channel("general"), fake.channel("games")
    idle = fake.add_channel("quiet")["id"]
    bot = await start_bot()
    publisher = bot.get_cog("TurnTimers").publisher  # type: ignore[union-attr]
    ids = {}
    for channel in (ended, deleted, idle):
        board = await start_game(fake, channel, ann, bob)
        await play_turn(fake, dice, ann, channel, [[3, 3, 3, 2, 2]], "chance")
        row = await bot.store.read(plans.live_game_in, int(channel))
        assert row is not None
        ids[channel] = row.id
        if channel == ended:
            parked = fake.last(channel)
            undone = await fake.click(ann, board, "Undo")
            assert undone.response_type == 7, undone.ephemeral_text
    pinged, parked_games = publisher.notices.games()
    assert pinged == set(ids.values()) and parked_games == {ids[ended]}

    asked = await fake.slash(ann, ended, "yahtzee end")
    assert asked.response is not None
    await fake.click(ann, asked.response, "End the game")
    assert all(ids[ended] not in kept for kept in publisher.notices.games())
    assert parked["id"] not in fake.messages  # waited for a turn that never comes

    await fake.dispatch("CHANNEL_DELETE", fake._channel_payload(deleted))
    assert await settled_status(bot, ids[deleted]) == "abandoned"
    await fake.wait_for(lambda: ids[deleted] not in publisher.notices.games()[0])

    clock.advance(24 * 3600 + 1)
    await tick(bot, fake)
    assert await settled_status(bot, ids[idle]) == "abandoned"
    await fake.wait_for(lambda: ids[idle] not in publisher.notices.games()[0])
    assert publisher.notices.games() == (set(), set())


async def test_the_deadline_shows_and_the_reminder_goes_with_its_turn(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """With a 1-minute limit the board shows when time runs out as a live countdown; the
    half-time reminder pings, and is gone once the turn is over."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    await one_minute_turns(fake, channel)
    board = await start_game(fake, channel, ann)
    # the fake clock stands at 2026-11-22 12:00:00 UTC: the turn ends a minute later
    ends = int(datetime(2026, 11, 22, 12, 1, tzinfo=UTC).timestamp())
    assert f"<t:{ends}:R>" in board["embeds"][0]["description"]

    clock.advance(30)
    assert await tick(bot, fake) == 1
    reminder = fake.last(channel)
    assert reminder["content"].startswith(f"<@{ann['id']}>, half your turn's time is gone")
    dice.extend([6, 6, 6, 6, 6])
    await fake.click(ann, board, "Roll")
    assert reminder["id"] in fake.messages  # the turn is still on
    await fake.choose(ann, board, "yahtzee")
    await fake.wait_for(lambda: reminder["id"] not in fake.messages)
    summary = fake.messages[board["id"]]["embeds"][0]["description"]
    assert summary.startswith("\N{PARTY POPPER} **Yahtzee!** ")  # a Yahtzee is celebrated


async def test_a_reminder_goes_with_its_turn_across_a_restart(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Found by the lifecycle test: the half-time reminder was known in memory only, so a
    restart before the turn ended left it in the channel for good. It is recorded now."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    await one_minute_turns(fake, channel)
    board = await start_game(fake, channel, ann, bob)
    clock.advance(30)
    assert await tick(bot, fake) == 1
    reminder = fake.last(channel)
    assert reminder["content"].startswith(f"<@{ann['id']}>, half your turn's time is gone")
    await stop(bot)
    bot = await start_bot()
    dice.extend([1, 2, 3, 4, 6])
    await fake.click(ann, board, "Roll")
    await fake.choose(ann, board, "chance")
    await fake.wait_for(lambda: reminder["id"] not in fake.messages)
    row = await bot.store.read(plans.live_game_in, int(channel))
    assert row is not None and row.reminder_message_id is None


async def test_an_undo_neither_pings_nor_reminds_twice_across_a_restart(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Found by the lifecycle test's long run. Ann, alone, was reminded in her second turn,
    scored, the bot restarted, she took the scoring back: the third turn's reminder went with
    that turn, the second turn was not reminded again, and scoring anew showed the board
    that had pinged her for the third turn again, without a second notification."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    await one_minute_turns(fake, channel)
    await start_game(fake, channel, ann)
    await play_turn(fake, dice, ann, channel, [[1, 1, 2, 3, 4]], "ones")
    second = await live_board(fake, channel)
    clock.advance(31)
    assert await tick(bot, fake) == 1  # turn 2's reminder
    await play_turn(fake, dice, ann, channel, [[3, 3, 2, 5, 6]], "threes")
    third = await live_board(fake, channel)
    clock.advance(31)
    assert await tick(bot, fake) == 1  # turn 3's reminder
    reminder = fake.last(channel)
    assert reminder["content"].startswith(f"<@{ann['id']}>, half your turn's time is gone")
    await stop(bot)
    bot = await start_bot()

    undone = await fake.click(ann, second, "Undo")
    assert undone.response_type == 7, undone.ephemeral_text
    await fake.wait_for(lambda: reminder["id"] not in fake.messages)
    clock.advance(31)
    assert await tick(bot, fake) == 0  # turn 2 was reminded already
    pings = len(fake.pings)
    await fake.choose(ann, second, "threes")
    await fake.wait_for(lambda: find_component(fake.messages[third["id"]], "Roll") is not None)
    assert [m["id"] for m in fake.live_boards(channel)] == [third["id"]]
    assert len(fake.pings) == pings  # pinged for turn 3 once, before the Undo


async def test_a_computer_turn_is_told_in_words(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Issue 14 item 5: the computer's board says what it kept and rolled. The Casual bot
    holds its most common face and stops early only for 25 points or more, so by hand:
    1-1-2-3-5, it keeps 1-1 and rolls three (1, 4, 6), keeps 1-1-1 and rolls two (1, 1).
    Issue 41: "rolled three:" is followed by the three dice rolled, not all five."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann, computers=["Casual"])
    dice.extend([2, 3, 4, 5, 6])
    await fake.click(ann, board, "Roll")
    dice.extend([1, 1, 2, 3, 5, 1, 4, 6, 1, 1])
    await fake.choose(ann, board, "large_straight")
    await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{ann['id']}>"))
    bots_board = fake.channel_messages(channel)[-2]
    told = [plain_dice(text) for text in fake.descriptions[bots_board["id"]]]
    expected = [
        "Roll 1 of 3: rolled 1-1-2-3-5.",
        "Roll 2 of 3: kept 1-1 and rolled three: 1-4-6.",  # the three rolled, not all five
        "Roll 3 of 3: kept 1-1-1 and rolled two: 1-1.",
    ]
    for words in expected:
        assert any(words in text for text in told), (words, told)
    assert "scored **50** in **Yahtzee**" in told[-1]


async def test_a_computer_turn_looks_like_one(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The computer player's board says it is playing, under a short name, with Roll, the
    dice, Hint and the box menu disabled for people (the Scorecard stays)."""
    dice.fallback = RandomDice(random.Random(3))
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann, computers=["Optimal"])
    dice.extend([2, 3, 4, 5, 6])
    await fake.click(ann, board, "Roll")
    await fake.choose(ann, board, "large_straight")
    await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{ann['id']}>"))
    posted = [body for method, path, body in fake.requests
              if method == "POST" and path == f"/channels/{channel}/messages"]  # fmt: skip
    computers = [b for b in posted if b.get("content", "").startswith("\N{ROBOT FACE}")]
    assert computers, "no board was posted for the computer's turn"
    first = computers[0]
    assert first["content"] == "\N{ROBOT FACE} **Optimal bot** is playing."
    assert "is playing its turn" in first["embeds"][0]["description"]
    controls = {c.get("label") or c.get("placeholder") or c["custom_id"]: c.get("disabled", False)
                for row in first["components"] for c in row["components"]}  # fmt: skip
    assert controls.pop("Scorecard") is False
    assert controls and all(controls.values()), controls


async def test_discord_py_keeps_no_view_of_the_controls_it_sent(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Clicks are routed by the bot itself: after a lobby, a roll, a hold, a scoring and a
    leaderboard, discord.py's view store holds nothing (a kept view lived as long as its
    message, and a registered DynamicItem rebuilt the whole message's view on every click)."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    board = await start_game(fake, channel, ann, bob)
    dice.extend([3, 3, 3, 2, 2, 3, 1, 1, 1])
    assert (await fake.click(ann, board, "Roll")).response_type == 7
    held = await fake.click(ann, fake.messages[board["id"]], "3")  # the first die
    assert held.response_type == 7, held.ephemeral_text
    first = fake.messages[board["id"]]["components"][0]["components"][0]
    assert (first["style"], first["emoji"]["name"]) == (3, "yz1_die3_held")  # green, locked
    assert (await fake.click(ann, fake.messages[board["id"]], "Roll")).response_type == 7
    scored = await fake.choose(ann, fake.messages[board["id"]], "chance")
    assert scored.response_type == 7, scored.ephemeral_text
    await fake.slash(bob, channel, "yahtzee leaderboard")
    store = bot._connection._view_store
    assert (store._synced_message_views, store._views, store._dynamic_items) == ({}, {}, {})


async def test_a_board_refused_once_and_posted_by_the_repair_still_pings(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Found by a play-through: Discord refused the post of Bob's board once (403); the
    timer's repair posted it, but without notifying Bob, as if the refused post had pinged
    him. A ping is on record only once the message that carries it is posted."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    await start_game(fake, channel, ann, bob)
    fake.fail("POST", rf"^/channels/{channel}/messages$", 403, 50013, "Missing Permissions")
    await play_turn(fake, dice, ann, channel, [[4, 4, 4, 1, 2]], "fours", expect_next=False)
    assert fake.live_boards(channel) == []  # the refused post: no board for Bob yet
    assert not [p for p in fake.pings if p[2] == bob["id"]]
    clock.advance(15)  # the game quiet for longer than REPAIR_AFTER (10 s)
    assert await tick(bot, fake) == 1
    [board] = fake.live_boards(channel)
    assert board["content"].startswith(f"<@{bob['id']}>, your turn!")
    assert (channel, board["id"], bob["id"]) in fake.pings
    assert await tick(bot, fake) == 0  # repaired once
