"""The distributions of the points still to come: against hand-worked ones for one open box,
against the solved table's means for every state built, the exact chance of finishing
ahead, and the file they are saved in."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from bot.engine import Category
from bot.strategy import Table
from bot.strategy.distribution import (
    QUANTUM,
    Distributions,
    Rival,
    win_chance,
)
from bot.strategy.states import BOX_ORDER, MASKS
from bot.strategy.table_file import (
    TableFileError,
    distributions_path,
    load_distributions,
    load_or_build_distributions,
    save_distributions,
    unpacked_path,
)

STEP = 1 / QUANTUM  # a stored chance is within half of this of the exact one


def only_open(box: Category) -> int:
    """The mask of a card with every box filled but ``box``."""
    return (MASKS - 1) & ~(1 << BOX_ORDER.index(box))


def survival_of(pmf: dict[int, Fraction], length: int) -> np.ndarray:
    """P(points >= x) for x below ``length``, from exact chances."""
    out = np.zeros(length)
    for x in range(length):
        out[x] = float(sum((p for v, p in pmf.items() if v >= x), Fraction(0)))
    return out


def one_die_chance_play() -> dict[int, Fraction]:
    """One die played for Chance, worked by hand: with one roll left keep 4 or more (above
    the 3.5 a roll is worth), which makes a die worth 4.25; with two left keep 5 or more."""
    last = {f: Fraction(1, 6) for f in range(1, 7)}
    one_left = {f: Fraction(1, 6) * (f >= 4) + Fraction(1, 2) * last[f] for f in range(1, 7)}
    two_left = {f: Fraction(1, 6) * (f >= 5) + Fraction(4, 6) * one_left[f] for f in range(1, 7)}
    assert sum(two_left.values()) == 1
    assert sum(f * p for f, p in two_left.items()) == Fraction(14, 3)  # 23 1/3 for five
    return two_left


def five_dice(die: dict[int, Fraction]) -> dict[int, Fraction]:
    """The sum of five independent dice."""
    total = {0: Fraction(1)}
    for _ in range(5):
        nxt: dict[int, Fraction] = {}
        for s, p in total.items():
            for f, q in die.items():
                nxt[s + f] = nxt.get(s + f, Fraction(0)) + p * q
        total = nxt
    return total


def yahtzee_in_a_turn() -> Fraction:
    """The best chance of five alike in one turn, by a chain on how many dice match (the
    textbook formulation, not the solver's multisets): keeping k alike and rolling the rest
    gives the larger of the kept face's new count and any other face's count; or roll all
    five again. Worked backwards over the rolls left."""
    from itertools import product

    def after(kept: int) -> dict[int, Fraction]:
        rolled = 5 - kept
        out: dict[int, Fraction] = {}
        for faces in product(range(6), repeat=rolled):
            best = max([kept + faces.count(0)] + [faces.count(f) for f in range(1, 6)])
            out[best] = out.get(best, Fraction(0)) + Fraction(1, 6**rolled)
        return out

    moves = {k: after(k) for k in range(0, 5)}  # k = 0: all five rolled
    chance = {k: Fraction(int(k == 5)) for k in range(1, 6)}  # no rolls left
    for _ in range(2):
        chance = {
            k: Fraction(1) if k == 5 else max(
                sum(p * chance[j] for j, p in moves[m].items()) for m in (0, k)
            )
            for k in range(1, 6)
        }  # fmt: skip
    return sum(p * chance[j] for j, p in moves[0].items())


def test_only_chance_open_is_five_independent_dice_played_by_hand(to_win: Distributions) -> None:
    exact = survival_of(five_dice(one_die_chance_play()), 40)
    # the Yahtzee box holds 0: a Yahtzee is a Joker for Chance, with no bonus
    stored = to_win.of(only_open(Category.CHANCE), 63, 0)[:40]
    assert np.abs(stored - exact).max() <= STEP / 2 + 1e-9
    assert stored[23] == pytest.approx(exact[23], abs=STEP)


def test_only_yahtzee_open_is_fifty_with_the_textbook_chance(to_win: Distributions) -> None:
    p = float(yahtzee_in_a_turn())
    assert p == pytest.approx(0.04603, abs=1e-5)  # the published 4.6%
    stored = to_win.of(only_open(Category.YAHTZEE), 63, 0)
    assert stored[1] == pytest.approx(p, abs=STEP)
    assert stored[50] == pytest.approx(p, abs=STEP)
    assert stored[51] == 0.0


def test_every_state_built_has_the_tables_mean(
    official_values: Table, to_win: Distributions
) -> None:
    """The mean of each distribution is the solved table's value for that state: the same
    choices, counted two ways (means by backward induction, chances forwards)."""
    states = np.argwhere(to_win.ids >= 0)
    assert len(states) > 10_000
    for mask, up, flag in states:
        s = to_win.of(int(mask), int(up), int(flag))
        mean = float(s[1:].sum(dtype=np.float64))
        expected = 0.0 if mask == MASKS - 1 else float(official_values.value[mask, up, flag])
        assert mean == pytest.approx(expected, abs=0.02), (mask, up, flag)


def test_a_partial_build_covers_the_last_turns_only(to_win: Distributions) -> None:
    assert to_win.covers(only_open(Category.CHANCE))
    assert not to_win.covers(0)
    with pytest.raises(KeyError):
        to_win.of(0, 0, 0)


def test_the_chance_of_finishing_ahead_against_hand_worked_cases(to_win: Distributions) -> None:
    """Both seats with only Yahtzee open (p each to score 50): level, the first wins only
    when it scores 50 and the other does not, a tie counting half; 10 ahead, it loses only
    when the other scores and it does not."""
    p = float(yahtzee_in_a_turn())
    y = to_win.of(only_open(Category.YAHTZEE), 63, 0)
    assert win_chance(y, y, 0) == pytest.approx(0.5, abs=1e-12)
    assert win_chance(y, y, 10) == pytest.approx(1 - (1 - p) * p, abs=2 * STEP)
    assert win_chance(y, y, -10) == pytest.approx(p * (1 - p), abs=2 * STEP)
    assert win_chance(y, y, 50) == pytest.approx(1 - 0.5 * (1 - p) * p, abs=2 * STEP)
    full = to_win.of(MASKS - 1, 63, 0)
    assert win_chance(y, full, -49) == pytest.approx(p, abs=STEP)
    assert win_chance(y, full, -50) == pytest.approx(p / 2, abs=STEP)  # 50 ties
    assert win_chance(y, full, -51) == 0.0
    many = Rival([(100, y)]).chances(np.stack([y, full]), np.array([90, 151]))
    assert many == pytest.approx([p * (1 - p), 1.0], abs=2 * STEP)


def test_the_file_round_trips_and_refuses_damaged_or_foreign(
    tmp_path: Path, to_win: Distributions
) -> None:
    path = distributions_path(tmp_path, "official")
    save_distributions(to_win, path)
    back = load_distributions(path, "official")
    assert back.open_boxes == to_win.open_boxes == 3
    for ident in (0, len(to_win.lo) // 2, len(to_win.lo) - 1):
        assert np.array_equal(back.decode(ident), to_win.decode(ident))
    assert np.array_equal(back.ids, to_win.ids)
    with pytest.raises(TableFileError, match="holds another distributions file"):
        load_distributions(path, "free")
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(TableFileError, match="damaged"):
        load_distributions(path, "official")
    path.write_bytes(b"not a table")
    with pytest.raises(TableFileError, match="not a distributions file"):
        load_distributions(path, "official")


def test_load_or_build_uses_a_good_file_and_builds_a_missing_or_bad_one(
    tmp_path: Path, official_values: Table
) -> None:
    built, was_built = load_or_build_distributions(tmp_path, official_values, open_boxes=1)
    assert was_built and built.open_boxes == 1
    again, was_built = load_or_build_distributions(tmp_path, official_values)
    assert not was_built and again.open_boxes == 1  # the saved one, not a new build
    distributions_path(tmp_path, "official").write_bytes(b"junk")
    _, was_built = load_or_build_distributions(tmp_path, official_values, open_boxes=1)
    assert was_built


def test_a_build_is_the_same_whatever_the_chunks(official_values: Table) -> None:
    from bot.strategy.distribution_build import Builder

    packer, ids = Builder(official_values).run(open_boxes=2, chunk=97, workers=1)
    a = packer.result("official", 2, ids)
    packer, ids = Builder(official_values).run(open_boxes=2, chunk=1024, workers=2)
    b = packer.result("official", 2, ids)
    assert np.array_equal(a.ids, b.ids)
    assert all(np.array_equal(a.decode(i), b.decode(i)) for i in range(len(a.lo)))


def test_against_two_finished_cards_only_beating_both_counts(to_win: Distributions) -> None:
    """With only Yahtzee open (p to score 50) against two finished seats 30 and 50 points
    ahead: a Yahtzee beats the first and ties the second (half), and nothing else beats
    either. Against just the first, a Yahtzee is a win outright; against no one, a win."""
    p = float(yahtzee_in_a_turn())
    y = to_win.of(only_open(Category.YAHTZEE), 63, 0)
    full = to_win.of(MASKS - 1, 63, 0)
    both = Rival([(30, full), (50, full)]).chances(y[None, :], np.array([0]))
    assert both[0] == pytest.approx(p / 2, abs=STEP)
    one = Rival([(30, full)]).chances(y[None, :], np.array([0]))
    assert one[0] == pytest.approx(p, abs=STEP)
    assert Rival([]).chances(y[None, :], np.array([0]))[0] == pytest.approx(1.0)


def test_a_file_whose_arrays_are_not_the_sizes_its_header_says_is_refused(
    tmp_path: Path, to_win: Distributions
) -> None:
    """The payload is inflated into a buffer of the size the header gives: a header that
    claims more (or less) than the payload holds, its checksum right, is a damaged file."""
    import hashlib
    import json

    path = distributions_path(tmp_path, "official")
    save_distributions(to_win, path)
    data = path.read_bytes()
    first = data.index(b"\n") + 1
    end = data.index(b"\n", first)
    header = json.loads(data[first:end])
    payload = data[end + 1 :]
    for change in (+1, -1):
        wrong = {**header, "sizes": [*header["sizes"][:-1], header["sizes"][-1] + change]}
        wrong["sha256"] = hashlib.sha256(payload).hexdigest()
        path.write_bytes(data[:first] + json.dumps(wrong).encode() + b"\n" + payload)
        with pytest.raises(TableFileError, match="damaged"):
            load_distributions(path, "official")


def same(a: Distributions, b: Distributions) -> bool:
    """Every packed array of the two equal."""
    names = ("ids", "offset", "lo", "width", "wide", "steps8", "steps16")
    return all(np.array_equal(getattr(a, n), getattr(b, n)) for n in names)


def test_a_load_maps_the_files_uncompressed_copy(tmp_path: Path, to_win: Distributions) -> None:
    """The first load writes the uncompressed copy beside the file; every load maps it: the
    arrays are read-only views of the copy's pages (not the process's own memory), equal to
    the ones saved."""
    path = distributions_path(tmp_path, "official")
    save_distributions(to_win, path)
    assert not unpacked_path(path).exists()
    first = load_distributions(path, "official")
    copy = unpacked_path(path)
    made = copy.stat().st_mtime_ns
    again = load_distributions(path, "official")
    assert copy.stat().st_mtime_ns == made  # mapped as it is, not written again
    for back in (first, again):
        assert same(back, to_win)
        assert not back.steps8.flags.writeable and not back.ids.flags.writeable
    # the compressed arrays are smaller than the copy, which holds them as in memory
    assert copy.stat().st_size > path.stat().st_size
    assert copy.stat().st_size >= sum(
        getattr(to_win, n).nbytes for n in ("ids", "offset", "lo", "width", "steps8", "steps16")
    )


@pytest.mark.parametrize("harm", ["a flipped byte", "cut short", "another file's copy"])
def test_a_damaged_or_foreign_copy_is_made_again(
    tmp_path: Path, to_win: Distributions, official_values: Table, harm: str
) -> None:
    """A copy whose arrays changed, that lost its end, or that was made from another build
    of the file (the file built again since) is never mapped: it is made again from the
    file, and the load gives the file's arrays."""
    path = distributions_path(tmp_path, "official")
    if harm == "another file's copy":
        other, _ = load_or_build_distributions(tmp_path, official_values, open_boxes=1)
        assert unpacked_path(path).exists() and other.open_boxes == 1
        save_distributions(to_win, path)  # the file built again: three turns this time
    else:
        save_distributions(to_win, path)
        load_distributions(path, "official")
        copy = unpacked_path(path)
        data = bytearray(copy.read_bytes())
        if harm == "cut short":
            del data[-1]
        else:
            data[len(data) // 2] ^= 0x01
        copy.write_bytes(bytes(data))
    back = load_distributions(path, "official")
    assert back.open_boxes == 3 and same(back, to_win)
    assert same(load_distributions(path, "official"), to_win)  # the copy made again is good


def test_where_no_copy_can_be_written_the_file_is_read_into_memory(
    tmp_path: Path, to_win: Distributions
) -> None:
    """The copy's place taken (here by a folder: a read-only data folder or a full disk
    fail the same way, an OSError on writing it): the load still succeeds, from memory,
    and leaves no scratch file behind."""
    path = distributions_path(tmp_path, "official")
    save_distributions(to_win, path)
    unpacked_path(path).mkdir()
    back = load_distributions(path, "official")
    assert same(back, to_win) and back.steps8.flags.writeable  # its own memory
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [path.name, unpacked_path(path).name]
    )
