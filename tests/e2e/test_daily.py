"""The daily challenge as its player sees it: its private board after an Undo, its copies
(``/yahtzee daily`` shown again, here or in another channel), leaving it, hints, and the
result and dates in the reader's language (issue 41)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.app import YahtzeeBot
from bot.store import plans

from ..clock import FakeClock
from .conftest import StartBot
from .fake_discord import EPHEMERAL, FakeDiscord, controls_of, find_component, text_of
from .helpers import open_lobby

pytestmark = pytest.mark.sqlite_only  # about Discord and the bot, not the database


def menu(message: dict[str, Any]) -> dict[str, Any]:
    """A board's select of boxes."""
    return next(c for c in controls_of(message) if c["type"] == 3)


async def open_daily(fake: FakeDiscord, user: dict[str, Any], channel: str) -> dict[str, Any]:
    """``/yahtzee daily`` in ``channel``: the private board it answers with."""
    opened = await fake.slash(user, channel, "yahtzee daily")
    assert opened.response is not None and opened.response["flags"] & EPHEMERAL, opened
    return opened.response


def channel_edits(fake: FakeDiscord, message_id: str) -> list[Any]:
    """Requests that tried to reach a message through a channel route."""
    return fake.requests_to("PATCH", rf"^/channels/\d+/messages/{message_id}$") + fake.requests_to(
        "DELETE", rf"^/channels/\d+/messages/{message_id}$"
    )


