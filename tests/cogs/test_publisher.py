"""The publisher at its own interface: what it posts, edits, parks, retires and deletes on
Discord for a game, and what it puts on record. A real bot (logged in, its store and
service set up, no gateway) talks to the fake Discord's REST routes; the games come from
the real service. What the e2e suite shows through clicks, this shows call by call."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import YahtzeeBot
from bot.engine import Category, ScriptedDice
from bot.games import Board, GameView, Scored, TurnMove
from bot.settings import Settings
from bot.workers import in_threads
from cogs.shared.computers import NoComputers
from cogs.shared.publisher import Publisher

from ..clock import FakeClock
from ..conftest import link_tables
from ..e2e.fake_discord import ATTACH_FILES, GUILD_ID, FakeDiscord, controls_of

TOKEN = "fake.bot.token"


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """The fake Discord, its REST routes only (nothing here needs the gateway)."""
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    try:
        yield server
    finally:
        await server.stop()
    assert server.mistakes == [], "the publisher sent what Discord would show wrongly"


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path, table_files: Path) -> AsyncIterator[YahtzeeBot]:
    """The bot logged in (``setup_hook`` run: its store, service and cogs), not connected."""
    settings = Settings(
        token=TOKEN, database_path=tmp_path / "data" / "yahtzee.sqlite3", bot_move_delay=0
    )
    link_tables(table_files, settings.data_dir)
    bot = YahtzeeBot(settings, dice=ScriptedDice(), clock=FakeClock())
    with in_threads():
        await bot.login(TOKEN)
    try:
        yield bot
    finally:
        await bot.close()


@pytest.fixture
def computer_turns() -> list[int]:
    """The games the publisher asked to let a computer player move in."""
    return []


@pytest.fixture
def publisher(bot: YahtzeeBot, computer_turns: list[int]) -> Publisher:
    made = Publisher(bot)
    made.computers = StartsRecorded(computer_turns)
    return made


class StartsRecorded(NoComputers):
    """Computer seats that only note the games they are asked to move in."""

    def __init__(self, started: list[int]) -> None:
        self.started = started

    def start(self, game_id: int) -> None:
        self.started.append(game_id)


class People:
    def __init__(self, fake: FakeDiscord) -> None:
        self.ann, self.bob = fake.user("Ann"), fake.user("Bob")
        self.channel = fake.channel("general")


@pytest.fixture
def people(fake: FakeDiscord) -> People:
    return People(fake)


async def begun(
    bot: YahtzeeBot, people: People, *, bob: bool = True, computer: bool = False
) -> Board:
    """A game of Ann's (with Bob, and a computer seat if asked) started by the service: the
    first turn's board, not shown anywhere yet."""
    ann_id = int(people.ann["id"])
    lobby = await bot.games.lobby.open_lobby(GUILD_ID, int(people.channel), ann_id, "Ann", None)
    if bob:
        await bot.games.lobby.join(lobby.id, int(people.bob["id"]), "Bob")
    if computer:
        await bot.games.lobby.add_bot(lobby.id, ann_id, "optimal")
    return await bot.games.lobby.begin(lobby.id, ann_id)


async def view(bot: YahtzeeBot, game_id: int) -> GameView:
    found = await bot.games.lookups.find(game_id)
    assert found is not None
    return found


async def roll(bot: YahtzeeBot, game_id: int, user: dict[str, Any]) -> Board:
    """The player to move rolls (the dice the test scripted), as a click on the board would."""
    row = await view(bot, game_id)
    game = row.require_game()
    return await bot.games.turns.roll(
        TurnMove(game_id, int(user["id"]), row.board_message_id, game.turn_number, game.rolls_used)
    )


async def play(bot: YahtzeeBot, game_id: int, user: dict[str, Any], box: str) -> Scored:
    """The player to move rolls once (the dice the test scripted) and scores ``box``, as
    their clicks on the game's board would."""
    user_id = int(user["id"])
    for step in ("roll", "score"):
        row = await view(bot, game_id)
        game = row.require_game()
        click = TurnMove(game_id, user_id, row.board_message_id, game.turn_number, game.rolls_used)
        if step == "roll":
            await bot.games.turns.roll(click)
    return await bot.games.turns.score(click, box)


def sent(fake: FakeDiscord, method: str, pattern: str) -> int:
    return len(fake.requests_to(method, pattern))


NEW_MESSAGE = r"^/channels/\d+/messages$"


