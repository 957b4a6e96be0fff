"""The database refuses writes (its disk is full): players are told their move was not
saved, nothing is half-written, and play resumes once there is room (issue 17 item 3)."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.app import YahtzeeBot
from bot.engine import RandomDice, ScriptedDice
from bot.store import plans

from .conftest import StartBot
from .fake_discord import FakeDiscord
from .helpers import start_game

pytestmark = pytest.mark.sqlite_only  # about SQLite's file itself


async def _limit(bot: YahtzeeBot, pages: int | None) -> None:
    """Cap the file at its present size (SQLite then answers "database or disk is full"
    to a write that needs a new page, as on a full disk), or lift the cap."""

    def work(db: sqlite3.Connection) -> None:
        size = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {size if pages is None else pages}")

    await bot.store._writer.run(work)  # the writer thread's own connection


async def test_a_full_disk_refuses_moves_plainly_and_play_resumes(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, caplog: pytest.LogCaptureFixture
) -> None:
    import random

    dice.fallback = RandomDice(random.Random(4))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    board = await start_game(fake, channel, ann, bob)
    rolled = await fake.click(ann, board, "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
    await _limit(bot, None)
    die = fake.messages[board["id"]]["components"][0]["components"][0]["custom_id"]  # die 1
    refused = None
    for _ in range(300):  # every hold writes a move: soon one needs a new page
        before = await bot.store.read(plans.live_game_in, int(channel))
        answer = await fake.click(ann, fake.messages[board["id"]], die)
        if "not saved" in answer.ephemeral_text:
            refused = answer
            after = await bot.store.read(plans.live_game_in, int(channel))
            assert before is not None and after is not None
            assert after.version == before.version and after.state == before.state
            break
        assert answer.response_type == 7, answer.ephemeral_text
    assert refused is not None, "the capped file never filled"
    assert "Something went wrong" not in refused.ephemeral_text
    assert any("database" in r.getMessage() and r.levelno >= logging.ERROR for r in caplog.records)
    await _limit(bot, 1_000_000)  # room again
    again = await fake.click(ann, fake.messages[board["id"]], die)
    assert again.response_type == 7, again.ephemeral_text
    check = await bot.store._writer.run(lambda db: db.execute("PRAGMA integrity_check").fetchone())
    assert check[0] == "ok"


async def test_a_read_only_database_refuses_moves_plainly_and_play_resumes(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, caplog: pytest.LogCaptureFixture
) -> None:
    """The file turns read-only mid-game (a remount, a backup tool's lock): a Roll and a
    scoring are refused as not saved, nothing changes, and once it is writable play goes on."""
    dice.extend([3, 3, 3, 2, 2] + [6, 6, 6, 6, 6])
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    board = await start_game(fake, channel, ann, bob)
    assert (await fake.click(ann, board, "Roll")).response_type == 7
    before = await bot.store.read(plans.live_game_in, int(channel))

    # The writer's own connection (idle between clicks) turns read-only from outside, as a
    # remount would: SQLite answers "attempt to write a readonly database" to every write.
    writer = bot.store._writer._db
    writer.execute("PRAGMA query_only = ON")
    for attempt in (
        lambda: fake.click(ann, fake.messages[board["id"]], "Roll"),
        lambda: fake.choose(ann, fake.messages[board["id"]], "full_house"),
    ):
        answer = await attempt()
        assert "not saved" in answer.ephemeral_text, answer.ephemeral_text
        assert "read-only" in answer.ephemeral_text
    after = await bot.store.read(plans.live_game_in, int(channel))
    assert before is not None and after is not None
    assert (after.version, after.state) == (before.version, before.state)
    assert any("readonly" in r.getMessage() and r.levelno >= logging.ERROR for r in caplog.records)
    writer.execute("PRAGMA query_only = OFF")  # writable again
    scored = await fake.choose(ann, fake.messages[board["id"]], "full_house")
    assert "scored **25**" in " ".join(fake.descriptions[board["id"]]), scored.ephemeral_text
    check = await bot.store._writer.run(lambda db: db.execute("PRAGMA integrity_check").fetchone())
    assert check[0] == "ok"
