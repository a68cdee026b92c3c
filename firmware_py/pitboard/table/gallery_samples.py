"""The sample station views the screen gallery (``docs/screens``) and the golden-image tests
(``tests/golden/screens``) draw: one realistic :class:`~pitboard.table.view.StationView` per
screen kind and notable variant, with its caption, and the race-control display's samples. The
championship's are in season_gallery.py; gallery.py draws and writes them all.

Example::

    >>> views = sample_views()
    >>> views["planning"].kind, views.keys() == DESCRIPTIONS.keys()
    ('planning', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pitboard.table.season_gallery import (
    SEASON_DESCRIPTIONS,
    SEASON_RACE_CONTROL_DESCRIPTIONS,
    season_race_control_samples,
    season_samples,
)

if TYPE_CHECKING:  # the views load when drawing, not for --help
    from pitboard.table.race_control import RaceControlView
    from pitboard.table.turn import TurnChoices
    from pitboard.table.view import CardView, StationView

__all__ = ["DESCRIPTIONS", "RACE_CONTROL_DESCRIPTIONS", "race_control_samples", "sample_views"]


def _hand(codes: str | Sequence[str], selected: str = "", disabled: str = "H"
          ) -> tuple[CardView, ...]:
    """Seven tray cards from codes; ``selected`` marks slot indexes ("024")."""
    from pitboard.table.view import CardView

    return tuple(
        CardView(code, code, selected=str(i) in selected, disabled=code in disabled)
        for i, code in enumerate(codes)
    )


def _go(choices: TurnChoices) -> dict[str, Any]:
    """The turn screen's GO line for these choices, as the table shows it (views.py)."""
    return {"message": choices.summary(), "message_toggles": True,
            "go_fields": choices.fields()}


