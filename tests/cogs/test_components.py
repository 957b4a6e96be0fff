"""The Discord side's rooms: imports go one way, and each feature's controls are listed in
its table of custom_ids (the controls and their router: test_router.py)."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

from .test_router import ALL

ROOT = Path(__file__).resolve().parents[2]


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
    """The cogs go through the service: no ``bot.store``, ``bot.strategy`` or ``bot.render``
    import (a game reaches them as the service's ``GameView``, never a store row; the
    strategy's answers and the text scorecard are re-exported by ``bot.games``), no
    ``.store`` attribute."""
    beyond = ("bot.store", "bot.strategy", "bot.render")
    importing = {
        str(path.relative_to(ROOT)): sorted(m for m in _imports(path) if m.startswith(beyond))
        for path in (ROOT / "cogs").rglob("*.py")
    }
    assert {k: v for k, v in importing.items() if v} == {}
    for path in (ROOT / "cogs").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        reached = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in ("store", "_store")
        ]
        assert reached == [], f"{path.name} reaches the store at lines {reached}"


def test_the_service_topics_are_collaborators_not_a_class_chain() -> None:
    """Each topic of ``bot/games`` is a class of its own (no base class of the project),
    calls only the peers its ``__init__`` takes, and takes only topics built before it in
    ``GameService`` (so there is no cycle): worked out from the source, not from a list."""
    from bot.games.service import GameService

    built = re.findall(r"self\.(\w+) = (\w+)\(", inspect.getsource(GameService.__init__))
    order = [attr for attr, _ in built]
    classes = dict(built)
    assert order[:2] == ["keeper", "clock"] and len(order) >= 10, order
    for position, attr in enumerate(order[1:], start=1):
        path = ROOT / "bot" / "games" / f"{attr}.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == classes[attr]]
        assert cls.bases == [], f"{cls.name} inherits from {[ast.unparse(b) for b in cls.bases]}"
        init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
        taken = {a.arg for a in init.args.args[1:]}
        called = {
            node.value.attr
            for node in ast.walk(cls)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "self"
            and node.value.attr in classes
        }
        assert called <= taken, f"{cls.name} calls {sorted(called - taken)} it was not given"
        topics = taken & set(classes)
        assert topics <= set(order[:position]), f"{cls.name} takes a topic built after it"
        plumbing = {"store", "time", "pool", "analyst"}  # what GameService is given
        assert taken - topics <= plumbing, f"{cls.name} takes {sorted(taken - topics)}"


def test_nothing_outside_the_service_reaches_its_keeper_or_clock() -> None:
    """The service's ``keeper`` (the games as saved) and ``clock`` are its own: the Discord
    side and the app call topics and ``GameService``'s methods, never those two (worked out
    from every such attribute of the service outside ``bot/games``)."""
    outside = [*(ROOT / "cogs").rglob("*.py"), *(ROOT / "bot").glob("*.py")]

    def service(node: ast.expr) -> bool:  # ``games``, ``self.games``, ``bot._games`` ...
        name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
        return name in ("games", "_games", "service")

    for path in outside:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        reached = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and node.attr in ("keeper", "clock", "core")
            and service(node.value)
        ]
        assert reached == [], f"{path.relative_to(ROOT)} reaches into the service at {reached}"
    imported = {
        str(path.relative_to(ROOT)): sorted(
            m for m in _imports(path) if m in ("bot.games.keeper", "bot.games.clock")
        )
        for path in outside
    }
    assert {k: v for k, v in imported.items() if v} == {}


def test_the_store_modules_import_in_one_direction() -> None:
    """No import cycle among ``bot/store``'s modules, its ``plans`` package's included
    (imports inside functions count too; ``from . import x`` is the module ``x``, or the
    package for a name it defines): the backends import ``base``, and the package's
    ``open_store`` picks a backend."""
    folder = ROOT / "bot" / "store"
    graph: dict[str, set[str]] = {}
    for path in folder.rglob("*.py"):
        parts = path.relative_to(folder).with_suffix("").parts
        package = parts[:-1]
        name = ".".join(parts if parts[-1] != "__init__" else [*package, "__init__"])
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = list(package[: len(package) - (node.level - 1)])
                # ``from . import plans``: the module (or package) named; else the module's
                heads = [a.name for a in node.names] if node.module is None else [node.module]
                for head in heads:
                    first = [*base, head.split(".")[0]]
                    target = ".".join(first)
                    if (folder.joinpath(*first)).is_dir():
                        target = ".".join([*first, "__init__"])
                    elif not (folder.joinpath(*first).with_suffix(".py")).exists():
                        target = ".".join([*base, "__init__"])  # a name from the package
                    imported.add(target)
        graph[name] = imported
    state: dict[str, str] = {}

    def visit(module: str, trail: list[str]) -> None:
        if state.get(module) == "done":
            return
        assert state.get(module) != "open", f"import cycle: {' -> '.join([*trail, module])}"
        state[module] = "open"
        for imported in sorted(graph.get(module, ())):
            visit(imported, [*trail, module])
        state[module] = "done"

    for module in sorted(graph):
        visit(module, [])


def test_no_rule_number_is_restated_on_the_discord_side() -> None:
    """A text of the cogs that names a box or a bonus takes its points from the engine's
    constants: no string constant there holds one of them beside a box's name (the rules,
    the menu, the turn lines: "+100", "Full House 25", "63 or more")."""
    import bot.engine as engine

    numbers = {
        str(value)
        for name, value in vars(engine).items()
        if name.endswith(("_POINTS", "_THRESHOLD")) and isinstance(value, int)
    }
    assert {"25", "35", "50", "63", "100"} <= numbers  # the constants the test knows of
    rule_words = re.compile(r"Full House|Straight|Yahtzee|bonus|Upper|Joker", re.I)
    number = re.compile(r"(?<![\w.])\+?(\d+)(?![\w.])")
    found = []
    for path in (ROOT / "cogs").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if rule_words.search(text) and set(number.findall(text)) & numbers:
                    found.append(f"{path.name}:{node.lineno}: {text[:60]!r}")
    assert found == []


def test_inside_the_cogs_imports_go_one_way() -> None:
    """A feature's builders (``messages``, ``board``) and controls import the shared pieces and
    other features' builders and controls, never a cog; the shared pieces and the core never
    import a feature's cog or anything of a feature but its builders (what a feature offers
    them goes through an interface it registers: ``cogs/shared/computers.py``); nothing
    imports a feature's cog (each is an extension of its own, loaded by name)."""
    builders = {"messages", "board", "controls"}
    features = ("lobby", "turn", "daily", "coaching", "results", "admin")
    found = []
    for path in (ROOT / "cogs").rglob("*.py"):
        where = path.relative_to(ROOT / "cogs").parts
        if where[0] in features and path.stem not in builders:
            continue  # a feature's own modules import what they need of it
        for module in _imports(path):
            parts = module.split(".")
            if parts[0] != "cogs" or len(parts) < 3 or parts[1] not in features:
                continue
            if parts[2] not in builders:
                found.append(f"{'/'.join(where)} imports {module}")
    assert found == []


