"""Test kit: a minimal flattened device tree (.dtbo) with the given overlay parameters."""

from __future__ import annotations

import struct

from pitboard.hwconfig.boardfacts import MUX_BUS_PARAMS_BEFORE_2025, OVERLAYS

#: the i2c-mux parameters before and since raspberrypi/linux PR 6636 (January 2025)
MUX_2024 = sorted(MUX_BUS_PARAMS_BEFORE_2025 | {"pca9542", "pca9545", "pca9548", "addr",
                                                 "disconnect_on_idle"})
MUX_2025 = sorted(OVERLAYS["i2c-mux"].params)


def fdt(overrides: list[str]) -> bytes:
    """A minimal flattened device tree: / { fragment@0 { x; }; __overrides__ { <names> }; }."""
    strings = b""
    offsets: dict[str, int] = {}
    for name in ["x", *overrides]:
        offsets[name] = len(strings)
        strings += name.encode() + b"\0"

    def node(name: str) -> bytes:
        raw = name.encode() + b"\0"
        return struct.pack(">I", 1) + raw + b"\0" * (-len(raw) % 4)

    def prop(name: str, value: bytes = b"") -> bytes:
        return (struct.pack(">III", 3, len(value), offsets[name]) + value
                + b"\0" * (-len(value) % 4))

    body = node("") + node("fragment@0") + prop("x", b"abc") + struct.pack(">I", 2)
    body += node("__overrides__") + b"".join(prop(n, b"\0\0\0\0") for n in overrides)
    body += struct.pack(">II", 2, 2) + struct.pack(">I", 9)
    off_struct = 40 + 16
    off_strings = off_struct + len(body)
    total = off_strings + len(strings)
    header = struct.pack(">10I", 0xD00DFEED, total, off_struct, off_strings, 40, 17, 16, 0,
                         len(strings), len(body))
    return header + b"\0" * 16 + body + strings
