"""Station screens in a terminal: 1-bit images as Unicode half blocks, side by side.

Each text cell shows two pixel rows ("▀" top, "▄" bottom, "█" both, " " none), so a 128×64
screen takes 128 columns × 32 rows, or 64 × 16 scaled down 2× (three stations fit in ~200
columns). Lit pixels are drawn in the terminal's foreground colour, like an OLED on a dark
terminal. :func:`redraw` wraps a frame in ANSI sequences that repaint in place (cursor home,
erase leftovers) without curses. :func:`image_to_ascii` is the fallback for terminals without
UTF-8.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

__all__ = [
    "CLEAR_SCREEN",
    "CURSOR_HOME",
    "ERASE_BELOW",
    "ERASE_LINE",
    "HIDE_CURSOR",
    "SHOW_CURSOR",
    "downscale",
    "frames_to_text",
    "image_to_ascii",
    "image_to_blocks",
    "redraw",
]

CURSOR_HOME = "\x1b[H"
CLEAR_SCREEN = "\x1b[2J"
#: erase from the cursor to the end of the line / of the screen
ERASE_LINE = "\x1b[K"
ERASE_BELOW = "\x1b[J"
HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"

# (top lit, bottom lit) → character
_HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
_BOX = {"unicode": "┌┐└┘─│", "ascii": "++++-|"}


def downscale(image: Image.Image, scale: int) -> Image.Image:
    """``image`` as mode ``"1"``, shrunk ``scale`` times; a block is lit if any pixel in it is.

    OR rather than averaging keeps 1 px strokes (card outlines, small text) visible.

    Example::

        >>> from PIL import Image
        >>> img = Image.new("1", (4, 2)); img.putpixel((3, 1), 1)
        >>> small = downscale(img, 2)
        >>> small.size, [small.getpixel((x, 0)) for x in range(2)]
        ((2, 1), [0, 255])
    """
    img = image.convert("1") if image.mode != "1" else image
    if scale == 1:
        return img
    if scale < 1:
        raise ValueError(f"scale must be 1 or more, got {scale}")
    # reduce() averages each block: any lit pixel leaves a non-zero mean
    return (img.convert("L").reduce(scale).point(lambda v: 255 if v else 0)
            .convert("1", dither=Image.Dither.NONE))


def _bits(img: Image.Image) -> list[list[bool]]:
    w = img.width
    data = img.convert("L").tobytes()
    return [[data[y * w + x] != 0 for x in range(w)] for y in range(img.height)]


def image_to_blocks(image: Image.Image, *, scale: int = 1) -> list[str]:
    """Text rows of half blocks for ``image`` (``ceil(height / 2)`` rows, ``width`` columns).

    Example::

        >>> from PIL import Image
        >>> img = Image.new("1", (3, 2)); img.putpixel((0, 0), 1); img.putpixel((1, 1), 1)
        >>> image_to_blocks(img)
        ['▀▄ ']
    """
    bits = _bits(downscale(image, scale))
    if len(bits) % 2:
        bits.append([False] * (len(bits[0]) if bits else 0))
    return ["".join(_HALF_BLOCKS[top, bottom] for top, bottom in zip(upper, lower, strict=True))
            for upper, lower in zip(bits[::2], bits[1::2], strict=True)]


def image_to_ascii(image: Image.Image, *, scale: int = 1) -> str:
    """``image`` as ``"#"`` (lit) and ``" "``, one character per pixel, one line per pixel row.

    For terminals and logs without UTF-8. Lines keep their trailing spaces (fixed width).

    Example::

        >>> from PIL import Image
        >>> img = Image.new("1", (3, 2)); img.putpixel((1, 0), 1)
        >>> image_to_ascii(img).splitlines()
        [' # ', '   ']
    """
    return "\n".join(_ascii_rows(image, scale))


def _ascii_rows(image: Image.Image, scale: int) -> list[str]:
    return ["".join("#" if b else " " for b in row) for row in _bits(downscale(image, scale))]


def _framed(rows: list[str], width: int, title: str, box: str) -> list[str]:
    """``rows`` in a box, ``title`` set into the top edge (shortened to fit)."""
    tl, tr, bl, br, h, v = (box[i] for i in range(6))
    label = f" {title} " if title else ""
    if len(label) > width:
        label = (" " + title)[: max(width - 1, 0)] + "…" if width else ""
    top = tl + label + h * (width - len(label)) + tr
    return [top, *(v + r + v for r in rows), bl + h * width + br]


def frames_to_text(
    images: Sequence[Image.Image],
    *,
    titles: Sequence[str] = (),
    scale: int = 1,
    columns: int = 0,
    gap: int = 1,
    border: bool = True,
    ascii: bool = False,
) -> str:
    """Several screens laid out in a grid of text, ``columns`` per row (0: all in one row).

    ``scale=2`` halves each screen (64×16 characters for a 128×64 image). ``border`` draws a box
    around each screen with its title in the top edge (black pixels are otherwise invisible);
    ``ascii`` uses ``#``/space and ``+-|`` for terminals without UTF-8 (one text row per pixel
    row, so twice as tall). No trailing newline.

    Example::

        >>> from PIL import Image
        >>> img = Image.new("1", (4, 2), 1)
        >>> print(frames_to_text([img, img], titles=["A", "B"]))
        ┌ A ─┐ ┌ B ─┐
        │████│ │████│
        └────┘ └────┘
    """
    if not images:
        return ""
    per_row = columns if columns > 0 else len(images)
    box = _BOX["ascii" if ascii else "unicode"]
    blocks: list[list[str]] = []
    for i, img in enumerate(images):
        rows = _ascii_rows(img, scale) if ascii else image_to_blocks(img, scale=scale)
        width = len(rows[0]) if rows else 0
        title = titles[i] if i < len(titles) else ""
        if border:
            rows = _framed(rows, width, title, box)
        elif title:
            rows = [title[:width].ljust(width), *rows]
        blocks.append(rows)

    lines: list[str] = []
    spacer = " " * gap
    for start in range(0, len(blocks), per_row):
        row = blocks[start : start + per_row]
        height = max(len(b) for b in row)
        widths = [max((len(line) for line in b), default=0) for b in row]
        for y in range(height):
            parts = [(b[y] if y < len(b) else "").ljust(w)
                     for b, w in zip(row, widths, strict=True)]
            lines.append(spacer.join(parts).rstrip())
        if start + per_row < len(blocks):
            lines.append("")
    return "\n".join(lines)


def redraw(text: str) -> str:
    """``text`` wrapped to repaint a terminal in place: home, each line erased to its end,
    everything below erased. Write it with ``sys.stdout.write(redraw(frame))``.

    Example::

        >>> redraw("ab\\ncd")
        '\\x1b[Hab\\x1b[K\\ncd\\x1b[K\\n\\x1b[J'
    """
    return CURSOR_HOME + "".join(f"{line}{ERASE_LINE}\n" for line in text.split("\n")) + \
        ERASE_BELOW
