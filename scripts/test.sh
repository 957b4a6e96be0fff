#!/usr/bin/env bash
# Install everything and run every check: ruff (lint and format), mypy --strict on bot/ and cogs/, and the tests.
# The tests run in two processes at once (pytest-xdist; -n 0 after it: in one).
# Extra arguments go to pytest, e.g. scripts/test.sh -k joker
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh dev
# The project's own modules compiled to bytecode once, here: where PYTHONDONTWRITEBYTECODE is
# set (as on this machine) every process the tests start (bots, their helpers, the test
# workers) would otherwise compile what it imports again (0.2 s of CPU a process).
.venv/bin/python -m compileall -q -j 0 bot cogs tests benchmarks >/dev/null
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy --strict bot cogs
.venv/bin/python -m pytest -n 2 "$@"
