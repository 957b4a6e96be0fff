"""Answering an interaction in time, whatever the load.

Discord waits 3 s for an interaction's first answer, counted from when it sent it; after that
the user sees "This interaction failed" and the answer is refused. Every handler answers
through ``edit`` (the clicked message changes) and ``send`` (a new message), after ``guard``
was called when the interaction arrived: if the answer is not on its way ``DEFER_AFTER``
seconds after Discord created the interaction, the guard acknowledges it (a deferred update
for a click, a "thinking" answer for a command) and ``edit``/``send`` then deliver the answer
as an edit of the original message or a follow-up. A per-interaction lock keeps the guard
and the handler from answering at the same moment.

Under overload the guard must still get its acknowledgement out on time, so handlers work
through ``working``: at most ``WORKING`` interactions are worked on at once, the others wait
their turn in arrival order without touching the event loop. The loop's turns stay short
(a few handlers' steps, the gateway's reads, the guard's timers), so a waiting interaction
is acknowledged when its 1.5 s are up, not when the backlog ahead of it has been worked off.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import Any

import discord

from bot import logs
from bot.metrics import ANSWER_SECONDS, DEFERRED, WAITING

from .routes import answered, followed, shows

log = logging.getLogger(__name__)

#: Seconds after Discord created an interaction when a slow answer is acknowledged: 1.5 s
#: before Discord's 3 s limit, for the acknowledgement's own trip through a busy event loop
#: and HTTP client (measured at 1,000 games: ~0.3 s a request, ~0.1 s a turn of the loop).
DEFER_AFTER = 1.5

#: Interactions worked on at once (per event loop). A click spends ~5 ms of the loop's CPU
#: and ~10-30 ms waiting (the database's thread, the drawing process, Discord's answer).
#: Measured with benchmarks/load.py (2 cores, 2026-11-25): with no bound, 1,500 games left
#: 6 answers later than 3 s (90 the day before); with 32 or 96 places none, every waiting
#: click acknowledged by 2.2 s at p99; at 1,000 games 32 places made holds wait behind Rolls
#: (p99 1.03 s against 0.79-0.91 s unbounded), 96 did not (0.76-0.87 s).
WORKING = 96

#: A clock further than this from Discord's (by the interaction's snowflake) is not trusted:
#: the guard then counts from when the interaction arrived here.
CLOCK_TRUST = 10.0

#: Commands whose answer everyone in the channel sees (a lobby): deferred publicly.
PUBLIC_COMMANDS = frozenset({"start"})

#: The kinds of interaction that wait for an answer (not an autocomplete, not a ping).
_ANSWERED = frozenset(
    {
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    }
)

_LOCK = "answer-lock"
_CONTROL = "answer-control"  # the key of the control a click was routed to
_TIMER = "answer-timer"
_DEFERRED = "answer-deferred"
_DONE = "answer-done"


def kind_of(interaction: discord.Interaction[Any]) -> str:
    """What an interaction is, for the metrics: the key of the control a click was routed to
    (``roll``, ``die``, ``box`` ...: ``routed``), a command's name (``yahtzee start``), or
    ``modal``. Anything else is ``unknown``: a label never comes from what a client sent
    (each distinct value would keep a series of its own for as long as the process runs)."""
    if interaction.type is discord.InteractionType.component:
        return str(interaction.extras.get(_CONTROL, "unknown"))
    if interaction.type is discord.InteractionType.application_command:
        command = interaction.command
        return command.qualified_name if command is not None else "unknown"
    return "modal" if interaction.type is discord.InteractionType.modal_submit else "other"


def routed(interaction: discord.Interaction[Any], key: str) -> None:
    """The click was routed to a control of this bot, of ``key`` (its label in the metrics)."""
    interaction.extras[_CONTROL] = key


def _first_answer(interaction: discord.Interaction[Any]) -> None:
    """Time the interaction's first answer (an acknowledgement or the answer itself): the
    one Discord's 3 s are about."""
    if interaction.extras.get("answer-timed"):
        return
    interaction.extras["answer-timed"] = True
    answered(interaction)  # its token may send follow-ups now
    age = (datetime.now(UTC) - interaction.created_at).total_seconds()
    kind = kind_of(interaction)
    if -CLOCK_TRUST < age < CLOCK_TRUST:
        ANSWER_SECONDS.labels(kind).observe(max(age, 0.0))
    log.debug("%s answered %.0f ms after Discord sent it", kind, age * 1000)


def _delay(interaction: discord.Interaction[Any]) -> float:
    """Seconds from now until the interaction should be acknowledged if still unanswered."""
    age = (datetime.now(UTC) - interaction.created_at).total_seconds()
    if not -CLOCK_TRUST < age < CLOCK_TRUST:
        age = 0.0
    return max(0.0, DEFER_AFTER - max(age, 0.0))


def _lock(interaction: discord.Interaction[Any]) -> asyncio.Lock:
    lock = interaction.extras.get(_LOCK)
    if lock is None:
        lock = interaction.extras[_LOCK] = asyncio.Lock()
    return lock


def guard(interaction: discord.Interaction[Any]) -> None:
    """Make sure ``interaction`` is acknowledged in time even if its answer is slow (and
    say in this task's log lines which interaction, server and shard they are about)."""
    if _TIMER in interaction.extras or interaction.type not in _ANSWERED:
        return
    took = getattr(interaction.client, "took", None)
    if took is not None and not interaction.extras.get("finished"):
        took(interaction.id)
    guild = interaction.guild_id
    count = interaction.client.shard_count or 1
    logs.bind(
        interaction_id=interaction.id,
        guild_id=guild,
        shard_id=(guild >> 22) % count if guild is not None else None,
    )
    loop = asyncio.get_running_loop()
    interaction.extras[_TIMER] = loop.call_later(
        _delay(interaction), lambda: loop.create_task(_acknowledge(interaction))
    )


