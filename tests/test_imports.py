"""Imports flow one way, and files keep to each other's public names.

- No module of the package imports, at run time (at the top or inside a function), a module
  that imports it back. An import names the module it imports: that its package's
  ``__init__`` runs first, as Python does, is not counted (a package imports its modules by
  design). Imports for type checking only are allowed a few known circles (below); the
  table, the simulation and the rules modules have none at all.
- No file outside race.py reaches into a race's private names (``race._move``): what a rules
  module may use of a race is :class:`pitboard.engine.modules.ModuleRace`.
- No file imports another's private name (``from .symbols import _move``); the ones older
  than this rule, outside the engine, are listed and may only go.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pitboard

ROOT = Path(pitboard.__file__).parent

#: circles that exist only for type checking (``if TYPE_CHECKING:``): the engine's layers name
#: each other's types (modules.py the race's setup, React actions and forecast; setup.py checks
#: modules), and hwtest_i2c.py names hwtest.py's Report. A circle may shrink, never grow.
KNOWN_TYPE_CIRCLES = (
    frozenset({"pitboard.engine.course", "pitboard.engine.forecast", "pitboard.engine.modules",
               "pitboard.engine.piles", "pitboard.engine.queries", "pitboard.engine.race",
               "pitboard.engine.react", "pitboard.engine.setup"}),
    frozenset({"pitboard.hwtest", "pitboard.hwtest_i2c"}),
)

#: private names imported across files before this rule (module -> names), none in the engine;
#: make one public (or move it) and strike it here
OLDER_PRIVATE_IMPORTS = {
    "pitboard.bots": {"_Hand", "_ORDER_OF", "_RECORDS", "_SLIPSTREAM", "_course_of"},
    "pitboard.console.command": {"_Command", "_Usage"},
    "pitboard.hw.display_base": {"_check_image"},
    "pitboard.hwconfig.pins": {"_Claim", "_display_claims", "_i2c_devices", "_input_claims",
                               "_mux_parent", "_mux_reset_claim", "_segment"},
    "pitboard.hwconfig.reader": {"_Reader", "_describe", "_join", "_used_elsewhere"},
    "pitboard.hwconfig.schema": {"_I2C1_PINS", "_ID_PINS", "_SPI0_PINS", "_UART_PINS"},
    "pitboard.hwconfig.stations": {"_StationParser"},
    "pitboard.table.canvas": {"_KEY_Y", "_L", "_MARK_Y", "_ON", "_R", "_Screen", "_cards_row",
                              "_cards_top", "_fit", "_heat_block", "_key_label", "_keys_left",
                              "_lap", "_move_block", "_signed", "_soft_keys", "_speed_block",
                              "_spot"},
    "pitboard.table.fonts": {"_BIG_TIGHT"},
    "pitboard.wiring.markdown": {"_address_setting", "_begin", "_end", "_end_name",
                                 "_generated_note", "_linux_bus", "_table", "_wire_colour"},
    "pitboard.wiring.parts": {"_RJ45_GND_LOOPS", "_dip_pin", "_output_only", "_signal",
                              "_unwired_pins"},
    "pitboard.wiring.plan": {"_stale_paths"},
}


def _module_name(path: Path) -> str:
    parts = ["pitboard", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in ROOT.rglob("*.py")}


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside ``if TYPE_CHECKING:`` blocks."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return inside


@cache  # every test here reads the whole package: parsed once per test process
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports(path: Path, name: str, *, type_checking: bool = True
             ) -> list[tuple[str, list[str]]]:
    """Every pitboard import of ``path``, wherever the statement sits: (module, names taken
    from it). Without ``type_checking``, those inside ``if TYPE_CHECKING:`` are left out."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = _tree(path)
    skip = set() if type_checking else _type_checking_only(tree)
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names if a.name.startswith("pitboard")]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.startswith("pitboard"):
                found.append((target, [a.name for a in node.names]))
    return found


