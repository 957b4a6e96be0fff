"""No click is ever answered too late (issue 27): an answer not ready about 2 s after Discord
created the interaction is acknowledged in time, then edited in when ready.

The fake refuses any first answer later than its ``answer_window`` with Discord's 10062, as
Discord does after 3 s. Here both are scaled down (the guard acknowledges after 0.2 s, the
fake refuses after 0.6 s) and the store or the drawing is made slower than the window on
purpose: every answer still arrives, and every move is kept.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Callable
from typing import Any

import pytest

import cogs.shared.answers
from bot.app import YahtzeeBot
from bot.engine import ScriptedDice
from bot.store import plans

from .conftest import StartBot
from .fake_discord import EPHEMERAL, FakeDiscord, find_component
from .helpers import die_labels, start_game

SLOW = 1.0  # longer than the fake's window: without the guard, every answer is refused


@pytest.fixture(autouse=True)
def short_deadlines(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cogs.shared.answers, "DEFER_AFTER", 0.2)
    fake.answer_window = 0.6


def slowed_plan(call: Callable[..., Any], plan: object) -> Callable[..., Any]:
    """``store.read`` or ``store.write``, but ``SLOW`` seconds slower for one plan (a store
    that takes a second to write a game, or to read one)."""

    @functools.wraps(call)
    async def slow(made: object, *args: Any, **kwargs: Any) -> Any:
        if made is plan:
            await asyncio.sleep(SLOW)
        return await call(made, *args, **kwargs)

    return slow


def lagging(submit: Callable[..., asyncio.Future[Any]]) -> Callable[..., asyncio.Future[Any]]:
    """``Workers.submit``, but its outcome ``SLOW`` seconds late (a drawing process that lags)."""

    @functools.wraps(submit)
    def late(*args: Any, **kwargs: Any) -> asyncio.Future[Any]:
        async def outcome() -> Any:
            await asyncio.sleep(SLOW)
            return await submit(*args, **kwargs)

        return asyncio.ensure_future(outcome())

    return late


async def playing(fake: FakeDiscord, start_bot: StartBot) -> tuple[YahtzeeBot, dict[str, Any]]:
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    return bot, await start_game(fake, channel, ann)


async def test_a_slow_store_defers_the_roll_and_keeps_it(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The store takes a second to write: the Roll is acknowledged (a deferred update) within
    the window, the board then shows the dice, and the roll is saved."""
    ann = fake.user("Ann")
    bot, board = await playing(fake, start_bot)
    bot.store.write = slowed_plan(bot.store.write, plans.update_game)  # type: ignore[method-assign]
    dice.extend([6, 6, 5, 5, 1])
    answer = await fake.click(ann, board, "Roll")
    assert answer.error is None
    assert answer.response_type == 6  # acknowledged first
    await fake.wait_for(lambda: die_labels(fake.messages[board["id"]]) == list("66551"))
    assert fake.messages[board["id"]]["attachments"]  # the picture came with the edit
    row = await bot.store.read(plans.live_game_in, int(board["channel_id"]))
    assert row is not None and row.state is not None and row.state["dice"] == [6, 6, 5, 5, 1]


