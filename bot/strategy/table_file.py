"""The solved table on disk: float32, with a format version and a checksum; and the To-win
bot's distributions (``distribution.Distributions``), packed and compressed.

File layout: the magic line, one JSON header line (format, rules, shape, sha256 of the
payload), then the payload (little-endian float32): the expected scores. A file that does
not match is ignored and the table is rebuilt.

A distributions file is read once into an uncompressed copy beside it (``.unpacked``),
which every later load maps into memory rather than reads: its pages are the file's, shared
by every process that maps it and given back by the kernel under memory pressure (the file
is still there to read them again), where an inflated copy in each process's own memory
would count against a small host until an out-of-memory kill.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import secrets
import shutil
import tempfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .distribution import LENGTH, QUANTUM, Distributions
from .distribution_build import Builder
from .solver import solve
from .states import BOXES, MASKS, UPPER_CAP, Table, flag_count

MAGIC = b"YAHTZEE-STRATEGY\n"
FORMAT = 1


def shape_of(rules: str) -> tuple[int, int, int]:
    """The table's shape under ``rules``: (filled boxes, upper total, Yahtzee flag)."""
    return (MASKS, UPPER_CAP + 1, flag_count(rules))


class TableFileError(ValueError):
    """A saved table that cannot be used (missing, another format, damaged)."""


def table_path(folder: Path, rules: str) -> Path:
    """Where the table for ``rules`` (a preset's name) lives in ``folder``: one file each."""
    return folder / f"strategy-{rules}-v{FORMAT}.bin"


def save(table: Table, path: Path) -> None:
    """Write atomically: a crash mid-write leaves the old file or none, never half of one."""
    payload = np.ascontiguousarray(table.value, dtype="<f4").tobytes()
    header = {
        "format": FORMAT,
        "rules": table.rules,
        "shape": list(shape_of(table.rules)),
        "expected_score": table.expected_score,  # the empty card's value in full precision
    }
    _write(path, MAGIC, header, payload)


def _scratch(path: Path, suffix: str) -> Path:
    """A scratch file beside ``path`` that no other writer uses: two processes saving the same
    file at once (two shards, two test workers) must not write into each other's."""
    return path.with_name(f"{path.name}.{os.getpid()}-{secrets.token_hex(4)}{suffix}")


def _write(path: Path, magic: bytes, header: dict[str, object], payload: bytes) -> None:
    """Magic, header (with the payload's checksum) and payload, written atomically: a crash
    mid-write leaves the old file or none, never half of one."""
    header = {**header, "sha256": hashlib.sha256(payload).hexdigest()}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _scratch(path, ".tmp")
    with open(tmp, "wb") as f:
        f.write(magic + json.dumps(header).encode() + b"\n" + payload)
    os.replace(tmp, path)


