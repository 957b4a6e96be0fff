#!/usr/bin/env bash
# Install the bot and start it; arguments go to `python -m bot` (e.g. `sync`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec .venv/bin/python -m bot "$@"
