"""``pitboard tv``: the race on this machine's screen -- the track view full-screen in Chromium's
kiosk mode (a TV on the Pi's HDMI; README "The race on a TV").

The desktop starts it at login (install-pi.sh installs ``systemd/pitboard-tv.desktop`` as
``/etc/xdg/autostart/pitboard-tv.desktop``; with ``--at-login`` it does nothing unless the
profile's ``[tv] screen`` is on). It reads the profile for the page's address
(:func:`~pitboard.hwconfig.web.track_url`), waits until the table's web server answers -- the
service may start after the desktop, or be restarting -- and runs Chromium on it, in a fresh
browser profile each time (no "restore pages?" after a power cut, nothing written to the SD
card but the browser's cache). If Chromium ever exits, it is started again. The page itself
reconnects to the table by itself and reloads when the table runs a new program.

Example::

    >>> command = browser_command("/usr/bin/chromium", "http://localhost:8080/track", "/tmp/p")
    >>> command[0], command[-1], "--kiosk" in command
    ('/usr/bin/chromium', 'http://localhost:8080/track', True)
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

log = logging.getLogger("pitboard.tv")

#: Chromium's names: Raspberry Pi OS Bookworm's package is chromium-browser, Debian's chromium
BROWSERS: Final = ("chromium-browser", "chromium")
#: kiosk mode, and nothing that would put a dialog or a bar over the race
FLAGS: Final = (
    "--kiosk", "--no-first-run", "--noerrdialogs", "--disable-infobars",
    "--hide-crash-restore-bubble", "--password-store=basic", "--disable-features=Translate",
    "--disable-pinch", "--overscroll-history-navigation=0",
    "--check-for-update-interval=31536000", "--ozone-platform-hint=auto",
)
#: how often the server is asked while it does not answer (s)
POLL_SECONDS: Final = 2.0
#: the pause before Chromium is started again after it exited (s)
RESTART_SECONDS: Final = 3.0


class TvError(Exception):
    """``pitboard tv`` cannot go on (no browser, no web server in the profile); one line.

    Example::

        >>> find_browser("no-such-browser")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pitboard.tvscreen.TvError: no browser no-such-browser on PATH (...)
    """


def browser_command(browser: str, url: str, profile: str) -> list[str]:
    """Chromium in kiosk mode on ``url``, with its profile in ``profile``."""
    return [browser, *FLAGS, f"--user-data-dir={profile}", url]


def find_browser(given: str | None = None) -> str:
    """The Chromium to run: ``given``, else the first of :data:`BROWSERS` on PATH."""
    for name in (given,) if given else BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    wanted = given or " or ".join(BROWSERS)
    raise TvError(f"no browser {wanted} on PATH (Raspberry Pi OS: sudo apt install "
                  "chromium-browser; Debian: sudo apt install chromium)")


def page_answers(url: str, timeout: float = 2.0) -> bool:
    """Does the table's web server serve the page at ``url`` now?"""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def wait_for_page(url: str, *, seconds: float | None, poll: float = POLL_SECONDS,
                  answers: Callable[[str], bool] = page_answers,
                  sleep: Callable[[float], None] = time.sleep,
                  clock: Callable[[], float] = time.monotonic) -> bool:
    """Wait until the page at ``url`` answers (True), or ``seconds`` pass (False; None: for
    ever)."""
    deadline = None if seconds is None else clock() + seconds
    while not answers(url):
        if deadline is not None and clock() >= deadline:
            return False
        sleep(poll if deadline is None else max(0.0, min(poll, deadline - clock())))
    return True


def run_browser(command: Sequence[str]) -> int:
    """Run the browser until it exits; its exit status."""
    return subprocess.run(list(command), check=False).returncode


def tv_main(config_path: str, *, browser: str | None = None, at_login: bool = False,
            once: bool = False, wait: float | None = None, pace: float | None = None,
            print_only: bool = False,
            run: Callable[[Sequence[str]], int] = run_browser) -> int:
    """``pitboard tv`` (see the module docstring). Returns the exit status: 0 done (or, with
    ``at_login``, nothing to do), 1 the server never answered or no browser, 2 a bad
    configuration."""
    from .hwconfig import ConfigError, load_profile
    from .hwconfig.web import track_url

    try:
        config = load_profile(config_path)
    except ConfigError as exc:
        for problem in exc.problems:
            log.error("%s", problem)
        return 2
    if at_login and not config.tv.screen:
        log.info("[tv] screen is off in %s: no track view on this screen", config.label)
        return 0
    if not config.serves_web:
        log.error("%s serves no web pages: set [tv] screen = true (this screen) or [web] "
                  "enabled = true", config.label)
        return 2
    url = track_url(config.web) + (f"?pace={pace:g}" if pace is not None else "")
    try:
        chromium = find_browser(browser)
    except TvError as exc:
        log.error("%s", exc)
        return 1
    if print_only:
        print(" ".join(browser_command(chromium, url, "PROFILE")))
        return 0
    while True:
        if not wait_for_page(url, seconds=wait):
            log.error("the table's web server did not answer at %s in %g s (is the pitboard "
                      "service running? systemctl status pitboard)", url, wait or 0)
            return 1
        with tempfile.TemporaryDirectory(prefix="pitboard-tv-", dir=_scratch()) as profile:
            log.info("track view: %s", url)
            status = run(browser_command(chromium, url, profile))
        if once:
            return 0 if status == 0 else 1
        log.warning("the browser exited (status %d): starting it again in %g s", status,
                    RESTART_SECONDS)
        time.sleep(RESTART_SECONDS)


def _scratch() -> str | None:
    """Where the browser's throwaway profile goes: the session's runtime folder (memory, not
    the SD card) when there is one."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return runtime if runtime and Path(runtime).is_dir() else None
