"""How a build keeps survival functions: each distinct one once, quantized and cut to the
steps where it falls, for the file (``Packer``) and, 16-bit, for the level above
(``LevelPacker``)."""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
from array import array
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from .dice_space import dice_space
from .distribution import LENGTH, QUANTUM, Distributions
from .states import IntArray


def _digests(rows: npt.NDArray[np.uint16]) -> list[bytes]:
    """Each row's 128-bit digest (two of a level's ~200,000 rows alike by chance: 1 in
    10^28), by which a packer knows a function it already holds."""
    data = np.ascontiguousarray(rows).tobytes()
    size = rows.shape[1] * rows.itemsize
    return [
        hashlib.blake2b(data[at : at + size], digest_size=16).digest()
        for at in range(0, len(data), size)
    ]


def _firsts(keys: list[bytes]) -> list[int]:
    """The positions of each key's first appearance, in order."""
    seen: set[bytes] = set()
    out = []
    for at, key in enumerate(keys):
        if key not in seen:
            seen.add(key)
            out.append(at)
    return out


def _assign(known: dict[bytes, int], keys: list[bytes], first: int) -> tuple[list[int], set[bytes]]:
    """Each key's id among the functions ``known``, new keys given the ids from ``first`` on
    in the order they first appear. Returns the ids and the new keys."""
    ids: list[int] = []
    new: set[bytes] = set()
    for key in keys:
        ident = known.get(key)
        if ident is None:
            ident = known[key] = first + len(new)
            new.add(key)
        ids.append(ident)
    return ids, new


def _runs(
    values: npt.NDArray[np.integer], lo: npt.NDArray[np.integer], hi: npt.NDArray[np.integer]
) -> npt.NDArray[np.integer]:
    """Row ``i``'s ``values[i, lo[i]:hi[i]]``, all laid end to end."""
    columns = np.arange(values.shape[1])
    inside = (columns >= lo[:, None]) & (columns < hi[:, None])
    out: npt.NDArray[np.integer] = values[inside]
    return out


def _pick_runs(
    data: npt.NDArray[Any], width: npt.NDArray[np.integer], take: npt.NDArray[np.bool_]
) -> npt.NDArray[Any]:
    """Of runs laid end to end (run ``i`` ``width[i]`` long), the ones ``take`` says."""
    out: npt.NDArray[Any] = data if take.all() else data[np.repeat(take, width)]
    return out


@dataclass
class FileRows:
    """Functions quantized for the file (``Packer``), each distinct one once: every state's
    function as a key (its digest), and the rows of the keys as first met, packed: steps
    from ``lo`` on, ``width`` of them, two bytes each (``big``, in ``data16``) or one (in
    ``data8``), laid end to end in the order of ``keys_sent``."""

    keys: list[bytes]
    keys_sent: list[bytes]
    lo: npt.NDArray[np.int64]
    width: npt.NDArray[np.int64]
    big: npt.NDArray[np.bool_]
    data8: npt.NDArray[np.uint8]
    data16: npt.NDArray[np.uint16]

    @classmethod
    def of(cls, survival: npt.NDArray[np.floating]) -> FileRows:
        q = np.rint(survival.astype(np.float64) * QUANTUM).astype(np.int16)  # 0 to QUANTUM
        q = np.minimum.accumulate(q, axis=1)  # rounding never makes a function rise
        # A row is known by its steps and where they start, that is by the row itself.
        keys = _digests(q.view(np.uint16))
        firsts = _firsts(keys)
        q = q[firsts]
        # Before ``lo`` (the last QUANTUM: survival[0] is 1) and from ``hi`` (the first 0)
        # on, the steps are 0.
        los = np.count_nonzero(q >= QUANTUM, axis=1) - 1
        his = np.count_nonzero(q > 0, axis=1)
        steps = np.empty_like(q)
        np.subtract(q[:, :-1], q[:, 1:], out=steps[:, :-1])
        steps[:, -1] = q[:, -1]
        bigs = steps.max(axis=1) > 255
        data8 = _runs(steps[~bigs], los[~bigs], his[~bigs]).astype(np.uint8)
        data16 = _runs(steps[bigs], los[bigs], his[bigs]).astype(np.uint16)
        return cls(keys, [keys[i] for i in firsts], los, his - los, bigs, data8, data16)


