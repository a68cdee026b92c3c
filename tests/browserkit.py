"""What the browser tests share: Debian's Chromium as this machine's probe runs it (driven by
Playwright), skipped with the reason when either is missing, and the screenshots they write
into ``docs/screens`` (``PITBOARD_UPDATE_GOLDEN=1``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("PITBOARD_CHROMIUM", "/usr/bin/chromium")
#: how the probe of this machine runs Chromium (no sandbox as root, no background networking
#: on a closed network, a fresh profile per launch)
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]
DOCS = Path(__file__).resolve().parents[1] / "docs" / "screens"
WAIT_MS = 20_000


def playwright_or_skip() -> Any:
    """Playwright's sync API; the calling test module is skipped, saying why, without it or
    without the browser (``.ci/run`` installs Debian's ``chromium`` when it runs as root;
    ``PITBOARD_CHROMIUM`` names another Chromium binary)."""
    module = pytest.importorskip("playwright.sync_api",
                                 reason="Playwright is not installed (pip install -e '.[dev]')")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: the browser tests need Debian's chromium "
                    "(apt-get install chromium; .ci/run installs it when run as root)",
                    allow_module_level=True)
    return module


def publish(shots: Iterable[Path]) -> None:
    """Copy screenshots into docs/screens when asked (``PITBOARD_UPDATE_GOLDEN=1``)."""
    if os.environ.get("PITBOARD_UPDATE_GOLDEN"):
        DOCS.mkdir(parents=True, exist_ok=True)
        for path in shots:
            shutil.copyfile(path, DOCS / path.name)
