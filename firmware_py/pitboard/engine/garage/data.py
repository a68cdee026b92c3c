"""The upgrade card file (``upgrades.toml`` beside this file): read, check, register.

Every mistake in the file is an :class:`UpgradeFileError` whose message is one line naming the
file, the card and the field. Each card becomes a card type (:func:`pitboard.engine.cards.register`)
with code ``U<type>`` (sponsors ``P<type - 100>``), so piles stay lists of short codes.

Example::

    >>> from pitboard.engine.garage.data import UPGRADES, by_type
    >>> len([u for u in UPGRADES.values() if u.tier != "sponsor"])
    60
    >>> brakes = by_type(8)
    >>> brakes.code, brakes.label, brakes.speeds
    ('U8', 'Brakes 1/3', (1, 3))
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ...userfile import UserFileError, parse_toml, read_user_file
from ..cards import HEAT, CardType, register

#: symbols and whether the rules make them mandatory (resolve by themselves)
MANDATORY = {"boost": True, "heat": True, "scrap": True, "adjust": True, "onetime": True,
             "cooldown": False, "reduce": False, "slipstream": False, "refresh": False,
             "salvage": False, "direct": False, "accelerate": False, "supercool": False,
             "draft": False}
#: symbols printed without a number
_BARE = frozenset({"refresh", "direct", "onetime"})
TIERS = ("basic", "advanced", "sponsor")
EXPANSIONS = ("heavy_rain", "tunnel_vision")
_KEYS = {"type", "family", "tier", "expansion", "speed", "symbols", "heat_card", "disputed"}
FILE = "upgrades.toml"


class UpgradeFileError(ValueError):
    """A problem in an upgrade card file; ``str()`` is one line naming file, card and field.

    Example: a speed choice must rise::

        >>> try:
        ...     parse_upgrades('upgrade = [{type = 8, family = "Brakes", tier = "basic", '
        ...                    'speed = [3, 1]}]', "my.toml")
        ... except UpgradeFileError as exc:
        ...     print(exc)
        my.toml: card U8: field speed: a speed 0-20 or a rising list of choices, not [3, 1]
    """


@dataclass(frozen=True, slots=True)
class Upgrade:
    """One upgrade card type as the file gives it.

    ``speeds`` has one value for a plain card, several for a speed choice; ``symbols`` are
    (name, n) in printed order (``adjust`` keeps its sign).

    Example::

        >>> upgrades = load_upgrades()  # the shipped upgrades.toml, by key
        >>> brakes = upgrades["U10"]
        >>> brakes.label, brakes.code, brakes.speeds, brakes.symbols
        ('Brakes 1/5', 'U10', (1, 5), ())
        >>> wings = upgrades["U46"]
        >>> wings.symbols, wings.count("adjust"), wings.has("scrap")
        ((('heat', 2), ('adjust', 3)), 3, False)
        >>> print(wings.text())
          U46  Wings 6                      advanced                    heat 2 !, adjust +3 !
        >>> upgrades["U17"].key, upgrades["U17"].code  # a Heat card of the pool: plain H in piles
        ('U17', 'H')
    """

    type: int
    family: str
    tier: str
    expansion: str
    speeds: tuple[int, ...]
    symbols: tuple[tuple[str, int], ...]
    heat_card: bool = False
    disputed: str = ""
    #: symbol -> the sum of its numbers (filled at creation: asked on every reveal)
    counts: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, n in self.symbols:
            self.counts[name] = self.counts.get(name, 0) + n

    @property
    def code(self) -> str:
        """The code in piles: the deck gets a plain Heat card for the pool's Heat cards."""
        if self.heat_card:
            return HEAT
        return f"P{self.type - 100}" if self.tier == "sponsor" else f"U{self.type}"

    @property
    def key(self) -> str:
        """The name a draft market and scenarios use: always ``U<type>``/``P<n>``."""
        return f"P{self.type - 100}" if self.tier == "sponsor" else f"U{self.type}"

    @property
    def label(self) -> str:
        """Short printed name: family and speed(s), e.g. ``Brakes 1/3``."""
        return f"{self.family} {'/'.join(map(str, self.speeds))}"

    def count(self, symbol: str) -> int:
        """Sum of ``symbol``'s numbers on the card (0 if absent)."""
        return self.counts.get(symbol, 0)

    def has(self, symbol: str) -> bool:
        """Whether the card prints ``symbol`` (a symbol name such as ``"scrap"``), whatever its
        count."""
        return symbol in self.counts

    def text(self) -> str:
        """One line for ``pitboard upgrades``."""
        syms = ", ".join(_symbol_text(s, n) for s, n in self.symbols) or "-"
        where = self.tier + (f" ({self.expansion.replace('_', ' ')})" if self.expansion else "")
        heat = " [a Heat card in the deck]" if self.heat_card else ""
        flag = f"  DISPUTED: {self.disputed}" if self.disputed else ""
        return f"{self.key:>5}  {self.label:<28} {where:<27} {syms}{heat}{flag}"


