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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bot.engine import ROUNDS

from .states import YAHTZEE, IntArray, turns_used

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
    """The survival functions of every reachable state, packed (``Packer``): a state's
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
