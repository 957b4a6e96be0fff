"""A clock the tests move by hand: no real sleeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class FakeClock:
    """Call it for the time; ``advance`` moves it on."""

    def __init__(self, start: datetime = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
