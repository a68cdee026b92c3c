"""``pitboard check-config``: validate a profile and print its pin map."""

from __future__ import annotations

import sys

from .advice import config_warnings, is_default_pin
from .parse import load_profile
from .pins import format_pin_map
from .schema import ConfigError, HwConfig

# ---- command line ------------------------------------------------------------------------


def table_summary(config: HwConfig) -> str:
    """The table, kiosk and console settings as check-config prints them after the pin map.

    Example::

        >>> print(table_summary(load_profile("grid6")), end="")
        <BLANKLINE>
        Table "Pitboard grid": track usa, laps: the track's; kiosk off
        Console: /dev/ttyAMA0 at 115200 baud, staff PIN still the default
    """
    t, console = config.table, config.console
    if t.kiosk:
        from pitboard.module_args import describe_modules

        demo = describe_modules(t.modules if t.kiosk_modules is None else t.kiosk_modules)
        kiosk = (f"kiosk on: {t.kiosk_cars} cars{f' + {demo}' if demo else ''}, join countdown "
                 f"{t.join_seconds} s, a bot takes a seat idle {t.seat_idle_seconds} s, the "
                 f"table gives up after {t.table_idle_seconds} s without a press, results "
                 f"{t.results_seconds} s")
    else:
        kiosk = "kiosk off"
    laps = t.laps if t.laps is not None else "the track's"
    if console.enabled:
        pin = "still the default" if is_default_pin(console.staff_pin) else "set"
        port = f"{console.port} at {console.baud} baud, staff PIN {pin}"
    else:
        port = "off (no port)"
    text = f'\nTable "{t.name}": track {t.track}, laps: {laps}; {kiosk}\nConsole: {port}\n'
    web = config.web
    if web.enabled:
        from .web import join_url

        seats = f"{web.phone_seats} phone seat{'s' if web.phone_seats != 1 else ''}"
        text += (f"Web: phones at {join_url(web)} (listening on {web.bind} port {web.port}), "
                 f"{seats} after the {len(config.stations)} stations above"
                 f"{', the first phone joins without a code' if web.open_table else ''}\n")
    if config.serves_web:
        from .web import track_page

        screen = " and on this machine's screen at login ([tv] screen)" if config.tv.screen \
            else ""
        text += f"TV: the race at {track_page(web)}{screen}\n"
    return text


def check_config_main(path: str, *, install_facts: bool = False) -> int:
    """``pitboard check-config FILE``: validate, print the pin map; 0 if valid, 2 if not.

    With ``install_facts`` it prints, instead of the pin map, the ``KEY=VALUE`` lines
    systemd/install-pi.sh reads (:mod:`.installfacts`).

    Problems go to stderr one per line; never a traceback. ``path`` may also be a shipped
    profile name. A valid profile may still get warnings (stderr, ``warning: ...``; exit 0),
    such as a staff PIN that is still a published default.

    Example::

        >>> check_config_main("sim")  # doctest: +ELLIPSIS
        Hardware profile "sim" (sim.toml): 6 stations
        ...
        0
    """
    try:
        config = load_profile(path)
        if install_facts:
            from .installfacts import format_install_facts

            text = format_install_facts(config)
        else:
            text = format_pin_map(config) + table_summary(config)
    except ConfigError as exc:
        for line in exc.problems:
            print(line, file=sys.stderr)
        return 2
    except Exception as exc:  # a bug here must still not print a traceback at a user
        print(f"{path}: internal error while checking: {exc!r}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    for warning in config_warnings(config):
        print(f"warning: {warning}", file=sys.stderr)
    return 0
