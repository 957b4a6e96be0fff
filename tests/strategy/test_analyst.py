"""The Analyst: the table loaded in the background, and decisions valued in a process of its own."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

import bot.strategy.builds as builds_module
from bot.engine import Category, Game, ScriptedDice
from bot.i18n.words import said_of
from bot.strategy import Table
from bot.strategy.analyst import Analyst
from bot.strategy.builds import NotEnoughMemory, available_memory, check_memory
from bot.strategy.decisions import evaluate
from bot.strategy.table_file import distributions_path, save, table_path


def rolled_game(faces: list[int]) -> Game:
    game = Game([("1", "Ann")], "official", ScriptedDice(faces))
    game.roll("1")
    return game


async def started(table: Table, folder: Path) -> Analyst:
    save(table, table_path(folder, "official"))
    analyst = Analyst(folder)
    analyst.start()
    await analyst.wait()
    assert analyst.table is not None
    return analyst


async def worker_pid(analyst: Analyst) -> int:
    """The analysing process's id (it answers the question itself)."""
    game = rolled_game([1, 2, 3, 4, 6])
    await analyst.judge(game, None, Category.CHANCE)  # the process is up
    (pid,) = analyst.worker_pids
    return pid


async def test_decisions_are_valued_in_another_process(
    official_values: Table, tmp_path: Path
) -> None:
    """Scoring 1-2-3-4-6 in Chance on the first roll of the game gives up what the best
    choice is worth more, and the analysing process is not the bot's."""
    analyst = await started(official_values, tmp_path)
    try:
        game = rolled_game([1, 2, 3, 4, 6])
        assert analyst.table is not None  # loaded from the saved file (float32)
        ranked = evaluate(analyst.table, game.current_seat.card, game.dice, game.rolls_left)
        chance = next(c for c in ranked if c.box is Category.CHANCE)
        judged = await analyst.judge(game, None, Category.CHANCE)
        assert judged is not None
        assert abs(judged[0] - (ranked[0].value - chance.value)) < 1e-9
        assert "you scored Chance" in str(said_of(judged[1]))  # kept as text for the log
        assert await analyst.choices(game, 3) == ranked[:3]
        assert await worker_pid(analyst) != os.getpid()
    finally:
        analyst.close()


async def test_a_killed_analysing_process_is_replaced(
    official_values: Table, tmp_path: Path
) -> None:
    """If the analysing process dies, the question still gets its answer, and a new process
    takes over the next ones."""
    analyst = await started(official_values, tmp_path)
    try:
        first = await worker_pid(analyst)
        os.kill(first, signal.SIGKILL)
        game = rolled_game([5, 5, 5, 5, 5])
        judged = await analyst.judge(game, None, Category.YAHTZEE)
        assert judged is not None and judged[0] < 1e-9  # a Yahtzee in Yahtzee: the best choice
        assert await worker_pid(analyst) != first
    finally:
        analyst.close()


async def test_missing_to_win_distributions_are_built_in_a_process_of_their_own(
    official_values: Table, tmp_path: Path
) -> None:
    """The first call starts the work and answers None at once (the To-win bot plays as the
    Optimal bot meanwhile); the build runs in another process and is saved; a new Analyst on
    the same folder loads the file instead of building again."""
    save(official_values, table_path(tmp_path, "official"))
    analyst = Analyst(tmp_path, to_win_turns=1)  # the last turn only: quick
    analyst.start()
    try:
        assert analyst.to_win() is None
        await analyst.wait_for_to_win()
        dists = analyst.to_win()
        assert dists is not None and dists.open_boxes == 1
        path = distributions_path(tmp_path, "official")
        built_at = path.stat().st_mtime_ns
    finally:
        analyst.close()
    again = Analyst(tmp_path, to_win_turns=1)
    again.start()
    try:
        await again.wait_for_to_win()
        assert again.to_win() is not None
        assert path.stat().st_mtime_ns == built_at  # loaded, not built again
    finally:
        again.close()


def test_available_memory_is_what_the_kernel_can_give() -> None:
    """MemAvailable, read from /proc/meminfo: more than nothing, at most the machine's RAM
    (from sysconf, a second source)."""
    free = available_memory()
    if not Path("/proc/meminfo").exists():
        assert free is None
        return
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert free is not None and 0 < free <= total


