"""A copy of a running bot's SQLite file (``python -m bot backup FILE``).

SQLite's online backup API copies the database page by page as one consistent snapshot,
while the bot goes on writing (in WAL mode a reader never blocks the writer): a plain file
copy of a live WAL database can miss the commits still in its ``-wal`` file, or catch a page
half-written. The copy is then checked (``PRAGMA integrity_check``) and counted.

The copy is the file as it is, at whatever schema version it has: it needs no knowledge of
the schema, so a database of any older version (one to be upgraded) is backed up before the
upgrade; its summary counts only the tables that version has.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
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
    ``target`` must not exist; the copy is written as ``target.partial`` (only this user may
    read it: it holds every player's games), made durable, then put in place; a failed copy
    leaves nothing there. An existing ``target.partial`` (another backup running, or one cut
    short) is refused, not overwritten."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source} (DATABASE_PATH)")
    if target.exists():
        raise BackupError(f"{target} exists already: give the backup a new name")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent} to put the backup in")
    partial = target.with_name(target.name + ".partial")
    try:
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise BackupError(
            f"{partial} exists already: another backup to {target.name} is running, or one "
            f"was cut short; if none is running, delete {partial.name} and try again"
        ) from None
    except OSError as exc:
        raise BackupError(f"cannot write {partial}: {exc.strerror}") from None
    try:
        live = sqlite3.connect(_uri(source, "ro"), uri=True)
        try:
            copy = sqlite3.connect(_uri(partial, "rw"), uri=True)
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
        _fsync(partial)
        _put_in_place(partial, target)
        _fsync(target.parent)  # the new name survives a power cut too
    except sqlite3.Error as exc:
        raise BackupError(f"cannot copy {source}: {exc}") from exc
    except OSError as exc:
        raise BackupError(f"cannot write {target}: {exc.strerror}") from exc
    finally:
        partial.unlink(missing_ok=True)  # ours: made above with O_EXCL
    version, games, rows = summary
    return Backup(target, target.stat().st_size, version, games, rows)


def _uri(path: Path, mode: str) -> str:
    """A SQLite URI for ``path``, whatever it holds (``?``, ``#`` and ``%`` are quoted)."""
    return f"file:{urllib.parse.quote(str(path.absolute()), safe='/')}?mode={mode}"


def _fsync(path: Path) -> None:
    """Wait until ``path`` (a file, or a folder's list of names) is on the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _put_in_place(partial: Path, target: Path) -> None:
    """``partial`` renamed to ``target``, never over a file made there meanwhile (a hard
    link fails if the name is taken; where links are not supported, a rename)."""
    try:
        os.link(partial, target)
    except FileExistsError:
        raise BackupError(f"{target} exists already: give the backup a new name") from None
    except OSError:
        if target.exists():
            raise BackupError(f"{target} exists already: give the backup a new name") from None
        partial.replace(target)


def _summary(db: sqlite3.Connection) -> tuple[int, dict[str, int], dict[str, int]]:
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    present = {
        str(name) for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    games = {}
    if "games" in present:  # an older schema lacks the tables later migrations add
        games = {
            str(status): int(count)
            for status, count in db.execute("SELECT status, COUNT(*) FROM games GROUP BY status")
        }
    rows = {
        table: int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])  # names above
        for table in _COUNTED
        if table in present
    }
    return version, games, rows
