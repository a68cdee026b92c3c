"""Wiring docs generated from hardware profiles: pin tables, WireViz harnesses, BOM, config.txt.

``pitboard wiring-docs`` (:func:`main`) writes, for each profile (``duo`` and ``grid6`` by
default), into ``wiring_docs/``:

* ``<profile>.md``: config.txt lines, the Pi header pin table, I2C addresses per bus and mux
  channel, stations, OLED connections and the full wire list;
* ``<profile>-bom.md``: the bill of materials, quantities computed from the profile;
* ``<profile>-harness.yaml``: the WireViz harness, rendered to ``.svg`` and ``.png``.

Profile-independent parts (the station board pinouts, the MCP23017 pin table, the pull-up table,
the display transport's bus time: :mod:`~pitboard.wiring.bus_page`, and the file index) are
written between ``BEGIN GENERATED``/``END GENERATED`` markers into the
hand-written ``station-board.md``, ``i2c-and-cables.md`` and ``README.md``; text outside the
markers is left alone. ``station-board-harness.yaml`` draws one MCP23017 station board.

Rendering needs WireViz (``pip install -e '.[docs]'``) and Graphviz ``dot``; a rendered file
carries the SHA-256 of the YAML it was drawn from (an SVG comment, a PNG text chunk), so
``--check`` can tell a stale drawing without ``dot``, and unchanged YAML is not redrawn.

Example::

    >>> from pitboard.hwconfig import load_profile
    >>> from pitboard.wiring import config_txt_lines, generate
    >>> docs = generate(load_profile("grid6"))
    >>> sorted(docs)[:2]
    ['grid6-bom.md', 'grid6-harness.yaml']
    >>> config_txt_lines(load_profile("grid6"))[2]
    'dtoverlay=i2c-mux,pca9548,addr=0x70'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .bom import bom_doc, bom_rows
    from .cli import build_parser, main
    from .drawing import RenderUnavailable, render, source_digest, stamp_of
    from .harness import build_harness, station_board_harness
    from .markdown import config_txt_lines
    from .model import Cable, Connector, Harness, Wire
    from .parts import (
        COMMAND,
        DEFAULT_OUT,
        DEFAULT_PROFILES,
        EXIT_BAD_INPUT,
        FUNCTION_COLOURS,
        GPIO_CABLE_M,
        GPIO_STATION_PINS,
        HEADER_POWER,
        MCP_DIP,
        MUX_CABLE_M,
        MUX_PINS,
        OLED_PINS,
        RJ45_PINS,
        SOURCE_KEY,
        T568B,
        WiringError,
        colour_name,
        header_label,
    )
    from .plan import Plan, generate, replace_sections, station_board_yaml
    from .profile_page import profile_doc
    from .shared import shared_sections
    from .yamltext import harness_yaml, to_yaml

__all__ = [
    "COMMAND",
    "DEFAULT_OUT",
    "DEFAULT_PROFILES",
    "EXIT_BAD_INPUT",
    "FUNCTION_COLOURS",
    "GPIO_CABLE_M",
    "GPIO_STATION_PINS",
    "HEADER_POWER",
    "MCP_DIP",
    "MUX_CABLE_M",
    "MUX_PINS",
    "OLED_PINS",
    "RJ45_PINS",
    "SOURCE_KEY",
    "T568B",
    "Cable",
    "Connector",
    "Harness",
    "Plan",
    "RenderUnavailable",
    "Wire",
    "WiringError",
    "bom_doc",
    "bom_rows",
    "build_harness",
    "build_parser",
    "colour_name",
    "config_txt_lines",
    "generate",
    "harness_yaml",
    "header_label",
    "main",
    "profile_doc",
    "render",
    "replace_sections",
    "shared_sections",
    "source_digest",
    "stamp_of",
    "station_board_harness",
    "station_board_yaml",
    "to_yaml",
]

#: where each name lives; a name's file is imported the first time it is used, so
#: ``pitboard wiring-docs --help`` loads the option parser, not every generator
_HOMES = {
    "bom_doc": "bom", "bom_rows": "bom", "build_parser": "cli", "main": "cli",
    "build_harness": "harness", "station_board_harness": "harness", "config_txt_lines": "markdown",
    "Cable": "model", "Connector": "model", "Harness": "model", "Wire": "model",
    "COMMAND": "parts", "DEFAULT_OUT": "parts", "DEFAULT_PROFILES": "parts",
    "EXIT_BAD_INPUT": "parts", "FUNCTION_COLOURS": "parts", "GPIO_CABLE_M": "parts",
    "GPIO_STATION_PINS": "parts", "HEADER_POWER": "parts", "MCP_DIP": "parts",
    "MUX_CABLE_M": "parts", "MUX_PINS": "parts", "OLED_PINS": "parts", "RJ45_PINS": "parts",
    "SOURCE_KEY": "parts", "T568B": "parts", "WiringError": "parts", "colour_name": "parts",
    "header_label": "parts", "Plan": "plan", "generate": "plan", "replace_sections": "plan",
    "station_board_yaml": "plan", "profile_doc": "profile_page",
    "RenderUnavailable": "drawing", "render": "drawing",
    "source_digest": "drawing", "stamp_of": "drawing",
    "shared_sections": "shared", "harness_yaml": "yamltext", "to_yaml": "yamltext",
}


def __getattr__(name: str) -> Any:
    from pitboard.lazy import export

    return export(__name__, _HOMES, name)
