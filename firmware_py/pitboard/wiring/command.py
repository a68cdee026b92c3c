"""The ``pitboard wiring-docs`` command's own names, in a file that imports almost nothing:
its ``--help`` shows them before any generator (or the hardware profiles) is loaded."""

from __future__ import annotations

from pathlib import Path
from typing import Final

DEFAULT_PROFILES: Final = ("duo", "grid6")
DEFAULT_OUT: Final = Path("wiring_docs")
COMMAND: Final = "pitboard wiring-docs"
#: exit status for bad input (unknown or unsupported profile)
EXIT_BAD_INPUT: Final = 2
