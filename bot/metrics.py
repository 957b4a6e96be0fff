"""What an operator sees from outside: the Prometheus metrics.

They are ``prometheus_client`` objects in its default registry (which also carries the
process's own: CPU, memory, open files). The parts of the bot that do the work count here:
the Discord side its interactions and answers, the store its writes, the worker pools their
restarts. ``bot.health`` serves them.
"""

from __future__ import annotations

import logging
import re

from prometheus_client import Counter, Gauge, Histogram

INTERACTIONS = Counter(
    "yahtzee_interactions",
    "Clicks and commands handled, by kind (the control's key or the command's name) and "
    "outcome (ok, refused: the user was told why nothing changed, error: a bug was logged)",
    ["kind", "outcome"],
)
ANSWER_SECONDS = Histogram(
    "yahtzee_answer_seconds",
    "From Discord creating an interaction to the bot's answer (or acknowledgement) being "
    "accepted, by kind; Discord shows an error after 3 s",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0),
)
DEFERRED = Counter(
    "yahtzee_deferred_answers",
    "Interactions acknowledged first because their answer was not ready in time",
)
LATE = Counter(
    "yahtzee_late_answers",
    "Answers Discord refused as later than its 3 s window (the user saw an error)",
)
WAITING = Gauge(
    "yahtzee_interactions_waiting",
    "Clicks and commands waiting for one of the bot's working places (overload: each is "
    "acknowledged in time and answered when its turn comes)",
)
RATE_LIMITS = Counter("yahtzee_rate_limits", "HTTP 429 answers from Discord, by route", ["route"])
STORE_WRITES = Histogram(
    "yahtzee_store_write_seconds",
    "A unit of work handed to the database until it is committed",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
HELPER_RESTARTS = Counter(
    "yahtzee_helper_restarts",
    "Helper processes (drawing, analysis) that stopped and were replaced",
    ["helper"],
)
GAMES = Gauge(
    "yahtzee_games",
    "Games in the database by status (lobby, active, finished, abandoned), read when scraped",
    ["status"],
)
GATEWAY_LATENCY = Gauge(
    "yahtzee_gateway_latency_seconds", "Heartbeat latency of each gateway shard", ["shard"]
)
SHARDS_CONNECTED = Gauge(
    "yahtzee_shards_connected", "Gateway shards of this process that are connected"
)

_IDS = re.compile(r"/\d+")
_API = re.compile(r"^https?://[^/]+(/api/v\d+)?")


def route_of(url: str) -> str:
    """A request's route without its ids or host: ``/channels/{id}/messages/{id}``."""
    return _IDS.sub("/{id}", _API.sub("", url.split("?", 1)[0]))


class RateLimitCounter(logging.Handler):
    """Counts discord.py's rate-limit warnings (its only report of a 429) by route."""

    def emit(self, record: logging.LogRecord) -> None:
        message = str(record.msg)
        if "rate limited" not in message and "rate limit has been hit" not in message:
            return
        args = record.args if isinstance(record.args, tuple) else ()
        if message.startswith("We are being rate limited") and len(args) >= 2:
            RATE_LIMITS.labels(route_of(str(args[1]))).inc()
        elif "Global rate limit" in message:
            RATE_LIMITS.labels("global").inc()
        elif message.startswith("Webhook ID"):
            RATE_LIMITS.labels("webhook").inc()


def count_rate_limits() -> None:
    """Attach the rate-limit counter to discord.py's HTTP loggers (once)."""
    for name in ("discord.http", "discord.webhook.async_"):
        logger = logging.getLogger(name)
        if not any(isinstance(h, RateLimitCounter) for h in logger.handlers):
            logger.addHandler(RateLimitCounter(logging.WARNING))
