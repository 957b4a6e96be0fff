"""The move log: each game's accepted moves, what each decision cost, and retention."""

from __future__ import annotations

from collections.abc import Sequence

from ..records import MAX_ID, Decision, LoggedMove
from ..sql import Plan, ReadPlan, WritePlan, all_rows, each_row, now, one_row, shape_of

MOVE = shape_of(LoggedMove)
DECISION = shape_of(Decision)


@ReadPlan
def moves(game_id: int) -> Plan[list[LoggedMove]]:
    """The move log of a game, oldest first."""
    rows = yield from all_rows(
        f"SELECT {MOVE.columns} FROM moves WHERE game_id = ? ORDER BY version", (game_id,)
    )
    return [MOVE(r) for r in rows]


@ReadPlan
def has_moves(game_id: int) -> Plan[bool]:
    """Whether a game's move log holds anything (every game's holds its opening, until
    retention prunes a finished game's)."""
    row = yield from one_row("SELECT 1 FROM moves WHERE game_id = ? LIMIT 1", (game_id,))
    return row is not None


@ReadPlan
def logged(game_id: int, action: str, detail: str) -> Plan[bool]:
    """Whether the game's log holds a move ``action`` with ``detail``."""
    row = yield from one_row(
        "SELECT 1 FROM moves WHERE game_id = ? AND action = ? AND detail = ? LIMIT 1",
        (game_id, action, detail),
    )
    return row is not None


@ReadPlan
def decisions(game_id: int, user_id: int) -> Plan[list[Decision]]:
    """A player's moves in a game with what each cost, in order."""
    rows = yield from all_rows(
        f"SELECT {DECISION.columns} FROM moves WHERE game_id = ? AND user_id = ? ORDER BY version",
        (game_id, user_id),
    )
    return [DECISION(r) for r in rows]


@ReadPlan
def request_recorded(request_id: int) -> Plan[bool]:
    """Whether a move answering this request (a click, a command) is in the log."""
    if not 0 < request_id <= MAX_ID:
        return False
    row = yield from one_row("SELECT 1 FROM moves WHERE request_id = ?", (request_id,))
    return row is not None


@WritePlan
def set_move_costs(costs: Sequence[tuple[int, int, float, str]]) -> Plan[None]:
    """Add what decisions cost against optimal play to their move-log entries:
    (game, version, loss, the decision in words) each."""
    yield from each_row(
        "UPDATE moves SET loss = ?, decision = ? WHERE game_id = ? AND version = ?",
        [(loss, decision, game_id, version) for game_id, version, loss, decision in costs],
    )


@WritePlan
def prune_moves(finished_before: str, games: int) -> Plan[int]:
    """Delete the move logs of up to ``games`` games that ended (finished or abandoned)
    before ``finished_before`` and still have one; how many games were pruned. Results,
    leaderboards and the games' rows stay. The games are read from an index of those whose
    log is kept (games_to_prune), oldest first: a batch reads only what it prunes."""
    rows = yield from all_rows(
        "SELECT id FROM games WHERE status IN ('finished', 'abandoned') "
        "AND moves_pruned_at IS NULL AND finished_at < ? ORDER BY finished_at LIMIT ?",
        (finished_before, games),
    )
    ids = [int(r[0]) for r in rows]
    if ids:
        marks = ", ".join("?" for _ in ids)
        yield from all_rows(f"DELETE FROM moves WHERE game_id IN ({marks})", ids)
        yield from all_rows(
            f"UPDATE games SET moves_pruned_at = ? WHERE id IN ({marks})", [now(), *ids]
        )
    return len(ids)
