"""Small pure helpers about a player's hand and plan, shared by the table and its views.

A leaf module: it imports only the engine, so the table (input handling) and the views
(what each screen shows) can both use it without importing each other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..engine.decisions import COUNT, HEAT_CARD, NOT_IN_HAND, SHIFT, PlanProblem


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


def short_problem(problem: PlanProblem) -> str:
    """A plan problem as a few words for a 128-px screen, from its fields (never its wording).

    Example::

        >>> short_problem(PlanProblem("gear 3 plays 3 cards, not 1", kind=COUNT, needed=3))
        'play 3 cards'
    """
    if problem.kind == COUNT:
        return f"play {problem.needed} card{'s' if problem.needed != 1 else ''}"
    if problem.kind == SHIFT:
        return "no Heat: 2-gear shift" if problem.needed else "max 2 gears per shift"
    if problem.kind == HEAT_CARD:
        return "Heat can't be played"
    if problem.kind == NOT_IN_HAND:
        return "card not in hand"
    return str(problem)[:24]
