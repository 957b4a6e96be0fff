"""The whole distribution of the score still to come from every state, under the Optimal
bot's play: not only its mean (the solved table) but the chance of every total.

For each reachable state (mask, capped upper total, Yahtzee flag: the table's states under
any preset, bonus turns taken included) it keeps the survival function: the chance that the
rest of the game, played by the solved table's choices, adds at least ``x`` points, for ``x``
below ``LENGTH``. It is worked out backwards like the table, a level of states (turns used)
at a time: for each state the Optimal bot's keeps at every roll (the best of each roll's
sub-multisets, as the table values them) give the chance of every final roll, the box it
scores (or the bonus turn it takes) gives the points and the next state, and the state's
function is the mixture of the next states' functions shifted by those points.

A build streams: only the level below is kept (16-bit, each distinct function once, its
constant head and tail left out) while a level is solved, each chunk is packed as it is
done, and ``table_file.build_distributions`` spills the packed functions to disk, so a whole
build peaks at a few hundred MB however large the file. A level's chunks are solved on both
cores, by the building process and a worker process forked from it for the level (it reads
the level below without a copy); states whose turns end alike, as many do (an upper total
that can no longer make the bonus is as good as another), are mixed once.

With both seats' distributions known, the chance that one card finishes ahead of another
is exact (``Rival``, ``win_chance``), which is what the To-win bot (``winning``) decides by.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import hashlib
import os
import pickle
import select
import struct
import tempfile
import threading
import traceback
from array import array
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO, NoReturn, cast

import numpy as np
import numpy.typing as npt

from bot.engine import ROUNDS

from .dice_space import DICE, FACES, dice_space
from .solver import (
    BOXES,
    LOWER_BOXES,
    MASKS,
    UPPER_BONUS,
    UPPER_BOXES,
    UPPER_CAP,
    YAHTZEE,
    IntArray,
    Solver,
    Table,
    YahtzeeChoices,
    keep_averages,
    turns_used,
)

#: Totals stored per state: the chance of adding at least 0..LENGTH-1 points. From the
#: empty card the chance of adding 639 or more is about 1 in 10,000; all of it counts as
#: 639 (two such games in one race: about one in a hundred million).
LENGTH = 640
#: More than any one turn can score (a Joker in Sixes with the bonus and the upper bonus).
MAX_GAIN = 256

Float32 = npt.NDArray[np.float32]
#: The build's index arrays: states (16-bit), rows and points (32-bit), or any other.
Ints = npt.NDArray[np.signedinteger[Any]]


#: Chances are stored in steps of 1/QUANTUM: a chance of winning read from them is within
#: about 1e-4 of the unrounded one (1.3e-5 on average over random states and leads).
QUANTUM = 4096


@dataclass
class Distributions:
    """The survival functions of every reachable state, packed (``_Packer``): a state's
    function is 1 up to ``lo``, then falls by the stored steps (in 1/QUANTUM), then is 0.

    ``open_boxes``: the most turns still to play in a covered state (13: every state;
    fewer for a partial build, whose earlier states the To-win bot plays as the Optimal bot
    does). Without bonus turns that is the open boxes; a bonus turn taken is a turn played.
    """

    rules: str
    open_boxes: int
    ids: npt.NDArray[np.int32]  # (MASKS, UPPER_CAP + 1, 2): a state's function, -1 if none
    offset: npt.NDArray[np.int64]  # where each function's steps start in its payload
    lo: npt.NDArray[np.int16]
    width: npt.NDArray[np.int16]
    wide: npt.NDArray[np.bool_]  # steps in ``steps16`` (a step above 255) or ``steps8``
    steps8: npt.NDArray[np.uint8]
    steps16: npt.NDArray[np.uint16]
    length: int = LENGTH

    def __post_init__(self) -> None:
        self._decoded: dict[int, Float32] = {}

    def covers(self, mask: int, flag: int = 0) -> bool:
        """Whether states with these filled boxes (and Yahtzee flag: the bonus turns taken
        count as turns played) are covered."""
        return ROUNDS - int(turns_used(mask, flag)) <= self.open_boxes

    def id_of(self, mask: int, up: int, flag: int) -> int:
        ident = int(self.ids[mask, up, flag if mask >> YAHTZEE & 1 else 0])
        if ident < 0:
            raise KeyError(f"state {(mask, up, flag)} is not covered")
        return ident

    def of(self, mask: int, up: int, flag: int) -> Float32:
        """The survival function of one state (a full card adds exactly nothing)."""
        return self.decode(self.id_of(mask, up, flag))

    def decode(self, ident: int) -> Float32:
        """One function, unpacked (kept: a game asks for the same few again and again)."""
        found = self._decoded.get(ident)
        if found is not None:
            return found
        lo, width, start = int(self.lo[ident]), int(self.width[ident]), int(self.offset[ident])
        steps = (self.steps16 if self.wide[ident] else self.steps8)[start : start + width]
        q = np.zeros(self.length, dtype=np.int64)
        q[: lo + 1] = QUANTUM
        end = min(self.length, lo + 1 + width)
        q[lo + 1 : end] = QUANTUM - np.cumsum(steps, dtype=np.int64)[: end - lo - 1]
        out = (q / QUANTUM).astype(np.float32)
        if len(self._decoded) > 20_000:  # about 50 MB: start again rather than grow
            self._decoded.clear()
        self._decoded[ident] = out
        return out

    def rows(self, idents: IntArray) -> Float32:
        """(N, length): the functions of these ids."""
        return np.stack([self.decode(int(i)) for i in idents])


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
class _FileRows:
    """Functions quantized for the file (``_Packer``), each distinct one once: every state's
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
    def of(cls, survival: npt.NDArray[np.floating]) -> _FileRows:
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
class _LevelRows:
    """A level's functions as 16-bit rows (``_LevelPacker``), each distinct one once: every
    state's function as a key, and the rows of the keys as first met, packed: 1 below
    ``start``, then ``width`` values, laid end to end in the order of ``keys_sent``."""

    keys: list[bytes]
    keys_sent: list[bytes]
    start: npt.NDArray[np.int64]
    width: npt.NDArray[np.int64]
    values: npt.NDArray[np.uint16]

    @classmethod
    def of(cls, survival: npt.NDArray[np.float64]) -> _LevelRows:
        q = np.minimum.accumulate(np.rint(survival * ONE).astype(np.uint16), axis=1)
        keys = _digests(q)
        firsts = _firsts(keys)
        q = q[firsts]
        starts = np.count_nonzero(q == ONE, axis=1)  # a survival function only falls
        ends = np.maximum(starts, np.count_nonzero(q > 0, axis=1))
        values = _runs(q, starts, ends).astype(np.uint16)
        return cls(keys, [keys[i] for i in firsts], starts, ends - starts, values)


