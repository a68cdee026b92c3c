"""``expect`` lines of scenario files: assertions on anything in the race, checked where they
stand among the decisions (see docs/scenarios.md).

Three forms::

    expect cars.0.engine 3              # a value of the JSON state (race_to_dict), by path
    expect cars.0.hand S 4 U7           # a list: hands compare without order, piles in order
    expect cars.0.draw ~ 2 4 4          # ~: any order (a shuffled pile)
    expect event upgrade_replaced car=0 card=U7     # some event so far has these fields
    expect no event sponsor car=1                   # ... and none has these
    expect option react 0 speed U8 3    # the race now offers this decision
    expect no option react 0 reduce 1   # ... and not this one

Example::

    >>> e = parse_expect(["cars.0.engine", "3"])
    >>> e.path, e.words
    (('cars', '0', 'engine'), ('3',))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engine.decisions import parse_decision
from .engine.race import Race
from .engine.snapshot import race_to_dict

#: lists compared without order (a hand has no order that matters)
_UNORDERED = frozenset({"hand"})


@dataclass(frozen=True)
class Expect:
    """One expectation; ``check`` returns None when it holds, else what was found.

    Example (a scenario's ``expect cars.0.gear 3`` line, checked on a fresh race)::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1))
        >>> parse_expect(["cars.0.gear", "1"]).check(race) is None
        True
        >>> parse_expect(["cars.0.gear", "3"]).check(race)
        '1'
    """

    kind: str  # "value", "event", "no event", "option", "no option"
    path: tuple[str, ...] = ()
    words: tuple[str, ...] = ()

    def check(self, race: Race) -> str | None:
        if self.kind == "event":
            return self._event(race)
        if self.kind == "no event":
            found = self._event(race)
            return None if found is not None else "such an event"
        if self.kind in ("option", "no option"):
            wanted = parse_decision(" ".join(self.words))
            offered = wanted in race.pending().options
            if offered == (self.kind == "option"):
                return None
            listed = "; ".join(str(o) for o in race.pending().options) or "none listed"
            return f"{'not ' if self.kind == 'option' else ''}offered (options: {listed})"
        return self._value(race)

    def _value(self, race: Race) -> str | None:
        node: Any = race_to_dict(race, events=False)
        for i, key in enumerate(self.path):
            if isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            elif isinstance(node, dict) and key in node:
                node = node[key]
            else:
                return f"no {'.'.join(self.path[:i + 1])} in the race state"
        if isinstance(node, list):
            got = [str(v).upper() for v in node]
            words = self.words[1:] if self.words[0] == "~" else self.words
            want = [w.upper() for w in words if w != "-"]
            if self.path[-1] in _UNORDERED or words is not self.words:
                got, want = sorted(got), sorted(want)
            return None if got == want else f"{' '.join(map(str, node)) or '-'}"
        if len(self.words) == 1 and _same(node, _word(self.words[0])):
            return None
        return f"{node}"

    def _event(self, race: Race) -> str | None:
        # matched against each event's JSON form: the keys a scenario names are its keys
        kind, fields = self.words[0], [w.split("=", 1) for w in self.words[1:]]
        seen = [e.to_dict() for e in race.events if e.kind == kind]
        for e in seen:
            if all(k in e and _same(e[k], _word(v)) for k, v in fields):
                return None
        return f"no such event ({len(seen)} '{kind}' event(s))"


def _word(text: str) -> Any:
    if text.lstrip("-").isdigit():
        return int(text)
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def _same(value: Any, want: Any) -> bool:
    if isinstance(value, bool) or isinstance(want, bool):
        return value is want
    return value == want or str(value).upper() == str(want).upper()


def parse_expect(words: list[str]) -> Expect:
    """The words after ``expect``; ValueError with a one-line reason if malformed."""
    if not words:
        raise ValueError("expected 'expect PATH VALUE...', 'expect [no] event TYPE k=v...' or "
                         "'expect [no] option DECISION'")
    if words[0] == "event" or words[:2] == ["no", "event"]:
        rest = words[1:] if words[0] == "event" else words[2:]
        if not rest or any("=" not in w for w in rest[1:]):
            raise ValueError("expected 'expect [no] event TYPE field=value ...'")
        return Expect("event" if words[0] == "event" else "no event", words=tuple(rest))
    if words[0] == "option" or words[:2] == ["no", "option"]:
        rest = words[1:] if words[0] == "option" else words[2:]
        parse_decision(" ".join(rest))  # raises a one-line ValueError if malformed
        return Expect("option" if words[0] == "option" else "no option", words=tuple(rest))
    if len(words) < 2:
        raise ValueError(f"expected 'expect {words[0]} VALUE...'")
    return Expect("value", tuple(words[0].split(".")), tuple(words[1:]))
