#!/usr/bin/env bash
# Update the locks of tested versions from pyproject.toml's ranges:
#   requirements/lock.txt      the bot (what scripts/start.sh installs)
#   requirements/dev-lock.txt  the bot and its test tools (scripts/test.sh, CI), the same
#                              versions of what both hold
# One lock for every Python from 3.11 and every platform (uv's universal resolution: a
# dependency of some Pythons only, such as discord.py's audioop-lts on 3.13, carries its
# marker), every file pinned by its sha256. Then run scripts/test.sh and commit both files.
# Usage: bash scripts/lock.sh                       add what pyproject.toml newly asks for,
#                                                   keep every other version
#        bash scripts/lock.sh --upgrade             every package to its newest allowed version
#        bash scripts/lock.sh --upgrade-package aiohttp   one package (and what it needs)
# uv reads PyPI, or the index in UV_DEFAULT_INDEX; it is fetched once into .venv/uv-VERSION.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
uv_version=0.13.9
uv=".venv/uv-$uv_version/bin/uv"
if [ ! -x "$uv" ]; then
  echo "fetching uv $uv_version (used only to write the locks)" >&2
  "$python" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
    --target ".venv/uv-$uv_version" \
    "uv==$uv_version"
fi
compile=("$uv" pip compile --quiet --universal --python-version 3.11 --generate-hashes
         --custom-compile-command "bash scripts/lock.sh")
"${compile[@]}" "$@" pyproject.toml -o requirements/lock.txt
"${compile[@]}" "$@" --extra dev --constraint requirements/lock.txt pyproject.toml \
  -o requirements/dev-lock.txt
echo "requirements/lock.txt and requirements/dev-lock.txt written: run scripts/test.sh, then commit them" >&2
