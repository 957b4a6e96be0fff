"""The locks of tested versions (requirements/, written by scripts/lock.sh) are in step with
pyproject.toml: every package it asks for is pinned, inside its range, the same in both."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def pins(lock: str) -> dict[str, list[tuple[str, str | None]]]:
    """name -> [(version, marker or None)] of a lock file; every pin carries a hash."""
    text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
    found: dict[str, list[tuple[str, str | None]]] = {}
    for block in re.split(r"\n(?=\S)", text):
        first = block.splitlines()[0]
        match = PIN.match(first)
        if match is None:
            continue
        assert "--hash=sha256:" in block, first
        name, version, marker = match.groups()
        found.setdefault(canonicalize_name(name), []).append((version, marker))
    return found


def wanted(extra: str | None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = [Requirement(r) for r in project["dependencies"]]
    if extra is not None:
        found += [Requirement(r) for r in project["optional-dependencies"][extra]]
    return found


@pytest.mark.parametrize("python", ["3.11", "3.12", "3.13"])
@pytest.mark.parametrize(("lock", "extra"), [("lock.txt", None), ("dev-lock.txt", "dev")])
def test_every_dependency_is_pinned_inside_its_range(
    lock: str, extra: str | None, python: str
) -> None:
    """For each Python the bot supports, one pinned version of each package pyproject.toml
    names, and it is one its range allows (a floor raised without `bash scripts/lock.sh`
    fails here)."""
    env = {"python_version": python, "python_full_version": f"{python}.0"}
    locked = pins(lock)
    for requirement in wanted(extra):
        if requirement.marker is not None and not requirement.marker.evaluate(env):
            continue
        name = canonicalize_name(requirement.name)
        versions = [
            version
            for version, marker in locked.get(name, [])
            if marker is None or Marker(marker).evaluate(env)
        ]
        assert len(versions) == 1, (lock, python, name, versions)
        assert requirement.specifier.contains(versions[0], prereleases=True), (
            lock, name, versions[0], str(requirement.specifier),
        )  # fmt: skip


def test_the_two_locks_agree() -> None:
    """What both locks hold is the same version in both: the tests run what the bot runs."""
    bot, dev = pins("lock.txt"), pins("dev-lock.txt")
    assert bot.keys() <= dev.keys()
    for name, versions in bot.items():  # the markers may differ: the tools need more
        assert {v for v, _ in dev[name]} == {v for v, _ in versions}, name