#: one line per sample: what it shows (the README's captions)
DESCRIPTIONS: dict[str, str] = {
    "planning": "Planning: shifting 2→3, three cards chosen (a bar over each), no corner ahead.",
    "planning_next_corner": "Planning: the move does not reach corner 2 (limit 4), 6 "
                            "spaces on (in 6); a card that reaches it changes the field on the "
                            "right.",
    "planning_corner": "Planning: the move crosses corner 2 (limit 4) at 7: the 3 Heat it costs "
                       "is the largest thing after speed, gear and Heat (MEDIUM, inverted).",
    "planning_keep_cool": "Planning as GO will play the turn (issue 23): gear 4→2 with 1 Heat "
                          "and two Heat cards in hand; corner 3 (limit 2, road -1) costs 2 "
                          "Heat, paid because GO cools 1 first: \"keep COOL on\" (turned off, "
                          "the car would spin).",
    "planning_range": "Planning: a Stress range of two-digit speeds (13-14) stands clear of "
                      "the gear digit (4); the 2-gear shift's Heat is a chip beside it.",
    "planning_spin_odds": "Planning with Stress: speed 5-9, a spin-out is possible (40%): an "
                          "inverted MEDIUM band, the corner and the Heat owed beside it.",
    "planning_spin_out": "Planning: two corners cost more Heat than the engine holds: SPIN OUT, "
                         "as large as the card values.",
    "planning_refused": "GO refused: a 2-gear shift 1→3 (+1 Heat) needs three cards.",
    "planning_clogged": "Clogged hand: too few non-Heat cards, every playable card is forced.",
    "planning_paged": "More than 7 cards after a spin-out: 6 cards and a MORE key.",
    "planning_upgrades": "Garage hand: each upgrade shows its speed (1-4: a choice) and its "
                         "symbols as icons with their numbers, mandatory ones inverted; the card "
                         "last pressed (Wings 4) spelled out on the detail line.",
    "planning_upgrades_corner": "Garage hand with a corner ahead: the corner warning takes one "
                                "line, the pressed card's meaning (Air Intake 0) two.",
    "locked": "Locked in: the planning screen as GO found it (gear, speed, corners, the hand "
              "with the chosen cards marked) with the LOCKED mark and what it waits for in "
              "its message row: GO changes that one row of the glass.",
    "resolution": "Turn screen: Stress flipped a 3, move the car 9 spaces to space 21; corner 2 "
                  "(limit 7) costs 2 Heat when the turn ends. SPEED, HEAT and the corner row "
                  "sit where the planning and locked screens have them: at the reveal, what "
                  "did not change is not sent again.",
    "resolution_react": "Turn screen: the likely answer preset (lit = on, outlined = off: no "
                         "Boost); the line over the keys says what GO does, each choice in its "
                         "own place (a toggle changes its word and its key only); GO confirms "
                         "it, DISC also picks cards to discard.",
    "resolution_symbols": "Garage turn screen: each optional symbol of the played cards is a "
                          "key (play Gas Pedal 4 from hand, salvage up to 2), used in the order "
                          "pressed; the line says what they do, TURN shows the toggles; the "
                          "mandatory scrap is shown as it happened.",
    "resolution_salvage": "Salvage: the discard pile in the tray (best first, Heat last); pick "
                          "up to 2: the second pick (or GO, for one) shuffles them into the deck.",
    "resolution_upgrade_effects": "Mandatory effects as they happen: Wings 6 could not pay its 2 "
                                  "Heat, so it was discarded and a 3 flipped in its place.",
    "resolution_garage_toggles": "Garage turn screen, the toggles page (UPG turns back to the "
                                 "symbols): R.P.M.'s slipstream +2 makes SLIP a choice of "
                                 "distance, stepped through by presses (SL2, SL4, off).",
    "resolution_close_up": "Garage turn screen, Tunnel Vision's Front Wing: the key moves the "
                           "car up behind the next one (\"close up 2\", not \"draft\": that is "
                           "the Garage draft's word); the Heat the card took, in words.",
    "resolution_spin_out": "Spin-out: the engine could not pay; where the car goes back to.",
    "resolution_discard": "Discard step: the selected cards will be discarded on GO.",
    "waiting": "Another car is resolving, this car's plan still to come (the reveal): the "
               "locked screen's header (the plan's SPEED, GEAR, HEAT) and tray (the cards "
               "played) stay; whose turn it is, how far away this car's turn is and the move "
               "of the car playing take pages 3-4, so the reveal sends two of eight pages.",
    "waiting_turn_done": "Waiting after this car's turn: whose turn, where this car ended up "
                         "(big: move it on the board), round and lap, the race order.",
    "results": "Race over: finish order.",
    "lobby": "Lobby: track, laps and cars chosen with soft keys; OPTS opens the rules pages.",
    "lobby_modules": "Lobby with rules modules on (chosen on the OPTS pages, the console or "
                     "profile presets): every station names them, a line each, before the race.",
    "lobby_garage": "Lobby, the Garage page (OPTS turns the pages): TYPE, POOL and EXP step "
                    "through the options with the tray buttons.",
    "lobby_refused": "Lobby, the Legends page: a value the engine refuses for this race is "
                     "skipped, and the station says why in one line.",
    "lobby_weather": "Lobby, the Weather page: SKY steps off, random and each token; ROAD "
                     "turns the road-condition tokens on or off.",
    "draft_pick": "Garage draft, your pick: the market over the tray buttons, the selected "
                  "card marked and spelled out; GO takes it.",
    "draft_waiting": "Garage draft, another player's pick: the cards left (dotted: not yours to "
                     "press) and your picks so far.",
    "draft_drop": "Snake draft, the end: your four upgrades in the tray, drop one to keep three.",
    "attract": "Kiosk attract mode: bots racing until someone presses GO.",
    "attract_modules": "Kiosk attract mode with the shipped demo preset: bots against 2 Legend "
                       "cars, a weather token and road tokens.",
    "fault": "Wiring fault on this station's gear lever.",
    "setup_weather": "Set-up checklist before round 1 of a module race: the weather token for "
                     "the billboard and what it does (NEXT or GO turns the page).",
    "setup_road": "Set-up checklist: the road-condition token at each corner, by the corner "
                  "numbers printed on the board.",
    "setup_legends": "Set-up checklist: which Legend car goes on which grid position (BACK "
                     "turns back; RACE or GO on the last page starts round 1).",
    "setup_cards": "Set-up checklist, the last page in the rain: the cards the weather moves, "
                   "for players who keep physical reminders (Pitboard's decks already have it).",
    "planning_legend_move": "A Legend car has moved: without a race-control display every "
                            "seated station's status line says which car goes where; the next "
                            "GO confirms it was moved on the board.",
    "waiting_legend_move": "The same Legend move on a waiting station's status band.",
    # the championship's (season_gallery.py)
    "planning_sector": "Weather: no corner ahead, so the line says what the sector where the "
                       "car stands does (a weather sector in a storm: slipstream +2).",
    "planning_road_corner": "Road tokens: corner 2 is one slower than printed (Speed limit "
                            "-1): the warning and the Heat owed use the token's limit and say "
                            "so.",
    "resolution_sector": "Turn screen in a storm's weather sector: the sector effect on its "
                         "line, SLIP set to the longer slipstream (SL4; it cycles SL2, SL4, "
                         "off).",
    "planning_flooded": "Japan, on a flooded space: shifting down 3→2 costs 1 Heat (the "
                        "chip by GEAR), and the line says why.",
    "resolution_tunnel": "Spain, the move ends in a tunnel: no DISC key (no card leaves the "
                         "hand there), and the line says why.",
    **SEASON_DESCRIPTIONS,
}