def _symbol_text(name: str, n: int) -> str:
    bang = " !" if MANDATORY[name] else ""
    if name in _BARE:
        return name + bang
    return f"{name} {n:+d}{bang}" if name == "adjust" else f"{name} {n}{bang}"


def parse_upgrades(text: str, where: str) -> dict[str, Upgrade]:
    """Upgrades by key from the text of an upgrade file; UpgradeFileError on any problem."""
    try:
        data = parse_toml(text)  # too-deep nesting is a syntax error, not a crash
    except tomllib.TOMLDecodeError as exc:
        raise UpgradeFileError(f"{where}: not valid TOML: {exc}") from None
    rows = data.get("upgrade")
    if not isinstance(rows, list) or not rows or set(data) != {"upgrade"}:
        raise UpgradeFileError(f"{where}: expected [[upgrade]] tables and nothing else")
    out: dict[str, Upgrade] = {}
    for i, row in enumerate(rows, start=1):
        card = _row(row, f"{where}: upgrade #{i}")
        if card.key in out:
            raise UpgradeFileError(f"{where}: card {card.key}: type {card.type} given twice")
        out[card.key] = card
    return out


def _row(row: Any, where: str) -> Upgrade:
    if not isinstance(row, dict):
        raise UpgradeFileError(f"{where}: not a table")
    kind = row.get("type")
    if not isinstance(kind, int) or isinstance(kind, bool) or not (1 <= kind <= 60 or
                                                                   101 <= kind <= 199):
        raise UpgradeFileError(f"{where}: field type: a number 1-60 (101-199 for sponsors), "
                               f"not {kind!r}")
    where = f"{where.rsplit(':', 1)[0]}: card {'P' if kind > 100 else 'U'}" \
            f"{kind - 100 if kind > 100 else kind}"

    def fail(field: str, why: str) -> UpgradeFileError:
        return UpgradeFileError(f"{where}: field {field}: {why}")

    unknown = set(row) - _KEYS
    if unknown:
        raise fail(sorted(unknown)[0], f"unknown field (known: {', '.join(sorted(_KEYS))})")
    family = row.get("family")
    if not isinstance(family, str) or not family.strip():
        raise fail("family", "a name is needed")
    tier = row.get("tier")
    if tier not in TIERS:
        raise fail("tier", f"one of {', '.join(TIERS)}, not {tier!r}")
    if (tier == "sponsor") != (kind > 100):
        raise fail("tier", "sponsor cards (and only they) have types above 100")
    expansion = row.get("expansion", "")
    if expansion not in ("", *EXPANSIONS):
        raise fail("expansion", f"one of {', '.join(EXPANSIONS)}, not {expansion!r}")
    speed = row.get("speed")
    speeds = tuple(speed) if isinstance(speed, list) else (speed,)
    if not speeds or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20
                             for v in speeds) or list(speeds) != sorted(set(speeds)):
        raise fail("speed", f"a speed 0-20 or a rising list of choices, not {speed!r}")
    symbols = row.get("symbols", [])
    if not isinstance(symbols, list):
        raise fail("symbols", "a list of strings")
    parsed = tuple(_symbol(s, fail) for s in symbols)
    heat_card = row.get("heat_card", False)
    if not isinstance(heat_card, bool):
        raise fail("heat_card", "true or false")
    if heat_card and (parsed or speeds != (0,)):
        raise fail("heat_card", "a Heat card has speed 0 and no symbols")
    disputed = row.get("disputed", "")
    if not isinstance(disputed, str):
        raise fail("disputed", "a text")
    return Upgrade(kind, family.strip(), tier, expansion, speeds, parsed, heat_card, disputed)


