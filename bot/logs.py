"""Logging set up for people or for machines, with what a line is about.

``LOG_FORMAT=text`` (the default) is discord.py's coloured console format; ``LOG_FORMAT=json``
writes one JSON object a line (``python-json-logger``) for a log collector. Either way a line
logged while the bot handles an interaction or works on a game carries its ids: the handler
calls ``bind`` (interaction, guild, shard, game), the service ``about_game``; they live in
context variables, so each asyncio task (one per interaction) keeps its own.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from contextvars import ContextVar

from pythonjsonlogger.json import JsonFormatter

#: The ids a line is about, where known (None: not known in this task).
FIELDS = ("game_id", "interaction_id", "guild_id", "shard_id")
_CONTEXT: dict[str, ContextVar[int | None]] = {
    name: ContextVar(name, default=None) for name in FIELDS
}


def bind(**ids: int | None) -> None:
    """Say what the rest of this task is about (``interaction_id=..., guild_id=...``)."""
    for name, value in ids.items():
        _CONTEXT[name].set(value)


@contextlib.contextmanager
def about_game(game_id: int) -> Iterator[None]:
    """Lines logged inside are about ``game_id`` (then what they were about before)."""
    token = _CONTEXT["game_id"].set(game_id)
    try:
        yield
    finally:
        _CONTEXT["game_id"].reset(token)


class ContextFilter(logging.Filter):
    """Puts the task's ids on every record (as attributes; the JSON format shows the set
    ones)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, var in _CONTEXT.items():
            value = var.get()
            if value is not None and not hasattr(record, name):
                setattr(record, name, value)
        return True


class _Json(JsonFormatter):
    def add_fields(
        self,
        log_data: dict[str, object],
        record: logging.LogRecord,
        message_dict: dict[str, object],
    ) -> None:
        super().add_fields(log_data, record, message_dict)
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                log_data[name] = str(value)  # snowflakes exceed JavaScript's integers


class _Masked(logging.Formatter):
    """Another formatter's lines with each secret (the token, the database's password)
    replaced by ``***``, tracebacks included: a library that puts one in an error message
    cannot put it in the log."""

    def __init__(self, inner: logging.Formatter, secrets: tuple[str, ...]) -> None:
        super().__init__()
        self.inner = inner
        self.secrets = tuple(sorted(set(secrets), key=len, reverse=True))

    def format(self, record: logging.LogRecord) -> str:
        line = self.inner.format(record)
        for secret in self.secrets:
            line = line.replace(secret, "***")
        return line


def setup(level: int, form: str = "text", secrets: tuple[str, ...] = ()) -> None:
    """Log to standard error at ``level`` in ``form`` ("text" or "json"), never showing
    ``secrets``."""
    handler: logging.Handler
    if form == "json":
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(
            _Json(
                "%(asctime)s %(levelname)s %(name)s %(message)s",
                rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
            )
        )
        root = logging.getLogger()
        root.handlers[:] = [handler]
        root.setLevel(level)
    else:
        import discord  # here: the service logs through this module without Discord

        discord.utils.setup_logging(level=level, root=True)
        handler = logging.getLogger().handlers[-1]
    handler.addFilter(ContextFilter())
    if secrets:
        handler.setFormatter(_Masked(handler.formatter or logging.Formatter(), secrets))
    logging.getLogger("discord").setLevel(max(level, logging.INFO))