async def test_a_board_pings_its_player_once_a_turn_and_is_put_on_record(
    fake: FakeDiscord, bot: YahtzeeBot, publisher: Publisher, people: People
) -> None:
    """The first board names Ann and notifies her; it is the game's board on record. Posted
    again for the same version (a retry after a crash), it is the same message (its nonce).
    The same turn's board posted anew after a roll (a /yahtzee board, a repair) names her
    without a second notification."""
    board = await begun(bot, people)
    first = await publisher.post_board(board)
    assert first is not None
    shown = fake.messages[str(first.id)]
    assert shown["content"].startswith(f"<@{people.ann['id']}>")
    assert fake.pings == [(people.channel, str(first.id), people.ann["id"])]
    assert (await view(bot, board.row.id)).board_message_id == first.id
    retried = await publisher.post_board(board)
    assert retried is not None and retried.id == first.id
    assert len(fake.channel_messages(people.channel)) == 1

    dice: ScriptedDice = bot.dice  # type: ignore[assignment]
    dice.extend([2, 2, 3, 4, 6])
    rolled = await roll(bot, board.row.id, people.ann)
    again = await publisher.post_board(rolled)
    assert again is not None and again.id != first.id
    assert fake.messages[str(again.id)]["content"].startswith(f"<@{people.ann['id']}>")
    assert len(fake.pings) == 1  # no second notification for the same turn
    assert (await view(bot, board.row.id)).board_message_id == again.id


async def test_a_computers_board_starts_its_turn(
    fake: FakeDiscord,
    bot: YahtzeeBot,
    publisher: Publisher,
    people: People,
    computer_turns: list[int],
) -> None:
    """A board posted for a computer seat hands the game to the computer players (once it
    is on record); a person's board does not."""
    board = await begun(bot, people, bob=False, computer=True)
    await publisher.post_board(board)
    assert computer_turns == []  # Ann plays first
    dice: ScriptedDice = bot.dice  # type: ignore[assignment]
    dice.extend([1, 2, 3, 4, 6])
    scored = await play(bot, board.row.id, people.ann, "chance")
    posted = await publisher.post_board(scored.board)
    assert posted is not None and "is playing" in fake.messages[str(posted.id)]["content"]
    assert computer_turns == [board.row.id]
    assert len(fake.pings) == 1  # a computer is not notified (it is not a member)


async def test_a_parked_board_comes_back_for_its_turn_and_goes_for_another(
    fake: FakeDiscord, bot: YahtzeeBot, publisher: Publisher, people: People
) -> None:
    """An Undo parks the next turn's board: it stays, without controls, saying it waits.
    Posted again for that same turn, the board is shown on the parked message (an edit:
    nothing new in the channel, no second notification); a board for another turn deletes
    the parked message and is posted anew."""
    board = await begun(bot, people)
    first = await publisher.post_board(board)
    assert first is not None
    assert board.game is not None
    turn = (board.game.turn_number, board.game.current_seat.player_id)
    await publisher.park(board.row, first.id, turn)
    waiting = fake.messages[str(first.id)]
    assert controls_of(waiting) == [] and waiting["embeds"]
    assert publisher.parked(board.row.id) == first.id
    messages, pings = len(fake.channel_messages(people.channel)), len(fake.pings)
    back = await publisher.post_board(board)
    assert back is not None and back.id == first.id
    assert len(fake.channel_messages(people.channel)) == messages and len(fake.pings) == pings
    assert controls_of(fake.messages[str(first.id)]) != []  # live again
    assert publisher.parked(board.row.id) is None

    await publisher.park(board.row, first.id, (turn[0] + 1, turn[1]))
    other = await publisher.post_board(board)  # not the turn it waited for
    assert other is not None and other.id != first.id
    assert str(first.id) not in fake.messages  # deleted


async def test_a_board_deleted_by_a_moderator_is_posted_again(
    fake: FakeDiscord, bot: YahtzeeBot, publisher: Publisher, people: People
) -> None:
    """``edit_board`` on a board someone deleted (404 10008) posts it anew, once, and the new
    message is the game's board on record."""
    board = await begun(bot, people)
    first = await publisher.post_board(board)
    assert first is not None
    fake.fail("PATCH", rf"/messages/{first.id}$", 404, 10008, "Unknown Message")
    await publisher.edit_board(first.id, board)
    assert str(first.id) not in fake.messages
    (live,) = fake.live_boards(people.channel)
    assert (await view(bot, board.row.id)).board_message_id == int(live["id"])
    assert sent(fake, "POST", NEW_MESSAGE) == 2


async def test_retiring_takes_the_controls_and_tolerates_a_deleted_message(
    fake: FakeDiscord, bot: YahtzeeBot, publisher: Publisher, people: People
) -> None:
    """A retired message keeps its words without controls; a new embed also takes its
    picture and its ping line away. A message already gone is no error; nor is deleting
    one that is gone."""
    board = await begun(bot, people)
    await publisher.post_board(board)
    dice: ScriptedDice = bot.dice  # type: ignore[assignment]
    dice.extend([2, 2, 3, 4, 6])
    first = await publisher.post_board(await roll(bot, board.row.id, people.ann))
    assert first is not None
    assert fake.messages[str(first.id)]["attachments"]  # the rolled dice's picture
    row = await view(bot, board.row.id)
    await publisher.retire(row, first.id)
    kept = fake.messages[str(first.id)]
    assert controls_of(kept) == [] and kept["attachments"] and kept["content"]
    await publisher.retire(row, first.id, embed=discord.Embed(description="It is over."))
    retired = fake.messages[str(first.id)]
    assert retired["attachments"] == [] and not retired["content"]
    assert retired["embeds"][0]["description"] == "It is over."
    await publisher.delete(row, first.id)
    assert str(first.id) not in fake.messages
    await publisher.retire(row, first.id)  # gone: said in the log only
    await publisher.delete(row, first.id)
    await publisher.retire(row, None)  # nothing to retire


