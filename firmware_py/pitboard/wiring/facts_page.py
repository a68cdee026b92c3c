"""``raspberry-pi-facts.md``: the Raspberry Pi facts the builds rely on, each with its source,
and every shipped profile's config.txt block read per board by
:func:`pitboard.hwconfig.boardfacts.check_boot_lines`."""

from __future__ import annotations

from pitboard.hwconfig import load_profile
from pitboard.hwconfig.boardfacts import BOARDS, FACTS, OVERLAYS, check_boot_lines

from .markdown import _generated_note, _table
from .parts import DEFAULT_PROFILES

FACTS_PAGE = "raspberry-pi-facts.md"
_BOARD_NAMES = {"pi4": "Pi 4", "pi5": "Pi 5"}


def facts_doc() -> str:
    """The checked-facts page, with the blocks of the shipped profiles (whichever profiles a
    run of ``pitboard wiring-docs`` names, so the page does not change with its arguments)."""
    from .markdown import config_txt_lines

    configs = [load_profile(name) for name in DEFAULT_PROFILES]

    out = _generated_note("pitboard.hwconfig.boardfacts")
    out += [
        "# Raspberry Pi facts the builds rely on",
        "",
        "Each fact below was checked against the Raspberry Pi documentation or the Raspberry Pi "
        "kernel's device-tree sources; the source column says where. \"Ours\" says whether "
        "Pitboard had it right before the check. These are sources, not a run on a real "
        "board: `pitboard hw-test` is the check on the board itself.",
        "",
        *_table(("Topic", "Fact", "Source", "Ours"),
                [(f.topic, f.fact, f.source, f.ours) for f in FACTS]),
        "",
        "## Overlay parameters",
        "",
        "The overlays Pitboard writes and the parameters their sources declare (a line naming "
        "any other parameter fails the check below).",
        "",
        *_table(("Overlay", "Boards", "Parameters", "Pins", "Source"), [
            (f"`{name}`", ", ".join(_BOARD_NAMES[b] for b in o.boards),
             ", ".join(f"`{p}`" for p in sorted(o.params)) or "none",
             ", ".join(f"`{k}`: GPIO {'/'.join(map(str, v))}" if k else
                       f"GPIO {'/'.join(map(str, v))}" for k, v in o.pins.items()) or "-",
             o.source) for name, o in OVERLAYS.items()]),
        "",
        "## The shipped blocks, read per board",
        "",
        "Each profile's block (as `make install-pi` writes it) read the way the firmware reads "
        "it: the lines that apply on that board, the GPIO lines they give to a bus or UART, "
        "and the multiplexers they load (parent bus alias, address). The tests "
        "(tests/test_boardfacts.py) also hold these claims against each profile's pin plan: "
        "no station input, INT line or mux RESET is on a claimed line.",
        "",
    ]
    for config in configs:
        for board in BOARDS:
            check = check_boot_lines(config_txt_lines(config), board)
            claims: dict[str, list[int]] = {}
            for pin, what in sorted(check.pins.items()):
                claims.setdefault(what, []).append(pin)
            out += [
                f"### {config.name} on a {_BOARD_NAMES[board]}",
                "",
                "```ini",
                *check.applied,
                "```",
                "",
                "- GPIO lines: " + ("; ".join(f"{what}: {', '.join(map(str, pins))}"
                                              for what, pins in claims.items()) or "none"),
                "- Multiplexers: " + (", ".join(f"0x{addr:02x} on `{bus}`"
                                                for bus, addr in check.muxes) or "none"),
                "- Bus clocks: " + ", ".join(f"`{bus}` {hz // 1000} kHz"
                                             for bus, hz in check.speeds.items()),
                "- Problems: " + ("; ".join(check.problems) or "none"),
                "",
            ]
    return "\n".join(out).rstrip("\n") + "\n"