MiB = 2**20


def fake_host(root: Path, available: int, cgroup_line: str) -> tuple[Path, Path]:
    """A /proc with ``available`` bytes of MemAvailable and the process's cgroup line, and an
    empty cgroup mount, under ``root``: (proc, cgroup)."""
    proc, cgroup = root / "proc", root / "cgroup"
    (proc / "self").mkdir(parents=True)
    (proc / "meminfo").write_text(
        f"MemTotal:       65536000 kB\nMemFree:         1000000 kB\n"
        f"MemAvailable:   {available // 1024} kB\n",
        encoding="ascii",
    )
    (proc / "self" / "cgroup").write_text(cgroup_line + "\n", encoding="ascii")
    cgroup.mkdir()
    return proc, cgroup


def cgroup_files(folder: Path, **files: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name.replace("_", ".", 1)).write_text(text + "\n", encoding="ascii")


def test_a_cgroup_v2_limit_is_what_the_container_has_left(tmp_path: Path) -> None:
    """A 512 MiB container (cgroup v2) on a host with 16 GiB available, 300 MiB used of which
    20 MiB is page cache the kernel drops first: 512 - (300 - 20) = 232 MiB."""
    proc, cgroup = fake_host(tmp_path, 16 * 1024 * MiB, "0::/bot.slice/yahtzee.service")
    unit = cgroup / "bot.slice" / "yahtzee.service"
    cgroup_files(unit, memory_max=str(512 * MiB), memory_current=str(300 * MiB))
    (unit / "memory.stat").write_text(
        f"anon {280 * MiB}\nfile {20 * MiB}\nactive_file 0\ninactive_file {20 * MiB}\n",
        encoding="ascii",
    )
    cgroup_files(cgroup / "bot.slice", memory_max="max", memory_current=str(900 * MiB))
    assert available_memory(proc, cgroup) == 232 * MiB


def test_a_tighter_parent_cgroup_wins(tmp_path: Path) -> None:
    """The slice above the unit allows 1 GiB and has 900 MiB in use by its other units: the
    unit's own 2 GiB limit is not what it can get, 124 MiB is."""
    proc, cgroup = fake_host(tmp_path, 16 * 1024 * MiB, "0::/bot.slice/yahtzee.service")
    cgroup_files(
        cgroup / "bot.slice" / "yahtzee.service",
        memory_max=str(2048 * MiB), memory_current=str(100 * MiB),
    )  # fmt: skip
    cgroup_files(cgroup / "bot.slice", memory_max=str(1024 * MiB), memory_current=str(900 * MiB))
    assert available_memory(proc, cgroup) == 124 * MiB


def test_no_cgroup_limit_leaves_mem_available(tmp_path: Path) -> None:
    """v2's "max" and v1's huge "unlimited" number are no limit: MemAvailable stands."""
    proc, cgroup = fake_host(tmp_path / "v2", 3000 * MiB, "0::/")
    cgroup_files(cgroup, memory_max="max", memory_current=str(4000 * MiB))
    assert available_memory(proc, cgroup) == 3000 * MiB
    proc, cgroup = fake_host(tmp_path / "v1", 3000 * MiB, "4:memory:/docker/abc\n0::/")
    cgroup_files(
        cgroup / "memory" / "docker" / "abc",
        memory_limit_in_bytes="9223372036854771712", memory_usage_in_bytes=str(4000 * MiB),
    )  # fmt: skip
    assert available_memory(proc, cgroup) == 3000 * MiB


def test_a_cgroup_v1_limit_counts(tmp_path: Path) -> None:
    """cgroup v1: limit_in_bytes less usage_in_bytes (less the hierarchy's inactive page
    cache); a container that sees its own group at the mount's root while /proc/self/cgroup
    names the host's path is read at the root."""
    proc, cgroup = fake_host(
        tmp_path, 16 * 1024 * MiB, "9:pids:/docker/abc\n4:cpu,memory:/docker/abc\n0::/"
    )
    cgroup_files(
        cgroup / "memory",
        memory_limit_in_bytes=str(1024 * MiB), memory_usage_in_bytes=str(600 * MiB),
    )  # fmt: skip
    (cgroup / "memory" / "memory.stat").write_text(
        f"inactive_file {MiB}\ntotal_inactive_file {50 * MiB}\n", encoding="ascii"
    )
    assert available_memory(proc, cgroup) == (1024 - 550) * MiB


