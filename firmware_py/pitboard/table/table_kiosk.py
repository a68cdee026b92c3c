"""The table's kiosk timers and idle seats: the attract loop, the lobby countdown, results
timing out, bots taking over idle seats and players taking them back. A mixin of
:class:`~pitboard.table.table.Table`.
"""

from __future__ import annotations

import logging
import math
from dataclasses import replace

from ..bots import HeuristicBot
from ..engine.legends import legend_count
from ..engine.race import Race
from ..engine.setup import MAX_CARS, RaceSetup
from ..trackfile import track_ref
from . import flow
from .station import Station
from .table_base import KioskOptions, TableBase, seat_bot
from .table_lobby import legend_names

log = logging.getLogger("pitboard.table")


class KioskMixin(TableBase):
    """Kiosk timers and idle seats (see :class:`~pitboard.table.table.Table`).

    Example::

        >>> from pitboard.hw.events import GoPressed
        >>> from pitboard.table.table import KioskOptions, Table
        >>> now = [0.0]
        >>> table = Table(stations=2, seed=1, clock=lambda: now[0],
        ...               kiosk=KioskOptions(join_seconds=20))
        >>> table.handle(GoPressed(station=0))  # a visitor wakes the table and joins
        >>> table.state, table.deadline
        ('lobby', 20.0)
        >>> now[0] = 20.0; table.tick()  # nobody else came: bots take the other cars
        >>> table.state, [st.car for st in table.stations], sorted(table.bots)
        ('planning', [0, None], [1, 2, 3])
    """

    def _idle_cars(self) -> list[int]:
        """Cars whose seats a bot drives while their players are away."""
        return sorted(st.car for st in self.stations if st.idle_bot and st.car is not None)

    # ------------------------------------------------------------------ kiosk and time
    def _countdown(self) -> int | None:
        """The kiosk lobby's whole seconds until the race starts (None: no countdown)."""
        if self.kiosk is not None and self.deadline is not None and self.state == flow.LOBBY:
            return max(0, math.ceil(self.deadline - self.clock()))
        return None

    def _arm_join_countdown(self) -> None:
        if self.kiosk is not None and any(s.joined for s in self.stations):
            self.deadline = self.clock() + self.kiosk.join_seconds

    def _start_attract(self) -> None:
        """Back to the demo, the last race put away: the kiosk's presets (a resumed race, or
        the staff console, may have changed the track, laps, cars or modules for one race) and
        a new attract race of bots with the kiosk's modules (Legend cars among them; without
        the Garage, whose draft nobody watching would see)."""
        kiosk = self.kiosk
        assert kiosk is not None
        self.race, self.bots = None, {}  # journalled and closed by now: nothing to resume
        self.track, self.laps, self.cars = track_ref(kiosk.track), kiosk.laps, kiosk.cars
        self.modules = {k: dict(v) for k, v in (kiosk.modules or {}).items()}
        self.lobby_problem = ""
        modules = {k: v for k, v in self.modules.items() if k != "garage"}
        legends = legend_count(modules.get("legends", {}))
        names = [f"Bot {i + 1}" for i in range(MAX_CARS - legends)]
        names += legend_names(modules["legends"]) if legends else []
        setup = RaceSetup(track=self.track, cars=MAX_CARS, laps=1,
                          seed=self.seeds.randrange(1 << 31), names=tuple(names),
                          modules=modules)
        try:
            self.attract = Race(setup)
        except ValueError as exc:  # the presets were checked at load; a track file changed
            log.error("kiosk attract race with %s refused: %s", ", ".join(modules), exc)
            self.attract = Race(replace(setup, modules={},
                                        names=tuple(f"Bot {i + 1}" for i in range(MAX_CARS))))
        self._attract_bot = HeuristicBot()
        self.deadline = self.clock() + kiosk.attract_step

    def _fit_legends(self) -> None:
        """Visitors come first: when more of them joined than the kiosk's Legends leave seats
        for, fewer Legend cars race (none when the players fill the grid)."""
        legends = self.modules.get("legends")
        if not legends:
            return
        players = sum(st.joined for st in self.stations)
        wanted = legend_count(legends)
        room = max(MAX_CARS - players, 0)
        if wanted <= room:
            return
        if room == 0:
            del self.modules["legends"]
        else:
            fitted = dict(legends)
            if "cars" in fitted:
                fitted["cars"] = room
            if "colours" in fitted:
                fitted["colours"] = list(fitted["colours"])[:room]
            self.modules["legends"] = fitted
        log.info("kiosk: %d players joined: %d of %d Legend cars race", players, room, wanted)

    def _tick(self, now: float) -> bool:
        """Let the kiosk's time pass; False when nothing was due (nothing changed)."""
        kiosk = self.kiosk
        if kiosk is None or (self.deadline is None and self.state not in (
                flow.SETUP, *flow.RACING)):
            return False
        state = self.state
        if state == flow.ATTRACT and self.deadline is not None and now >= self.deadline:
            race = self.attract
            if race is None or race.over:
                self._start_attract()
                return True
            race.apply(self._attract_bot.choose(race, race.waiting_for()))
            self.deadline = now + kiosk.attract_step
        elif state == flow.LOBBY and self.deadline is not None and now >= self.deadline:
            if any(s.joined for s in self.stations):
                self._fit_legends()
                try:
                    self.start_race(track=kiosk.track, laps=kiosk.laps, cars=kiosk.cars)
                except ValueError as exc:  # shown in the lobby; staff fix the presets
                    log.error("kiosk race refused: %s", exc)
                    self.deadline = None
            else:
                self.sleep()
                self._start_attract()
        elif state == flow.RESULTS and self.deadline is not None and now >= self.deadline:
            self._after_results()
        elif state in (flow.SETUP, *flow.RACING):
            return self._idle_takeover(now, kiosk)
        else:
            return False  # a countdown still running
        return True

    def _take_seat_back(self, st: Station) -> None:
        """A player back at a seat a bot took over while they were away drives again."""
        if st.car is None or self.race is None or self.race.over:
            return
        if st.lever_fault:
            st.message = "fix the gear lever"  # the bot keeps driving until it reads a gear
            return
        st.idle_bot = False
        self.bots.pop(st.car, None)
        st.clear()
        st.message = "welcome back"
        if self.recorder is not None:
            self.recorder.seat_back(st.car)
        self._sync_hands()

    def _idle_takeover(self, now: float, kiosk: KioskOptions) -> bool:
        """Idle seats during a race. A seat untouched for ``seat_idle_seconds`` while it was
        their move goes to a bot, unless every player is in the same case (then nobody is
        held up: the table waits). No press at any seat for ``table_idle_seconds``: everyone
        has left, back to the attract loop. False when neither happened."""
        race = self.race
        if race is None:
            return False
        seated = [st for st in self.stations if st.car is not None]
        if seated and now - max(st.last_input for st in seated) >= kiosk.table_idle_seconds:
            if self.recorder is not None:
                self.recorder.race_closed()
            self.race = None  # everyone left: back to the attract loop
            self.abandon()
            for st in self.stations:
                st.release()
            self.sleep()
            self._start_attract()
            return True
        if self.state == flow.SETUP:  # the checklist waits for anyone: no seat to hand over
            return False
        waiting = set(race.pending().cars)
        players = [st for st in seated if not st.idle_bot]
        idle = [st for st in players if st.car in waiting
                and now - st.last_input >= kiosk.seat_idle_seconds]
        if not idle or len(idle) == len(players):
            return False
        for st in idle:
            assert st.car is not None
            if st.lever_fault:
                log.warning("station %s: the gear lever has read no valid gear (contacts "
                            "%s closed) for %d s; a bot takes the seat", st.name,
                            "+".join(map(str, st.lever_fault)), now - st.last_input)
            st.idle_bot = True
            self.bots[st.car] = seat_bot(race.setup, st.car)
            if self.recorder is not None:
                self.recorder.seat_to_bot(st.car)
        self._drive()
        return True

    def _note_waiting(self) -> None:
        """Start a seat's idle clock when the table starts waiting for it (not at its last
        press: a player who waited for others has not been idle)."""
        race = self.race
        waiting: set[int] = set()
        if race is not None and not race.over and self.state in flow.RACING:
            waiting = set(race.pending().cars)
        if waiting != self._waiting:
            now = self.clock()
            for st in self.stations:
                if st.car in waiting and st.car not in self._waiting:
                    st.last_input = max(st.last_input, now)
            self._waiting = waiting
