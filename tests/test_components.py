"""The Discord side's rooms: imports go one way, and every component reads back its own
custom_id and reaches a handler that takes its fields."""

from __future__ import annotations

import ast
import asyncio
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

import cogs.components as components
from cogs.admin import Admin
from cogs.components import ADMIN_COMPONENTS, GAME_COMPONENTS, Control
from cogs.yahtzee import Yahtzee

ROOT = Path(__file__).resolve().parents[1]
ALL = GAME_COMPONENTS + ADMIN_COMPONENTS
COGS = {"Yahtzee": Yahtzee, "Admin": Admin}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_nothing_in_bot_imports_cogs() -> None:
    """``bot`` is the core; the Discord side (``cogs``) depends on it, never the reverse."""
    offenders = {
        str(path.relative_to(ROOT)): sorted(m for m in _imports(path) if m.split(".")[0] == "cogs")
        for path in (ROOT / "bot").rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_cogs_never_touch_the_store() -> None:
    """The cogs go through the service: no ``bot.store`` call, no ``.store`` attribute."""
    for path in (ROOT / "cogs").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        reached = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in ("store", "_store")
        ]
        assert reached == [], f"{path.name} reaches the store at lines {reached}"


def _sample(field: components.Field) -> Any:
    """A value that matches a field's pattern."""
    pattern, convert = field
    for candidate in ("123", "4", "0", *pattern.split("|"), "high", "high:all:2"):
        text = candidate.replace("\\", "")
        if re.fullmatch(pattern, text):
            return convert(text)
    raise AssertionError(f"no sample for {pattern}")


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_every_component_reads_back_its_own_custom_id(cls: type[Control[Any]]) -> None:
    """Build it, match its custom_id against the registered template, rebuild it from the
    match: the same custom_id and the same fields."""
    values = {name: _sample(field) for name, field in cls.fields.items()}
    item = cls(**values)
    custom_id = item.item.custom_id
    assert custom_id is not None and len(custom_id) <= 100
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    others = [
        c for c in ALL if c is not cls and c.__discord_ui_compiled_template__.fullmatch(custom_id)
    ]
    assert others == [], f"{custom_id} also matches {others}"
    back = asyncio.run(cls.from_custom_id(None, item.item, match))  # type: ignore[arg-type]
    assert back.item.custom_id == custom_id and back.values == values


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_every_component_has_a_handler_for_its_fields(cls: type[Control[Any]]) -> None:
    """The cog method a click calls exists and takes exactly the fields (and a select's
    ``value``)."""
    handler = getattr(COGS[cls.cog], cls.handler)
    params = list(inspect.signature(handler).parameters)[2:]  # self, interaction
    expected = list(cls.fields) + (["value"] if issubclass(cls, components.SelectControl)
                                   or cls.handler == "on_setting" else [])  # fmt: skip
    assert params == expected


def test_the_custom_id_table_names_every_component() -> None:
    """The table in ``cogs.components``'s docstring lists every key."""
    doc = components.__doc__ or ""
    keys = {cls.key for cls in ALL}
    missing = [key for key in keys if f"``yz:{key}:" not in doc]
    assert missing == []
