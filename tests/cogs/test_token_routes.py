"""TokenRoutes (issue 43): where only interactions' tokens reach a place, new messages are
follow-ups within Discord's 5 a interaction (3 for messages that notify nobody), a message is
edited by the token that made it, and no token is used 14 minutes after it arrived."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from itertools import count
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.shared import answers
from cogs.shared.routes import TokenRoutes, Unreachable, shows

CHANNEL = 7
ids = count(1000)


class Followups:
    def __init__(self) -> None:
        self.sent: list[int] = []
        self.edited: list[int] = []

    async def send(self, content: Any = None, wait: bool = True, **fields: Any) -> Any:
        message = SimpleNamespace(id=next(ids), fields=fields)
        self.sent.append(message.id)
        return message

    async def edit_message(self, message_id: int, **fields: Any) -> Any:
        self.edited.append(message_id)
        return SimpleNamespace(id=message_id, fields=fields)


def interaction(clicked: int) -> Any:
    """A click on message ``clicked``, answered by editing it."""
    done = SimpleNamespace(is_done=lambda: True)
    made = SimpleNamespace(
        channel_id=CHANNEL, extras={}, response=done, followup=Followups(),
        message=SimpleNamespace(id=clicked), originals=[],
    )  # fmt: skip

    async def edit_original_response(**fields: Any) -> Any:
        made.originals.append(fields)
        return SimpleNamespace(id=clicked)

    made.edit_original_response = edit_original_response
    shows(made, clicked)  # type: ignore[arg-type]
    return made


def routes(now: list[datetime]) -> TokenRoutes:
    return TokenRoutes(SimpleNamespace(clock=lambda: now[0]))  # type: ignore[arg-type]


def test_follow_ups_stay_within_discords_cap() -> None:
    """Three quiet messages (computers' boards), then the fourth quiet one is an edit of the
    third; a person's board and the final card still go out as the 4th and 5th follow-ups;
    a sixth message edits the fifth instead of being refused (40094)."""
    now = [datetime(2026, 11, 26, tzinfo=UTC)]
    tokens = routes(now)
    click = interaction(clicked=1)
    tokens.note(click)

    async def play() -> None:
        quiet = [await tokens.send(CHANNEL, notify=False, content=str(i)) for i in range(4)]
        assert [m.id for m in quiet[:3]] == click.followup.sent
        assert quiet[3].id == quiet[2].id and click.followup.edited == [quiet[2].id]
        person = await tokens.send(CHANNEL, content="your turn")
        final = await tokens.send(CHANNEL, content="game over")
        assert click.followup.sent == [m.id for m in quiet[:3]] + [person.id, final.id]
        sixth = await tokens.send(CHANNEL, content="one more")
        assert sixth.id == final.id and len(click.followup.sent) == 5

    asyncio.run(play())


def test_messages_are_edited_by_the_token_that_reaches_them() -> None:
    """An edit of the clicked message goes through that click's own answer; of a follow-up,
    through the token that sent it; of a message no token reaches, nowhere (None)."""
    now = [datetime(2026, 11, 26, tzinfo=UTC)]
    tokens = routes(now)
    first, second = interaction(clicked=1), interaction(clicked=2)
    tokens.note(first)

    async def play() -> None:
        board = await tokens.send(CHANNEL, content="board")
        tokens.note(second)
        assert (await tokens.edit(CHANNEL, board.id, content="x")).id == board.id
        assert first.followup.edited == [board.id] and second.followup.edited == []
        await tokens.edit(CHANNEL, 2, content="y")
        assert second.originals == [{"content": "y"}] and first.originals == []
        assert await tokens.edit(CHANNEL, 99, content="z") is None

    asyncio.run(play())


def test_no_token_after_fourteen_minutes() -> None:
    """14 minutes after the last click, nothing reaches the place: a send is Unreachable
    (the next click shows it), an edit is None; a new click makes it reachable again."""
    now = [datetime(2026, 11, 26, tzinfo=UTC)]
    tokens = routes(now)
    click = interaction(clicked=1)
    tokens.note(click)
    assert tokens.fresh(CHANNEL)
    now[0] += timedelta(minutes=14)
    assert not tokens.fresh(CHANNEL)

    async def play() -> None:
        with pytest.raises(Unreachable):
            await tokens.send(CHANNEL, content="late")
        assert await tokens.edit(CHANNEL, 1, content="late") is None
        assert click.followup.sent == [] and click.originals == []
        tokens.note(interaction(clicked=5))
        assert (await tokens.send(CHANNEL, content="now")).id > 0

    asyncio.run(play())


def test_an_optional_message_never_takes_another_ones_place() -> None:
    """A reminder (optional) uses at most 3 follow-ups of a click, then those of an older
    click still fresh; when none is left it is not shown (Unreachable), never as an edit of
    the last follow-up (a board). A board, past the newest click's 5, goes to an older click
    with follow-ups left before it falls back to an edit."""
    now = [datetime(2026, 11, 26, tzinfo=UTC)]
    tokens = routes(now)
    older, newer = interaction(clicked=1), interaction(clicked=2)
    tokens.note(older)
    tokens.note(newer)

    async def play() -> None:
        for i in range(3):
            await tokens.send(CHANNEL, optional=True, content=f"reminder {i}")
        assert len(newer.followup.sent) == 3 and older.followup.sent == []
        await tokens.send(CHANNEL, optional=True, content="reminder 3")
        assert len(newer.followup.sent) == 3 and len(older.followup.sent) == 1
        for i in range(2):
            await tokens.send(CHANNEL, content=f"board {i}")
        assert len(newer.followup.sent) == 5
        await tokens.send(CHANNEL, content="board 2")  # the older click's follow-up
        assert len(older.followup.sent) == 2 and newer.followup.edited == []
        await tokens.send(CHANNEL, optional=True, content="reminder 4")
        assert len(older.followup.sent) == 3
        with pytest.raises(Unreachable):
            await tokens.send(CHANNEL, optional=True, content="reminder 5")
        assert newer.followup.edited == [] and older.followup.edited == []

    asyncio.run(play())


def test_an_answers_own_follow_ups_count_towards_the_cap() -> None:
    """A click answered already (acknowledged in time, or a rematch's invitation) whose
    answer then comes as a follow-up (``answers.send``): that follow-up counts, so the
    routes send 4 more at most and the sixth is an edit, never refused by Discord (40094)."""
    now = [datetime(2026, 11, 26, tzinfo=UTC)]
    tokens = routes(now)
    click = interaction(clicked=1)
    click.type = discord.InteractionType.component
    tokens.note(click)

    async def play() -> None:
        await answers.send(click, "your card", ephemeral=True)
        for i in range(5):
            await tokens.send(CHANNEL, content=f"board {i}")
        assert len(click.followup.sent) == 5 and len(click.followup.edited) == 1

    asyncio.run(play())