#: the race-control display's samples (race_control.py), captioned like the stations'
RACE_CONTROL_DESCRIPTIONS: dict[str, str] = {
    "race_control_order": "Race-control display (optional, beside the board): round, weather, "
                          "the race order (> marks the car resolving) and whose turn it is.",
    "race_control_legend": "Race-control display: a Legend move waiting, colour, from which "
                           "space to which and the spot; GO on any station confirms it.",
    "race_control_setup": "Race-control display during the set-up checklist.",
    "race_control_lobby": "Race-control display in the lobby: the race the stations would "
                          "start, its modules, GO to join.",
    "race_control_draft": "Race-control display during a Garage draft: whose pick it is (the "
                          "market is on that player's station).",
    "race_control_results": "Race-control display after the finish: the final order.",
    **SEASON_RACE_CONTROL_DESCRIPTIONS,
}


def sample_views() -> dict[str, StationView]:
    """One realistic view per screen kind and notable variant, in gallery order.

    Example::

        >>> views = sample_views()
        >>> views["planning"].kind, len(views) == len(DESCRIPTIONS)
        ('planning', True)
    """
    from pitboard.table.draft_view import market_card
    from pitboard.table.icons import ICON
    from pitboard.table.turn import TurnChoices
    from pitboard.table.upgrade_art import detail
    from pitboard.table.view import (
        ATTRACT,
        DRAFT,
        FAULT,
        LOBBY,
        LOCKED,
        PLANNING,
        RESOLUTION,
        RESULTS,
        SETUP,
        WAITING,
        CardView,
        CornerView,
        MoveView,
        StationView,
    )

    name = "S1 Alice"
    legend_status = "1/2 Red Legend 14→21 out: GO"
    views = {
        "planning": StationView(
            PLANNING, 0, title=name, cards=_hand("3412H5S", selected="012"), gear=2,
            target_gear=3, engine=6, speed="8", message="cards to play: 3", lap=1, laps=2, round=3,
        ),
        "planning_next_corner": StationView(
            PLANNING, 0, title=name, cards=_hand("4H3S212", selected="2"), gear=2,
            target_gear=2, engine=5, speed="3", message="cards to play: 2",
            next_corner=CornerView(2, 4, 0, ahead=6), lap=1, laps=2, round=5,
        ),
        "planning_corner": StationView(
            PLANNING, 0, title=name, cards=_hand("4H3S212", selected="02"), gear=2,
            target_gear=2, engine=5, speed="7", corners=(CornerView(2, 4, 3),), heat_owed=3,
            lap=1, laps=2, round=5,
        ),
        "planning_keep_cool": StationView(
            PLANNING, 0, title=name, cards=_hand("23HH11S", selected="01"), gear=4,
            target_gear=2, engine=1, speed="5",
            corners=(CornerView(3, 2, 2, adjust=-1),), heat_owed=2, note="keep COOL on",
            lap=1, laps=2, round=6,
        ),
        "planning_range": StationView(
            PLANNING, 0, title=name, cards=_hand("44S4H23", selected="0123"), gear=2,
            target_gear=4, shift_cost=1, engine=5, speed="13-14", message="cards to play: 4",
            lap=1, laps=2, round=8,
        ),
        "planning_spin_odds": StationView(
            PLANNING, 0, title=name, cards=_hand("S1H4H23", selected="03"), gear=2,
            target_gear=2, engine=2, speed="5-9", corners=(CornerView(3, 5, 4),), heat_owed=4,
            spin_out=True, spin_odds=40, lap=1, laps=2, round=7,
        ),
        "planning_spin_out": StationView(
            PLANNING, 0, title=name, cards=_hand("43H4S2H", selected="0123"), gear=3,
            target_gear=4, engine=1, speed="13",
            corners=(CornerView(1, 7, 6), CornerView(2, 5, 8)), heat_owed=14, spin_out=True,
            spin_odds=100, lap=2, laps=2, round=9,
        ),
        "planning_refused": StationView(
            PLANNING, 0, title=name, cards=_hand("1234H05", selected="36"), gear=1,
            target_gear=3, shift_cost=1, engine=6, speed="9", message="play 3 cards",
            lap=1, laps=2, round=2,
        ),
        "planning_clogged": StationView(
            PLANNING, 0, title=name, cards=_hand("HH2HHHS", selected="26"), gear=3,
            target_gear=3, engine=0, speed="3-6", message="CLOGGED: no move, gear 1",
            lap=2, laps=3, round=11,
        ),
        "planning_paged": StationView(
            PLANNING, 0, title=name, cards=_hand("SS1H34", selected="4"),
            soft_keys=("", "", "", "", "", "", "PG>"), gear=1, target_gear=1, engine=0,
            speed="3", message="cards to play: 1", lap=1, laps=2, round=6,
        ),
        "planning_upgrades": StationView(
            PLANNING, 0, title=name, cards=_hand(("3", "U44", "U7", "H", "U23", "U8", "S"),
                                                 selected="01"),
            gear=2, target_gear=2, engine=5, speed="7-10", detail=detail("U44"),
            lap=1, laps=2, round=3,
        ),
        "planning_upgrades_corner": StationView(
            PLANNING, 0, title=name, cards=_hand(("U54", "2", "U19", "U40", "4", "U57", "H"),
                                                 selected="04"),
            gear=2, target_gear=2, engine=4, speed="5-8", corners=(CornerView(2, 4, 3),),
            heat_owed=3, detail=detail("U54"), lap=1, laps=2, round=6,
        ),
        "locked": StationView(
            LOCKED, 0, title=name, cards=_hand("3412H5S", selected="012"), gear=2,
            target_gear=3, engine=6, speed="8", message="waiting for 2", lap=1, laps=2,
            round=3,
        ),
        "resolution": StationView(
            RESOLUTION, 0, title=name, gear=3, target_gear=3, engine=4, speed="9",
            flips=("S>3",), move=MoveView(9, 21, "racing line", 1),
            corners=(CornerView(2, 7, 2),), heat_owed=2, message="GO: keep hand", lap=1,
            laps=2, round=3, soft_keys=("", "", "", "", "", "", "GO"),
        ),
        "resolution_react": StationView(
            RESOLUTION, 0, title=name, gear=2, target_gear=2, engine=5, speed="7",
            soft_keys=("ADR", "BST", "COOL", "SLIP", "DISC", "", "GO"), keys_off=(1,),
            move=MoveView(7, 34, "outside", 1, blocked=1),
            **_go(TurnChoices(adrenaline=True, boost=False, cool=2, cooling=True,
                              slipstream=True, discard=False)),
            lap=1, laps=2, round=4,
        ),
        "resolution_symbols": StationView(
            RESOLUTION, 0, title=name, gear=3, target_gear=3, engine=3, speed="6",
            soft_keys=(ICON["direct"] + "4", ICON["salvage"] + "2", "", "", "", "TURN", "GO"),
            move=MoveView(6, 27, "racing line", 1),
            message="play Gas Pedal 4, salvage up to 2",
            lines=("scrapped 3 H", "GO: cool 1, keep hand"), lap=1, laps=2, round=5,
        ),
        "resolution_salvage": StationView(
            RESOLUTION, 0, title=name, cards=_hand(("4", "4", "U44", "2", "S", "H"),
                                                   selected="0", disabled=""),
            gear=3, target_gear=3, engine=3, speed="6", move=MoveView(6, 27, "racing line", 1),
            message="salvage 1/2: pick, then GO", lap=1, laps=2, round=5,
        ),
        "resolution_upgrade_effects": StationView(
            RESOLUTION, 0, title=name, gear=1, target_gear=1, engine=1, speed="3",
            flips=("+>3",), move=MoveView(3, 17, "racing line", 1),
            soft_keys=("ADR", "", "", "", "DISC", "", "GO"), keys_off=(0,),
            **_go(TurnChoices(adrenaline=False, discard=False)),
            lines=("Wings 6 discarded: no Heat",), lap=1, laps=2, round=2,
        ),
        "resolution_garage_toggles": StationView(
            RESOLUTION, 0, title=name, gear=2, target_gear=2, engine=4, speed="5",
            soft_keys=("", "BST", "COOL", "SL4", "DISC", "UPG", "GO"), keys_off=(1,),
            move=MoveView(5, 19, "outside", 1),
            **_go(TurnChoices(boost=False, cool=1, cooling=True, slipstream=True, reach=4,
                              reaches=(2, 4), discard=False)),
            lap=1, laps=2, round=4,
        ),
        "resolution_close_up": StationView(
            RESOLUTION, 0, title=name, gear=2, target_gear=2, engine=3, speed="4",
            soft_keys=(ICON["draft"] + "2", "", "", "", "", "TURN", "GO"),
            move=MoveView(4, 22, "racing line", 1), heat_paid=("1 Heat for Front Wing 6",),
            message="close up 2", lines=("GO: keep hand",), lap=1, laps=2, round=5,
        ),
        "resolution_spin_out": StationView(
            RESOLUTION, 0, title=name, gear=1, target_gear=1, engine=0, speed="12",
            spin_out=True, move=MoveView(5, 47, "outside", 1),
            heat_paid=("2 Heat in the spin-out",), message="SPUN OUT: +2 Stress, gear 1",
            soft_keys=("", "", "", "", "", "", "OK"), lap=1, laps=2, round=8,
        ),
        "resolution_discard": StationView(
            RESOLUTION, 0, title=name, cards=_hand("1S3H25", selected="0", disabled="HS"),
            gear=2, target_gear=2, engine=3, speed="6", move=MoveView(6, 28, "racing line", 1),
            message="discard? then GO", lap=1, laps=2, round=4,
        ),
        "waiting": StationView(
            WAITING, 0, title=name, message="Bob to play", move=MoveView(8, 30, "outside", 1),
            order=("1 Bob L1 sp30", "2 Alice L1 sp21", "3 Carol L1 sp19", "4 Bot 4 L1 sp17",
                   "5 Bot 5 L1 sp12", "6 Dave L1 sp9"), lines=("you: in 2 turns", "Bob"),
            lap=1, laps=2, round=4, engine=6, gear=2, target_gear=3, speed="8",
            cards=_hand("3412H5S", selected="012"),
        ),
        "waiting_turn_done": StationView(
            WAITING, 0, title=name, message="Carol to play",
            move=MoveView(8, 30, "outside", 1, who="you"),
            order=("1 Alice L1 sp30", "2 Bob L1 sp21", "3 Carol L1 sp19", "4 Bot 4 L1 sp17",
                   "5 Bot 5 L1 sp12", "6 Dave L1 sp9"),
            lap=1, laps=2, round=4, engine=4, gear=3,
        ),
        "results": StationView(
            RESULTS, 0, title="RESULTS",
            order=("1 Alice", "2 Bob", "3 Bot 3", "4 Carol", "5 Bot 5", "6 Dave"),
            laps=2, round=14, soft_keys=("", "", "", "", "", "", "NEXT"),
        ),
        "lobby": StationView(
            LOBBY, 0, title="S1 LOBBY",
            lines=("USA, 2 laps", "4 cars: 2 players, 2 bots", "press GO to join"),
            soft_keys=("TRK", "LAPS", "CARS", "OPTS", "", "", "RACE"),
        ),
        "lobby_modules": StationView(
            LOBBY, 0, title="S1 LOBBY",
            lines=("USA, 2 laps", "2 cars: 1 player, 1 bot", "+ Garage draft all",
                   "+ 2 Legends", "+ weather random road", "JOINED - GO to leave"),
            soft_keys=("TRK", "LAPS", "CARS", "OPTS", "", "", "RACE"),
        ),
        "lobby_garage": StationView(
            LOBBY, 0, title="S1 GARAGE",
            lines=("Garage: draft", "all cards, expansions off", "JOINED - GO to leave"),
            soft_keys=("TYPE", "POOL", "EXP", "OPTS", "", "", "RACE"),
        ),
        "lobby_refused": StationView(
            LOBBY, 0, title="S1 LEGENDS",
            lines=("SKIPPED: 2 PLAYERS + 5 LEGENDS: A", "RACE HAS AT MOST 6 CARS", "Legends: off",
                   "JOINED - GO to leave"),
            soft_keys=("CARS", "PRO", "AGGR", "OPTS", "", "", "RACE"),
        ),
        "lobby_weather": StationView(
            LOBBY, 0, title="S1 WEATHER", lines=("weather: rain", "road: on",
                                                 "JOINED - GO to leave"),
            soft_keys=("SKY", "ROAD", "", "OPTS", "", "", "RACE"),
        ),
        "draft_pick": StationView(
            DRAFT, 0, title="DRAFT 1/3", message="YOUR PICK", round=1,
            cards=(market_card("U11"), market_card("U19", selected=True), market_card("U30"),
                   market_card("U3"), market_card("U36"), market_card("U8")),
            lines=("GO: take it",), detail=detail("U19"),
        ),
        "draft_waiting": StationView(
            DRAFT, 0, title="DRAFT 2/3", message="Bob picks", round=2,
            cards=(market_card("U15", disabled=True), CardView("", "", disabled=True),
                   market_card("U42", disabled=True), market_card("U4", disabled=True),
                   market_card("U35", disabled=True)),
            lines=("4 cards left", "yours: Cooling System 6"),
        ),
        "draft_drop": StationView(
            DRAFT, 0, title="DROP 1 OF 4", message="YOUR DROP", round=3,
            cards=(market_card("U7"), market_card("U41"), market_card("U12", selected=True),
                   market_card("U26")),
            lines=("GO: drop it",), detail=detail("U12"),
        ),
        "attract": StationView(
            ATTRACT, 0, title="PITBOARD", order=("1 Bot 2", "2 Bot 5", "3 Bot 1"),
            lines=("Heat: Pedal to the Metal", "press GO to play"), round=6,
        ),
        "attract_modules": StationView(
            ATTRACT, 0, title="PITBOARD", order=("1 Bot 3", "2 Blue Legend", "3 Bot 1"),
            lines=("Heat: Pedal to the Metal", "vs 2 Legends, rain, road tokens",
                   "press GO to play"), round=4,
        ),
        "fault": StationView(
            FAULT, 0, title=name,
            lines=("Gear lever fault:", "contacts 2+3", "check the wiring"),
        ),
        "setup_weather": StationView(
            SETUP, 0, title="SET-UP 1/4 WEATHER",
            lines=("billboard: Storm", "sectors: slipstream +2", "decks already changed:",
                   "nothing to count"), soft_keys=("", "", "", "", "", "", "NEXT"),
        ),
        "setup_road": StationView(
            SETUP, 0, title="SET-UP 2/4 ROAD TOKENS",
            lines=("corner 1: Speed limit -1", "corner 2: Weather", "corner 3: Overheat",
                   "corner 4: Slipstream +1"), soft_keys=("BACK", "", "", "", "", "", "NEXT"),
        ),
        "setup_legends": StationView(
            SETUP, 0, title="SET-UP 4/4 LEGEND GRID",
            lines=("grid 2: Red Legend", "grid 4: Blue Legend"),
            soft_keys=("BACK", "", "", "", "", "", "RACE"),
        ),
        "setup_cards": StationView(
            SETUP, 0, title="SET-UP 4/4 CARDS",
            lines=("only if you keep cards:", "each: 3 Heat engine \u2192 deck"),
            soft_keys=("BACK", "", "", "", "", "", "RACE"),
        ),
        "planning_legend_move": StationView(
            PLANNING, 0, title=name, cards=_hand("3412H5S", selected="01"), gear=2,
            target_gear=2, engine=6, speed="7", message=legend_status, lap=1, laps=2, round=3,
        ),
        "planning_sector": StationView(
            PLANNING, 0, title=name, cards=_hand("3412H5S", selected="01"), gear=2,
            target_gear=2, engine=6, speed="7", message="pick 2 cards: 2/2",
            sector="sector: slipstream +2", lap=1, laps=2, round=3,
        ),
        "planning_road_corner": StationView(
            PLANNING, 0, title=name, cards=_hand("4H3S212", selected="02"), gear=2,
            target_gear=2, engine=5, speed="7", corners=(CornerView(2, 2, 5, adjust=-1),),
            heat_owed=5, lap=1, laps=2, round=5,
        ),
        "resolution_sector": StationView(
            RESOLUTION, 0, title=name, gear=2, target_gear=2, engine=5, speed="7",
            soft_keys=("ADR", "BST", "COOL", "SL4", "DISC", "", "GO"), keys_off=(0, 1),
            move=MoveView(7, 34, "outside", 1),
            **_go(TurnChoices(adrenaline=False, boost=False, cool=1, cooling=True,
                              slipstream=True, reach=4, reaches=(2, 4), discard=False)),
            sector="sector: slipstream +2", lap=1, laps=2, round=4,
        ),
        "planning_flooded": StationView(
            PLANNING, 0, title=name, cards=_hand("3412H5S", selected="01"), gear=3,
            target_gear=2, shift_cost=1, engine=6, speed="7", message="cards to play: 2",
            sector="flooded: downshift +1 Heat", lap=2, laps=2, round=9,
        ),
        "resolution_tunnel": StationView(
            RESOLUTION, 0, title=name, gear=2, target_gear=2, engine=5, speed="6",
            soft_keys=("", "BST", "COOL", "", "", "", "GO"), keys_off=(1,),
            move=MoveView(6, 20, "racing line", 1),
            **_go(TurnChoices(boost=False, cool=1, cooling=True)),
            sector="tunnel: no discard", lap=1, laps=1, round=5,
        ),
        "waiting_legend_move": StationView(
            WAITING, 0, title=name, message=legend_status, move=MoveView(8, 30, "outside", 1),
            order=("1 Bob L1 sp30", "2 Red Legend L1 sp21", "3 Alice L1 sp19",
                   "4 Blue Legend L1 sp14"), lines=("you: next", "Bob"),
            lap=1, laps=2, round=4, engine=6, gear=2, target_gear=3, speed="8",
            cards=_hand("3412H5S", selected="012"),
        ),
    }
    views.update(season_samples())  # the championship's (season_gallery.py)
    assert views.keys() == DESCRIPTIONS.keys()
    return views