def _read(path: Path, magic: bytes, what: str, fits: Callable[[dict[str, Any]], bool]) -> tuple[
    dict[str, Any], memoryview
]:  # fmt: skip
    """The header and checked payload of a file written by ``_write``, or ``TableFileError``
    saying why it cannot be used (``fits``: whether the header is the one wanted)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TableFileError(f"cannot read {path}: {exc}") from exc
    if not data.startswith(magic):
        raise TableFileError(f"{path} is not a {what}")
    end = data.find(b"\n", len(magic))
    try:
        header = json.loads(data[len(magic) : end])
    except ValueError as exc:
        raise TableFileError(f"{path} has a damaged header") from exc
    if not isinstance(header, dict):
        raise TableFileError(f"{path} has a damaged header")
    payload = memoryview(data)[end + 1 :]  # not a copy
    if not fits(header):
        raise TableFileError(f"{path} holds another {what} ({header})")
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise TableFileError(f"{path} is damaged (checksum mismatch)")
    return header, payload


def load(path: Path, rules: str) -> Table:
    """Read a saved table, or raise ``TableFileError`` saying why it cannot be used."""
    header, payload = _read(
        path, MAGIC, "strategy table",
        lambda h: h.get("format") == FORMAT and h.get("rules") == rules
        and h.get("shape") == list(shape_of(rules)),
    )  # fmt: skip
    value = np.frombuffer(payload, dtype="<f4").astype(np.float64).reshape(shape_of(rules))
    if isinstance(header.get("expected_score"), float):
        value[0, 0, 0] = header["expected_score"]
    return Table(rules, value)


def load_or_build(
    folder: Path, rules: str = "official", rebuild: bool = False
) -> tuple[Table, bool]:
    """The table for ``rules``: loaded, or (when missing, damaged or ``rebuild``) solved,
    saved and read back. Returns the table and whether it was built."""
    path = table_path(folder, rules)
    if not rebuild:
        try:
            return load(path, rules), False
        except TableFileError:
            pass
    save(solve(rules), path)
    # As saved (float32): the same values before and after a restart, and for everything
    # built from them (the To-win bot's distributions follow the table's choices).
    return load(path, rules), True


# -- the To-win bot's distributions -------------------------------------------------------

DISTRIBUTIONS_MAGIC = b"YAHTZEE-DISTRIBUTIONS\n"
DISTRIBUTIONS_FORMAT = 1
_PACKED = (  # Distributions' arrays, in file order, with their on-disk types
    ("ids", "<i4"),
    ("offset", "<i8"),
    ("lo", "<i2"),
    ("width", "<i2"),
    ("wide", "|b1"),
    ("steps8", "|u1"),
    ("steps16", "<u2"),
)


def distributions_path(folder: Path, rules: str) -> Path:
    """Where the distributions for ``rules`` live in ``folder``."""
    return folder / f"distributions-{rules}-v{DISTRIBUTIONS_FORMAT}.bin"


def save_distributions(dists: Distributions, path: Path) -> None:
    """Write atomically, compressed (about 35 MB for every state)."""
    arrays = [np.ascontiguousarray(getattr(dists, name), dtype=kind) for name, kind in _PACKED]
    _write_distributions(path, dists.rules, dists.open_boxes, [a.tobytes() for a in arrays])


def _write_distributions(
    path: Path, rules: str, open_boxes: int, parts: list[bytes | Path]
) -> None:
    """The file of ``_PACKED``'s arrays, each given as its bytes or a file holding them,
    compressed and hashed as a stream (never the whole payload in memory), written
    atomically."""
    sizes = []
    for (_, kind), part in zip(_PACKED, parts, strict=True):
        size = len(part) if isinstance(part, bytes) else part.stat().st_size
        sizes.append(size // np.dtype(kind).itemsize)
    header = {
        "format": DISTRIBUTIONS_FORMAT,
        "rules": rules,
        "open_boxes": open_boxes,
        "quantum": QUANTUM,
        "length": LENGTH,
        "sizes": sizes,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    body = _scratch(path, ".payload")
    digest = hashlib.sha256()
    packer = zlib.compressobj(6)
    with open(body, "wb") as out:

        def put(data: bytes) -> None:
            digest.update(data)
            out.write(data)

        for part in parts:
            if isinstance(part, bytes):
                put(packer.compress(part))
                continue
            with open(part, "rb") as f:
                while block := f.read(1 << 20):
                    put(packer.compress(block))
        put(packer.flush())
    header["sha256"] = digest.hexdigest()
    tmp = _scratch(path, ".tmp")
    with open(tmp, "wb") as whole, open(body, "rb") as payload:
        whole.write(DISTRIBUTIONS_MAGIC + json.dumps(header).encode() + b"\n")
        shutil.copyfileobj(payload, whole, 1 << 20)
    os.replace(tmp, path)
    body.unlink()


def build_distributions(table: Table, path: Path, open_boxes: int = BOXES) -> None:
    """Solve the distributions of ``table``'s states with at most ``open_boxes`` turns to
    play and save them to ``path``, streaming: the packed functions go to scratch files
    beside ``path`` as they are done, and each level's 16-bit functions too until the level
    below is let go, so the build holds one level at a time (with the worker it forks, 189
    MiB at its peak for all 13 turns of official, 245 MiB for bonus-turn), not the whole
    file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".distributions-") as scratch:
        packer, ids = Builder(table).run(open_boxes, spill=Path(scratch))
        small = [
            np.ascontiguousarray(ids, dtype="<i4").tobytes(),
            np.asarray(packer.offset, dtype="<i8").tobytes(),
            np.asarray(packer.lo, dtype="<i2").tobytes(),
            np.asarray(packer.width, dtype="<i2").tobytes(),
            np.asarray(packer.wide, dtype="|b1").tobytes(),
        ]
        del ids
        _write_distributions(
            path, table.rules, open_boxes,
            [*small, packer.spill_path(False), packer.spill_path(True)],
        )  # fmt: skip


