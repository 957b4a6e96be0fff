#!/usr/bin/env bash
# Install everything and run every check: ruff (lint and format), mypy --strict on bot/ and
# cogs/, and the tests. ruff and mypy run beside the tests (their output is shown after) and
# any failing check fails the run.
# The tests run in four processes at once on the two cores (pytest-xdist, work stealing):
# many of them wait on a bot process, a subprocess or the fake Discord, and four keep the
# cores busy where two left them half idle (docs/testing.md has the figures). -n 0 after
# it: in one process.
# Extra arguments go to pytest, e.g. scripts/test.sh -k joker
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh dev
# The project's own modules compiled to bytecode once, here: where PYTHONDONTWRITEBYTECODE is
# set (as on this machine) every process the tests start (bots, their helpers, the test
# workers) would otherwise compile what it imports again (0.2 s of CPU a process).
.venv/bin/python -m compileall -q -j 0 bot cogs tests benchmarks >/dev/null
checks=$(mktemp)
trap 'rm -f "$checks"' EXIT
(
  .venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy --strict bot cogs
) >"$checks" 2>&1 &
checker=$!
tests=0
.venv/bin/python -m pytest -n 4 --dist worksteal "$@" || tests=$?
status=0
wait "$checker" || status=$?
cat "$checks"
if [ "$status" -ne 0 ]; then
  echo "error: ruff or mypy failed (above)" >&2
fi
exit $((tests != 0 ? tests : status))
