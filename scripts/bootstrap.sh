#!/usr/bin/env bash
# Create .venv (once) and install the project into it; reinstall only when pyproject.toml changes.
# Usage: scripts/bootstrap.sh [extra]   e.g. "dev" for the test tools.
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
spec="."
[ -n "$extra" ] && spec=".[$extra]"
stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)-${extra:-base}"
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e "$spec"
  touch "$stamp"
fi
