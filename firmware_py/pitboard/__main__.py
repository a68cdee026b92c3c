"""``python -m pitboard``: the ``pitboard`` command (for a venv whose bin/ is not on PATH)."""

import sys

from .cli import main

sys.exit(main())