@dataclass
class LevelRows:
    """A level's functions as 16-bit rows (``LevelPacker``), each distinct one once: every
    state's function as a key, and the rows of the keys as first met, packed: 1 below
    ``start``, then ``width`` values, laid end to end in the order of ``keys_sent``."""

    keys: list[bytes]
    keys_sent: list[bytes]
    start: npt.NDArray[np.int64]
    width: npt.NDArray[np.int64]
    values: npt.NDArray[np.uint16]

    @classmethod
    def of(cls, survival: npt.NDArray[np.float64]) -> LevelRows:
        q = np.minimum.accumulate(np.rint(survival * ONE).astype(np.uint16), axis=1)
        keys = _digests(q)
        firsts = _firsts(keys)
        q = q[firsts]
        starts = np.count_nonzero(q == ONE, axis=1)  # a survival function only falls
        ends = np.maximum(starts, np.count_nonzero(q > 0, axis=1))
        values = _runs(q, starts, ends).astype(np.uint16)
        return cls(keys, [keys[i] for i in firsts], starts, ends - starts, values)


class Packer:
    """Keeps survival functions in ``Distributions``' packed form, each distinct function
    of a level once (many states share one: an upper total that can no longer reach the
    bonus is as good as any other).

    With ``spill`` (a folder), the packed steps go to two files there as they come instead
    of staying in memory (``table_file`` streams them into the saved file), so a build holds
    only the level being packed."""

    def __init__(self, spill: Path | None = None) -> None:
        #: A level's functions by a 128-bit digest of their quantized rows: not the steps
        #: themselves, which go to the payload (or the spill files).
        self.known: dict[bytes, int] = {}
        self.lo = array("h")
        self.width = array("h")
        self.wide = array("b")
        self.offset = array("q")
        self.used = {False: 0, True: 0}
        self.chunks: dict[bool, list[bytes]] = {False: [], True: []}
        self.spill = spill
        self.files: dict[bool, BinaryIO] = {}
        if spill is not None:
            self.files = {big: open(self.spill_path(big), "wb") for big in (False, True)}  # noqa: SIM115

    def spill_path(self, big: bool) -> Path:
        """The file the steps of one kind (``big``: two bytes each) are spilled to."""
        assert self.spill is not None
        return self.spill / ("steps16.part" if big else "steps8.part")

    def new_level(self) -> None:
        """Functions are shared within a level: forget the last level's."""
        self.known.clear()

    def add(self, survival: npt.NDArray[np.floating], rows: int = 4096) -> list[int]:
        """Pack a block of functions (``rows`` at a time, to keep the memory small); their
        ids."""
        parts = (survival[lo : lo + rows] for lo in range(0, len(survival), rows))
        return [ident for part in parts for ident in self.add_rows(FileRows.of(part))]

    def add_rows(self, rows: FileRows) -> list[int]:
        """Keep the functions of ``rows`` not kept yet; every state's id."""
        ids, new = _assign(self.known, rows.keys, len(self.lo))
        if not new:
            return ids
        take = np.array([key in new for key in rows.keys_sent])
        bigs = rows.big[take]
        widths = rows.width[take]
        offsets = np.empty(len(widths), dtype=np.int64)
        for big, data in ((False, rows.data8), (True, rows.data16)):
            kind = np.flatnonzero(bigs == big)
            if not len(kind):
                continue
            run = widths[kind]
            offsets[kind] = self.used[big] + np.cumsum(run) - run
            self.used[big] += int(run.sum())
            mine = rows.big == big
            picked = _pick_runs(data, rows.width[mine], take[mine])
            out = picked.astype("<u2" if big else np.uint8).tobytes()
            if self.files:
                self.files[big].write(out)
            else:
                self.chunks[big].append(out)
        self.lo.extend(rows.lo[take].tolist())
        self.width.extend(widths.tolist())
        self.wide.extend(bigs.tolist())
        self.offset.extend(offsets.tolist())
        return ids

    def close(self) -> None:
        """Close the spill files (all written)."""
        for f in self.files.values():
            f.close()

    def result(self, rules: str, open_boxes: int, ids: npt.NDArray[np.int32]) -> Distributions:
        """The packed functions in memory (not spilled)."""
        return Distributions(
            rules,
            open_boxes,
            ids,
            np.array(self.offset, dtype=np.int64),
            np.array(self.lo, dtype=np.int16),
            np.array(self.width, dtype=np.int16),
            np.array(self.wide, dtype=np.bool_),
            np.frombuffer(b"".join(self.chunks[False]), dtype=np.uint8).copy(),
            np.frombuffer(b"".join(self.chunks[True]), dtype="<u2").astype(np.uint16),
        )