def race_control_samples() -> dict[str, RaceControlView]:
    """One realistic view per race-control screen (see :mod:`pitboard.table.race_control`).

    Example::

        >>> race_control_samples().keys() == RACE_CONTROL_DESCRIPTIONS.keys()
        True
    """
    from pitboard.table.race_control import RaceControlView

    return {
        "race_control_order": RaceControlView(
            "ROUND 4", "Storm", lines=("1 Bob sp30 L1", "2 Red Legend sp21 L1",
                                       ">3 Alice sp19 L1", "4 Blue Legend sp14 L1"),
            footer="Alice to play"),
        "race_control_legend": RaceControlView(
            "ROUND 4", "Storm", legend="MOVE Red Legend 1/2", spaces="14 → 21",
            spot="outside, lap 1", footer="then GO on any station"),
        "race_control_setup": RaceControlView(
            "SET-UP 2/4 ROAD TOKENS", lines=("corner 1: Speed limit -1", "corner 2: Weather",
                                             "corner 3: Overheat", "corner 4: Slipstream +1"),
            footer="GO on a station: next"),
        "race_control_lobby": RaceControlView(
            "RACE CONTROL", lines=("USA, 1 lap", "4 cars", "+ 2 Legends",
                                   "+ weather random road"), footer="GO on a station: join"),
        "race_control_draft": RaceControlView(
            "GARAGE DRAFT", "Storm", lines=("Alice to pick",),
            footer="upgrades first, then round 1"),
        "race_control_results": RaceControlView(
            "RESULTS", "Storm", lines=("1 Bob", "2 Red Legend", "3 Alice", "4 Blue Legend")),
        **season_race_control_samples(),
    }
