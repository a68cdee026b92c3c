"""Chattering inputs: a switch or wire that toggles faster than any person presses.

A worn tray switch or a loose lever wire can pass the debounce (2 ms to confirm, 20 ms of
quiet after) many times a second. Each of those would be a press the table acts on and redraws;
:class:`ChatterGuard` notices the rate, reports the input once, and has the table ignore it
until it has been quiet for a while.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("pitboard.table")

#: presses of one input within :data:`WINDOW_SECONDS` that no person makes (fast tapping is
#: about 7 a second)
LIMIT = 20
WINDOW_SECONDS = 1.0
#: a chattering input is heard again after this long without a press
QUIET_SECONDS = 5.0


@dataclass
class _Input:
    times: deque[float] = field(default_factory=deque)
    chattering: bool = False
    last: float = 0.0


class ChatterGuard:
    """Decides, press by press, whether an input is a person or a chattering contact.

    Example::

        >>> reports = []
        >>> guard = ChatterGuard(report=reports.append)
        >>> [guard.admit("S2 slot 4", now=i * 0.025) for i in range(22)][-3:]
        [True, False, False]
        >>> reports[0][:50]
        'S2 slot 4 is chattering (21 presses in 1 s): ignor'
        >>> guard.admit("S2 slot 4", now=10.0)   # quiet long enough: a person again
        True
    """

    def __init__(self, *, report: Callable[[str], None] | None = None, limit: int = LIMIT,
                 window: float = WINDOW_SECONDS, quiet: float = QUIET_SECONDS) -> None:
        self.limit = limit
        self.window = window
        self.quiet = quiet
        self.report = report or (lambda message: log.warning("%s", message))
        self._inputs: dict[str, _Input] = {}

    def chattering(self, name: str) -> bool:
        found = self._inputs.get(name)
        return found is not None and found.chattering

    def admit(self, name: str, *, now: float) -> bool:
        """Record a press of ``name`` at ``now``; False if it is chatter (ignore the press)."""
        state = self._inputs.setdefault(name, _Input())
        if state.chattering:
            if now - state.last < self.quiet:
                state.last = now
                return False
            state.chattering = False  # an episode is over: a person may be pressing again
            state.times.clear()
        state.last = now
        times = state.times
        times.append(now)
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) > self.limit:
            state.chattering = True
            self.report(f"{name} is chattering ({len(times)} presses in {self.window:g} s): "
                        f"ignored until quiet for {self.quiet:g} s; check the switch and its "
                        "wiring")
            return False
        return True
