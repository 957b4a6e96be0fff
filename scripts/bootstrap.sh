#!/usr/bin/env bash
# Create .venv (once) and install the bot into it with the tested versions of everything it
# uses (requirements/lock.txt; with "dev", requirements/dev-lock.txt: the test tools too),
# each file checked against its hash. Reinstalls only when pyproject.toml or the lock changes.
# Needs only Python 3.11+ and its pip. The locks are updated with `bash scripts/lock.sh`.
# Usage: scripts/bootstrap.sh [dev]
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"
case "$extra" in
  "") lock=requirements/lock.txt ;;
  dev) lock=requirements/dev-lock.txt ;;
  *) echo "usage: scripts/bootstrap.sh [dev]" >&2; exit 2 ;;
esac
python=${PYTHON:-python3}
PIP_VERSION=26.3
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
stamp=".venv/.installed-$(cat pyproject.toml "$lock" | sha256sum | cut -c1-16)-${extra:-base}"
if [ ! -f "$stamp" ]; then
  echo "installing the bot's packages into .venv${extra:+ (with $extra)}: about a minute the first time" >&2
  pip=(.venv/bin/python -m pip --quiet --disable-pip-version-check)
  # pip's own notices (a newer pip, the build's progress) are noise here; errors still show
  # a fixed pip (the one the locks are tested with), not whatever is newest today
  "${pip[@]}" install "pip==$PIP_VERSION"
  PYTHONWARNINGS=ignore "${pip[@]}" install --require-hashes -r "$lock"
  PYTHONWARNINGS=ignore "${pip[@]}" install --no-deps -e .
  if ! "${pip[@]}" check >/dev/null; then
    "${pip[@]}" check >&2 || true
    echo "error: $lock lacks what pyproject.toml asks for: run bash scripts/lock.sh" >&2
    exit 1
  fi
  touch "$stamp"
fi
