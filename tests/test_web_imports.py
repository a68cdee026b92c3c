"""The web server is a client beside the table: it imports neither the table nor the race
(the views and events it uses live in their own small modules), nothing of the table imports
it, and ``pitboard --help`` loads none of it (aiohttp loads on the server's own thread)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from test_cold_start import loaded_after
from test_imports import ROOT, cycle, import_graph

WEB = ROOT / "web"


def _runtime_imports(path: Path) -> set[str]:
    """The modules ``path`` imports outside ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return
        if isinstance(node, ast.ImportFrom):
            base = "pitboard.web" if node.level == 1 else "pitboard" if node.level == 2 else ""
            module = f"{base}.{node.module}" if base and node.module else node.module or base
            found.add(module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


@pytest.mark.parametrize("path", sorted(WEB.glob("*.py")), ids=lambda p: p.name)
def test_the_web_package_reads_neither_the_table_nor_the_race(path: Path) -> None:
    imported = _runtime_imports(path)
    forbidden = {m for m in imported if m in ("pitboard.table.table", "pitboard.table.table_base")
                 or m.startswith("pitboard.engine")}
    assert forbidden == set()


def test_nothing_of_the_table_imports_the_web_and_there_is_no_circle() -> None:
    graph = import_graph(("pitboard.table", "pitboard.web"))
    assert not any(m.startswith("pitboard.web") for name, deps in graph.items()
                   if name.startswith("pitboard.table") for m in deps)
    assert cycle(graph) == []


@pytest.mark.parametrize("words", [["--help"], ["run", "--help"], ["check-config", "phones"]])
def test_help_and_check_config_load_no_web_server(words: list[str]) -> None:
    code = ("from pitboard.cli import main\n"
            "    try:\n"
            f"        main({words!r})\n"
            "    except SystemExit:\n"
            "        pass")
    loaded = loaded_after(code)
    assert not {m for m in loaded if m.split(".")[0] in ("aiohttp", "segno")
                or m.startswith(("pitboard.web.server", "pitboard.web.session"))}
