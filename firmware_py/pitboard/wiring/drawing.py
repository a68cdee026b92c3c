"""Drawing harnesses with WireViz, and the source stamp that tells a stale drawing."""

from __future__ import annotations

import hashlib
import importlib
import io
import re
import shutil
from pathlib import Path

from .parts import SOURCE_KEY


def source_digest(yaml_text: str) -> str:
    """SHA-256 of a harness YAML: the stamp in its rendered SVG and PNG."""
    return hashlib.sha256(yaml_text.encode()).hexdigest()


def stamp_of(path: Path) -> str | None:
    """The source digest a rendered SVG or PNG carries (None: missing or unstamped)."""
    try:
        if path.suffix == ".svg":
            match = re.search(SOURCE_KEY + r": ([0-9a-f]{64})", path.read_text(errors="replace"))
            return match.group(1) if match else None
        from PIL import Image

        with Image.open(path) as image:
            value = image.info.get(SOURCE_KEY)
        return value if isinstance(value, str) else None
    except OSError:
        return None


class RenderUnavailable(Exception):
    """WireViz or Graphviz ``dot`` is missing.

    Example::

        >>> str(RenderUnavailable("no dot"))
        'no dot'
    """


def render(yaml_text: str) -> tuple[str, bytes]:
    """Draw a harness with WireViz: (SVG text, PNG bytes), both stamped with the YAML digest."""
    try:
        wireviz = importlib.import_module("wireviz.wireviz")
    except ImportError:
        raise RenderUnavailable("WireViz is not installed (pip install -e '.[docs]')") from None
    if shutil.which("dot") is None:
        raise RenderUnavailable("Graphviz `dot` is not installed (apt-get install graphviz)")
    try:
        harness = wireviz.parse(yaml_text, return_types="harness")
        svg, png = str(harness.svg), bytes(harness.png)
    except Exception as exc:  # WireViz and Graphviz raise all sorts: report them in one line
        detail = " ".join(str(exc).split())
        raise RenderUnavailable(f"WireViz failed: {type(exc).__name__}: {detail}") from None
    digest = source_digest(yaml_text)
    note = f"<!-- {SOURCE_KEY}: {digest} -->\n"
    if svg.startswith("<?xml"):
        first, _, rest = svg.partition("\n")
        svg = f"{first}\n{note}{rest}"
    else:
        svg = note + svg
    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text(SOURCE_KEY, digest)
    buffer = io.BytesIO()
    with Image.open(io.BytesIO(png)) as image:
        # a diagram has few colours: a 256-colour palette keeps the file small
        small = image.convert("RGB").quantize(256, dither=Image.Dither.NONE)
        small.save(buffer, format="PNG", pnginfo=info, optimize=True)
    return svg, buffer.getvalue()
