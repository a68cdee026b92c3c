"""The docstring examples of the hwconfig, wiring and console packages and of the station
inputs run (a package's modules with the package's names)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import pitboard.console
import pitboard.hwconfig
import pitboard.wiring

MODULES = [
    (package, f"{package.__name__}.{info.name}")
    for package in (pitboard.hwconfig, pitboard.wiring, pitboard.console)
    for info in pkgutil.iter_modules(package.__path__)
] + [(pitboard.console, "pitboard.console")]


@pytest.mark.parametrize(("package", "name"), MODULES, ids=[name for _, name in MODULES])
def test_docstring_examples(package: ModuleType, name: str) -> None:
    module = importlib.import_module(name)
    names = {k: v for k, v in vars(package).items() if not k.startswith("__")}
    names |= {k: getattr(package, k) for k in package.__all__}  # lazy exports load here
    result = doctest.testmod(module, extraglobs=names, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, name


@pytest.mark.parametrize("name", ["inputs", "inputs_logic", "inputs_gpio", "inputs_mcp", "writer",
                                  "display", "display_base", "oled"])
def test_station_input_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"pitboard.hw.{name}")
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0, name