def load_distributions(path: Path, rules: str) -> Distributions:
    """Read saved distributions (every state's, or a partial build's: the last turns'), or
    raise ``TableFileError`` saying why they cannot be used. The file is checked, then its
    uncompressed copy (``unpacked_path``, made the first time, checked too) is mapped; where
    the copy cannot be written (a read-only folder, a full disk) the file is inflated into
    memory instead."""
    fits = _distributions_fit(rules)
    header, payload = _read(path, DISTRIBUTIONS_MAGIC, "distributions file", fits)
    raw: memoryview | bytearray | None = _mapped(unpacked_path(path), header)
    if raw is None:
        raw = _unpack(path, payload, header)
    del payload
    arrays, at = [], 0
    for (_, kind), size in zip(_PACKED, header["sizes"], strict=True):
        dtype = np.dtype(kind)
        arrays.append(np.frombuffer(raw, dtype=dtype, count=size, offset=at))
        at += size * dtype.itemsize
    arrays[0] = arrays[0].reshape(shape_of(rules))
    ids, offset, lo, width, wide, steps8, steps16 = arrays
    open_boxes = int(header["open_boxes"])
    return Distributions(rules, open_boxes, ids, offset, lo, width, wide, steps8, steps16)


def _distributions_fit(rules: str) -> Callable[[dict[str, Any]], bool]:
    return lambda h: (
        h.get("format") == DISTRIBUTIONS_FORMAT and h.get("rules") == rules
        and h.get("open_boxes") in range(1, BOXES + 1) and h.get("quantum") == QUANTUM
        and h.get("length") == LENGTH
    )  # fmt: skip


def unpacked_path(path: Path) -> Path:
    """The uncompressed copy of the distributions file ``path`` (made by the first load)."""
    return path.with_suffix(".unpacked")


UNPACKED_MAGIC = b"YAHTZEE-DISTRIBUTIONS-UNPACKED\n"
#: The copy's header takes one page: the arrays that follow start on a page of their own.
_UNPACKED_HEADER = 4096