async def test_a_game_in_an_archived_thread_unarchives_it_and_goes_on(
    fake: FakeDiscord, bot: YahtzeeBot, publisher: Publisher, people: People
) -> None:
    """Thread mode: the game is played in a thread started from its lobby. Discord archives
    a quiet thread; an edit there is refused (50083), so the publisher unarchives the thread
    and edits again. A game that ends archives its thread at once."""
    board = await begun(bot, people)
    lobby = await publisher.lobbies.post_lobby(await view(bot, board.row.id))
    # (as move_to_thread does, which needs the server in the gateway's cache)
    thread = await bot.http.start_thread_with_message(
        int(people.channel), lobby.id, name="Yahtzee: Ann, Bob", auto_archive_duration=10080
    )
    row = await bot.games.posts.set_thread(board.row.id, int(thread["id"]))
    board = await bot.games.drawing.render(row)
    assert board.row.board_channel_id == int(thread["id"])
    posted = await publisher.post_board(board)
    assert posted is not None and fake.last(thread["id"])["id"] == str(posted.id)
    fake.archive(thread["id"])
    await publisher.retire(board.row, posted.id)
    assert not fake.archived(thread["id"])
    assert controls_of(fake.messages[str(posted.id)]) == []
    ann_id = int(people.ann["id"])
    ended = await bot.games.servers.end(board.row.id, ann_id, is_admin=False)
    await publisher.archive(ended)
    assert fake.archived(thread["id"])


async def test_a_turns_reminder_goes_when_the_turn_ends_even_after_a_restart(
    fake: FakeDiscord, bot: YahtzeeBot, publisher: Publisher, people: People
) -> None:
    """The half-time reminder pings the player with the time left and a link to the board;
    when the turn ends it is deleted, by this publisher or, after a restart, by a new one
    that knows it only from the record."""
    board = await begun(bot, people)
    posted = await publisher.post_board(board)
    assert posted is not None
    row = await view(bot, board.row.id)
    await publisher.reminders.remind(row, people.ann["id"], 150)
    reminder = fake.last(people.channel)
    assert "2:30 left" in reminder["content"] and str(posted.id) in reminder["content"]
    assert fake.pings[-1] == (people.channel, reminder["id"], people.ann["id"])
    await publisher.reminders.turn_over(board.row.id)
    assert reminder["id"] not in fake.messages
    assert (await view(bot, board.row.id)).reminder_message_id is None

    await publisher.reminders.remind(await view(bot, board.row.id), people.ann["id"], 150)
    second = fake.last(people.channel)["id"]
    restarted = Publisher(bot)
    await restarted.reminders.turn_over(board.row.id)  # knows nothing of it: no row, nothing done
    assert second in fake.messages
    await restarted.reminders.turn_over(board.row.id, await view(bot, board.row.id))
    assert second not in fake.messages


async def test_a_turn_notice_by_dm_and_closed_dms_turn_the_notices_off(
    fake: FakeDiscord, bot: YahtzeeBot, publisher: Publisher, people: People
) -> None:
    """/yahtzee notify: a DM with the time left and a link to the board. A player whose DMs
    are closed gets no DM (Discord answers 50007): their notices go off, and the channel
    is told so without pinging anyone."""
    board = await begun(bot, people)
    await publisher.post_board(board)
    row = await view(bot, board.row.id)
    await publisher.reminders.notify(row, people.ann["id"], 90)
    (dm,) = fake.dms[people.ann["id"]]
    assert "1:30 left" in dm["content"] and str(row.board_message_id) in dm["content"]

    bob_id = int(people.bob["id"])
    await bot.games.servers.set_notify(bob_id, True)
    fake.closed_dms.add(people.bob["id"])
    pings = len(fake.pings)
    await publisher.reminders.notify(row, people.bob["id"], 90)
    assert not fake.dms.get(people.bob["id"])
    assert not await bot.games.servers.notify_wanted(bob_id)
    note = fake.last(people.channel)
    assert "**Bob**" in note["content"] and "/yahtzee notify on" in note["content"]
    assert len(fake.pings) == pings  # nobody notified


async def test_a_final_picture_refused_is_posted_as_text(
    fake: FakeDiscord, bot: YahtzeeBot, publisher: Publisher, people: People
) -> None:
    """The game-over message with its picture; where the bot may not attach files (403
    50013), the same message without the picture (its cards in text). It is on record."""
    board = await begun(bot, people, bob=False)
    await publisher.post_board(board)
    dice: ScriptedDice = bot.dice  # type: ignore[assignment]
    for box in Category:
        dice.extend([1, 2, 3, 4, 6])
        scored = await play(bot, board.row.id, people.ann, box.value)
    assert scored.finished
    fake.deny(people.channel, ATTACH_FILES)
    await publisher.post_final(scored.board.row, scored.final_image)
    final = fake.last(people.channel)
    assert final["attachments"] == [] and "Game over" in str(final["components"])
    assert (await view(bot, board.row.id)).final_message_id == int(final["id"])