async def test_a_slow_drawing_defers_the_roll(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The drawing process lags: the Roll is acknowledged, then shown with its picture; the
    hold that follows (nothing drawn) is answered at once."""
    ann = fake.user("Ann")
    bot, board = await playing(fake, start_bot)
    drawing_pool = bot.drawing_pool
    assert drawing_pool is not None
    drawing_pool.submit = lagging(drawing_pool.submit)  # type: ignore[method-assign]
    dice.extend([2, 3, 4, 5, 5])
    answer = await fake.click(ann, board, "Roll")
    assert (answer.error, answer.response_type) == (None, 6)
    await fake.wait_for(lambda: die_labels(fake.messages[board["id"]]) == list("23455"))
    held = await fake.click(ann, board, "5")
    assert (held.error, held.response_type) == (None, 7)  # no drawing, no delay


async def test_clicks_beyond_the_working_places_wait_acknowledged_and_are_all_kept(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two working places and a store that takes a second to write; four games' Rolls come
    at once: at most two are worked on together, the two waiting are acknowledged within
    the window all the same (the guard does not wait for a place), and every roll shows
    and is saved."""
    monkeypatch.setattr(cogs.shared.answers, "WORKING", 2)
    monkeypatch.setattr(cogs.shared.answers, "_places", weakref.WeakKeyDictionary())
    people = [fake.user(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    channels = [fake.add_channel(f"table-{i}")["id"] for i in range(len(people))]
    bot = await start_bot()
    boards = [
        await start_game(fake, channel, person)
        for channel, person in zip(channels, people, strict=True)
    ]
    write = bot.store.write
    busy = peak = 0

    async def counted(made: object, *args: Any, **kwargs: Any) -> Any:
        if made is not plans.update_game:
            return await write(made, *args, **kwargs)
        nonlocal busy, peak
        busy += 1
        peak = max(peak, busy)
        try:
            await asyncio.sleep(SLOW)
            return await write(made, *args, **kwargs)
        finally:
            busy -= 1

    bot.store.write = counted  # type: ignore[method-assign]
    dice.extend([1, 2, 3, 4, 5] * 4)
    clicks = [fake.click(p, board, "Roll") for p, board in zip(people, boards, strict=True)]
    answers = await asyncio.gather(*clicks)
    assert [(a.error, a.response_type) for a in answers] == [(None, 6)] * 4
    for board in boards:
        await fake.wait_for(lambda b=board: die_labels(fake.messages[b["id"]]) == list("12345"))
    assert peak == 2
    for board in boards:
        row = await bot.store.read(plans.live_game_in, int(board["channel_id"]))
        assert row is not None and row.state is not None and row.state["dice"] == [1, 2, 3, 4, 5]


async def test_a_slow_refusal_comes_as_a_private_follow_up(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Bob clicks Roll on Ann's board while reads are slow: acknowledged, then told privately
    that he is not playing in this game (a follow-up only he sees); the board is unchanged."""
    bob = fake.user("Bob")
    bot, board = await playing(fake, start_bot)
    bot.store.read = slowed_plan(bot.store.read, plans.get_game)  # type: ignore[method-assign]
    answer = await fake.click(bob, board, "Roll")
    assert (answer.error, answer.response_type) == (None, 6)
    await fake.wait_for(lambda: answer.followups != [])
    (note,) = answer.followups
    assert note["flags"] & EPHEMERAL and "not playing" in note["content"], note
    assert find_component(fake.messages[board["id"]], "Roll") is not None


async def test_a_slow_command_thinks_then_answers(fake: FakeDiscord, start_bot: StartBot) -> None:
    """``/yahtzee start`` while writes are slow: everyone sees the bot thinking, then the
    lobby in that same message, with its Join button."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    bot.store.write = slowed_plan(bot.store.write, plans.create_game)  # type: ignore[method-assign]
    answer = await fake.slash(ann, channel, "yahtzee start")
    assert (answer.error, answer.response_type) == (None, 5)
    original = answer.original_message_id
    assert original is not None
    await fake.wait_for(lambda: find_component(fake.messages[original], "Join") is not None)
    assert not fake.messages[original].get("flags", 0) & EPHEMERAL  # a lobby is public


async def test_a_quick_answer_is_not_deferred(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Without slowness nothing is acknowledged first: one answer, the update itself."""
    ann = fake.user("Ann")
    _, board = await playing(fake, start_bot)
    dice.extend([1, 2, 3, 4, 5])
    answer = await fake.click(ann, board, "Roll")
    assert (answer.error, answer.response_type, answer.callbacks) == (None, 7, 1)
    await asyncio.sleep(0.4)  # past the guard's time: it did nothing more
    assert answer.callbacks == 1


async def test_one_member_cannot_take_every_working_place(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Bob clicks Roll on Ann's board eight times at once while reads are slow: at most four
    of his clicks are worked on at a time (each told he is not playing), the others are told
    at once, privately, to click one at a time; Ann's own Roll meanwhile is worked on as
    usual, and once his clicks are answered Bob's next one is worked on again."""
    bob = fake.user("Bob")
    ann = fake.user("Ann")
    bot, board = await playing(fake, start_bot)
    read = bot.store.read
    slow = 0

    async def slowly(made: object, *args: Any, **kwargs: Any) -> Any:
        if slow:  # every read while Bob clicks (a click reads at least once)
            await asyncio.sleep(SLOW)
        return await read(made, *args, **kwargs)

    bot.store.read = slowly  # type: ignore[method-assign]
    slow = 1
    clicks = await asyncio.gather(*(fake.click(bob, board, "Roll") for _ in range(8)))
    mine = asyncio.ensure_future(fake.click(ann, board, "Roll"))
    for click in clicks:
        await fake.wait_for(lambda c=click: c.ephemeral_text or c.followups)

    def said(click: Any) -> str:
        return click.ephemeral_text or " ".join(f["content"] for f in click.followups)

    told = [said(c) for c in clicks]
    # four at once at most: the first may be answered before the last arrive (its read
    # came before the store slowed), so five can be worked on in all
    refused = sum("One at a time" in t for t in told)
    assert 3 <= refused <= 4 and sum("not playing" in t for t in told) == 8 - refused, told
    assert (await mine).error is None
    slow = 0
    again = await fake.click(bob, board, "Roll")
    await fake.wait_for(lambda: said(again) != "")
    assert "not playing" in said(again), said(again)