@cache
def keep_priority() -> npt.NDArray[np.int32]:
    """Which of two equally good keeps the table's play takes: the one with more dice (the
    whole roll, scoring now, first of all), then the first in sorted order (``dice_space``
    lists the keeps of a size in that order): 0 to 461, lower preferred."""
    keeps = dice_space().keeps
    order = sorted(range(len(keeps)), key=lambda k: (-len(keeps[k]), k))
    priority = np.empty(len(keeps), dtype=np.int32)
    priority[order] = np.arange(len(keeps))
    return priority


#: A level's functions are kept for the next one as 16-bit fixed point (1 is ONE): a
#: 16th of the file's step, so rounding them is invisible in what is saved.
ONE = 65535


@dataclass
class Level:
    """One level's distinct survival functions, for the level above it to read: function
    ``j`` is 1 below ``start[j]``, then ``values[offset[j]:][:width[j]] / ONE``, then 0;
    ``function[r]`` is the function of the level's state row ``r``."""

    function: npt.NDArray[np.int32]
    start: IntArray
    width: IntArray
    offset: IntArray
    values: npt.NDArray[np.uint16]

    @classmethod
    def over(cls) -> Level:
        """The end of the game: nothing more to come (one function for every state)."""
        one = np.ones(1, dtype=np.intp)
        return cls(np.zeros(1, dtype=np.int32), one, 0 * one, 0 * one, np.zeros(0, np.uint16))


class LevelPacker:
    """Collects a level's functions as 16-bit rows, each distinct one once (by a digest).

    In memory, into one array sized for the worst case (``states`` rows of ``LENGTH``): the
    system gives it pages only as they are written, so it costs what it holds, and it is
    never copied or grown. With ``spill`` (a file), the rows go there as they come and are
    read back by ``level`` once the level below is let go: a build then holds one level's
    functions at a time, not two."""

    def __init__(self, states: int, spill: BinaryIO | None = None) -> None:
        self.known: dict[bytes, int] = {}
        self.function = array("i")
        self.start = array("i")
        self.width = array("i")
        self.spill = spill
        self.values = np.empty(0 if spill else states * LENGTH, dtype=np.uint16)
        self.used = 0

    def add(self, survival: npt.NDArray[np.float64]) -> None:
        self.add_rows(LevelRows.of(survival))

    def add_rows(self, rows: LevelRows) -> None:
        """Keep the functions of ``rows`` not kept yet, and every state's id."""
        ids, new = _assign(self.known, rows.keys, len(self.start))
        self.function.extend(ids)
        if not new:
            return
        take = np.array([key in new for key in rows.keys_sent])
        data = _pick_runs(rows.values, rows.width, take)
        if self.spill is not None:
            self.spill.write(data.tobytes())
        else:
            self.values[self.used : self.used + len(data)] = data
        self.used += len(data)
        self.start.extend(rows.start[take].tolist())
        self.width.extend(rows.width[take].tolist())

    def level(self) -> Level:
        """The level's functions (read back from the spill file, when there is one: let go
        of the level below first)."""
        self.known.clear()
        width = np.array(self.width, dtype=np.intp)
        if self.spill is not None:
            self.spill.flush()
            self.spill.seek(0)
            values = np.fromfile(self.spill, dtype=np.uint16, count=self.used)
        else:
            values = self.values[: self.used]  # a view: the pages never written stay unused
        return Level(
            np.array(self.function, dtype=np.int32),
            np.array(self.start, dtype=np.intp),
            width,
            np.cumsum(width) - width,
            values,
        )


@dataclass
class Ends:
    """The ends of a chunk of states' turns, in the order their sums are made in: by state
    (``bounds[s]`` to ``bounds[s + 1]``), then the next state's row, then the points. An
    end is the next state's ``function`` (in the level below), where its stored values
    begin once shifted by the points (``at``), and its chance (``weight``)."""

    function: npt.NDArray[np.int32]
    at: npt.NDArray[np.int32]
    weight: npt.NDArray[np.float64]
    bounds: IntArray

    def digests(self) -> list[bytes]:
        """Each state's ends as a 128-bit digest: alike, the same mixture."""
        function, at, weight = (a.tobytes() for a in (self.function, self.at, self.weight))
        out = []
        for lo, hi in zip(self.bounds[:-1].tolist(), self.bounds[1:].tolist(), strict=True):
            h = hashlib.blake2b(digest_size=16)
            h.update((hi - lo).to_bytes(4, "little"))
            h.update(function[4 * lo : 4 * hi])
            h.update(at[4 * lo : 4 * hi])
            h.update(weight[8 * lo : 8 * hi])
            out.append(h.digest())
        return out


def release_freed_memory() -> None:
    """Hand the memory a level freed back to the system (glibc keeps freed heap memory for
    reuse, and a level's many small allocations leave it fragmented); nothing elsewhere."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