def test_a_container_over_its_limit_has_nothing(tmp_path: Path) -> None:
    """Usage at or above the limit (it happens while the kernel reclaims) is no room, not a
    negative number."""
    proc, cgroup = fake_host(tmp_path, 16 * 1024 * MiB, "0::/")
    cgroup_files(cgroup, memory_max=str(256 * MiB), memory_current=str(260 * MiB))
    assert available_memory(proc, cgroup) == 0


async def test_each_presets_table_is_loaded_and_valued_in_the_process(
    official_values: Table, bonus_turn_values: Table, tmp_path: Path
) -> None:
    """With both files saved, the Analyst loads the bonus-turn table after the official one,
    and its process values a bonus-turn game by it (reading it from its own file)."""
    save(bonus_turn_values, table_path(tmp_path, "bonus-turn"))
    analyst = await started(official_values, tmp_path)
    try:
        assert await analyst.wait_for("bonus-turn") is not None
        table = analyst.table_for("bonus-turn")
        assert table is not None and table.rules == "bonus-turn"
        game = Game([("1", "Ann")], "bonus-turn", ScriptedDice([6, 6, 6, 6, 6] * 2))
        game.roll("1")
        game.score("1", Category.YAHTZEE)
        game.roll("1")  # five sixes again: the bonus turn is legal
        ranked = evaluate(table, game.current_seat.card, game.dice, game.rolls_left)
        assert ranked[0].bonus_turn
        assert await analyst.choices(game, 3) == ranked[:3]
        assert await worker_pid(analyst) != os.getpid()
    finally:
        analyst.close()


async def test_each_preset_has_its_own_to_win_distributions(
    official_values: Table, relaxed_joker_values: Table, tmp_path: Path
) -> None:
    """A ``relaxed-joker`` game's To-win bot asks for that preset's distributions: built
    from the preset's own table in a process of their own and saved in a file of their own;
    the official ones are not built for it. (Any preset but official shows it; relaxed-joker
    builds in a second, bonus-turn's twice as many states in a minute on a busy machine:
    bonus-turn's own distributions are tested in test_distribution.)"""
    save(official_values, table_path(tmp_path, "official"))
    save(relaxed_joker_values, table_path(tmp_path, "relaxed-joker"))
    analyst = Analyst(tmp_path, to_win_turns=1)
    analyst.start()
    try:
        assert analyst.to_win("relaxed-joker") is None
        await analyst.wait_for_to_win("relaxed-joker")
        dists = analyst.to_win("relaxed-joker")
        assert dists is not None and dists.rules == "relaxed-joker" and dists.open_boxes == 1
        assert distributions_path(tmp_path, "relaxed-joker").exists()
        assert not distributions_path(tmp_path, "official").exists()
    finally:
        analyst.close()


@pytest.mark.parametrize("rules", ["official", "relaxed-joker", "bonus-turn"])
def test_a_512_mib_host_at_rest_may_build_any_presets_distributions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str
) -> None:
    """A 512 MiB container (cgroup v2) with the bot at rest in it (130 MiB, README's host
    table) has room to build; with 400 MiB in use it has not, and says how much it has."""
    proc, cgroup = fake_host(tmp_path, 16 * 1024 * MiB, "0::/")
    cgroup_files(cgroup, memory_max=str(512 * MiB), memory_current=str(130 * MiB))
    monkeypatch.setattr(builds_module, "PROC", proc)
    monkeypatch.setattr(builds_module, "CGROUP", cgroup)
    check_memory(tmp_path, rules)
    cgroup_files(cgroup, memory_current=str(400 * MiB))
    with pytest.raises(NotEnoughMemory, match="112 MiB is available"):
        check_memory(tmp_path, rules)
