"""The championship's screens in the gallery (``docs/screens``; gallery.py gathers them): a
season on the lobby's SEASON page, its Event card and Press Corners on the set-up checklist, the
swap after a season's draft round, a sponsor in the hand and earned at a Press Corner, a plan
whose spin-out would end the race, a car out of the race, the standings between races and at
the end; and on the race-control display.

The views are realistic samples built by hand, like gallery.py's; tests pin their pixels.

Example::

    >>> sorted(season_samples()) == sorted(SEASON_DESCRIPTIONS)
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the views load when drawing (gallery.py: not for --help)
    from pitboard.table.race_control import RaceControlView
    from pitboard.table.view import StationView

#: one line per sample: what it shows (the README's captions)
SEASON_DESCRIPTIONS: dict[str, str] = {
    "lobby_season": "Lobby, the SEASON page: YEAR steps through single races, the five seasons "
                    "of the box and a random season; RACE then starts the whole season.",
    "lobby_championship": "Lobby with a championship chosen: every station's race page names "
                          "the season and its tracks instead of the lobby's track.",
    "setup_event": "Championship, set-up checklist: the race's Event card, its rule and the "
                   "sponsors it deals (shuffled into every deck).",
    "setup_press": "Championship, set-up checklist: the Press Corners, by the corner numbers "
                   "printed on the board (the Event's letter in brackets).",
    "draft_swap": "Between the races of a season, after the one draft round: each player in "
                  "turn may swap one upgrade (press it, GO), then takes one from the market.",
    "planning_sponsor": "A sponsorship card in the hand: an upgrade card with the one-time mark "
                        "(it leaves the game when played), spelled out when pressed.",
    "planning_out": "Sponsor withdraws (Future unknown): the plan may spin out, and that "
                    "spin-out would put the car out of the race: the forecast, played on the "
                    "engine, says so under the band.",
    "resolution_sponsor": "A Press Corner crossed at its limit + 2: the sponsor just earned is "
                          "named above the discard step; it is in the hand already.",
    "waiting_sponsor": "After the turn: the sponsor this car earned, with where to move it.",
    "waiting_out": "Sponsor withdraws (Future unknown): a car that spun out is out of the race.",
    "standings": "Between two races of a season: the standings (points in all, + this race's), "
                 "the leader inverted, and the next race: GO on any seated station starts it.",
    "standings_final": "After the last race: the final standings; GO goes back to the lobby.",
}

#: the race-control display's championship screens
SEASON_RACE_CONTROL_DESCRIPTIONS: dict[str, str] = {
    "race_control_sponsor": "Race-control display: a Press Corner paid a sponsor, announced "
                            "above the race order.",
    "race_control_standings": "Race-control display between two races: the standings and the "
                              "next race.",
}


def season_samples() -> dict[str, StationView]:
    """One realistic view per championship screen, in gallery order."""
    from pitboard.table.draft_view import market_card
    from pitboard.table.upgrade_art import detail
    from pitboard.table.view import (
        DRAFT,
        LOBBY,
        PLANNING,
        RESOLUTION,
        SETUP,
        STANDINGS,
        WAITING,
        CardView,
        CornerView,
        MoveView,
        StationView,
    )
    from pitboard.table.views import OUT_OF_RACE

    name = "S1 Alice"
    order = ("1 Alice L1 sp30", "2 Bob L1 sp21", "3 Carol L1 sp19", "4 Bot 4 L1 sp17")
    return {
        "lobby_season": StationView(
            LOBBY, 0, title="S1 SEASON",
            lines=("championship 1961", "3 races: Great Britain,", "USA, Italy",
                   "RACE starts the season", "JOINED - GO to leave"),
            soft_keys=("YEAR", "", "", "OPTS", "", "", "RACE"),
        ),
        "lobby_championship": StationView(
            LOBBY, 0, title="S1 LOBBY",
            lines=("championship 1963", "4 races: USA,", "Great Britain, France, Italy",
                   "4 cars: 2 players, 2 bots", "+ Garage draft all", "JOINED - GO to leave"),
            soft_keys=("TRK", "LAPS", "CARS", "OPTS", "", "", "RACE"),
        ),
        "setup_event": StationView(
            SETUP, 0, title="SET-UP 1/2 EVENT",
            lines=("race 2/3: Great Britain", "Record crowds", "1 lap more; hand size 8",
                   "1 sponsor each in deck"), soft_keys=("", "", "", "", "", "", "NEXT"),
        ),
        "setup_press": StationView(
            SETUP, 0, title="SET-UP 2/2 PRESS CORNERS",
            lines=("corner 3 (C)", "corner 5 (E)", "sponsor: at limit+2", "or by slipstream"),
            soft_keys=("BACK", "", "", "", "", "", "RACE"),
        ),
        "draft_swap": StationView(
            DRAFT, 0, title="SWAP?", message="YOUR SWAP", round=1,
            cards=(market_card("U8"), market_card("U21", selected=True), market_card("U44"),
                   market_card("U36")),
            lines=("GO: give it, then take one",), detail=detail("U21"),
        ),
        "planning_sponsor": StationView(
            PLANNING, 0, title=name, cards=(
                CardView("P4", "P4", selected=True), CardView("3", "3", selected=True),
                CardView("2", "2"), CardView("H", "H", disabled=True), CardView("U7", "U7"),
                CardView("1", "1"), CardView("S", "S")),
            gear=2, target_gear=2, engine=5, speed="9", detail=detail("P4"),
            lap=1, laps=2, round=5,
        ),
        "planning_out": StationView(
            PLANNING, 0, title=name, cards=(
                CardView("4", "4", selected=True), CardView("4", "4", selected=True),
                CardView("1", "1", selected=True), CardView("1", "1"), CardView("1", "1"),
                CardView("S", "S"), CardView("1", "1")),
            gear=3, target_gear=3, engine=2, speed="9", corners=(CornerView(1, 5, 2),),
            heat_owed=2, spin_out=True, spin_odds=100, message=OUT_OF_RACE,
            lap=1, laps=1, round=2,
        ),
        "resolution_sponsor": StationView(
            RESOLUTION, 0, title=name, cards=(
                CardView("1", "1"), CardView("S", "S", disabled=True), CardView("3", "3"),
                CardView("P2", "P2"), CardView("2", "2")),
            gear=3, target_gear=3, engine=3, speed="9", move=MoveView(9, 17, "racing line", 1),
            message="SPONSOR: Fredo+F. C.S. (C1)", lines=("discard? then GO",),
            lap=1, laps=2, round=3,
        ),
        "waiting_sponsor": StationView(
            WAITING, 0, title=name, message="SPONSOR: Lord+Co. T.B. (C3)",
            move=MoveView(9, 30, "racing line", 1, who="you"), order=order,
            lap=1, laps=2, round=4, engine=4, gear=3,
        ),
        "waiting_out": StationView(
            WAITING, 0, title=name, message="OUT of the race: spun out", order=order[1:],
            lap=1, laps=2, round=6, engine=0, gear=1,
        ),
        "standings": StationView(
            STANDINGS, 0, title="1961 RACE 2/3",
            order=("1 Alice\t15 +6", "2 Bob\t13 +9", "3 Bot 3\t7 +3", "4 Carol\t6 +4"),
            message="GO: race 3, Italy", soft_keys=("", "", "", "", "", "", "NEXT"),
        ),
        "standings_final": StationView(
            STANDINGS, 0, title="1961 FINAL STANDINGS",
            order=("1 Bob\t24 +11", "2 Alice\t21 +6", "3 Bot 3\t11 +4", "4 Carol\t9 +3"),
            message="GO: back to the lobby", soft_keys=("", "", "", "", "", "", "END"),
        ),
    }


def season_race_control_samples() -> dict[str, RaceControlView]:
    """The race-control display's championship screens."""
    from pitboard.table.race_control import RaceControlView

    return {
        "race_control_sponsor": RaceControlView(
            "ROUND 5", lines=("Alice: sponsor at C3", "1 Alice sp35 L1", "2 Bob sp31 L1",
                              ">3 Carol sp29 L1", "4 Bot 4 sp22 L1"), footer="Carol to play"),
        "race_control_standings": RaceControlView(
            "1961 RACE 2/3", lines=("1 Alice 15 +6", "2 Bob 13 +9", "3 Bot 3 7 +3",
                                    "4 Carol 6 +4"), footer="GO: race 3, Italy"),
    }


__all__ = ["SEASON_DESCRIPTIONS", "SEASON_RACE_CONTROL_DESCRIPTIONS", "season_race_control_samples",
           "season_samples"]
