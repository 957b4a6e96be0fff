#!/usr/bin/env bash
# Install everything and run every check: ruff (lint and format), mypy --strict on bot/ and cogs/, and the tests.
# The tests run in two processes at once (pytest-xdist; -n 0 after it: in one).
# Extra arguments go to pytest, e.g. scripts/test.sh -k joker
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh dev
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy --strict bot cogs
.venv/bin/python -m pytest -n 2 "$@"
