"""The bot dies between committing a move, answering the click, and posting the next turn;
a new bot on the same database puts back whatever was missing: one live board, in step."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from bot.engine import RandomDice, ScriptedDice
from bot.store import plans

from ..clock import FakeClock
from ..conftest import fetch
from .conftest import StartBot
from .fake_discord import FakeDiscord, find_component, text_of
from .helpers import die_labels, play_turn, start_game

pytestmark = pytest.mark.both_databases  # what the store does under the bot: PostgreSQL too

CALLBACK = r"^/interactions/\d+/[^/]+/callback$"
NEW_MESSAGE = r"^/channels/\d+/messages$"


async def crash_during(fake: FakeDiscord, bot_close: object, action: object) -> None:
    """Run ``action`` until the bot stalls on the hung request, then stop the bot."""
    task = asyncio.create_task(action)  # type: ignore[arg-type]
    await asyncio.wait_for(fake.hung.wait(), 5)
    await bot_close()  # type: ignore[operator]
    await asyncio.wait({task}, timeout=6)
    fake.hung.clear()


async def test_crash_after_commit_before_answer(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The roll is committed but the click never answered: after a restart the board shows it."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    board = await start_game(fake, channel, ann)
    dice.extend([2, 2, 4, 5, 6])
    fake.hang("POST", CALLBACK)
    await crash_during(fake, bot.close, fake.click(ann, board, "Roll", timeout=1))
    assert die_labels(fake.messages[board["id"]]) == ["\N{EN DASH}"] * 5  # never answered

    await start_bot()
    # as a player would: watch the board until the restarted bot has brought it up to date
    await fake.wait_for(lambda: die_labels(fake.messages[board["id"]]) != ["\N{EN DASH}"] * 5)
    assert die_labels(fake.messages[board["id"]]) == ["2", "2", "4", "5", "6"]
    assert find_component(fake.messages[board["id"]], "Roll (2 left)") is not None
    dice.extend([1, 1, 1, 1, 1])
    answer = await fake.click(ann, board, "Roll")
    assert answer.response_type == 7
    assert len(fake.live_boards(channel)) == 1


async def test_crash_after_answer_before_next_turn(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The scoring was answered but the next turn never posted: a restart posts it, once."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    await start_game(fake, channel, ann, bob)
    fake.hang("POST", NEW_MESSAGE)
    await crash_during(
        fake,
        bot.close,
        play_turn(fake, dice, ann, channel, [[4, 4, 4, 1, 2]], "fours", expect_next=False),
    )
    assert fake.live_boards(channel) == []

    await start_bot()
    await fake.wait_for(lambda: fake.live_boards(channel) != [])
    boards = fake.live_boards(channel)
    assert len(boards) == 1 and boards[0]["content"].startswith(f"<@{bob['id']}>")
    summary = fake.channel_messages(channel)[-2]
    assert find_component(summary, "Undo") is not None  # Ann may still undo until Bob rolls
    await play_turn(fake, dice, bob, channel, [[6, 6, 6, 6, 1]], "sixes")
    assert len(fake.live_boards(channel)) == 1


async def test_crash_before_a_computer_board_leaves_the_players_next_board_live(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Found by a play-through: the bot stopped while posting the computer's board after
    Ann's scoring and came back 20 s later. The restart's repair posted the computer's
    board, whose turn then played at once (no move delay) and posted Ann's next board; but
    the timer's repair, which had read the game before all that, posted again with the
    first repair's nonce, got the computer's message back from Discord and recorded it as
    Ann's board: her real board refused every click ("That board is from an earlier
    turn")."""
    dice.fallback = RandomDice(random.Random(12))  # the computer's dice
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    await start_game(fake, channel, ann, computers=["Optimal"])
    fake.hang("POST", NEW_MESSAGE)
    await crash_during(
        fake,
        bot.close,
        play_turn(fake, dice, ann, channel, [[4, 4, 4, 1, 2]], "fours", expect_next=False),
    )
    clock.advance(20)  # longer than a repair waits for a quiet game
    bot = await start_bot()
    mine = f"<@{ann['id']}>, your turn!"
    await fake.wait_for(
        lambda: any(m["content"].startswith(mine) for m in fake.live_boards(channel)), 10
    )
    await fake.settle()
    [board] = fake.live_boards(channel)
    assert board["content"].startswith(mine)
    row = await bot.store.read(plans.live_game_in, int(channel))
    assert row is not None and row.board_message_id == int(board["id"])
    dice.extend([6, 6, 6, 6, 6])
    rolled = await fake.click(ann, board, "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text


async def test_crash_after_posting_before_recording_it(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The next board was posted but the bot died before noting it: no second board appears."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    await start_game(fake, channel, ann, bob)
    fake.hang("POST", NEW_MESSAGE, after=True)
    await crash_during(
        fake,
        bot.close,
        play_turn(fake, dice, ann, channel, [[4, 4, 4, 1, 2]], "fours", expect_next=False),
    )
    assert len(fake.live_boards(channel)) == 1  # posted, but the old bot never learned its id

    await start_bot()
    await fake.settle(quiet=0.2)
    boards = fake.live_boards(channel)
    assert len(boards) == 1 and boards[0]["content"].startswith(f"<@{bob['id']}>")
    answer = await play_turn(fake, dice, bob, channel, [[3, 3, 3, 3, 1]], "threes")
    assert answer.response_type == 7


async def test_crash_before_the_final_message(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The last scoring is committed but the final message is lost: a restart posts it."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    await start_game(fake, channel, ann)
    for face in range(1, 13):
        await play_turn(fake, dice, ann, channel, [[1, 2, 3, 4, 6]], list_boxes()[face - 1])
    fake.hang("POST", NEW_MESSAGE)
    await crash_during(
        fake, bot.close, play_turn(fake, dice, ann, channel, [[1, 2, 3, 4, 6]], "chance")
    )
    restarted = await start_bot()
    await fake.wait_for(lambda: text_of(fake.last(channel)).startswith("## Game over"))
    final = fake.last(channel)
    assert find_component(final, "Play again") is not None
    game_id = int(find_component(final, "Play again")["custom_id"].split(":")[-1])  # type: ignore[index]
    # By hand: Ones 1, Twos 2, Threes 3, Fours 4, Fives 0, Sixes 6;
    # 3K 0, 4K 0, Full House 0, Small Straight 30, Large Straight 0, Yahtzee 0, Chance 16.
    assert [r.total for r in await restarted.store.read(plans.results, game_id)] == [62]


def list_boxes() -> list[str]:
    from bot.engine import Category

    return [c.value for c in Category]


async def test_a_reconnect_repairs_the_board(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The roll was committed but its answer never arrived; after the gateway drops and the
    bot resumes, it brings the board up to date by itself."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann)
    dice.extend([5, 5, 2, 2, 2])
    fake.hang("POST", CALLBACK)
    stuck = asyncio.create_task(fake.click(ann, board, "Roll", timeout=1))
    await asyncio.wait_for(fake.hung.wait(), 5)
    await stuck
    assert die_labels(fake.messages[board["id"]]) == ["\N{EN DASH}"] * 5
    await fake.drop_connections()
    await fake.wait_for(lambda: fake.resumes == 1)
    await fake.wait_for(lambda: die_labels(fake.messages[board["id"]]) == ["5", "5", "2", "2", "2"])
    assert len(fake.live_boards(channel)) == 1


async def test_a_stop_right_after_a_move_keeps_what_it_cost_and_logs_no_error(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot is stopped the moment a roll is answered, while that decision is still being
    valued (found by test_lifecycle once ``settle`` stopped waiting 60 ms after each click):
    the value still reaches the move log before the database closes, and nothing is logged
    as an error."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    await bot.analyst.wait()
    board = await start_game(fake, channel, ann)
    dice.extend([2, 2, 4, 5, 6, 1, 1, 3, 3, 6])
    await fake.click(ann, board, "Roll")  # the first roll of a turn decides nothing
    roll = await fake.press(ann, board, find_component(board, "Roll")["custom_id"])  # type: ignore[index]
    await asyncio.wait_for(roll.responded.wait(), 5)  # the second one does: keep nothing
    game_id = (await bot.store.read(plans.live_game_in, int(channel))).id  # type: ignore[union-attr]
    await bot.close()
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    rows = await fetch(bot.settings.database, "SELECT version, loss, decision FROM moves "
                       "WHERE game_id = ? ORDER BY version", game_id)  # fmt: skip
    *_, (version, loss, decision) = rows
    assert version == 3 and loss is not None and decision, rows  # the second roll, valued


async def test_a_hard_stop_with_a_post_pending_logs_one_warning_and_no_traceback(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, caplog: pytest.LogCaptureFixture
) -> None:
    """Found by a play-through: the bot closed (not the graceful stop, which waits for the
    clicks in flight) while a scoring's next board was being posted logged an "unexpected
    error" with a traceback, then a second one from trying to tell the player through the
    closed connection. It is expected at a hard stop: one warning line, no traceback; the
    move is saved and the restart posts the board (test_crash_after_answer_before_next_turn)."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    await start_game(fake, channel, ann, bob)
    fake.hang("POST", NEW_MESSAGE)
    await crash_during(
        fake,
        bot.close,
        play_turn(fake, dice, ann, channel, [[4, 4, 4, 1, 2]], "fours", expect_next=False),
    )
    await fake.settle()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert [r for r in caplog.records if r.exc_info] == []
    stopped = [r for r in caplog.records if "the bot was stopping" in r.getMessage()]
    assert len(stopped) == 1 and stopped[0].levelno == logging.WARNING, caplog.text
