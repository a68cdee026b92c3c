"""Joining from a phone, on the OLEDs: the lobby's PHONES page and the race-control display's
lobby, each with a QR code of the address and the join code (:mod:`.phone_seats`).

A QR code needs dark modules on a light ground: on an OLED that is lit pixels around unlit
ones. At 2 px a module a version 2 code (25 modules; the lobby's address in capitals fits
one) and a 1-module quiet zone take 54 px, which the 64 px screen holds beside its soft keys.
A longer address gets 1 px modules (still scannable from close up); one too long for even
that is left out (the address and the code are written beside it anyway).

Example::

    >>> from pitboard.table.phone_seats import JoinInfo
    >>> from pitboard.table.station import Station
    >>> view = join_view(Station(index=0, name="S1"), JoinInfo("http://pitboard.local:8080/",
    ...                  "0427"), joined_line="press GO to join")
    >>> view.qr, view.lines[:2]
    ('HTTP://PITBOARD.LOCAL:8080/J/0427', ('code', '0427'))
    >>> len(qr_modules(view.qr))
    25
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from .canvas import HEIGHT, WIDTH, _Screen, _soft_keys
from .fonts import MEDIUM, SMALL, TINY
from .phone_seats import JoinInfo
from .station import Station
from .view import LOBBY, StationView

#: the QR code's quiet zone, in modules (the standard asks 4; phone cameras read 1, and an
#: OLED's dark surround is no quiet zone at all)
QUIET = 1


@lru_cache(maxsize=8)  # a new code every race: a cache of them all would grow all day
def qr_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``text`` as rows of modules (True: dark), the smallest version that
    holds it at error correction L or better (segno).

    Example::

        >>> rows = qr_modules("HTTP://10.0.0.2:8080/J/1234")
        >>> len(rows), rows[0][:8]  # a finder pattern's top edge, then its white border
        (25, (True, True, True, True, True, True, True, False))
    """
    import segno  # only for a table with phone seats

    code = segno.make(text, error="l", boost_error=True, micro=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix)


def qr_image(text: str, *, height: int) -> Image.Image | None:
    """The QR code of ``text`` as lit ground and dark modules with its quiet zone, at the
    largest whole number of pixels a module that fits ``height`` (None: not even 1 px does)."""
    rows = qr_modules(text)
    size = len(rows) + 2 * QUIET
    scale = height // size
    if scale < 1:
        return None
    img = Image.new("1", (size * scale, size * scale), 1)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = (x + QUIET) * scale, (y + QUIET) * scale
                img.paste(0, (x0, y0, x0 + scale, y0 + scale))
    return img


def join_view(st: Station, join: JoinInfo, *, joined_line: str) -> StationView:
    """The lobby's PHONES page at ``st``: the QR code, the code, the address; OPTS turns on,
    RACE starts as on the race page."""
    return StationView(LOBBY, st.index, title=f"{st.name} PHONES",
                       lines=("code", join.code, join.host, joined_line), qr=join.qr,
                       soft_keys=("", "", "", "OPTS", "", "", "RACE"))


def draw_join(s: _Screen, v: StationView) -> None:
    """The PHONES page: the QR code on the left (above the soft keys), on the right the title,
    "code", the code big, the address and whether this station joined."""
    img = qr_image(v.qr, height=HEIGHT - 9)
    left = 0
    if img is not None:
        s.img.paste(img, (0, 0))
        left = img.width + 3
    width = WIDTH - left
    label, code, host, joined = (*v.lines, "", "", "", "")[:4]
    s.fitted(left, 0, width, v.title, (TINY,))
    s.fitted(left, 8, width, label, (TINY,))
    s.fitted(left, 15, width, code, (MEDIUM, SMALL))
    y = 31
    for part in _split(host, width):
        s.fitted(left, y, width, part, (TINY,))
        y += 7
    s.fitted(left, min(y, 49), width, joined, (TINY,))
    _soft_keys(s, v.soft_keys)


def _split(text: str, width: int) -> list[str]:
    """``text`` in TINY lines of ``width`` px, cut after a ``.`` or ``:`` where it can be."""
    out: list[str] = []
    while text and len(out) < 2:
        n = len(text)
        while n > 1 and TINY.width(text[:n]) > width:
            n -= 1
        if n < len(text):
            cut = max(text.rfind(".", 0, n), text.rfind(":", 0, n))
            n = cut if cut > 0 else n
        out.append(text[:n])
        text = text[n:]
    return out


def draw_race_control_join(title: str, lines: tuple[str, ...], footer: str,
                           qr: str) -> Image.Image:
    """The race-control display's lobby with a QR code (:mod:`.race_control`): the QR code on
    the right under the title band; the race's lines, the code and the footer on the left."""
    s = _Screen()
    s.band(0, 8)
    s.fitted(2, 1, WIDTH - 4, title, ink=0)
    img = qr_image(qr, height=HEIGHT - 10)
    right = WIDTH
    if img is not None:
        right = WIDTH - img.width
        s.img.paste(img, (right, HEIGHT - img.height))
    width = right - 4
    bottom = HEIGHT - 1
    if footer:
        s.fitted(2, HEIGHT - TINY.height, width, footer, (TINY,))
        bottom = HEIGHT - TINY.height - 2
    s.lines(11, bottom, lines, x=2, width=width)
    return s.img
