"""The request a change answers (a click or a command), so that it is made once.

Discord can deliver one click to two processes: while a deploy overlaps the old and the new
process, or two sessions of one shard. Both would make the move. So the first change a
request makes carries the request's id into the move log, where a unique index refuses a
second one (``AlreadyApplied``); the process that loses stays silent and lets the other
answer.

The Discord glue says which request its task is handling (``begin``, first thing in the
task that handles it); the service reads it where it saves (``claim``). A context variable,
so that no service method has to pass the id along; a task started while handling (a
computer player's turn) inherits it, but the request's id goes to its first change only.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(slots=True)
class Request:
    """One click or command being handled here."""

    id: int
    recorded: bool = False  # its first change is saved, by this process


_CURRENT: ContextVar[Request | None] = ContextVar("request", default=None)


class AnsweredElsewhere(Exception):
    """Another process received the same request and made its change: this one says nothing
    (Discord takes that process's answer)."""


def begin(request_id: int) -> None:
    """The current task handles ``request_id`` from here on (each request has its task)."""
    _CURRENT.set(Request(request_id))


def claim() -> int | None:
    """The id for the change about to be saved: the request's, if it has made none yet."""
    request = _CURRENT.get()
    return None if request is None or request.recorded else request.id


def recorded() -> None:
    """The change saved with ``claim()``'s id is committed."""
    request = _CURRENT.get()
    if request is not None:
        request.recorded = True


def current() -> Request | None:
    """The request being handled, if any."""
    return _CURRENT.get()