def import_graph(packages: tuple[str, ...] = ("pitboard",), *, type_checking: bool = True
                 ) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports (``from pkg import mod`` counts mod)."""
    modules = _modules()
    graph = {}
    for name, path in modules.items():
        if name.startswith(packages):
            targets = set()
            for target, names in _imports(path, name, type_checking=type_checking):
                targets |= {target, *(f"{target}.{n}" for n in names)}
            graph[name] = {m for m in targets if m in modules and m != name
                           and m.startswith(packages)}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle in ``graph`` ([] when there is none)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Every group of modules that import one another, directly or not (Tarjan's strongly
    connected components, those of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(frozenset(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finders_find_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []
    assert circles({"a": {"b"}, "b": {"a", "c"}, "c": set()}) == [frozenset({"a", "b"})]


def test_the_package_has_no_import_circle_at_run_time() -> None:
    graph = import_graph(type_checking=False)
    assert len(graph) > 100 and "pitboard.app" in graph and "pitboard.engine.race" in graph
    # imports inside functions count: cli.py imports run.py (and so the sim) only in one
    assert "pitboard.run" in graph["pitboard.cli"]
    assert cycle(graph) == []
    # the device's app is below the simulation and the run command, never above
    assert not {m for m in graph["pitboard.app"] if m.startswith(("pitboard.sim", "pitboard.run"))}


def test_type_checking_circles_are_only_the_known_ones() -> None:
    for group in circles(import_graph()):
        assert any(group <= known for known in KNOWN_TYPE_CIRCLES), sorted(group)


def test_the_table_the_simulation_and_the_rules_modules_have_no_import_circle() -> None:
    packages = ("pitboard.table", "pitboard.sim", "pitboard.engine.garage",
                "pitboard.engine.legends", "pitboard.engine.weather")
    graph = import_graph(packages)
    assert "pitboard.table.views" in graph and "pitboard.sim.session" in graph
    assert "pitboard.engine.garage.choices" in graph
    assert cycle(graph) == []


def test_views_and_the_recorder_do_not_import_the_table() -> None:
    graph = import_graph(("pitboard.table",))
    for name in ("pitboard.table.views", "pitboard.table.recorder", "pitboard.table.hand",
                 "pitboard.table.view", "pitboard.table.storage_problem"):
        assert "pitboard.table.table" not in graph[name], name


def _private_uses_of_a_race(tree: ast.AST) -> list[str]:
    """``race._x``, ``self.race._x``, ``table.race._x``...: a private name of a race."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and \
                not node.attr.startswith("__"):
            owner = node.value
            name = owner.id if isinstance(owner, ast.Name) else \
                owner.attr if isinstance(owner, ast.Attribute) else ""
            if name == "race" or name.endswith("_race"):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_nothing_outside_race_py_uses_a_private_name_of_a_race() -> None:
    found = []
    for name, path in _modules().items():
        if name != "pitboard.engine.race":
            tree = _tree(path)
            found += [f"{path.relative_to(ROOT)}:{use}" for use in _private_uses_of_a_race(tree)]
    assert not found, "use ModuleRace's public names (engine/modules.py):\n" + "\n".join(found)


def test_the_check_sees_a_private_use() -> None:
    tree = ast.parse("race._move(car, 1, 'x')\nself._race._event()\nrace.move(car, 1, 'x')\n"
                     "table.race._pending = None\n")
    assert sorted(use.split(": ")[1] for use in _private_uses_of_a_race(tree)) == [
        "race._move", "self._race._event", "table.race._pending"]


def test_no_file_imports_a_private_name_of_another() -> None:
    found = []
    for name, path in _modules().items():
        for target, names in _imports(path, name):
            for imported in names:
                if imported.startswith("_") and not imported.startswith("__") and \
                        imported not in OLDER_PRIVATE_IMPORTS.get(target, ()):
                    found.append(f"{path.relative_to(ROOT)}: {imported} from {target}")
    assert not found, "import public names only (or make the name public):\n" + "\n".join(found)
    # and the engine, whose modules other engineers extend, has none at all
    assert not [m for m in OLDER_PRIVATE_IMPORTS if m.startswith("pitboard.engine")]
