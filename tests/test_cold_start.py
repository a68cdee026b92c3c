"""Cold start, structurally: parsing arguments and --help load only what they need.

The timings live in benchmarks/cold_start.py; these tests pin the import structure that makes
them: a fresh interpreter runs the command and lists the pitboard modules it loaded.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from types import ModuleType

import pytest

#: never needed to parse arguments or print help
HEAVY = ("pitboard.engine", "pitboard.table.table", "pitboard.bots", "PIL", "luma", "gpiozero")


def loaded_after(code: str) -> set[str]:
    """Modules a fresh interpreter holds after running ``code`` (stdout silenced)."""
    script = ("import contextlib, io, sys\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              f"    {code}\n"
              "print('\\n'.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    return set(done.stdout.split())


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize("words", [
    ["--help"], ["demo", "--help"], ["simulate", "--help"], ["run", "--help"],
    ["sim", "--help"], ["screens", "--help"], ["wiring-docs", "--help"],
])
def test_help_loads_no_engine_table_or_hardware_library(words: list[str]) -> None:
    code = ("from pitboard.cli import main\n"
            "    try:\n"
            f"        main({words!r})\n"
            "    except SystemExit:\n"
            "        pass")
    assert heavy(loaded_after(code)) == []


def test_a_command_loads_what_it_needs_when_it_runs() -> None:
    modules = loaded_after("from pitboard.cli import main; main(['demo', '--laps', '1'])")
    assert "pitboard.engine.race" in modules and "pitboard.bots" in modules


@pytest.mark.parametrize("package", ["pitboard.sim", "pitboard.wiring", "pitboard.hwconfig"])
def test_lazy_package_names_are_their_files_names(package: str) -> None:
    pkg = importlib.import_module(package)
    homes: dict[str, str] = pkg._HOMES
    for home in set(homes.values()):  # every file loaded first: none may shadow a name
        importlib.import_module(f"{package}.{home}")
    for name in pkg.__all__:
        value = getattr(pkg, name)
        assert not isinstance(value, ModuleType), f"{package}.{name} is a module"
        if name in homes:
            assert value is getattr(importlib.import_module(f"{package}.{homes[name]}"), name)
    with pytest.raises(AttributeError):
        pkg.no_such_name  # noqa: B018
