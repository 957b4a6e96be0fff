"""The solved table on disk: float32, with a format version and a checksum.

File layout: the magic line, one JSON header line (format, rules, shape, sha256 of the
payload), then the payload (little-endian float32). A file that does not match is ignored
and the table is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from .solver import MASKS, UPPER_CAP, Table, solve

MAGIC = b"YAHTZEE-STRATEGY\n"
FORMAT = 1
SHAPE = (MASKS, UPPER_CAP + 1, 2)


class TableFileError(ValueError):
    """A saved table that cannot be used (missing, another format, damaged)."""


def table_path(folder: Path, rules: str) -> Path:
    """Where the table for ``rules`` lives in ``folder``."""
    return folder / f"strategy-{rules}-v{FORMAT}.bin"


def save(table: Table, path: Path) -> None:
    """Write atomically: a crash mid-write leaves the old file or none, never half of one."""
    payload = np.ascontiguousarray(table.value, dtype="<f4").tobytes()
    header = {
        "format": FORMAT,
        "rules": table.rules,
        "shape": list(SHAPE),
        "sha256": hashlib.sha256(payload).hexdigest(),
        "expected_score": table.expected_score,  # the empty card's value in full precision
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        f.write(MAGIC + json.dumps(header).encode() + b"\n" + payload)
    os.replace(tmp, path)


def load(path: Path, rules: str) -> Table:
    """Read a saved table, or raise ``TableFileError`` saying why it cannot be used."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TableFileError(f"cannot read {path}: {exc}") from exc
    if not data.startswith(MAGIC):
        raise TableFileError(f"{path} is not a strategy table")
    end = data.find(b"\n", len(MAGIC))
    try:
        header = json.loads(data[len(MAGIC) : end])
    except ValueError as exc:
        raise TableFileError(f"{path} has a damaged header") from exc
    payload = data[end + 1 :]
    if (
        header.get("format") != FORMAT
        or header.get("rules") != rules
        or header.get("shape") != list(SHAPE)
    ):
        raise TableFileError(f"{path} holds another table ({header})")
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise TableFileError(f"{path} is damaged (checksum mismatch)")
    value = np.frombuffer(payload, dtype="<f4").astype(np.float64).reshape(SHAPE)
    if isinstance(header.get("expected_score"), float):
        value[0, 0, 0] = header["expected_score"]
    return Table(rules, value)


def load_or_build(
    folder: Path, rules: str = "official", rebuild: bool = False
) -> tuple[Table, bool]:
    """The table for ``rules``: loaded, or (when missing, damaged or ``rebuild``) solved and
    saved. Returns the table and whether it was built."""
    path = table_path(folder, rules)
    if not rebuild:
        try:
            return load(path, rules), False
        except TableFileError:
            pass
    table = solve(rules)
    save(table, path)
    return table, True
