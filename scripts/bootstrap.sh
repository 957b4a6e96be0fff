#!/usr/bin/env bash
# Create .venv (once) and install the bot into it with the tested versions of everything it
# uses (requirements/lock.txt; with "dev", requirements/dev-lock.txt: the test tools too),
# each file checked against its hash (by uv, fetched with pip into .venv; by pip if uv cannot
# be had). Reinstalls only when pyproject.toml or the lock changes.
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
# uv installs the same locked files, each checked against its hash, in a few seconds where
# pip takes about twenty (scripts/lock.sh uses the same uv); pip does it where uv cannot be
# had. Either way the install is the lock's, to the hash, and compiled to bytecode as pip
# does (this environment sets PYTHONDONTWRITEBYTECODE: without it every process started
# would compile what it imports again).
UV_VERSION=0.13.9
uv=".venv/uv-$UV_VERSION/bin/uv"
with_uv() {
  if [ ! -x "$uv" ]; then
    "$python" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
      --target ".venv/uv-$UV_VERSION" "uv==$UV_VERSION" >/dev/null 2>&1 || return 1
  fi
  local into=(--quiet --python .venv/bin/python --compile-bytecode)
  "$uv" pip install "${into[@]}" --require-hashes -r "$lock" &&
    "$uv" pip install "${into[@]}" --no-deps -e . &&
    "$uv" pip check "${into[@]}" >/dev/null
}
with_pip() {
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
}
if [ ! -f "$stamp" ]; then
  echo "installing the bot's packages into .venv${extra:+ (with $extra)}: a minute at most the first time" >&2
  if ! with_uv; then
    echo "(uv could not install them: pip does)" >&2
    with_pip
  fi
  touch "$stamp"
fi
