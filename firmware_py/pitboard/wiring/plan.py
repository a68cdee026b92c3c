"""What the docs directory should contain, and which files in it are stale."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pitboard.hwconfig import (
    HwConfig,
)

from .bom import bom_doc
from .drawing import source_digest, stamp_of
from .facts_page import FACTS_PAGE, facts_doc
from .harness import build_harness, station_board_harness
from .markdown import _begin, _end
from .profile_page import profile_doc
from .shared import shared_sections
from .yamltext import harness_yaml

# ---- files ------------------------------------------------------------------------------------


def generate(config: HwConfig) -> dict[str, str]:
    """file name -> text of every file generated as a whole for one profile."""
    harness = build_harness(config)
    name = config.name
    return {
        f"{name}.md": profile_doc(config, harness),
        f"{name}-bom.md": bom_doc(config),
        f"{name}-harness.yaml": harness_yaml(harness, f"hw_config/{config.source.name}"),
    }


def station_board_yaml() -> str:
    """``station-board-harness.yaml`` (from :data:`STATION_BITS`)."""
    return harness_yaml(station_board_harness(), "pitboard.hw.mcp23017.STATION_BITS")


def replace_sections(text: str, sections: dict[str, str]) -> str:
    """Put each generated section between its markers (appended if the markers are missing).

    Example::

        >>> doc = "# T\\n" + _begin("x") + "\\nold\\n" + _end("x") + "\\nkept\\n"
        >>> replace_sections(doc, {"x": "new"}).splitlines()[2]
        'new'
    """
    for key, body in sections.items():
        begin, end = _begin(key), _end(key)
        block = f"{begin}\n{body}\n{end}"
        match = re.search(re.escape(begin) + r".*?" + re.escape(end), text, re.S)
        if match:
            text = text[: match.start()] + block + text[match.end() :]
        else:
            text = text.rstrip("\n") + ("\n\n" if text.strip() else "") + block + "\n"
    return text


@dataclass(slots=True)
class Plan:
    """What the docs directory should contain, and how it differs from what it does.

    Example::

        >>> plan = Plan.build([], Path("/nonexistent"))
        >>> "station-board-harness.yaml" in plan.texts
        True
    """

    out: Path
    #: file name -> full text of files generated as a whole
    texts: dict[str, str]
    #: file name -> sections generated inside hand-written files
    sections: dict[str, dict[str, str]]
    #: harness YAML file name -> its text (drawn to .svg and .png)
    drawings: dict[str, str]

    @classmethod
    def build(cls, configs: Sequence[HwConfig], out: Path) -> Plan:
        """Everything generated for ``configs`` (plus the shared files) into ``out``."""
        texts: dict[str, str] = {}
        for config in configs:
            texts.update(generate(config))
        texts["station-board-harness.yaml"] = station_board_yaml()
        texts[FACTS_PAGE] = facts_doc()
        drawings = {k: v for k, v in texts.items() if k.endswith("-harness.yaml")}
        return cls(out, texts, shared_sections(), drawings)

    def _read(self, name: str) -> str | None:
        try:
            return (self.out / name).read_text()
        except OSError:
            return None

    def stale_texts(self) -> dict[str, str]:
        """file name -> wanted text, for every text file that differs."""
        stale = {k: v for k, v in self.texts.items() if self._read(k) != v}
        for name, sections in self.sections.items():
            current = self._read(name)
            if current is None:
                wanted = f"# {name.removesuffix('.md')}\n"
                stale[name] = replace_sections(wanted, sections)
                continue
            wanted = replace_sections(current, sections)
            if wanted != current:
                stale[name] = wanted
        return stale

    def stale_drawings(self) -> list[str]:
        """Harness YAML names whose .svg or .png is missing or drawn from other YAML."""
        stale = []
        for name, text in self.drawings.items():
            digest = source_digest(text)
            stem = name.removesuffix(".yaml")
            if any(stamp_of(self.out / f"{stem}{ext}") != digest for ext in (".svg", ".png")):
                stale.append(name)
        return stale


def _stale_paths(plan: Plan) -> list[str]:
    paths = [str(plan.out / name) for name in plan.stale_texts()]
    for name in plan.stale_drawings():
        stem = name.removesuffix(".yaml")
        paths += [str(plan.out / f"{stem}{ext}") for ext in (".svg", ".png")]
    return sorted(paths)
