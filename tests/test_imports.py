"""Imports flow one way: no module of the table package (or the simulation) imports, even
lazily or for type checking only, a module that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

import pitboard

ROOT = Path(pitboard.__file__).parent


def _module_name(path: Path) -> str:
    parts = ["pitboard", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str) -> set[str]:
    """Every pitboard module ``path`` imports, wherever the import statement sits."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("pitboard")}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.startswith("pitboard"):
                found.add(target)
                found |= {f"{target}.{a.name}" for a in node.names}
    return found


def import_graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in ROOT.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        if name.startswith(packages):
            graph[name] = {m for m in _imports(path, name) if m in modules and m != name
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


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_the_table_and_the_simulation_have_no_import_circle() -> None:
    graph = import_graph(("pitboard.table", "pitboard.sim"))
    assert "pitboard.table.views" in graph and "pitboard.sim.session" in graph
    assert cycle(graph) == []


def test_views_and_the_recorder_do_not_import_the_table() -> None:
    graph = import_graph(("pitboard.table",))
    for name in ("pitboard.table.views", "pitboard.table.recorder", "pitboard.table.hand",
                 "pitboard.table.view"):
        assert "pitboard.table.table" not in graph[name], name
