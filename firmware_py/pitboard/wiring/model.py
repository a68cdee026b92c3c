"""The harness model: connectors, cables and wires, and their WireViz form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# ---- the harness model ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connector:
    """A connector, module or board in a harness (a WireViz connector).

    Example::

        >>> Connector("X1", "S1 station connector", "16 pins", ("GND", "3V3")).pincount
        2
    """

    name: str
    type: str
    subtype: str
    pinlabels: tuple[str, ...]
    notes: str = ""
    hide_disconnected_pins: bool = False
    loops: tuple[tuple[int, int], ...] = ()

    @property
    def pincount(self) -> int:
        """Number of pins (pins are numbered 1..pincount)."""
        return len(self.pinlabels)


@dataclass(frozen=True, slots=True)
class Cable:
    """A cable, or a bundle of loose wires; wires are numbered 1..len(colours).

    Example::

        >>> from pitboard.wiring.parts import RJ45_PINS, T568B
        >>> Cable("C1", "Cat5e patch cable", T568B, RJ45_PINS, length_m=1.5).wirecount
        8
    """

    name: str
    type: str
    colours: tuple[str, ...]
    labels: tuple[str, ...]
    length_m: float | None = None
    gauge_mm2: float | None = None
    bundle: bool = False
    notes: str = ""

    @property
    def wirecount(self) -> int:
        """Number of wires."""
        return len(self.colours)


@dataclass(frozen=True, slots=True)
class Wire:
    """One wire: from a connector pin, through wire ``number`` of ``cable``, to a connector pin.

    Example::

        >>> Wire("W1", 1, "PI", 39, "X1", 1).cable
        'W1'
    """

    cable: str
    number: int
    src: str
    src_pin: int
    dst: str
    dst_pin: int


@dataclass(slots=True)
class Harness:
    """Connectors, cables and wires; the source of the pin tables, wire lists and WireViz YAML.

    Example::

        >>> h = Harness("demo")
        >>> h.add_connector(Connector("A", "a", "", ("GND",)))
        >>> h.add_connector(Connector("B", "b", "", ("GND",)))
        >>> h.add_cable(Cable("W1", "wire", ("BK",), ("GND",)))
        >>> h.connect("W1", 1, "A", 1, "B", 1)
        >>> h.wireviz()["connections"]
        [[{'A': [1]}, {'W1': [1]}, {'B': [1]}]]
    """

    title: str
    connectors: dict[str, Connector] = field(default_factory=dict)
    cables: dict[str, Cable] = field(default_factory=dict)
    wires: list[Wire] = field(default_factory=list)

    def add_connector(self, connector: Connector) -> None:
        """Add a connector (names are unique)."""
        assert connector.name not in self.connectors, connector.name
        self.connectors[connector.name] = connector

    def add_cable(self, cable: Cable) -> None:
        """Add a cable (names are unique)."""
        assert cable.name not in self.cables, cable.name
        self.cables[cable.name] = cable

    def connect(
        self, cable: str, number: int, src: str, src_pin: int, dst: str, dst_pin: int
    ) -> None:
        """Run wire ``number`` of ``cable`` from ``src:src_pin`` to ``dst:dst_pin``."""
        assert 1 <= number <= self.cables[cable].wirecount, (cable, number)
        assert 1 <= src_pin <= self.connectors[src].pincount, (src, src_pin)
        assert 1 <= dst_pin <= self.connectors[dst].pincount, (dst, dst_pin)
        self.wires.append(Wire(cable, number, src, src_pin, dst, dst_pin))

    def label(self, connector: str, pin: int) -> str:
        """The label of a connector pin."""
        return self.connectors[connector].pinlabels[pin - 1]

    def wireviz(self) -> dict[str, Any]:
        """The harness as a WireViz 0.4 document (a dict ready for YAML)."""
        connectors: dict[str, Any] = {}
        for c in self.connectors.values():
            entry: dict[str, Any] = {"type": c.type}
            if c.subtype:
                entry["subtype"] = c.subtype
            entry["pinlabels"] = list(c.pinlabels)
            if c.hide_disconnected_pins:
                entry["hide_disconnected_pins"] = True
            if c.loops:
                entry["loops"] = [list(loop) for loop in c.loops]
            if c.notes:
                entry["notes"] = c.notes
            connectors[c.name] = entry
        cables: dict[str, Any] = {}
        for w in self.cables.values():
            entry = {"type": w.type}
            if w.bundle:
                entry["category"] = "bundle"
            if w.gauge_mm2 is not None:
                entry["gauge"] = w.gauge_mm2  # WireViz's default unit is mm2
            if w.length_m is not None:
                entry["length"] = w.length_m
            entry["colors"] = list(w.colours)
            entry["wirelabels"] = list(w.labels)
            if w.notes:
                entry["notes"] = w.notes
            cables[w.name] = entry
        # one connection set per (cable, from, to), in the order the wires were added
        groups: dict[tuple[str, str, str], list[Wire]] = {}
        for wire in self.wires:
            groups.setdefault((wire.cable, wire.src, wire.dst), []).append(wire)
        connections = [
            [
                {src: [w.src_pin for w in group]},
                {cable: [w.number for w in group]},
                {dst: [w.dst_pin for w in group]},
            ]
            for (cable, src, dst), group in groups.items()
        ]
        return {
            "metadata": {"title": self.title},
            "connectors": connectors,
            "cables": cables,
            "connections": connections,
        }
