"""What holding the To-win bot's distributions costs a process, and whether the kernel can
take it back: python benchmarks/to_win_memory.py [--data DIR] [--preset NAME ...]

For each preset whose distributions file is in DIR (``python -m bot.strategy --to-win
--preset NAME --data DIR`` builds one), loads it in a fresh process, twice: the first load
(no uncompressed copy beside the file yet: it is written) and a later one (the copy is
mapped). Prints, for each, the load's wall time, the process's peak while loading, and what
the loaded arrays hold: in the process's own memory (anonymous pages: only an out-of-memory
kill frees them) and in pages of the mapped copy (the file's: shared by every process that
maps it, dropped by the kernel under memory pressure and read again when touched). Then all
the presets at once in one process, as an analysis helper serving every preset holds them.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import Preset  # noqa: E402
from bot.strategy.table_file import distributions_path, unpacked_path  # noqa: E402

#: Run in a fresh process: load the named presets' distributions, then report its memory.
_LOAD = """
import json, resource, sys, time
from pathlib import Path
from bot.strategy.table_file import distributions_path, load_distributions

def status():
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("RssAnon", "RssFile", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields

folder, presets = Path(sys.argv[1]), sys.argv[2:]
before = status()
start = time.perf_counter()
held = [load_distributions(distributions_path(folder, p), p) for p in presets]
seconds = time.perf_counter() - start
for d in held:  # touch every array, as a game of the To-win bot may
    for name in ("ids", "offset", "lo", "width", "wide", "steps8", "steps16"):
        int(getattr(d, name).sum())
after = status()
print(json.dumps({"seconds": seconds, "before": before, "after": after}))
"""


def load_in_a_process(folder: Path, presets: list[str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _LOAD, str(folder), *presets],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return dict(json.loads(done.stdout))


def line(what: str, run: dict[str, object]) -> str:
    before, after = run["before"], run["after"]
    assert isinstance(before, dict) and isinstance(after, dict)
    own = after["RssAnon"] - before["RssAnon"]
    mapped = after["RssFile"] - before["RssFile"]
    peak = after["VmHWM"] - before["VmHWM"]
    return (
        f"{what:<34} {run['seconds']:6.2f} s   own memory +{own:5.0f} MiB   "
        f"mapped file pages +{mapped:5.0f} MiB   peak while loading +{peak:5.0f} MiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--preset", action="append", choices=[p.value for p in Preset])
    args = parser.parse_args()
    presets = [
        p
        for p in args.preset or [p.value for p in Preset]
        if distributions_path(args.data, p).exists()
    ]
    if not presets:
        sys.exit(f"no distributions file in {args.data}: build one with python -m bot.strategy")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for p in presets:  # a copy of the files alone: the first load writes beside them
            shutil.copy(distributions_path(args.data, p), distributions_path(folder, p))
        for p in presets:
            size = distributions_path(folder, p).stat().st_size / 2**20
            print(f"{p}: the file {size:.1f} MiB")
            print(line("  first load (writes the copy)", load_in_a_process(folder, [p])))
            copy = unpacked_path(distributions_path(folder, p)).stat().st_size / 2**20
            print(line("  a later load (maps it)", load_in_a_process(folder, [p])))
            print(f"  the uncompressed copy: {copy:.1f} MiB on disk")
        if len(presets) > 1:
            print(line(f"all {len(presets)} in one process", load_in_a_process(folder, presets)))


if __name__ == "__main__":
    main()
