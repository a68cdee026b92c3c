"""Every public class of the package has an example in its docstring (``Example::`` or a
``>>>`` doctest), the house habit taken from gpiozero: a reader sees how the class is made and
what it gives back before reading its code. The doctests among them run with the package's
(``--doctest-modules`` in pyproject), so they cannot drift from the code."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "firmware_py" / "pitboard"


def _classes(body: list[ast.stmt], prefix: str = "") -> Iterator[tuple[str, ast.ClassDef]]:
    """The public classes of a module body and, inside them, their public nested classes
    (a class inside a function is not API)."""
    for node in body:
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            name = f"{prefix}{node.name}"
            yield name, node
            yield from _classes(node.body, f"{name}.")


def _without_example() -> list[str]:
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for name, node in _classes(tree.body):
            doc = ast.get_docstring(node) or ""
            if "Example" not in doc and ">>>" not in doc:
                missing.append(f"{rel}:{node.lineno}: {name}")
    return missing


def test_every_public_class_has_an_example_in_its_docstring() -> None:
    missing = _without_example()
    assert not missing, ("public classes without an example in their docstring (add an "
                         "'Example::' block, a doctest where it can run):\n  "
                         + "\n  ".join(missing))


def test_the_check_sees_the_classes_it_is_about() -> None:
    # a check that found no classes (a moved package, a wrong path) would pass for nothing
    tree = ast.parse((PACKAGE / "table" / "table_base.py").read_text(encoding="utf-8"))
    names = [name for name, _ in _classes(tree.body)]
    assert {"Tick", "Call", "TableBase"} <= set(names)
    # and the engine's module files are among those it checks
    checked = {path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py")}
    assert {"engine/forecast.py", "engine/modules.py", "engine/garage/choices.py",
            "engine/legends/cards.py", "engine/weather/module.py"} <= checked
    assert len(list(PACKAGE.rglob("*.py"))) > 50
