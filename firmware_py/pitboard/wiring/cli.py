"""``pitboard wiring-docs``: write or check the generated wiring docs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pitboard.hwconfig import HwConfig

from .command import COMMAND, DEFAULT_OUT, DEFAULT_PROFILES, EXIT_BAD_INPUT


def _load(names: Sequence[str]) -> list[HwConfig]:
    from pitboard.hwconfig import ConfigError, load_profile

    from .parts import WiringError

    configs = []
    for name in names:
        try:
            configs.append(load_profile(name))
        except ConfigError as exc:
            raise WiringError(exc.problems[0] if len(exc.problems) == 1 else
                              f"{exc.problems[0]} (and {len(exc.problems) - 1} more problems; "
                              f"run pitboard check-config {name})") from None
    return configs


def build_parser() -> argparse.ArgumentParser:
    """The ``pitboard wiring-docs`` options (a bad argument is one line, exit 2)."""
    from pitboard.usage import Parser

    parser = Parser(
        prog=COMMAND,
        description="Write the wiring docs (pin tables, harness diagrams, BOM, config.txt "
        "lines) generated from hw_config profiles.",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"docs directory (default {DEFAULT_OUT}/)")
    parser.add_argument("--profile", action="append", dest="profiles", metavar="NAME",
                        help="shipped profile name or .toml path; repeat for more "
                        f"(default: {', '.join(DEFAULT_PROFILES)})")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 naming every stale file")
    parser.add_argument("--no-render", action="store_true",
                        help="do not draw SVG/PNG (they are drawn only when their YAML changed)")
    parser.add_argument("--force-render", action="store_true",
                        help="draw every SVG/PNG again")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``pitboard wiring-docs``: 0 = up to date or written, 1 = stale (--check) or not drawn,
    2 = bad input (one line on stderr, never a traceback).

    Example::

        >>> main(["--check", "--profile", "nosuch"])
        2
    """
    args = build_parser().parse_args(argv)
    # the generators load only now: --help stays quick
    from .drawing import RenderUnavailable, render
    from .parts import WiringError
    from .plan import Plan, _stale_paths

    try:
        configs = _load(args.profiles or DEFAULT_PROFILES)
        plan = Plan.build(configs, args.out)
    except WiringError as exc:
        print(f"{COMMAND}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.check:
        stale = _stale_paths(plan)
        for path in stale:
            print(f"{path}: stale (run {COMMAND})", file=sys.stderr)
        if not stale:
            print(f"{args.out}: up to date")
        return 1 if stale else 0
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, text in plan.stale_texts().items():
            (args.out / name).write_text(text)
            print(f"wrote {args.out / name}")
        to_draw = list(plan.drawings) if args.force_render else plan.stale_drawings()
        if args.no_render:
            for name in to_draw:
                print(f"{args.out / name}: not drawn (--no-render): its SVG/PNG are stale")
            return 0
        for name in to_draw:
            stem = name.removesuffix(".yaml")
            svg, png = render(plan.drawings[name])
            (args.out / f"{stem}.svg").write_text(svg)
            (args.out / f"{stem}.png").write_bytes(png)
            print(f"drew {args.out / stem}.svg and .png")
    except RenderUnavailable as exc:
        print(f"{COMMAND}: cannot draw the harness diagrams: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{COMMAND}: {exc.filename or args.out}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
