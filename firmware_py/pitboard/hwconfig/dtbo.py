"""Which parameters a compiled device-tree overlay (``.dtbo``) accepts.

An overlay's parameters are the properties of its ``__overrides__`` node (raspberrypi
documentation, "Device Trees, overlays, and parameters", part 2.2), so reading them from the
``.dtbo`` the Pi will boot with tells whether a ``dtoverlay=`` line can work there: the
``i2c-mux`` overlay gained its ``i2c1``/``i2c2`` bus parameters only with the shared
``i2c-buses.dtsi`` (raspberrypi/linux PR 6636, January 2025), and a Pi 5 grid6 needs ``i2c2``.

The file is read with the standard library only (a flattened device tree: big-endian header,
structure block of tokens, strings block) so ``systemd/install-pi.sh`` can run it as a script
before the package is installed::

    python3 dtbo.py /boot/firmware/overlays/i2c-mux.dtbo      # one parameter per line

Example::

    >>> overlay_parameters(b"not a device tree")
    Traceback (most recent call last):
    ...
    ValueError: not a flattened device tree (bad magic)
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

FDT_MAGIC = 0xD00DFEED
_BEGIN_NODE, _END_NODE, _PROP, _NOP, _END = 1, 2, 3, 4, 9


def _cstring(data: bytes, at: int) -> str:
    end = data.index(b"\0", at)
    return data[at:end].decode("ascii", "replace")


def overlay_parameters(blob: bytes) -> set[str]:
    """The names of the parameters (``__overrides__`` properties) of an overlay blob.

    Raises ValueError for a blob that is not a flattened device tree."""
    if len(blob) < 40 or struct.unpack_from(">I", blob, 0)[0] != FDT_MAGIC:
        raise ValueError("not a flattened device tree (bad magic)")
    off_struct, off_strings = struct.unpack_from(">II", blob, 8)
    at = off_struct
    path: list[str] = []
    names: set[str] = set()
    try:
        while True:
            token = struct.unpack_from(">I", blob, at)[0]
            at += 4
            if token == _BEGIN_NODE:
                name = _cstring(blob, at)
                at += (len(name.encode()) + 4) & ~3  # name, NUL, padded to 4 bytes
                path.append(name)
            elif token == _END_NODE:
                path.pop()
            elif token == _PROP:
                length, name_off = struct.unpack_from(">II", blob, at)
                at += 8 + ((length + 3) & ~3)
                if path[-1:] == ["__overrides__"]:
                    names.add(_cstring(blob, off_strings + name_off))
            elif token == _NOP:
                continue
            elif token == _END:
                return names
            else:
                raise ValueError(f"not a flattened device tree (token {token} at {at - 4})")
    except (struct.error, IndexError) as exc:
        raise ValueError(f"truncated device tree ({exc})") from None


def main(argv: list[str]) -> int:
    """Print the parameters of each overlay file named on the command line, one per line."""
    status = 0
    for name in argv:
        try:
            params = overlay_parameters(Path(name).read_bytes())
        except (OSError, ValueError) as exc:
            print(f"dtbo: {name}: {exc}", file=sys.stderr)
            status = 1
            continue
        print("\n".join(sorted(params)))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
