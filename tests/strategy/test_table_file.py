"""The saved table: a round trip, refusals of damaged files, rebuilds, and the command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bot.strategy import Table, table_file
from bot.strategy.table_file import TableFileError, load, load_or_build, save, table_path

ROOT = Path(__file__).resolve().parents[2]


def test_round_trip_in_float32(official: Table, tmp_path: Path) -> None:
    """Saved and loaded, every solved value survives to float32 precision, under 8 MB."""
    path = table_path(tmp_path, "official")
    save(official, path)
    assert path.stat().st_size < 8 * 1024 * 1024
    loaded = load(path, "official")
    solved = ~np.isnan(official.value)
    assert np.allclose(loaded.value[solved], official.value[solved], rtol=1e-6)
    assert loaded.expected_score == pytest.approx(254.5877, abs=0.0001)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda b: b[:-10] + b"0123456789", "checksum"),
        (lambda b: b"not a table" + b, "not a strategy table"),
        (lambda b: b.replace(b'"format": 1', b'"format": 9'), "another strategy table"),
    ],
)
def test_damaged_files_are_refused(
    official: Table, tmp_path: Path, damage: object, message: str
) -> None:
    """A flipped byte, a foreign file or another format is refused with the reason."""
    path = table_path(tmp_path, "official")
    save(official, path)
    path.write_bytes(damage(path.read_bytes()))  # type: ignore[operator]
    with pytest.raises(TableFileError, match=message):
        load(path, "official")


def test_missing_or_damaged_tables_are_rebuilt(
    official: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """load_or_build solves when there is no usable file, and loads when there is one."""
    solves: list[str] = []

    def counted_solve(rules: str) -> Table:
        solves.append(rules)
        return official

    monkeypatch.setattr(table_file, "solve", counted_solve)
    _, built = load_or_build(tmp_path)
    assert built and solves == ["official"]
    _, built = load_or_build(tmp_path)
    assert not built and solves == ["official"]
    path = table_path(tmp_path, "official")
    path.write_bytes(path.read_bytes()[:-1])
    _, built = load_or_build(tmp_path)
    assert built and len(solves) == 2
    _, built = load_or_build(tmp_path, rebuild=True)
    assert built and len(solves) == 3


def test_command_prints_the_expected_score_last(official: Table, tmp_path: Path) -> None:
    """python -m bot.strategy loads the saved table and ends with the empty card's value."""
    save(official, table_path(tmp_path, "official"))
    done = subprocess.run(
        [sys.executable, "-m", "bot.strategy", "--data", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("loaded ")
    assert lines[-1] == f"expected score (official): {official.expected_score:.6f}"
    assert lines[-1] == "expected score (official): 254.587729"


def test_command_prints_each_presets_value(
    official_values: Table, relaxed_joker_values: Table, bonus_turn_values: Table,
    tmp_path: Path,
) -> None:  # fmt: skip
    """``--preset all`` loads each preset's own file and prints each one's value."""
    for table in (official_values, relaxed_joker_values, bonus_turn_values):
        save(table, table_path(tmp_path, table.rules))
    done = subprocess.run(
        [sys.executable, "-m", "bot.strategy", "--data", str(tmp_path), "--preset", "all"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    assert [line for line in lines if line.startswith("expected score")] == [
        "expected score (official): 254.587729",
        "expected score (relaxed-joker): 254.589097",
        "expected score (bonus-turn): 252.001814",
    ]
    assert all(line.startswith("loaded ") for line in lines[::2])
    assert (tmp_path / "strategy-bonus-turn-v1.bin").exists()
