"""``pitboard check-config``: validate a profile and print its pin map."""

from __future__ import annotations

import sys

from .advice import config_warnings
from .parse import load_profile
from .pins import format_pin_map
from .schema import ConfigError

# ---- command line ------------------------------------------------------------------------


def check_config_main(path: str) -> int:
    """``pitboard check-config FILE``: validate, print the pin map; 0 if valid, 2 if not.

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
        text = format_pin_map(config)
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
