"""Small pure helpers about a player's hand and plan, shared by the table and its views.

A leaf module: it imports only the engine, so the table (input handling) and the views
(what each screen shows) can both use it without importing each other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def in_hand_order(hand: Sequence[str], cards: Sequence[str]) -> tuple[str, ...]:
    """``cards`` in the order the engine holds them, whatever tray slots they sat in: the tray
    layout is not journalled, so the decision must not depend on it (resume replays exactly).

    Example::

        >>> in_hand_order(["1", "4", "2", "4"], ["4", "1"])
        ('1', '4')
    """
    left = Counter(cards)
    out = []
    for code in hand:
        if left[code] > 0:
            left[code] -= 1
            out.append(code)
    return (*out, *left.elements())


def short_problem(problem: str) -> str:
    """A plan problem as a few words for a 128-px screen.

    Example::

        >>> short_problem("gear 3 plays 3 cards, not 1")
        'play 3 cards'
    """
    if "plays" in problem and "cards" in problem:
        need = problem.split("plays ", 1)[1].split(" ", 1)[0]
        return f"play {need} card{'s' if need != '1' else ''}"
    if "no Heat" in problem:
        return "no Heat: 2-gear shift"
    if "cannot shift" in problem:
        return "max 2 gears per shift"
    if "Heat cards" in problem:
        return "Heat can't be played"
    return problem[:24]