_places: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)

#: Clicks one member may have in flight at once (being worked on or waiting for a place):
#: a person clicking as fast as they can has two or three; a script would take every place.
MEMBER_IN_FLIGHT = 4
_members: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Counter[int]] = (
    weakref.WeakKeyDictionary()
)


class TooManyAtOnce(Exception):
    """A member has ``MEMBER_IN_FLIGHT`` clicks in flight already: this one is refused."""


@contextlib.contextmanager
def one_member(user_id: int) -> Iterator[None]:
    """Count a member's click in flight while it is handled; ``TooManyAtOnce`` if they have
    ``MEMBER_IN_FLIGHT`` already (so one member cannot take every working place)."""
    loop = asyncio.get_running_loop()
    counts = _members.get(loop)
    if counts is None:
        counts = _members[loop] = Counter()
    if counts[user_id] >= MEMBER_IN_FLIGHT:
        raise TooManyAtOnce
    counts[user_id] += 1
    try:
        yield
    finally:
        counts[user_id] -= 1
        if counts[user_id] <= 0:
            del counts[user_id]


@contextlib.asynccontextmanager
async def working() -> AsyncIterator[None]:
    """One of the ``WORKING`` places to handle an interaction in; waits (first come, first
    served) while all are taken. A handler's whole work, its answer included, runs inside."""
    loop = asyncio.get_running_loop()
    places = _places.get(loop)
    if places is None:
        places = _places[loop] = asyncio.Semaphore(WORKING)
    if places.locked():
        WAITING.inc()
        try:
            await places.acquire()
        finally:
            WAITING.dec()
    else:
        await places.acquire()
    try:
        yield
    finally:
        places.release()


def finished(interaction: discord.Interaction[Any]) -> None:
    """The interaction's handler is done (answered, refused, or failed and said so)."""
    interaction.extras["finished"] = True
    _done(interaction).set()
    done = getattr(interaction.client, "finished", None)
    if done is not None:
        done(interaction.id)


def _done(interaction: discord.Interaction[Any]) -> asyncio.Event:
    event = interaction.extras.get(_DONE)
    if event is None:
        event = interaction.extras[_DONE] = asyncio.Event()
    return event


async def until_finished(interaction: discord.Interaction[Any], patience: float) -> bool:
    """Wait (at most ``patience`` seconds) until the interaction's handler is done; whether
    it is (a command's runs in a task of discord.py's own, beside the listeners')."""
    try:
        await asyncio.wait_for(_done(interaction).wait(), patience)
    except TimeoutError:
        return False
    return True


def deferred(interaction: discord.Interaction[Any]) -> bool:
    """Whether the guard acknowledged the interaction before its answer was ready."""
    return bool(interaction.extras.get(_DEFERRED))


async def _acknowledge(interaction: discord.Interaction[Any]) -> None:
    async with _lock(interaction):
        if interaction.response.is_done():
            return
        try:
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()  # a deferred update: the message stays
            else:
                name = interaction.command.name if interaction.command is not None else ""
                await interaction.response.defer(
                    thinking=True, ephemeral=name not in PUBLIC_COMMANDS
                )
        except discord.HTTPException as exc:  # too late already, or answered elsewhere
            log.warning("interaction %s: could not acknowledge it (%s)", interaction.id, exc)
            return
        _first_answer(interaction)
        DEFERRED.inc()
        interaction.extras[_DEFERRED] = True
        log.info("interaction %s: answer not ready in %.1f s; acknowledged", interaction.id,
                 DEFER_AFTER)  # fmt: skip


def _answering(interaction: discord.Interaction[Any]) -> None:
    timer = interaction.extras.pop(_TIMER, None)
    if timer is not None:
        timer.cancel()


async def edit(interaction: discord.Interaction[Any], **fields: Any) -> None:
    """Show ``fields`` (content, embed, attachments, view) on the clicked message."""
    async with _lock(interaction):
        _answering(interaction)
        if interaction.message is not None:  # its token edits the clicked message now
            shows(interaction, interaction.message.id)
        if not interaction.response.is_done():
            await interaction.response.edit_message(**fields)
            _first_answer(interaction)
            return
        await interaction.edit_original_response(**fields)


async def send(
    interaction: discord.Interaction[Any], content: str | None = None, **fields: Any
) -> int | None:
    """Answer with a new message (``ephemeral=True``: only the user sees it); its id."""
    async with _lock(interaction):
        _answering(interaction)
        if not interaction.response.is_done():
            response = await interaction.response.send_message(content, **fields)
            _first_answer(interaction)
            shows(interaction, response.message_id)
            return response.message_id
        if interaction.type is not discord.InteractionType.component and deferred(interaction):
            # the guard's "thinking" answer becomes this one (its privacy was set then)
            fields.pop("ephemeral", None)
            message = await interaction.edit_original_response(content=content, **_for_edit(fields))
            shows(interaction, message.id)
            return message.id
        sent = await interaction.followup.send(
            content if content is not None else discord.utils.MISSING, wait=True, **fields
        )
        followed(interaction, sent.id)
        return sent.id


def _for_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """``send_message`` arguments as ``edit_original_response`` takes them."""
    out = dict(fields)
    files = list(out.pop("files", None) or [])
    if "file" in out:
        files.append(out.pop("file"))
    if files:
        out["attachments"] = files
    return out