def test_only_the_routes_reach_a_channel_and_a_move_is_shown_from_one_place() -> None:
    """The publisher's means of posting are one seam (``cogs/shared/routes.py``: nothing else
    reaches a channel, a thread or a DM by Discord's routes), and what players see after a
    move is written once (``cogs/shared/after_move.py``): the final card and the closing of
    an Undo offer are shown from there and from the publisher's own kin alone."""
    routes = {"get_partial_messageable", "get_partial_message", "create_thread", "create_dm",
              "http", "get_channel", "fetch_channel"}  # fmt: skip
    showing = {"post_final", "close_undo"}
    kin = {"after_move.py", "publisher.py", "private.py", "repairs.py"}
    reached, shown = [], []
    for path in (ROOT / "cogs").rglob("*.py"):
        where = str(path.relative_to(ROOT / "cogs"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute):
                continue
            if node.attr in routes and where != "shared/routes.py":
                reached.append(f"{where}:{node.lineno} {node.attr}")
            if node.attr in showing and not (where.startswith("shared/") and path.name in kin):
                shown.append(f"{where}:{node.lineno} {node.attr}")
    assert reached == [] and shown == []


def test_the_custom_id_table_names_every_component() -> None:
    """The table in each feature's ``controls`` docstring lists the keys of its controls."""
    assert len(ALL) >= 18  # every feature's controls were found
    missing = [
        f"{cls.__module__}: {cls.key}"
        for cls in ALL
        if f"``yz:{cls.key}:" not in (importlib.import_module(cls.__module__).__doc__ or "")
    ]
    assert missing == []
