"""What one station's screen shows, as plain data.

The table builds a :class:`StationView` for every station after every event; the screen renderer
(:mod:`pitboard.table.screens`) turns it into a 128x64 image. Keeping the view pure data lets
tests assert on content without pixels, and skips drawing when nothing changed (views compare
equal).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.cards import CARD_TYPES

# screen kinds
LOBBY = "lobby"
PLANNING = "planning"
LOCKED = "locked"  # planned, waiting for the others
RESOLUTION = "resolution"  # this station's car is resolving: flips, move, choices
WAITING = "waiting"  # another car is resolving
RESULTS = "results"
ATTRACT = "attract"  # kiosk: bots racing, "press GO to play"
FAULT = "fault"  # wiring fault on this station (lever with two contacts, ...)
SETUP = "setup"  # the set-up checklist of a module race (table_setup.py)
DRAFT = "draft"  # the Garage draft: the market, whose pick it is (draft_view.py)
STANDINGS = "standings"  # a championship's standings between races and at the end
KINDS = (LOBBY, PLANNING, LOCKED, RESOLUTION, WAITING, RESULTS, ATTRACT, FAULT, SETUP, DRAFT,
         STANDINGS)


# card kinds: how a card face is drawn (from the engine's CardType, never from its code)
SPEED_CARD = "speed"  # a basic Speed card 1-4
UPGRADE_CARD = "upgrade"  # the starting 0 and 5, and any module's upgrade
HEAT_CARD = "heat"
STRESS_CARD = "stress"


def card_kind(code: str) -> str:
    """How the card ``code`` is drawn ("" for an empty slot or a code the engine lacks).

    Example::

        >>> [card_kind(c) for c in ("3", "5", "H", "S", "")]
        ['speed', 'upgrade', 'heat', 'stress', '']
    """
    card = CARD_TYPES.get(code)
    if card is None:
        return ""
    if card.heat:
        return HEAT_CARD
    if card.stress:
        return STRESS_CARD
    return SPEED_CARD if card.basic else UPGRADE_CARD


@dataclass(frozen=True, slots=True)
class CardView:
    """One card above its tray button.

    Example::

        >>> CardView("H", "H").kind
        'heat'
    """

    code: str  # "1".."5", "0", "H", "S", or a module's code
    label: str  # what to print big: "4", "H", "S", "0", "5"
    selected: bool = False
    #: greyed: cannot be selected now (Heat while planning, Heat/Stress while discarding)
    disabled: bool = False
    #: how the face is drawn (:func:`card_kind`); filled in from ``code`` when not given
    kind: str = ""

    def __post_init__(self) -> None:
        if not self.kind and self.code:
            object.__setattr__(self, "kind", card_kind(self.code))


@dataclass(frozen=True, slots=True)
class CornerView:
    """A corner the selection would cross (planning) or did cross (resolution).

    Example (the next corner, as the planning screen shows it before any card)::

        >>> from pitboard.engine import Race, RaceSetup
        >>> from pitboard.table.views import next_corner
        >>> race = Race(RaceSetup(track="usa", cars=1, seed=1))
        >>> next_corner(race, race.cars[0])
        CornerView(number=1, limit=7, heat=0, adjust=0, overheat=0, ahead=13)
    """

    number: int
    limit: int
    heat: int
    #: the limit minus the one printed on the board (a road token's +-1, an upgrade's adjust)
    adjust: int = 0
    #: Heat a road token (Overheat) adds when the corner is taken too fast
    overheat: int = 0
    #: spaces from the car to the corner line when the plan does not reach it (0: it does)
    ahead: int = 0


@dataclass(frozen=True, slots=True)
class MoveView:
    """Where to put the physical car.

    Example (the resolution screen after a plan of gear 2 with a 4 and a 5)::

        >>> from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed
        >>> from pitboard.table.table import Table
        >>> table = Table(stations=1, seed=1, laps=1)
        >>> table.handle(GoPressed(station=0)); table.handle(SlotPressed(station=0, slot=6))
        >>> for event in (LeverMoved(0, 2), SlotPressed(0, 2), SlotPressed(0, 3), GoPressed(0)):
        ...     table.handle(event)
        >>> table.views[0].move
        MoveView(spaces=9, space=9, spot='racing line', lap=1, blocked=0, who='')
    """

    spaces: int  # to count forward from where it stands (negative after a spin-out)
    space: int  # board space number (1..N from the finish line)
    spot: str  # "racing line" or "outside"
    lap: int
    blocked: int = 0  # spaces lost to blocking
    #: whose move it is when the screen must say ("you": the station's own car)
    who: str = ""


@dataclass(frozen=True, slots=True)
class StationView:
    """Everything one station shows.

    Example::

        StationView(kind="planning", station=0, title="S1 Alice", gear=2, target_gear=3)
    """

    kind: str
    station: int
    title: str = ""
    #: the hand in tray order (7 slots); empty outside planning/discard
    cards: tuple[CardView, ...] = ()
    #: labels over the 7 tray buttons (soft keys) when the tray is not showing cards
    soft_keys: tuple[str, ...] = ()
    #: soft keys that are toggles now off (drawn as an outline; on ones are filled)
    keys_off: tuple[int, ...] = ()
    gear: int = 1
    target_gear: int = 1
    shift_cost: int = 0
    engine: int = 0
    #: speed as "7" or a range "5-9" (Stress); "" before any card is chosen
    speed: str = ""
    #: corner warning before GO
    corners: tuple[CornerView, ...] = ()
    #: planning: the next corner ahead when the plan crosses none (its ``ahead`` set), shown
    #: in the corner row so that reaching it changes the row's Heat field only
    next_corner: CornerView | None = None
    heat_owed: int = 0
    #: planning: a few words on what the turn screen must do for the corners to be paid as
    #: forecast ("keep COOL on": the Heat GO cools first pays a corner), "" when nothing
    note: str = ""
    spin_out: bool = False
    #: chance of a spin-out in percent when Stress makes it uncertain (100 when certain)
    spin_odds: int = 0
    #: one short line: why GO was refused, a clogged hand, whose turn, ...
    message: str = ""
    #: the turn screen: ``message`` says what GO does and changes with the toggles (ADR, BST,
    #: COOL, SLIP): drawn in one font (TINY) whatever its length, so a toggle rewrites the
    #: line from the changed word on and never flips its size
    message_toggles: bool = False
    #: the turn screen: ``message`` as fixed fields (:meth:`~pitboard.table.turn.TurnChoices.
    #: fields`): each field's text ("" when off) and the widest it can show; drawn at fixed
    #: places when they fit the line, so a toggle rewrites its own field only
    go_fields: tuple[tuple[str, str], ...] = ()
    #: resolution: flipped cards ("S->3", "boost 4"), final speed, move instruction
    flips: tuple[str, ...] = ()
    move: MoveView | None = None
    #: heat paid this turn and why ("corner 2: 3")
    heat_paid: tuple[str, ...] = ()
    #: race order / results lines: "1 Alice", "2 Bot 3" ...; standings: "1 Alice\t15 +9"
    #: (the points after the tab, drawn at the right)
    order: tuple[str, ...] = ()
    lap: int = 0
    laps: int = 0
    round: int = 0
    #: extra lines for lobby/attract/fault screens
    lines: tuple[str, ...] = field(default_factory=tuple)
    #: what the sector where the car stands does to it ("sector: slipstream +2"; weather_view.py)
    sector: str = ""
    #: the meaning of the card last pressed (an upgrade), most to least verbose
    detail: tuple[str, ...] = ()
    #: the lobby's PHONES page: the text of the QR code to draw ("" none; join_screen.py)
    qr: str = ""