class _Packer:
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
        return [ident for part in parts for ident in self.add_rows(_FileRows.of(part))]

    def add_rows(self, rows: _FileRows) -> list[int]:
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
class _Level:
    """One level's distinct survival functions, for the level above it to read: function
    ``j`` is 1 below ``start[j]``, then ``values[offset[j]:][:width[j]] / ONE``, then 0;
    ``function[r]`` is the function of the level's state row ``r``."""

    function: npt.NDArray[np.int32]
    start: IntArray
    width: IntArray
    offset: IntArray
    values: npt.NDArray[np.uint16]

    @classmethod
    def over(cls) -> _Level:
        """The end of the game: nothing more to come (one function for every state)."""
        one = np.ones(1, dtype=np.intp)
        return cls(np.zeros(1, dtype=np.int32), one, 0 * one, 0 * one, np.zeros(0, np.uint16))


class _LevelPacker:
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
        self.add_rows(_LevelRows.of(survival))

    def add_rows(self, rows: _LevelRows) -> None:
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

    def level(self) -> _Level:
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
        return _Level(
            np.array(self.function, dtype=np.int32),
            np.array(self.start, dtype=np.intp),
            width,
            np.cumsum(width) - width,
            values,
        )


def _release_freed_memory() -> None:
    """Hand the memory a level freed back to the system (glibc keeps freed heap memory for
    reuse, and a level's many small allocations leave it fragmented); nothing elsewhere."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


#: The ends of a turn ``_Builder.final_choices`` tells apart: six for each upper box, one for
#: each lower box (``_LOWER_END + box``) and one more for 50 in the Yahtzee box.
_LOWER_END = 6 * UPPER_BOXES - UPPER_BOXES
_FIFTY_END = _LOWER_END + BOXES
_ENDS = _FIFTY_END + 1


class _Builder:
    """One build: the Optimal bot's turn from a batch of states, as chances of its ends."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.solver = Solver(table.rules, False, table.value)
        # Learnt here while a forked worker solves a level (``_level``): in shared memory.
        self.solver.choices = YahtzeeChoices(table.rules, shared=True)
        self.space = dice_space()
        # Every state's row in its own level (turns used); the game's end is a level of one.
        self.rows = np.zeros(table.value.shape, dtype=np.int32)
        # The levels' states, small (a mask fits 16 bits): read a chunk at a time.
        self.levels = [tuple(a.astype(np.int16) for a in level) for level in self.solver.states()]
        used = turns_used(np.arange(MASKS)[:, None], np.arange(table.flags)[None, :])
        # (a flag above 0 only with the Yahtzee box filled: the states a card can be in)
        real = ((np.arange(MASKS) >> YAHTZEE) & 1 == 1)[:, None] | (np.arange(table.flags) == 0)
        self.over = np.broadcast_to(((used >= ROUNDS) & real)[:, None, :], self.rows.shape)
        self.priority = keep_priority()
        self.by_priority = np.argsort(self.priority).astype(np.int16)
        # The points of each end of a turn (``final_choices``) by roll: a lower box's.
        self.end_points = np.zeros((_ENDS, len(self.space.rolls)), dtype=np.int32)
        for box in LOWER_BOXES:
            self.end_points[_LOWER_END + box] = self.solver.plain[box]
        self.end_points[_FIFTY_END] = self.solver.plain[YAHTZEE]
        #: The last level solved (``run``), for the level above it.
        self.below = _Level.over()

    def final_choices(
        self, mask: Ints, up: Ints, flag: Ints
    ) -> tuple[npt.NDArray[np.float64], Ints, Ints]:
        """For each final roll (252, S): its value as the table counts it (points now plus
        the next state's value), the row of the next state, and the points the turn adds.

        This is ``Solver.final_roll`` (points, bonuses, ``yahtzee_options``: the Joker) that
        also remembers which box won (the first of equals). A rule changed there must change
        here too; the test that every distribution's mean is the table's value fails until
        it does. A box's next state is read once per state (six times for an upper box: one
        per count of its face), not once per roll."""
        s = self.solver
        n = len(mask)
        rolls = len(self.space.rolls)
        value, rows = self.table.value, self.rows
        counts = self.space.counts
        # The ends of a state's turn: six for an upper box (by the count of its face), one
        # for a lower box, two for the Yahtzee box (0, or 50 and the flag 1); each with its
        # next state's row and its points (a lower box adds the roll's own points too).
        end_row = np.zeros((_ENDS, n), dtype=np.int32)
        end_gain = np.zeros((_ENDS, n), dtype=np.int32)
        best = np.full((rolls, n), -np.inf)
        end = np.zeros((rolls, n), dtype=np.int8)
        for box in range(BOXES):
            open_ = ((mask >> box) & 1) == 0
            if not open_.any():
                continue
            nxt = mask | (1 << box)
            if box < UPPER_BOXES:
                points = (box + 1) * np.arange(6)[:, None]  # (6, 1): by count of the face
                up2 = np.minimum(UPPER_CAP, up[None, :] + points)
                gains = points + np.where((up < UPPER_CAP)[None, :] & (up2 >= UPPER_CAP),
                                          UPPER_BONUS, 0)  # fmt: skip
                worth = np.where(open_[None, :], gains + value[nxt, up2, flag], -np.inf)
                end_row[6 * box : 6 * box + 6] = rows[nxt, up2, flag]
                end_gain[6 * box : 6 * box + 6] = gains
                total, option = worth[counts[:, box]], 6 * box + counts[:, box]
            else:
                points = s.plain[box].astype(np.intp)[:, None]
                if box == YAHTZEE:  # the flag is 0 with the box open; 50 there makes it 1
                    yahtzee = s.is_yahtzee[:, None]
                    zero, one = np.zeros_like(flag), np.ones_like(flag)
                    later = np.where(yahtzee, value[nxt, up, one], value[nxt, up, zero])
                    end_row[_LOWER_END + box] = rows[nxt, up, zero]
                    end_row[_FIFTY_END] = rows[nxt, up, one]
                    option = np.where(s.is_yahtzee, _FIFTY_END, _LOWER_END + box)
                else:
                    later = value[nxt, up, flag][None, :]
                    end_row[_LOWER_END + box] = rows[nxt, up, flag]
                    option = np.full(rolls, _LOWER_END + box)
                total = np.where(open_[None, :], points + later, -np.inf)
            better = total > best
            np.copyto(best, total, where=better)
            np.copyto(end, option.astype(np.int8)[:, None], where=better)
        columns = np.arange(n)
        nxt_row = end_row[end, columns]
        gain_out = end_gain[end, columns] + self.end_points[end, np.arange(rolls)[:, None]]
        self._jokers(mask, up, flag, best, nxt_row, gain_out)
        return best, nxt_row, gain_out

    def _jokers(
        self, mask: Ints, up: Ints, flag: Ints, best: npt.NDArray[np.float64],
        nxt_row: Ints, gain_out: Ints,
    ) -> None:  # fmt: skip
        """Yahtzees rolled with the Yahtzee box filled: the Joker rules and the +100, as the
        solver counts them."""
        s = self.solver
        sel = np.flatnonzero(((mask >> YAHTZEE) & 1) == 1)
        if not len(sel):
            return
        m, u, fl = mask[sel], up[sel], flag[sel]
        s.choices.ensure(m, fl)
        for face in range(1, FACES + 1):
            r = s.yahtzee_rolls[face - 1]
            value = np.full(len(sel), -np.inf)
            row = np.zeros(len(sel), dtype=np.intp)
            gains = np.zeros(len(sel), dtype=np.intp)
            for _, allowed, gain, nxt, up2, fl2 in s.yahtzee_options(m, u, fl, face):
                total = np.where(allowed, gain + self.table.value[nxt, up2, fl2], -np.inf)
                better = total > value
                value = np.where(better, total, value)
                row = np.where(better, self.rows[nxt, up2, fl2], row)
                gains = np.where(better, gain, gains)
            best[r, sel] = value
            nxt_row[r, sel] = row
            gain_out[r, sel] = gains

    def _keeps(
        self, after: npt.NDArray[np.float64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int16]]:
        """From the values of the rolls after a re-roll: the value of each roll before it
        and the keep the table picks for it: the best of its sub-multisets, the first of
        equals by ``keep_priority`` (scoring now first). Built up one die at a time, as
        ``Solver.reroll`` does, carrying each keep's best sub-multiset's priority."""
        space = self.space
        best = keep_averages(after)
        rank = np.broadcast_to(self.priority[:, None], best.shape).copy()
        for size in range(1, DICE + 1):
            index = space.children[size][0] if size < DICE else space.roll_keep
            cur, cur_rank = best[index], rank[index]
            for rows, parent in space.parents[size]:
                cand, cand_rank = best[parent], rank[parent]
                whole = len(rows) == len(index)
                sub = cur if whole else cur[rows]
                sub_rank = cur_rank if whole else cur_rank[rows]
                better = (cand > sub) | ((cand == sub) & (cand_rank < sub_rank))
                if whole:
                    np.copyto(cur, cand, where=better)
                    np.copyto(cur_rank, cand_rank, where=better)
                else:
                    cur[rows] = np.where(better, cand, sub)
                    cur_rank[rows] = np.where(better, cand_rank, sub_rank)
            best[index], rank[index] = cur, cur_rank
        keep = self.by_priority[rank[space.roll_keep]]
        return best[space.roll_keep], keep

    def _roll_on(self, keep: npt.NDArray[np.int16], chance: npt.NDArray[np.float64]) -> (
        npt.NDArray[np.float64]
    ):  # fmt: skip
        """The chance of each roll after keeping ``keep`` (252, S) from each roll (of chance
        ``chance``) and rolling the other dice: each keep's chance passed on to the keeps one
        die larger, a sixth to each face, until five dice."""
        space = self.space
        n = keep.shape[1]
        cols = np.arange(n)
        code = keep.astype(np.intp) * n + cols
        mass = cast(
            npt.NDArray[np.float64],
            np.bincount(code.ravel(), chance.ravel(), len(space.keeps) * n),
        ).reshape(len(space.keeps), n)
        for size in range(DICE):
            index, children = space.children[size]
            part = mass[index] / FACES
            for face in range(FACES):  # children[:, face]: no keep twice
                mass[children[:, face]] += part
        out: npt.NDArray[np.float64] = mass[space.roll_keep]
        return out

    def final_roll_chances(self, mask: Ints, up: Ints, flag: Ints) -> tuple[
        npt.NDArray[np.float64], Ints, Ints
    ]:  # fmt: skip
        """(252, S) each: the chance of ending the turn on each roll, the next state's row
        and the points scored. States whose final rolls are worth the same, bit for bit,
        keep the same dice: their chances are worked out once (each state's on its own,
        so the same figures as one at a time)."""
        final, nxt_row, gain = self.final_choices(mask, up, flag)
        columns = np.ascontiguousarray(final.T)
        first: dict[bytes, int] = {}
        which = np.array([first.setdefault(row.tobytes(), len(first)) for row in columns])
        if len(first) < len(which):
            final = final[:, np.flatnonzero(np.diff(np.maximum.accumulate(which), prepend=-1))]
        second, keep2 = self._keeps(final)
        _, keep1 = self._keeps(second)
        n = final.shape[1]
        chance = np.broadcast_to(self.space.roll_probability[:, None], (len(final), n))
        for keep in (keep1, keep2):
            chance = self._roll_on(keep, chance)
        if n < len(which):
            chance = chance[:, which]
        return chance, nxt_row, gain

    def run(
        self, open_boxes: int = BOXES, chunk: int = 256, workers: int = 2,
        spill: Path | None = None, processes: bool | None = None,
    ) -> tuple[_Packer, Ints]:  # fmt: skip
        """Solve the states with at most ``open_boxes`` turns still to play (all: 13), a
        level (turns used) at a time from the end of the game. Only the level below is
        kept (``_Level``, 16-bit, each distinct function once) while a level is solved in
        chunks by ``workers`` (when ``processes``, by default when this process may fork,
        see ``_may_fork``: this process and ``workers - 1`` processes forked for the level;
        threads otherwise); each chunk is packed as it is done (to ``spill``'s files when
        given). Returns the packer and every state's function id."""
        packer = _Packer(spill)
        ids = np.full(self.rows.shape, -1, dtype=np.int32)
        end = np.zeros((1, LENGTH))
        end[0, 0] = 1.0  # nothing more to come: at least 0 points, surely; 1 never
        ids[self.over] = packer.add(end)[0]
        below = _Level.over()
        self.rows[self.over] = 0
        if processes is None:
            processes = _may_fork()
        levels = self.levels[:open_boxes]
        for index, (mask, up, flag) in enumerate(levels):
            packer.new_level()
            self.rows[mask, up, flag] = np.arange(len(mask))
            with contextlib.ExitStack() as stack:
                scratch = None
                if spill is not None:  # an unnamed file there, gone when closed
                    scratch = stack.enter_context(tempfile.TemporaryFile(dir=spill))
                current = _LevelPacker(len(mask), scratch)
                level = _Task(self, mask, up, flag, below)
                upcoming = levels[index + 1] if index + 1 < len(levels) else None
                self._level(level, packer, current, ids, chunk, workers, processes, upcoming)
                del below, level  # before the level is read back: one level in memory at a time
                _release_freed_memory()
                below = current.level()
            del current
        self.below = below
        packer.close()
        return packer, ids

    def _level(
        self, level: _Task, packer: _Packer, current: _LevelPacker, ids: Ints, chunk: int,
        workers: int, processes: bool, upcoming: tuple[Ints, ...] | None = None,
    ) -> None:  # fmt: skip
        """One level's functions from the level below's, in chunks by ``workers`` (this
        process and forked ones, or threads: numpy lets go of the GIL in part of the work),
        each packed as it comes, in order: for the file by ``packer`` (its ids into
        ``ids``), for the next level by ``current``.

        Forked workers do not learn what a Yahtzee may do (``YahtzeeChoices``): each would
        write its own copy of the arrays. This process learns it for their states before
        they start, the first level's at once, each next level's (``upcoming``) while it
        waits for this one's chunks."""
        mask, up, flag, below = level.mask, level.up, level.flag, level.below
        learn: deque[tuple[Ints, Ints]] = deque()
        forked = processes and workers > 1
        if forked:
            learn.extend(self._jokers_to_learn(mask, flag))
            while learn:  # learnt already, but for the first level
                self.solver.choices.ensure(*learn.popleft())
            if upcoming is not None:
                learn.extend(self._jokers_to_learn(upcoming[0], upcoming[2]))
            # The heap's free pages given back first: written to after the fork, they
            # would be copied for this process while the workers keep theirs.
            _release_freed_memory()

        def solve(lo: int, hi: int) -> Chunk:
            return self.solve_chunk(mask[lo:hi], up[lo:hi], flag[lo:hi], below)

        def learn_some() -> bool:
            if learn:
                self.solver.choices.ensure(*learn.popleft())
            return bool(learn)

        found = np.empty(len(mask), dtype=np.int32)
        starts = range(0, len(mask), chunk)
        pool: _Forked | _Threads
        try:  # forked: this process is one of the workers (one fewer to copy pages for)
            pool = _Forked(workers - 1, solve) if forked else _Threads(workers, solve)
        except OSError:  # no process to be had (a limit on them, or on memory): threads
            pool, forked = _Threads(workers, solve), False
        # Chunks are handed out in order, to the pool or (forked) solved here while this
        # process would wait; at most two a pool worker on the way: results waiting to be
        # packed are memory.
        ahead = 2 * (workers - 1 if forked else workers)
        handed, pooled = 0, 0
        own: dict[int, Chunk] = {}

        def idle() -> bool:
            nonlocal handed
            if learn:
                return learn_some() or True
            if not forked or handed == len(starts):
                return False
            own[handed] = solve(starts[handed], starts[handed] + chunk)
            handed += 1
            return True

        try:
            for index, lo in enumerate(starts):
                while pooled < ahead and handed < len(starts):
                    pool.submit(handed, starts[handed], starts[handed] + chunk)
                    handed, pooled = handed + 1, pooled + 1
                if index in own:
                    file_rows, level_rows = own.pop(index)
                else:
                    file_rows, level_rows = pool.result(index, idle)
                    pooled -= 1
                found[lo : lo + chunk] = packer.add_rows(file_rows)
                current.add_rows(level_rows)
                del file_rows, level_rows
        finally:
            pool.close()
        # Written once the workers are gone: a page written while they run is copied.
        ids[mask, up, flag] = found
        while learn:
            self.solver.choices.ensure(*learn.popleft())

    @staticmethod
    def _jokers_to_learn(mask: Ints, flag: Ints, batch: int = 256) -> list[tuple[Ints, Ints]]:
        """The states of a level whose Yahtzee box is filled, in batches."""
        filled = np.flatnonzero(((mask >> YAHTZEE) & 1) == 1)
        return [
            (mask[filled[lo : lo + batch]], flag[filled[lo : lo + batch]])
            for lo in range(0, len(filled), batch)
        ]

    def solve_chunk(
        self, mask: Ints, up: Ints, flag: Ints, below: _Level
    ) -> tuple[_FileRows, _LevelRows]:
        """A chunk of a level's states: their functions quantized for the file and for the
        next level, each distinct one once. States whose turns end alike (the same next
        functions, points and chances, in the same order: an upper total that can no longer
        make the bonus is as good as another) are mixed once: the same sums, so the same
        functions."""
        ends = self._ends(mask, up, flag, below)
        keys = ends.digests()
        first: dict[bytes, int] = {}
        which = [first.setdefault(key, len(first)) for key in keys]
        once = np.flatnonzero(np.diff(np.maximum.accumulate(which), prepend=-1))
        survival = self._spread(ends, once, below)
        file_rows, level_rows = _FileRows.of(survival), _LevelRows.of(survival)
        file_rows.keys = [file_rows.keys[i] for i in which]
        level_rows.keys = [level_rows.keys[i] for i in which]
        return file_rows, level_rows

    def _ends(self, mask: Ints, up: Ints, flag: Ints, below: _Level) -> _Ends:
        """The ends of each state's turn, as the mixing reads them (``_Ends``)."""
        chance, nxt_row, gain = self.final_roll_chances(mask, up, flag)
        n = chance.shape[1]
        state = np.broadcast_to(np.arange(n), chance.shape)
        code = (state * len(below.function) + nxt_row) * MAX_GAIN + gain
        keys, inverse = np.unique(code.ravel(), return_inverse=True)
        weight = cast(
            npt.NDArray[np.float64], np.bincount(inverse.ravel(), chance.ravel(), len(keys))
        )
        keep = weight > 0
        keys, weight = keys[keep], weight[keep]
        owner = keys // (len(below.function) * MAX_GAIN)
        j = below.function[(keys // MAX_GAIN) % len(below.function)]
        at = np.minimum(keys % MAX_GAIN + below.start[j], LENGTH)  # where its values begin
        bounds = np.searchsorted(owner, np.arange(n + 1))
        return _Ends(j.astype(np.int32), at.astype(np.int32), weight, bounds)

    def _mix(
        self, mask: Ints, up: Ints, flag: Ints, below: _Level, group: int = 8
    ) -> npt.NDArray[np.float64]:
        """The survival functions of a batch of states: the mixture, over the ends of the
        turn, of the next states' functions shifted by the points scored."""
        ends = self._ends(mask, up, flag, below)
        return self._spread(ends, np.arange(len(mask)), below, group)

    def _spread(
        self, ends: _Ends, states: IntArray, below: _Level, group: int = 8
    ) -> npt.NDArray[np.float64]:
        """The mixtures of these states (``_mix``), ``group`` at a time: small enough for
        the CPU's cache, which makes it twice as fast as 24 at a time, and small in
        memory."""
        out = np.empty((len(states), LENGTH))
        for lo in range(0, len(states), group):
            part = states[lo : lo + group]
            start, stop = ends.bounds[part], ends.bounds[part + 1]
            count = stop - start
            keys = np.repeat(start - np.cumsum(count) + count, count) + np.arange(count.sum())
            owner = np.repeat(np.arange(len(part)), count)
            out[lo : lo + group] = self._shifted_sum(
                len(part), owner, ends.function[keys], ends.at[keys], ends.weight[keys], below
            )
        return out

    @staticmethod
    def _shifted_sum(
        n: int, owner: Ints, j: Ints, at: Ints, weight: npt.NDArray[np.float64], below: _Level
    ) -> npt.NDArray[np.float64]:
        """The mixture of ``n`` states' ends (their ``owner``, in order): a function is 1 up
        to its ``start``, its stored values, then 0: the 1s are summed as steps, the values
        added where they land, each cell's in the order of the ends."""
        # The 1s: each end adds its weight at every x below ``at``.
        steps = cast(
            npt.NDArray[np.float64],
            np.bincount(owner * (LENGTH + 1) + at, weight, n * (LENGTH + 1)),
        )
        ones = np.cumsum(steps.reshape(n, LENGTH + 1)[:, ::-1], axis=1)[:, ::-1][:, 1:]
        # The values: each end's run of them, cut at LENGTH, added where it lands: the
        # i-th value of all the runs laid end to end comes from ``i + source`` and goes to
        # ``i + target``, both repeated over each end's run.
        run = np.maximum(0, np.minimum(below.width[j], LENGTH - at)).astype(np.int32)
        first = (np.cumsum(run) - run).astype(np.int32)
        place = np.arange(int(run.sum()), dtype=np.int32)
        index = np.repeat((below.offset[j] - first).astype(np.int32), run)
        index += place
        values = below.values[index] * np.repeat(weight / ONE, run)
        index = np.repeat((owner * LENGTH + at - first).astype(np.int32), run)
        index += place
        spread = cast(npt.NDArray[np.float64], np.bincount(index, values, n * LENGTH))
        result: npt.NDArray[np.float64] = ones + spread.reshape(n, LENGTH)
        return result


@dataclass
class _Ends:
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


@dataclass
class _Task:
    """A level to solve: its states and the level below's functions."""

    builder: _Builder
    mask: Ints
    up: Ints
    flag: Ints
    below: _Level


Chunk = tuple["_FileRows", "_LevelRows"]


class _Threads:
    """Chunks solved by threads of this process (numpy lets go of the GIL in part of the
    work): where this process may not fork."""

    def __init__(self, workers: int, solve: Callable[[int, int], Chunk]) -> None:
        self.pool = ThreadPoolExecutor(workers)
        self.solve = solve
        self.futures: dict[int, Future[Chunk]] = {}

    def submit(self, index: int, lo: int, hi: int) -> None:
        self.futures[index] = self.pool.submit(self.solve, lo, hi)

    def result(self, index: int, idle: Callable[[], bool]) -> Chunk:
        del idle
        return self.futures.pop(index).result()

    def close(self) -> None:
        self.pool.shutdown()


class _Forked:
    """Chunks solved by worker processes forked from this one (``os.fork``: the bot builds
    in a daemonic process, which ``multiprocessing`` does not let have children). The
    workers share one pipe of chunks to do (fixed-size messages, each read whole by one
    of them) and write each result, pickled with its chunk's number, to a pipe of their
    own. A worker ends when the chunks' pipe closes: when this process is done with it,
    or is gone."""

    _TASK = struct.Struct("<qqq")  # chunk number, first state, end

    def __init__(self, workers: int, solve: Callable[[int, int], Chunk]) -> None:
        tasks_in, self.tasks = os.pipe()
        self.pids: list[int] = []
        self.pipes: list[int] = []  # read ends: the workers' results
        try:
            self._start(workers, tasks_in, solve)
        except BaseException:
            self.close()  # the workers started go
            raise
        finally:
            os.close(tasks_in)
        self.done: dict[int, Chunk] = {}

    def _start(self, workers: int, tasks_in: int, solve: Callable[[int, int], Chunk]) -> None:
        for _ in range(workers):
            read, write = os.pipe()
            with contextlib.suppress(OSError, AttributeError):  # fewer waits to hand over
                fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 1 << 20)  # Linux's own
            try:
                pid = os.fork()
            except OSError:
                os.close(read)
                os.close(write)
                raise
            if pid == 0:  # the worker: nothing of this process's but its own pipes
                os.close(self.tasks)
                os.close(read)
                for fd in self.pipes:
                    os.close(fd)
                _work(tasks_in, write, solve)  # never returns
            os.close(write)
            self.pids.append(pid)
            self.pipes.append(read)

    def submit(self, index: int, lo: int, hi: int) -> None:
        os.write(self.tasks, self._TASK.pack(index, lo, hi))

    def result(self, index: int, idle: Callable[[], bool]) -> Chunk:
        """Chunk ``index``'s result; while it is not ready, ``idle`` (something of this
        process's to do, False once there is nothing left) and every other result read as it
        comes, so that no worker waits to hand one over."""
        while index not in self.done:
            ready = self._ready(0.0)
            if not ready and not idle():
                ready = self._ready(None)
            for fd in ready:
                number, ok, payload = pickle.loads(_read_message(fd))
                if not ok:
                    raise RuntimeError(f"a To-win build worker failed:\n{payload}")
                self.done[number] = payload
        return self.done.pop(index)

    def _ready(self, timeout: float | None) -> list[int]:
        ready, _, _ = select.select(self.pipes, [], [], timeout)
        return ready

    def close(self) -> None:
        os.close(self.tasks)  # the workers read its end and go
        for fd in self.pipes:
            os.close(fd)
        for pid in self.pids:
            os.waitpid(pid, 0)


def _work(tasks: int, results: int, solve: Callable[[int, int], Chunk]) -> NoReturn:
    """A forked worker's life: solve the chunks read from ``tasks`` until it closes, each
    result (or the traceback of its failure) pickled to ``results`` after its length."""
    code = 0
    try:
        size = _Forked._TASK.size
        while message := os.read(tasks, size):
            index, lo, hi = _Forked._TASK.unpack(message)
            try:
                reply: tuple[int, bool, object] = (index, True, solve(lo, hi))
            except Exception:  # handed over: the build fails with it
                reply = (index, False, traceback.format_exc())
            data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
            view = memoryview(len(data).to_bytes(8, "little") + data)
            while view:
                view = view[os.write(results, view) :]
    except BaseException:  # the build is gone (a broken pipe) or stopping: just end
        code = 1
    finally:
        os._exit(code)


def _read_message(fd: int) -> bytes:
    """One length-prefixed message from a worker's pipe, read to its last byte (and no
    further: the next stays in the pipe, for ``wait`` to see)."""
    size = int.from_bytes(_read_exactly(fd, 8), "little")
    return _read_exactly(fd, size)


def _read_exactly(fd: int, size: int) -> bytes:
    parts = []
    while size:
        part = os.read(fd, min(size, 1 << 20))
        if not part:
            raise RuntimeError("a To-win build worker process ended early")
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _may_fork() -> bool:
    """Whether this process may fork workers: on a system that forks (Linux), and only while
    it runs no other thread (a fork copies threads' locks, held or not, but not the
    threads): the bot builds in a process of its own, which does not."""
    return hasattr(os, "fork") and threading.active_count() == 1


def solve_distributions(table: Table, open_boxes: int = BOXES) -> Distributions:
    """The distribution of the score still to come from every state with at most
    ``open_boxes`` turns to play, under the table's own choices (see the module
    docstring), in memory."""
    packer, ids = _Builder(table).run(open_boxes)
    return packer.result(table.rules, open_boxes, ids)


class Rival:
    """The other seats of a race: each one's points and the distribution of what is still to
    come to them, ready to tell any card's chance of finishing ahead of them all."""

    #: Final totals up to this are told apart (a card holds at most 1,575 points).
    TOP = 4096

    def __init__(self, rivals: Sequence[tuple[int, Float32]]) -> None:
        self.offset = LENGTH + 1  # leads from -offset: as good as lost
        final = np.arange(-self.offset, self.TOP)
        # beats[t + offset]: the chance that a final total of t beats every other seat, a
        # tie counting half: the product, over seats (their futures are independent), of
        # P(their final < t) + P(their final == t) / 2 = 1 - (S(z) + S(z + 1)) / 2, with S
        # their survival function at the z points they must add to tie (1 below 0, 0 from
        # LENGTH on). Three or more tied at the top count as half each too.
        self.beats = np.ones(len(final))
        for total, survival in rivals:
            wide = np.concatenate([np.ones(1), survival.astype(np.float64), np.zeros(1)])
            z = np.clip(final - total, -1, LENGTH) + 1  # index into ``wide``
            self.beats *= 1.0 - 0.5 * (wide[z] + wide[np.minimum(z + 1, LENGTH + 1)])

    def chances(self, mine: Float32, total: IntArray) -> npt.NDArray[np.float64]:
        """The chance of finishing ahead for cards with ``total`` points and the survival
        functions ``mine`` (N, LENGTH) of their rest."""
        pmf = (mine - np.concatenate([mine[:, 1:], np.zeros((len(mine), 1), np.float32)],
                                     axis=1)).astype(np.float64)  # fmt: skip
        # Far behind is as good as lost: clip so the index stays in range.
        start = np.clip(np.asarray(total), -self.offset, self.TOP - LENGTH) + self.offset
        index = start[:, None] + np.arange(LENGTH)[None, :]
        chances: npt.NDArray[np.float64] = np.einsum("ij,ij->i", pmf, self.beats[index])
        return chances


def win_chance(mine: Float32, theirs: Float32, lead: int) -> float:
    """The chance that a card ``lead`` points ahead (behind when negative) finishes ahead,
    a tie counting half, when the points still to come have these survival functions."""
    return float(Rival([(0, theirs)]).chances(mine[None, :], np.array([lead]))[0])
