"""TokenRoutes (issue 43): where only interactions' tokens reach a place, new messages are
follow-ups within Discord's 5 a interaction (3 for messages that notify nobody), a message is
edited by the token that made it, and no token is used 14 minutes after it arrived."""

from __future__ import annotations

import asyncio
import gc
import sys
import tracemalloc
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import count
from typing import Any, cast

import discord
import pytest

from cogs.shared import answers
from cogs.shared.routes import TokenRoutes, Unreachable, shows

CHANNEL = 7
ids = count(1000)


@dataclass
class Sent:
    """A message a webhook posted or edited, as discord.py hands it back: its id (and what
    it was sent with)."""

    id: int
    fields: dict[str, Any] = field(default_factory=dict)


class Followups:
    """An interaction's webhook: its follow-ups, and the edits of its messages (of its own
    answer, "@original", in ``originals``)."""

    def __init__(self) -> None:
        self.sent: list[int] = []
        self.edited: list[int] = []
        self.originals: list[dict[str, Any]] = []
        self.clicked = 0

    async def send(self, content: Any = None, wait: bool = True, **fields: Any) -> Sent:
        message = Sent(next(ids), fields)
        self.sent.append(message.id)
        return message

    async def edit_message(self, message_id: int | str, **fields: Any) -> Sent:
        if message_id == "@original":
            self.originals.append(fields)
            return Sent(self.clicked)
        assert isinstance(message_id, int)
        self.edited.append(message_id)
        return Sent(message_id, fields)


class Answered:
    """An interaction's response, already given (a click answered by editing its message)."""

    def is_done(self) -> bool:
        return True


@dataclass
class Click:
    """What the token routes read of a click (``discord.Interaction``'s attributes of the
    same names): where it came from, the message clicked, its webhook, whether it was
    answered."""

    clicked: int
    channel_id: int = CHANNEL
    id: int = field(default_factory=lambda: next(ids))
    type: discord.InteractionType = discord.InteractionType.component
    extras: dict[str, Any] = field(default_factory=dict)
    response: Answered = field(default_factory=Answered)
    followup: Followups = field(default_factory=Followups)

    def __post_init__(self) -> None:
        self.message = Sent(self.clicked)
        self.followup.clicked = self.clicked
        self.originals = self.followup.originals


def interaction(clicked: int) -> Any:
    """A click on message ``clicked``, answered by editing it (``noted`` keeps its token)."""
    return Click(clicked)


@dataclass
class Clocked:
    """The bot as the token routes read it: its clock."""

    now: list[datetime]

    def clock(self) -> datetime:
        return self.now[0]


def noted(tokens: TokenRoutes, made: Any) -> Any:
    """``made`` noted by the routes, then answered by editing the clicked message."""
    tokens.note(made)
    shows(made, made.message.id)
    return made


def routes(now: list[datetime]) -> TokenRoutes:
    return TokenRoutes(cast(Any, Clocked(now)))


def test_follow_ups_stay_within_discords_cap() -> None:
    """Three quiet messages (computers' boards), then the fourth quiet one is an edit of the
    third; a person's board and the final card still go out as the 4th and 5th follow-ups;
    a sixth message edits the fifth instead of being refused (40094)."""
    now = [datetime(2026, 11, 26, tzinfo=UTC)]
    tokens = routes(now)
    click = interaction(clicked=1)
    noted(tokens, click)

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
    noted(tokens, first)

    async def play() -> None:
        board = await tokens.send(CHANNEL, content="board")
        noted(tokens, second)
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
    noted(tokens, click)
    assert tokens.fresh(CHANNEL)
    now[0] += timedelta(minutes=14)
    assert not tokens.fresh(CHANNEL)

    async def play() -> None:
        with pytest.raises(Unreachable):
            await tokens.send(CHANNEL, content="late")
        assert await tokens.edit(CHANNEL, 1, content="late") is None
        assert click.followup.sent == [] and click.originals == []
        noted(tokens, interaction(clicked=5))
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
    noted(tokens, older)
    noted(tokens, newer)

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
    noted(tokens, click)

    async def play() -> None:
        await answers.send(click, "your card", ephemeral=True)
        for i in range(5):
            await tokens.send(CHANNEL, content=f"board {i}")
        assert len(click.followup.sent) == 5 and len(click.followup.edited) == 1

    asyncio.run(play())


