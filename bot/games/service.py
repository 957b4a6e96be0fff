"""The game service, assembled from its topics."""

from __future__ import annotations

from .daily import DailyService


class GameService(DailyService):
    """Lobbies and games of every channel, backed by a ``Store``.

    Each topic is a layer in its own module, and each layer may use the ones below it:
    ``core`` (saving, locking, drawing) < ``records`` (what is shown where, lookups) <
    ``coaching`` (hints, the value of decisions) < ``lobby`` < ``turns`` < ``timers`` <
    ``servers`` (settings, ending games) < ``daily`` (the daily challenge).
    """
