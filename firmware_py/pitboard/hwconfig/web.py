"""``[web]``: the web server for phone stations, validated like every other section (one line
per problem, naming the key).

The server binds exactly the address given: an IP literal, never a host name that could
resolve to more (or other) addresses than the owner meant.

Example::

    >>> from pathlib import Path
    >>> reader = WebReader("t.toml", Path("t.toml"))
    >>> reader.parse_web({"web": {"enabled": True, "bind": "0.0.0.0", "phone_seats": 4}},
    ...                  wired=2, kiosk=False)
    WebConfig(enabled=True, bind='0.0.0.0', port=8080, phone_seats=4, url='', open_table=False)
    >>> _ = reader.parse_web({"web": {"bind": "pitboard.local", "port": 80000}}, wired=6,
    ...                      kiosk=False)
    >>> for problem in reader.problems:
    ...     print(problem)
    t.toml: web.bind: "pitboard.local" is not an IP address (give one, e.g. "0.0.0.0" ...)
    t.toml: web.port: 80000 is outside 1–65535
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

from pitboard.userfile import escape

from .reader import _Reader
from .schema import MAX_STATIONS, WebConfig


def join_url(web: WebConfig, *, hostname: str | None = None) -> str:
    """The address phones open: ``url`` when given; else the bound address when it is one
    address, or this machine's mDNS name (``<hostname>.local``, which Raspberry Pi OS answers
    with avahi) when the server listens on every address.

    Example::

        >>> join_url(WebConfig(bind="0.0.0.0", port=8080), hostname="pitboard")
        'http://pitboard.local:8080/'
        >>> join_url(WebConfig(bind="127.0.0.1", port=80)), join_url(WebConfig(bind="::1"))
        ('http://127.0.0.1/', 'http://[::1]:8080/')
    """
    if web.url:
        return web.url
    address = ipaddress.ip_address(web.bind)
    if address.is_unspecified:
        host = f"{(hostname or socket.gethostname()).split('.')[0]}.local"
    else:
        host = f"[{address}]" if address.version == 6 else str(address)
    return f"http://{host}{'' if web.port == 80 else f':{web.port}'}/"


#: the longest ``url`` (it goes into a QR code a 128x64 OLED must still draw)
MAX_URL = 60


class WebReader(_Reader):
    """The ``[web]`` section (a part of the profile parser).

    Example::

        >>> from pathlib import Path
        >>> WebReader("t.toml", Path("t.toml")).parse_web({}, wired=2, kiosk=False).enabled
        False
    """

    def parse_web(self, raw: dict[str, Any], *, wired: int, kiosk: bool) -> WebConfig | None:
        """``[web]`` (absent: the server off); ``wired``: the ``[[stations]]`` given."""
        t = self.table(raw, "", "web", False)
        if t is None:
            return None if "web" in raw else WebConfig()
        before = self.type_errors
        self.unknown_keys(t, "web", ("enabled", "bind", "port", "phone_seats", "url",
                                     "open_table"))
        enabled = self.bool_(t, "web", "enabled", False)
        bind = self.str_(t, "web", "bind", "127.0.0.1")
        port = self.int_(t, "web", "port", 8080)
        seats = self.int_(t, "web", "phone_seats", 0)
        url = self.str_(t, "web", "url", "")
        open_table = self.bool_(t, "web", "open_table", False)
        if self.type_errors != before:
            return None
        try:
            ipaddress.ip_address(bind)
        except ValueError:
            self.add("web.bind", f'"{escape(bind)}" is not an IP address (give one, e.g. '
                     '"0.0.0.0" for every IPv4 address or "127.0.0.1" for this machine only)')
        self.in_range("web.port", port, 1, 65535)
        self.in_range("web.phone_seats", seats, 0, MAX_STATIONS)
        if 0 <= seats <= MAX_STATIONS and wired + seats > MAX_STATIONS:
            self.add("web.phone_seats", f"{wired} stations + {seats} phone seats: a table has "
                     f"at most {MAX_STATIONS}")
        if url:
            self._url(url)
        if open_table and kiosk:
            self.add("web.open_table", "a kiosk shows its join code on its displays: "
                     "open_table is for a table with no screen, at home")
        return WebConfig(enabled=enabled, bind=bind, port=port, phone_seats=seats, url=url,
                         open_table=open_table)

    def _url(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname or not url.isprintable() \
                or " " in url:
            self.add("web.url", f'"{escape(url)}" is not an http:// address (e.g. '
                     '"http://pitboard.local:8080/")')
        elif len(url) > MAX_URL:
            self.add("web.url", f"{len(url)} characters, at most {MAX_URL} (it goes into "
                     "the lobby's QR code)")
