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
  echo "installing the bot's packages into .venv${extra:+ (with $extra)}: about a minute the first time" >&2
  # pip's own notices (a newer pip, the build's progress) are noise here; errors still show
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  PYTHONWARNINGS=ignore .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
  touch "$stamp"
fi