def group_dm_click(state: Any, channel_id: int, user_id: int) -> discord.Interaction[Any]:
    """A click from a group DM as Discord sends it (a board of five dice buttons on it),
    made into discord.py's own ``Interaction``."""
    user = {"id": str(user_id), "username": f"u{user_id}", "discriminator": "0",
            "global_name": None, "avatar": None}  # fmt: skip
    buttons = [
        {"type": 2, "style": 2, "label": str(d), "custom_id": f"yz:hold:{channel_id}:3:1:{d}"}
        for d in range(5)
    ]
    payload = {
        "id": str(next(ids) + (1 << 40)),
        "application_id": "4242",
        "type": 3,
        "token": f"{channel_id:x}".rjust(180, "t"),  # each its own, as Discord's are
        "version": 1,
        "channel_id": str(channel_id),
        "channel": {"id": str(channel_id), "type": 3, "recipients": [user], "flags": 0},
        "user": user,
        "locale": "en-US",
        "app_permissions": "180224",
        "attachment_size_limit": 10 * 2**20,
        "entitlements": [],
        "authorizing_integration_owners": {"1": str(user_id)},
        "context": 2,
        "data": {"component_type": 2, "custom_id": f"yz:roll:{channel_id}:3:1"},
        "message": {
            "id": str(next(ids) + (1 << 41)), "channel_id": str(channel_id), "type": 0,
            "content": f"<@{user_id}>, your turn", "author": user, "embeds": [{
                "title": "Yahtzee", "description": "x" * 400,
                "image": {"url": "attachment://board.png"},
            }], "attachments": [], "mentions": [user], "mention_roles": [], "pinned": False,
            "mention_everyone": False, "tts": False, "timestamp": "2026-12-02T07:00:00+00:00",
            "edited_timestamp": None, "flags": 0,
            "components": [{"type": 1, "components": buttons}],
        },
    }  # fmt: skip
    return discord.Interaction(data=payload, state=state)  # type: ignore[arg-type]


def test_the_token_store_is_bounded_in_bytes() -> None:
    """20,000 clicks, each from a group DM of its own (real discord.py interactions, a board
    on each): the store keeps what a later post needs (a ``Token``), not the interaction,
    so it stays under 16 MB (whole interactions took about 12 KB each: 230 MB); 15 minutes
    later the next click finds every old place dropped; an autocomplete is not kept."""
    now = [datetime(2026, 11, 26, tzinfo=UTC)]
    tokens = routes(now)
    client = discord.Client(intents=discord.Intents.none())
    me = {"id": "4242", "username": "Yahtzee", "discriminator": "0", "global_name": None,
          "avatar": None, "bot": True}  # fmt: skip
    client._connection.user = discord.ClientUser(state=client._connection, data=me)  # type: ignore[arg-type]
    places = 20_000
    clicks = [group_dm_click(client._connection, 10**17 + i, 10**16 + i) for i in range(places)]
    gc.collect()
    tracemalloc.start()  # what noting them allocates and keeps once they are gone
    try:
        before = tracemalloc.get_traced_memory()[0]
        for click in clicks:
            tokens.note(click)
            answers._first_answer(click)  # answered: a token that may send follow-ups
        del click, clicks
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # the tokens' text came with the interactions, before tracing: counted by hand
    kept += sum(sys.getsizeof(t.webhook.token) for ts in tokens._seen.values() for t in ts)
    assert tokens.size() == (places, places)
    assert tokens.fresh(10**17 + places - 1)
    assert kept < 16 * 2**20, f"{kept / 2**20:.1f} MiB for {places} places"
    print(f"token store: {kept / 2**20:.1f} MiB for {places} places ({kept / places:.0f} B each)")
    now[0] += timedelta(minutes=15)
    late = group_dm_click(client._connection, 1, 2)
    tokens.note(late)
    assert tokens.size() == (1, 1)
    late.type = discord.InteractionType.autocomplete
    tokens.forget(1)
    tokens.note(late)
    assert tokens.size() == (0, 0)
