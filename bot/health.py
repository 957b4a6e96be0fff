"""Health checks and the metrics, over HTTP: ``/metrics`` (``bot.metrics``), ``/healthz``
(the process and its event loop answer) and ``/readyz`` (every shard connected and the
database answering), served on the bot's own event loop (a stuck loop fails the health check
too) at ``METRICS_HOST:METRICS_PORT`` when ``METRICS_PORT`` is set."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import prometheus_client
from aiohttp import web

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Readiness:
    """Whether the bot can serve: each check says what is wrong, or None when it is fine."""

    shards: Callable[[], str | None]
    database: Callable[[], Awaitable[str | None]]
    refresh: Callable[[], Awaitable[None]]  # sets the gauges read at scrape time (no scan)


class MetricsServer:
    """``/metrics``, ``/healthz`` (the process and its event loop answer) and ``/readyz``
    (every shard connected and the database answering), over HTTP."""

    def __init__(self, readiness: Readiness, host: str, port: int) -> None:
        self.readiness = readiness
        self.host, self.port = host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        log.info("metrics and health checks on http://%s:%d/metrics", self.host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(self.readiness.refresh(), 5)
        except Exception:  # the figures from the database are left as they were
            log.warning("metrics: could not read the games' figures", exc_info=True)
        # Off the loop: the text of every series is built in a thread (the registry's
        # metrics lock themselves), so a large scrape never stalls the clicks.
        body = await asyncio.to_thread(prometheus_client.generate_latest)
        kind = prometheus_client.CONTENT_TYPE_LATEST
        return web.Response(body=body, headers={"Content-Type": kind})

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self, request: web.Request) -> web.Response:
        problems = [p for p in (self.readiness.shards(),) if p]
        try:
            database = await asyncio.wait_for(self.readiness.database(), 5)
        except Exception as exc:
            database = f"the database does not answer ({type(exc).__name__})"
        if database:
            problems.append(database)
        if problems:
            return web.Response(status=503, text="not ready: " + "; ".join(problems) + "\n")
        return web.Response(text="ready\n")