def _symbol(text: Any, fail: Any) -> tuple[str, int]:
    if not isinstance(text, str):
        raise fail("symbols", f"{text!r} is not a string")
    words = text.split()
    bang = bool(words) and words[-1] == "!"
    if bang:
        words = words[:-1]
    if not words or words[0] not in MANDATORY:
        raise fail("symbols", f"unknown symbol {text!r} (known: {', '.join(MANDATORY)})")
    name = words[0]
    if bang != MANDATORY[name]:
        rule = "mandatory: end it with ' !'" if MANDATORY[name] else "optional: no ' !'"
        raise fail("symbols", f"{text!r}: {name} is {rule}")
    if name in _BARE:
        if len(words) != 1:
            raise fail("symbols", f"{text!r}: {name} takes no number")
        return name, 1
    if len(words) != 2:
        raise fail("symbols", f"{text!r}: expected '{name} N'")
    try:
        n = int(words[1])
    except ValueError:
        raise fail("symbols", f"{text!r}: {words[1]!r} is not a number") from None
    if name == "adjust" and (n == 0 or words[1][0] not in "+-"):
        raise fail("symbols", f"{text!r}: adjust needs a signed number, e.g. +1 or -1")
    if name != "adjust" and not 1 <= n <= 9:
        raise fail("symbols", f"{text!r}: the number must be 1-9")
    return name, n


def load_upgrades(path: str | Path | None = None) -> dict[str, Upgrade]:
    """Read the shipped file (or ``path``)."""
    if path is None:
        text = resources.files(__package__).joinpath(FILE).read_text(encoding="utf-8")
        return parse_upgrades(text, f"pitboard/engine/garage/{FILE}")
    p = Path(path)
    try:
        text = read_user_file(p).decode("utf-8")  # a regular file only: never /dev/zero, a FIFO
    except UserFileError as exc:
        raise UpgradeFileError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise UpgradeFileError(f"{p}: cannot read: {exc}") from None
    return parse_upgrades(text, str(p))


def card_type(u: Upgrade) -> CardType:
    """The engine's view of an upgrade: it counts its lowest speed at reveal (a speed choice
    adds the rest in the React step)."""
    return CardType(u.code, u.label, speed=u.speeds[0], symbols=u.symbols)


UPGRADES: dict[str, Upgrade] = load_upgrades()
#: card code in piles -> its upgrade (the pool's Heat cards are plain H, so not here)
BY_CODE: dict[str, Upgrade] = {u.code: u for u in UPGRADES.values() if not u.heat_card}
for _u in BY_CODE.values():
    register(card_type(_u))


def by_type(kind: int) -> Upgrade:
    """The upgrade with type number ``kind`` (KeyError if none)."""
    return UPGRADES[f"P{kind - 100}" if kind > 100 else f"U{kind}"]


def parse_key(text: str, where: str) -> Upgrade:
    """An upgrade named as ``U7``, ``u7`` or ``7`` (``P1`` for a sponsor); ValueError naming
    ``where`` otherwise."""
    key = text.strip().upper()
    if key.isdigit():
        key = f"U{key}"
    found = UPGRADES.get(key)
    if found is None:
        raise ValueError(f"{where}: unknown upgrade {text!r} (U1-U60, P1-P7)")
    return found