def _peek(
    path: Path, magic: bytes, what: str, fits: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The header of a file written by ``_write`` or ``_write_distributions``, read alone
    (the payload is neither read nor checked), or ``TableFileError``."""
    try:
        with open(path, "rb") as f:
            head = f.read(_UNPACKED_HEADER)
    except OSError as exc:
        raise TableFileError(f"cannot read {path}: {exc}") from exc
    end = head.find(b"\n", len(magic))
    if not head.startswith(magic) or end < 0:
        raise TableFileError(f"{path} is not a {what}")
    try:
        header = json.loads(head[len(magic) : end])
    except ValueError as exc:
        raise TableFileError(f"{path} has a damaged header") from exc
    if not isinstance(header, dict) or not fits(header):
        raise TableFileError(f"{path} holds another {what} ({header})")
    return header


def _size_of(path: Path, sizes: Any) -> int:
    """The bytes of the arrays ``sizes`` counts (a header's ``sizes``)."""
    try:
        return sum(int(n) * np.dtype(kind).itemsize for (_, kind), n in zip(
            _PACKED, sizes, strict=True))  # fmt: skip
    except (TypeError, ValueError) as exc:
        raise TableFileError(f"{path} has a damaged header") from exc


def _mapped(copy: Path, header: dict[str, Any]) -> memoryview | None:
    """The arrays of ``copy`` mapped read-only, if it is the whole and unchanged uncompressed
    copy of the file whose header is ``header`` (it names that file's payload checksum, and
    its own arrays' checksum holds); None otherwise."""
    try:
        mine = _peek(copy, UNPACKED_MAGIC, "copy", lambda h: h.get("of") == header["sha256"])
        with open(copy, "rb") as f:
            if os.fstat(f.fileno()).st_size != _UNPACKED_HEADER + _size_of(copy, header["sizes"]):
                return None
            whole = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, TableFileError, KeyError):
        return None
    arrays = memoryview(whole)[_UNPACKED_HEADER:]  # the mapping lives as long as its arrays
    if hashlib.sha256(arrays).hexdigest() != mine.get("sha256"):
        return None
    return arrays


def _unpack(path: Path, payload: memoryview, header: dict[str, Any]) -> memoryview | bytearray:
    """The checked payload of ``path`` decompressed into its copy (``unpacked_path``),
    written atomically and mapped; into memory where the copy cannot be written."""
    total = _size_of(path, header["sizes"])
    copy = unpacked_path(path)
    tmp = _scratch(copy, ".tmp")
    digest = hashlib.sha256()
    try:
        with open(tmp, "wb") as out:
            out.seek(_UNPACKED_HEADER)  # the header, with the arrays' checksum, last
            for block in _inflated(path, payload, total):
                digest.update(block)
                out.write(block)
            mine = {"of": header["sha256"], "sha256": digest.hexdigest()}
            head = UNPACKED_MAGIC + json.dumps(mine).encode() + b"\n"
            out.seek(0)
            out.write(head.ljust(_UNPACKED_HEADER, b" "))
        os.replace(tmp, copy)
    except OSError:
        tmp.unlink(missing_ok=True)
        return _inflate(path, payload, total)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    mapped = _mapped(copy, header)
    return mapped if mapped is not None else _inflate(path, payload, total)


def _inflate(path: Path, payload: memoryview, total: int) -> bytearray:
    """The payload decompressed straight into one buffer of ``total`` bytes, a megabyte at a
    time: never the whole of it twice (110 MB for official, 156 MB for bonus-turn)."""
    raw = bytearray(total)
    view, at = memoryview(raw), 0
    for block in _inflated(path, payload, total):
        view[at : at + len(block)] = block
        at += len(block)
    return raw


def _inflated(path: Path, payload: memoryview, total: int) -> Iterator[bytes]:
    """The payload decompressed, at most a megabyte at a time; ``TableFileError`` (after
    the last block) unless it comes to exactly ``total`` bytes."""
    inflater = zlib.decompressobj()
    at, block = 0, 1 << 20
    try:
        for start in range(0, len(payload), block):
            data = inflater.decompress(payload[start : start + block], block)
            while True:
                at += len(data)
                if at > total:
                    raise ValueError("more than the header says")
                yield data
                if not inflater.unconsumed_tail:
                    break
                data = inflater.decompress(inflater.unconsumed_tail, block)
        data = inflater.flush()
        at += len(data)
        if at > total:
            raise ValueError("more than the header says")
        yield data
    except (zlib.error, ValueError) as exc:
        raise TableFileError(f"{path} is damaged ({exc})") from exc
    if at != total or not inflater.eof:
        raise TableFileError(f"{path} is damaged (its arrays are not the sizes it says)")


def load_or_build_distributions(
    folder: Path, table: Table, rebuild: bool = False, open_boxes: int = BOXES
) -> tuple[Distributions, bool]:
    """The distributions for ``table``'s rules: loaded, or (when missing, damaged or
    ``rebuild``) solved from ``table`` for states with at most ``open_boxes`` open boxes
    and saved. Returns them and whether they were built."""
    path = distributions_path(folder, table.rules)
    if not rebuild:
        try:
            return load_distributions(path, table.rules), False
        except TableFileError:
            pass
    build_distributions(table, path, open_boxes)
    return load_distributions(path, table.rules), True
