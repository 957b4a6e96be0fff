"""A copy of a running bot's SQLite file (``python -m bot backup FILE``).

SQLite's online backup API copies the database page by page as one consistent snapshot,
while the bot goes on writing (in WAL mode a reader never blocks the writer): a plain file
copy of a live WAL database can miss the commits still in its ``-wal`` file, or catch a page
half-written. The copy is then checked (``PRAGMA integrity_check``) and counted.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

#: What a summary counts: the games by status, and the rows of the tables that grow.
_COUNTED = ("moves", "results", "daily_results")


class BackupError(Exception):
    """The copy cannot be made, or is not sound (the message says why)."""


@dataclass(frozen=True, slots=True)
class Backup:
    """What a copy holds."""

    path: Path
    size: int  # bytes
    schema_version: int
    games: dict[str, int]  # status -> how many
    rows: dict[str, int]  # table -> how many


def backup_sqlite(source: Path, target: Path) -> Backup:
    """Copy ``source`` (a SQLite file, in use or not) to ``target``, check and count it.
    ``target`` must not exist; a failed copy leaves nothing there."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source} (DATABASE_PATH)")
    if target.exists():
        raise BackupError(f"{target} exists already: give the backup a new name")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent} to put the backup in")
    partial = target.with_name(target.name + ".partial")
    try:
        live = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            copy = sqlite3.connect(partial)
            try:
                live.backup(copy)
                checked = copy.execute("PRAGMA integrity_check").fetchall()
                if checked != [("ok",)]:
                    raise BackupError(f"the copy is not sound: {checked[:3]}")
                summary = _summary(copy)
            finally:
                copy.close()
        finally:
            live.close()
        partial.replace(target)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot copy {source}: {exc}") from exc
    finally:
        partial.unlink(missing_ok=True)
    version, games, rows = summary
    return Backup(target, target.stat().st_size, version, games, rows)


def _summary(db: sqlite3.Connection) -> tuple[int, dict[str, int], dict[str, int]]:
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    games = {
        str(status): int(count)
        for status, count in db.execute("SELECT status, COUNT(*) FROM games GROUP BY status")
    }
    rows = {
        table: int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])  # names above
        for table in _COUNTED
    }
    return version, games, rows
