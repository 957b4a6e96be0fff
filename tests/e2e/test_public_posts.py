"""One game a thread, and public posts made for a member: the member's own Send Messages,
players only for a board's re-post, a wait between posts, and ended games' threads archived."""

from __future__ import annotations

import re

from bot.engine import ScriptedDice

from .conftest import StartBot
from .fake_discord import (
    GUILD_ID,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    FakeDiscord,
    find_component,
)
from .helpers import live_board, open_lobby, start_game
from .test_real_discord import threads_on

WAIT = re.compile(r"Please wait (\d+) s")


async def test_a_games_thread_holds_that_game_only(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """A spectator's /yahtzee start in a running game's thread is refused, naming the game;
    the thread's commands go on acting on its game (the player's hint, the host's end)."""
    ann, bob, spy = fake.user("Ann"), fake.user("Bob"), fake.user("Spy")
    channel = fake.channel("general")
    await start_bot()
    await threads_on(fake, channel)
    board = await start_game(fake, channel, ann, bob)
    (thread,) = fake.threads(channel)
    posted = len(fake.channel_messages(thread["id"]))

    refused = await fake.slash(spy, thread["id"], "yahtzee start")
    assert "This thread belongs to the game hosted by" in refused.ephemeral_text
    assert f"<@{ann['id']}>" in refused.ephemeral_text, refused.ephemeral_text
    assert len(fake.channel_messages(thread["id"])) == posted  # no lobby in the thread

    dice.extend([2, 3, 4, 5, 6])
    assert (await fake.click(ann, board, "Roll")).response_type == 7
    hint = await fake.slash(ann, thread["id"], "yahtzee hint")
    assert hint.ephemeral_text.startswith("Best choices for"), hint.ephemeral_text
    end = await fake.slash(ann, thread["id"], "yahtzee end")
    assert "End this game for everyone?" in end.ephemeral_text, end.ephemeral_text


async def test_a_member_who_may_not_write_gets_nothing_posted_for_them(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Without Send Messages a member's /yahtzee start and daily are refused privately, with
    what to do; in a game's thread, without Send Messages in Threads, a player's /yahtzee
    board is a copy only they see (as a spectator's), nothing posted for them."""
    ann, bob, mute = fake.user("Ann"), fake.user("Bob"), fake.user("Mute")
    channel = fake.channel("general")
    await start_bot()
    fake.deny_member(channel, mute, SEND_MESSAGES)
    before = len(fake.channel_messages(channel))
    for command in ("yahtzee start", "yahtzee daily"):
        refused = await fake.slash(mute, channel, command)
        assert "You may not send messages in this channel" in refused.ephemeral_text, command
        assert "play in a channel where you can write" in refused.ephemeral_text
    assert len(fake.channel_messages(channel)) == before

    await threads_on(fake, channel)
    await start_game(fake, channel, ann, bob)
    (thread,) = fake.threads(channel)
    fake.deny_member(channel, bob, SEND_MESSAGES_IN_THREADS)  # the parent's overwrite
    posted = len(fake.channel_messages(thread["id"]))
    copied = await fake.slash(bob, thread["id"], "yahtzee board")  # a copy only Bob sees
    copy = copied.response
    assert copy is not None and copy["flags"] & 64 and copy["embeds"], copy
    assert "Only you see this copy" in copy["content"]
    assert len(fake.channel_messages(thread["id"])) == posted
    again = await fake.slash(ann, thread["id"], "yahtzee board")  # Ann may
    assert "Here it is again" in again.ephemeral_text
    assert len(fake.channel_messages(thread["id"])) == posted + 1


async def test_start_posts_the_game_only_for_a_host_who_may_write_there(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """The lobby's Start posts the game's board for its host: without Send Messages (in
    thread mode, Send Messages in Threads) it is refused privately, nothing is posted and
    the lobby stays open; given back, the same Start plays."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general, other = fake.channel("general"), fake.add_channel("other")["id"]
    await start_bot()
    lobby = await open_lobby(fake, general, ann, bob)
    fake.deny_member(general, ann, SEND_MESSAGES)  # a moderator mutes her meanwhile
    posted = len(fake.channel_messages(general))
    refused = await fake.click(ann, lobby, "Start")
    assert "You may not send messages in this channel" in refused.ephemeral_text, refused
    assert len(fake.channel_messages(general)) == posted
    assert find_component(fake.messages[lobby["id"]], "Start") is not None  # still open

    await threads_on(fake, other)
    lobby = await open_lobby(fake, other, ann, bob)
    fake.deny_member(other, ann, SEND_MESSAGES_IN_THREADS)  # she may write in the channel
    refused = await fake.click(ann, lobby, "Start")
    assert "You may not send messages in this channel's threads" in refused.ephemeral_text
    assert fake.threads(other) == []  # no thread left behind
    assert find_component(fake.messages[lobby["id"]], "Start") is not None
    fake.member_denied[other].pop(ann["id"])
    started = await fake.click(ann, lobby, "Start")
    assert started.response_type == 7, started.ephemeral_text
    assert len(fake.threads(other)) == 1


async def test_board_reposts_for_players_with_a_wait_and_copies_for_spectators(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """A player's /yahtzee board re-posts it, once in 30 s (the second is told to wait); a
    spectator's shows them a copy, without buttons, and posts nothing."""
    ann, bob, cy = fake.user("Ann"), fake.user("Bob"), fake.user("Cy")
    channel = fake.channel("general")
    await start_bot()
    await start_game(fake, channel, ann, bob)
    posted = len(fake.channel_messages(channel))

    watched = await fake.slash(cy, channel, "yahtzee board")
    assert len(fake.channel_messages(channel)) == posted
    copy = watched.response
    assert copy is not None and copy["flags"] & 64 and copy["embeds"], copy
    assert not copy.get("components") and "Only you see this copy" in copy["content"]

    first = await fake.slash(bob, channel, "yahtzee board")
    assert "Here it is again" in first.ephemeral_text
    assert len(fake.channel_messages(channel)) == posted + 1
    second = await fake.slash(bob, channel, "yahtzee board")
    wait = WAIT.search(second.ephemeral_text)
    assert wait is not None and 20 < int(wait[1]) <= 30, second.ephemeral_text
    assert len(fake.channel_messages(channel)) == posted + 1
    assert find_component(await live_board(fake, channel), "Roll") is not None


async def test_starting_again_at_once_is_told_to_wait(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """A lobby opened and cancelled: a new /yahtzee start by the same member within 10 s
    is told how long to wait; another member may start at once."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    await fake.click(ann, await open_lobby(fake, channel, ann), "Cancel")
    again = await fake.slash(ann, channel, "yahtzee start")
    wait = WAIT.search(again.ephemeral_text)
    assert wait is not None and 0 < int(wait[1]) <= 10, again.ephemeral_text
    other = await fake.slash(bob, channel, "yahtzee start")
    assert other.response is not None and find_component(other.response, "Join") is not None


async def test_starting_twice_in_a_row_links_to_the_lobby_open_here(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Found by a play-through: /yahtzee start sent twice (a double send) was told "Please
    wait 10 s" though the lobby it had just opened was there; it is told of that lobby, with
    its link, as it is after the wait. With a game running there, the same."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(fake, channel, ann)
    link = f"https://discord.com/channels/{GUILD_ID}/{channel}/{lobby['id']}"
    again = await fake.slash(ann, channel, "yahtzee start")
    assert WAIT.search(again.ephemeral_text) is None, again.ephemeral_text
    # its own host is not told to join it (found by a play-through), nor one seated in it
    assert "You host this channel's lobby already" in again.ephemeral_text, again.ephemeral_text
    assert "join it" not in again.ephemeral_text and link in again.ephemeral_text
    await fake.click(bob, lobby, "Join")
    seated = await fake.slash(bob, channel, "yahtzee start")
    assert "You are in this channel's lobby already" in seated.ephemeral_text
    cat = fake.user("Cat")
    other = await fake.slash(cat, channel, "yahtzee start")
    assert "already has a lobby: join it" in other.ephemeral_text, other.ephemeral_text
    await fake.click(ann, lobby, "Start")
    board = fake.live_boards(channel)[-1]
    await fake.slash(bob, channel, "yahtzee leave")
    # a game under way has no Join: nobody, not Bob who left it, is told to join it
    playing = await fake.slash(bob, channel, "yahtzee start")
    said = playing.ephemeral_text
    assert "already has a game in progress: watch it" in said, said
    assert "join" not in playing.ephemeral_text.lower()
    assert f"/{channel}/{board['id']}" in playing.ephemeral_text


async def test_the_thread_of_an_ended_game_is_archived(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Ending a game played in a thread archives the thread (a PATCH the fake checks as
    Discord's spec has it)."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    await threads_on(fake, channel)
    await start_game(fake, channel, ann)
    (thread,) = fake.threads(channel)
    assert not fake.archived(thread["id"])
    asked = await fake.slash(ann, thread["id"], "yahtzee end")
    confirm = asked.response
    assert confirm is not None
    ended = await fake.click(ann, confirm, "End the game")
    assert ended.response_type == 7, ended.ephemeral_text
    await fake.wait_for(lambda: fake.archived(thread["id"]))
    (patch,) = fake.requests_to("PATCH", rf"/channels/{thread['id']}$")
    assert patch[2] == {"archived": True}
