"""The solved table on disk: float32, with a format version and a checksum.

File layout: the magic line, one JSON header line (format, rules, shape, whether it holds
moments, sha256 of the payload), then the payload (little-endian float32): the expected
scores, and in a *moments* table (the To-win bot's) the expected squares after them. A file
that does not match is ignored and the table is rebuilt.
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


def table_path(folder: Path, rules: str, moments: bool = False) -> Path:
    """Where the table for ``rules`` lives in ``folder`` (``moments``: the one with expected
    squares too)."""
    return folder / f"strategy-{rules}{'-moments' if moments else ''}-v{FORMAT}.bin"


def save(table: Table, path: Path, moments: bool = False) -> None:
    """Write atomically: a crash mid-write leaves the old file or none, never half of one.
    ``moments``: with the expected squares (the table must have them)."""
    if moments and table.square is None:
        raise ValueError("a moments table needs the expected squares (solve with variance)")
    arrays = [table.value, table.square] if moments else [table.value]
    payload = b"".join(np.ascontiguousarray(a, dtype="<f4").tobytes() for a in arrays)
    header = {
        "format": FORMAT,
        "rules": table.rules,
        "shape": list(SHAPE),
        "moments": moments,
        "sha256": hashlib.sha256(payload).hexdigest(),
        "expected_score": table.expected_score,  # the empty card's value in full precision
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        f.write(MAGIC + json.dumps(header).encode() + b"\n" + payload)
    os.replace(tmp, path)


def load(path: Path, rules: str, moments: bool = False) -> Table:
    """Read a saved table (``moments``: one with expected squares), or raise
    ``TableFileError`` saying why it cannot be used."""
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
        or bool(header.get("moments")) != moments
    ):
        raise TableFileError(f"{path} holds another table ({header})")
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise TableFileError(f"{path} is damaged (checksum mismatch)")
    arrays = np.frombuffer(payload, dtype="<f4").astype(np.float64).reshape((-1, *SHAPE))
    value = arrays[0]
    if isinstance(header.get("expected_score"), float):
        value[0, 0, 0] = header["expected_score"]
    return Table(rules, value, arrays[1] if moments else None)


def load_or_build(
    folder: Path, rules: str = "official", rebuild: bool = False, moments: bool = False
) -> tuple[Table, bool]:
    """The table for ``rules`` (``moments``: with expected squares): loaded, or (when
    missing, damaged or ``rebuild``) solved and saved. Returns the table and whether it was
    built."""
    path = table_path(folder, rules, moments)
    if not rebuild:
        try:
            return load(path, rules, moments), False
        except TableFileError:
            pass
    table = solve(rules, variance=moments)
    save(table, path, moments)
    return table, True