async def test_an_undo_on_the_daily_leaves_no_false_line(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Score, then Undo: the private board's top line no longer says the box was scored."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    board = await open_daily(fake, ann, channel)
    await fake.click(ann, board, "Roll")
    first = menu(fake.messages[board["id"]])["options"][0]
    scored = await fake.choose(ann, fake.messages[board["id"]], first["value"])
    assert scored.response_type == 7, scored.ephemeral_text
    said = fake.messages[board["id"]]["content"]
    assert "scored" in said  # what the scoring said on the board
    undone = await fake.click(ann, fake.messages[board["id"]], "Undo")
    assert undone.response_type == 7, undone.ephemeral_text
    after = fake.messages[board["id"]]
    assert first["value"] in [o["value"] for o in menu(after)["options"]]  # open again
    assert "scored" not in after["content"], after["content"]
    assert "taken back" in after["content"], after["content"]


async def test_showing_the_daily_again_retires_the_old_copy(
    fake: FakeDiscord, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    """``/yahtzee daily`` in another channel: the old copy is edited through its own token
    (never a channel route) to say where the live one is, without buttons; the scoring's
    Undo moves to the new copy; a click the old copy's client still shows is told where
    the live one is."""
    caplog.set_level(logging.INFO)
    ann = fake.user("Ann")
    general, games = fake.channel("general"), fake.channel("games")
    await start_bot()
    old = await open_daily(fake, ann, general)
    await fake.click(ann, old, "Roll")
    await fake.choose(
        ann, fake.messages[old["id"]], menu(fake.messages[old["id"]])["options"][0]["value"]
    )
    shown_before = dict(fake.messages[old["id"]])
    new = await open_daily(fake, ann, games)
    retired = fake.messages[old["id"]]
    assert controls_of(retired) == [], "the old copy keeps live buttons"
    assert "replaced" in text_of(retired) and f"<#{games}>" in text_of(retired), text_of(retired)
    assert channel_edits(fake, old["id"]) == []
    assert "could not retire" not in caplog.text
    undone = await fake.click(ann, fake.messages[new["id"]], "Undo")  # the Undo came along
    assert undone.response_type == 7, undone.ephemeral_text
    stale = await fake.click(ann, shown_before, "Roll", stale=True)
    assert stale.response_type == 4 and f"<#{games}>" in stale.ephemeral_text, stale.ephemeral_text
    assert "replaced" in stale.ephemeral_text
    rolled = await fake.click(ann, fake.messages[new["id"]], "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text


async def test_an_old_copy_whose_token_expired_answers_where_the_live_one_is(
    fake: FakeDiscord, start_bot: StartBot, clock: FakeClock
) -> None:
    """After 15 minutes the old copy can no longer be edited (its token is dead): it keeps
    its buttons, and a click on them says where the live copy is; no channel route is
    tried."""
    ann = fake.user("Ann")
    general, games = fake.channel("general"), fake.channel("games")
    await start_bot()
    old = await open_daily(fake, ann, general)
    fake.advance(16 * 60)
    clock.advance(16 * 60)
    await open_daily(fake, ann, games)
    assert controls_of(fake.messages[old["id"]]) != []  # nothing could reach it
    assert channel_edits(fake, old["id"]) == []
    clicked = await fake.click(ann, fake.messages[old["id"]], "Roll")
    assert clicked.response_type == 4, "the old copy's click changed it"
    assert "replaced" in clicked.ephemeral_text and f"<#{games}>" in clicked.ephemeral_text


async def test_leaving_the_daily_asks_first(fake: FakeDiscord, start_bot: StartBot) -> None:
    """``/yahtzee leave`` on a daily asks, as ``/yahtzee end`` does; only the confirmation
    gives the day's try up."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    board = await open_daily(fake, ann, channel)
    asked = await fake.slash(ann, channel, "yahtzee leave")
    assert asked.response is not None and asked.response["flags"] & EPHEMERAL
    assert "today's try" in asked.ephemeral_text, asked.ephemeral_text
    assert (
        await bot.store.read(plans.live_daily_of, int(ann["id"]))
    ) is not None  # nothing lost yet
    rolled = await fake.click(ann, fake.messages[board["id"]], "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
    confirm = find_component(asked.response, "Leave")
    assert confirm is not None, asked.response
    left = await fake.click(ann, asked.response, "Leave")
    assert left.response_type == 7, left.ephemeral_text
    assert "You left your daily challenge" in text_of(fake.messages[asked.response["id"]])
    assert left.response_type == 7
    assert (await bot.store.read(plans.live_daily_of, int(ann["id"]))) is None
    again = await fake.slash(ann, channel, "yahtzee daily")
    assert "one try a day" in again.ephemeral_text


async def test_a_daily_has_no_hints(fake: FakeDiscord, start_bot: StartBot) -> None:
    """``/yahtzee hint`` during a daily says dailies have no hints (also where another
    game's lobby is open), not that there is no game."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    board = await open_daily(fake, ann, channel)
    await fake.click(ann, board, "Roll")
    hint = await fake.slash(ann, channel, "yahtzee hint")
    assert "No hints in the daily challenge" in hint.ephemeral_text, hint.ephemeral_text
    await open_lobby(fake, channel, bob)
    hint = await fake.slash(ann, channel, "yahtzee hint")
    assert "No hints in the daily challenge" in hint.ephemeral_text, hint.ephemeral_text


async def test_the_daily_result_says_it_once_with_dates_as_readers_write_them(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """A German player's private board dates the day as German does; the channel's result
    (an English server) says the day and the score once, the date as English writes it."""
    ann = fake.user("Ann", locale="de")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await bot.analyst.wait()
    board = await open_daily(fake, ann, channel)  # the fake clock: 2026-11-22
    assert "22. November 2026" in board["content"], board["content"]
    assert "2026-11-22" not in board["content"]
    for _turn in range(13):
        await fake.click(ann, fake.messages[board["id"]], "Würfeln")
        first = menu(fake.messages[board["id"]])["options"][0]["value"]
        await fake.choose(ann, fake.messages[board["id"]], first)
    await fake.wait_for(lambda: "Daily challenge" in text_of(fake.last(channel)))
    said = text_of(fake.last(channel))
    (entry,) = await bot.store.read(plans.daily_board, "2026-11-22", None)
    assert said.count("Daily challenge") == 1, said
    assert said.count("November 22, 2026") == 1 and "2026-11-22" not in said, said
    assert f"Ann scored {entry.score}!" in said
    assert said.count(f"**{entry.score}**") == 0, said  # the score once, in the heading
    assert f"**{entry.optimal}**" in said  # the Optimal bot's, to compare


async def test_a_finished_daily_card_is_not_shown_by_scorecard(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Right after Ann's daily ends, Bob's /yahtzee scorecard in that channel does not show
    her card (the day's dice are the same for everyone; the result hides the card on
    purpose): it says there is no game here."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await bot.analyst.wait()
    board = await open_daily(fake, ann, channel)
    for _turn in range(13):
        await fake.click(ann, fake.messages[board["id"]], "Roll")
        first = menu(fake.messages[board["id"]])["options"][0]["value"]
        await fake.choose(ann, fake.messages[board["id"]], first)
    await fake.wait_for(lambda: "Daily challenge" in text_of(fake.last(channel)))
    for asker in (bob, ann):
        card = await fake.slash(asker, channel, "yahtzee scorecard")
        shown = card.ephemeral_text or ""
        assert "Ann" not in shown and card.response is not None, shown
        assert not card.response.get("attachments"), card.response
        assert "no game" in shown.lower(), shown
