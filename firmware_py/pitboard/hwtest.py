"""``pitboard hw-test PROFILE``: the bring-up check a builder runs first.

In order, and each step says what is wrong and what to check (wiring_docs/README.md, "First:
pitboard hw-test", explains every message):

1. **GPIO**: which gpiozero pin factory was picked and for which board and chip (on a Pi 5 it
   must be lgpio on the header's chip, labelled ``pinctrl-rp1``: gpiochip0 on current kernels,
   gpiochip4 on older ones or through the compatibility link; a fallback factory means lgpio
   is missing or cannot write its notification pipes in the working directory).
2. **I2C**: every address 0x08-0x77 is probed on every I2C controller the profile uses
   (``[i2c]`` and each ``[[i2c.extra]]``) and on every multiplexer channel behind each; each
   expected device (mux, MCP23017, OLED) is named ``ok`` or ``MISSING``, anything else
   ``unexpected``. A channel with no /dev/i2c-N means the i2c-mux overlay is not loaded (or
   the mux did not answer at boot).
3. **Displays**: each display shows a test pattern: a one-pixel frame around the glass, a cross
   through the centre, and its station, controller and column offset in text. A garbled
   picture means the wrong ``driver`` (1.3-inch modules are SH1106); a frame cut off on one
   side and doubled or noisy on the other means a wrong SH1106 ``column_offset``.
4. **Inputs, live**: for ``--seconds`` (default 30) every lever contact and button change is
   printed as it happens, raw (as read from the pins or the MCP23017) and debounced (the event
   the table would get), per station.
5. **Counts**: bus errors per station (inputs and display), each MCP23017's INT line (stuck
   active after reads, or input changes that came with no interrupt: a broken INT wire) and
   the verdict. Exit 0 when
   everything expected answered, 1 when something did not, 2 for a bad profile.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

# The hardware libraries, PIL, the profiles, the I2C step and dataclasses load when a check
# runs, not for --help (benchmarks/cold_start.py: 100 ms with them, under 60 ms without).

if TYPE_CHECKING:
    from PIL import Image

    from .hw.events import StationEvent
    from .hw.inputs import StationInputs
    from .hw.mcp23017 import SMBusLike
    from .hwconfig import HwConfig

COMMAND = "pitboard hw-test"
#: where every message is explained
DOCS_SECTION = 'wiring_docs/README.md, "First: `pitboard hw-test`"'


class Report:
    """What hw-test found; ``problems`` are one line each (empty: all good).

    :func:`run_hw_test` makes one on stdout and hands it to every step.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> report = Report(sys.stdout)
        >>> factory = gpio_report(report, None, load_profile("sim"))
        1. GPIO
          this profile uses no GPIO line (emulated stations): gpiozero's MockFactory stands ...
          pin factory MockFactory on a Raspberry Pi ...
          console: off
        >>> report.problem("S1 display: MISSING at 0x3c")
          PROBLEM: S1 display: MISSING at 0x3c
        >>> report.problems
        ['S1 display: MISSING at 0x3c']
        >>> factory.close()
    """

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.problems: list[str] = []

    def line(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def problem(self, text: str) -> None:
        self.problems.append(text)
        self.line(f"  PROBLEM: {text}")


# ---- 1. GPIO ---------------------------------------------------------------------------------


def _console_line(config: HwConfig, model: str, report: Report) -> str:
    """Which device the console opens, and whether it is the UART on GPIO 14/15."""
    port = config.console.port
    if not port:
        return "off"
    if not config.console.uses_pi_uart:
        return f"{port} (not the Pi's UART)"
    target = os.path.realpath(port)
    where = port if target == port else f"{port} -> {target}"
    if model.startswith("5") and (port == "/dev/serial0" or target.endswith("ttyAMA10")):
        report.problem(f"console {where}: on a Pi 5 that is the 3-pin debug connector, not GPIO "
                       "14/15: set console.port = \"/dev/ttyAMA0\" (config.txt: "
                       "dtparam=uart0=on under [pi5]; make install-pi writes it)")
    return f"{where} (the UART on GPIO 14/15 is /dev/ttyAMA0 on a Pi 4 with disable-bt and on a " \
        "Pi 5 with dtparam=uart0=on)"


def uses_gpio(config: HwConfig) -> bool:
    """True when the profile claims any Pi GPIO line (inputs, INT lines, mux RESET, SPI D/C,
    buses): the emulated sim profile claims none.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> uses_gpio(load_profile("sim")), uses_gpio(load_profile("grid6"))
        (False, True)
    """
    from .hwconfig import pin_map

    return bool(pin_map(config))


def _modem_service_on(root: Path) -> bool:
    """True when hciuart.service is enabled (a ``*.wants`` link under /etc/systemd/system)."""
    wants = (root / "etc" / "systemd" / "system").glob("*.wants")
    return any(os.path.lexists(d / "hciuart.service") for d in wants)  # a link, maybe dangling


#: the label of the GPIO chip that drives the 40-pin header, by board model's first character:
#: the kernel's pinctrl driver (RP1 on a Pi 5, the BCM2711 on a Pi 4). Its number varies (a Pi
#: 5's is gpiochip4 on kernels before 6.6.45 and where /dev/gpiochip4 links to gpiochip0), its
#: label does not.
HEADER_CHIP_LABELS = {"5": "pinctrl-rp1", "4": "pinctrl-bcm2711"}


def chip_label(pin_factory: Any) -> str | None:
    """The label of the gpiochip an lgpio factory opened (lgpio's ``gpio_get_chip_info``:
    status, lines, name, label); None for other factories or when lgpio cannot say."""
    handle = getattr(pin_factory, "_handle", None)
    if handle is None:
        return None
    try:
        lgpio = importlib.import_module("lgpio")  # only on a Pi (apt python3-lgpio)
        status, _lines, _name, label = lgpio.gpio_get_chip_info(handle)
    except Exception:  # lgpio raises its own error type; a name is all this is for
        return None
    return str(label) if status >= 0 else None


def _default_factory(fallbacks: list[str]) -> Any:
    """gpiozero's default factory, made as gpiozero makes it; each factory it falls back from
    goes into ``fallbacks`` ("lgpio: No module named 'lgpio'") instead of a warning."""
    import warnings

    from gpiozero import Device
    from gpiozero.exc import PinFactoryFallback

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            return Device._default_pin_factory()
        finally:
            fallbacks += [str(w.message).removeprefix("Falling back from ") for w in caught
                          if issubclass(w.category, PinFactoryFallback)]


def gpio_report(report: Report, pin_factory: Any, config: HwConfig, *,
                root: Path = Path("/")) -> Any:
    """Name the pin factory, board and GPIO chip; return the factory (None if unusable).

    Without ``pin_factory`` a factory is made the way gpiozero picks its default
    (``GPIOZERO_PIN_FACTORY``, else lgpio first) but is NOT installed as gpiozero's global
    ``Device.pin_factory``: hw-test passes it to every device it opens and closes it at the
    end, so nothing outlives the command (or leaks into the next test). A profile that claims
    no GPIO line (the emulated sim profile) gets gpiozero's MockFactory, and says so."""
    report.line("1. GPIO")
    fallbacks: list[str] = []
    try:
        if pin_factory is None:
            if not uses_gpio(config):
                from gpiozero.pins.mock import MockFactory

                report.line("  this profile uses no GPIO line (emulated stations): gpiozero's "
                            "MockFactory stands in for the header")
                pin_factory = MockFactory()
            else:
                pin_factory = _default_factory(fallbacks)
        info = pin_factory.board_info
    except Exception as exc:  # gpiozero raises its own kinds, and OSError from lgpio
        tried = f" (tried {'; '.join(fallbacks)})" if fallbacks else ""
        report.problem(f"no usable GPIO pin factory: {exc}{tried}. On a Pi: sudo apt install "
                       "python3-lgpio; be in the gpio group (sudo usermod -aG gpio $USER, then "
                       "log in again) or use sudo; run from a writable directory: lgpio makes "
                       "its notification pipes there")
        return None
    if fallbacks:  # gpiozero warns once per factory it skips: one line here instead
        report.line(f"  gpiozero skipped {'; '.join(fallbacks)}")
    name = type(pin_factory).__name__
    chip = getattr(pin_factory, "_chip", None)
    label = chip_label(pin_factory)
    where = f", gpiochip{chip}" if isinstance(chip, int) else ""
    where += f" ({label})" if label else ""
    report.line(f"  pin factory {name} on a Raspberry Pi {info.model} "
                f"(revision {info.revision}){where}")
    if name not in ("LGPIOFactory", "MockFactory"):
        report.problem(f"{name} is not lgpio: a Pi 5 works with lgpio only (apt install "
                       "python3-lgpio; gpiozero >= 2.0.1.post3)")
    report.line(f"  console: {_console_line(config, str(info.model), report)}")
    if (str(info.model).startswith("4") and config.console.uses_pi_uart
            and _modem_service_on(root)):
        report.problem("hciuart.service is enabled: with disable-bt it would open the console's "
                       "UART (configuration/uart.adoc): sudo systemctl disable hciuart (make "
                       "install-pi does it on a Pi 4)")
    header = HEADER_CHIP_LABELS.get(str(info.model)[:1])
    if header is not None and label is not None and label != header:
        report.problem(f"gpiochip{chip} is {label}, not the header's {header}: gpiozero opened "
                       "the wrong chip (update it: gpiozero 2.0.1.post3 or later, and the "
                       "kernel: sudo apt full-upgrade)")
    return pin_factory


# ---- 2. I2C: pitboard.hwtest_i2c ---------------------------------------------------------------


# ---- 3. displays -------------------------------------------------------------------------------


def bring_up_pattern(size: tuple[int, int], lines: Sequence[str]) -> Image.Image:
    """A frame on the outermost pixels, a centre cross and some text: a wrong controller
    garbles it, a wrong column offset cuts the frame off on one side.

    Example::

        >>> img = bring_up_pattern((128, 64), ["S1"])
        >>> img.getpixel((0, 0)), img.getpixel((127, 63)), img.getpixel((64, 1))
        (1, 1, 0)
    """
    from PIL import Image, ImageDraw

    w, h = size
    img = Image.new("1", size)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w - 1, h - 1), outline=1)
    d.line((w // 2, h // 2 - 4, w // 2, h // 2 + 4), fill=1)
    d.line((w // 2 - 4, h // 2, w // 2 + 4, h // 2), fill=1)
    for i, text in enumerate(lines):
        d.text((3, 3 + 10 * i), text, fill=1)
    return img


def display_report(report: Report, config: HwConfig,
                   open_display: Callable[..., Any]) -> list[Any]:
    report.line("3. Displays (look at each: a frame on the edge of the glass, a cross in the "
                "middle)")
    from .hw.display import TRANSPORT_ERRORS  # luma's errors too: a missing /dev/i2c-N
    from .hwconfig.schema import RACE_CONTROL_LABEL

    cannot_open: tuple[type[BaseException], ...] = (*TRANSPORT_ERRORS, LookupError, ValueError)
    displays: list[Any] = []
    # the stations' displays by station index, then the race-control display (if any)
    specs = [(st.label, st.display) for st in config.stations]
    if config.race_control is not None:
        specs.append((RACE_CONTROL_LABEL, config.race_control))
    for label, spec in specs:
        try:
            display = open_display(config, spec, label)
        except cannot_open as exc:
            report.problem(f"{label} display: cannot open: {exc}")
            displays.append(None)
            continue
        offset = f" offset {spec.column_offset}" if spec.driver == "sh1106" else ""
        display.show(bring_up_pattern(display.size, [label, f"{spec.driver}{offset}", spec.bus]))
        displays.append(display)
        if display.healthy:
            report.line(f"  {label} {spec.driver} on {spec.bus}: pattern sent")
        else:
            report.problem(f"{label} {spec.driver}: the display did not answer (wiring, "
                           "address, or power: see the I2C step)")
    report.line("  garbled picture: wrong driver (1.3-inch modules are sh1106); frame cut off "
                "on one side: set sh1106 column_offset")
    return displays


# ---- 4. live inputs ----------------------------------------------------------------------------


def _marks(flags: Sequence[bool]) -> str:
    return "".join("x" if f else "." for f in flags)


def live_view(report: Report, inputs: Sequence[StationInputs], events: list[StationEvent],
              seconds: float, clock: Callable[[], float], sleep: Callable[[float], None]) -> None:
    report.line(f"4. Inputs, live for {seconds:g} s: press every button, move every lever "
                "(raw: lever 1-4, slots 1-7, GO; x = closed)")
    last: dict[int, Any] = {}
    end = clock() + seconds
    while True:
        for station in inputs:
            station.poll()
            raw = station.raw_state()
            if raw is not None and raw != last.get(station.station):
                last[station.station] = raw
                lever, slots, go = raw
                report.line(f"  S{station.station + 1} raw    lever {_marks(lever)} slots "
                            f"{_marks(slots)} GO {_marks([go])}")
        while events:
            event = events.pop(0)
            report.line(f"  S{event.station + 1} debounced {_describe(event)}")
        if clock() >= end:
            break
        sleep(0.002)


def _inputs_advice(exc: BaseException) -> str:
    """What to check when a station's inputs do not open: a GPIO line another process holds
    (lgpio says "GPIO busy"; gpiozero's GPIOPinInUse within this one), or the bus."""
    text = str(exc).lower()
    if type(exc).__name__ == "GPIOPinInUse" or "busy" in text:
        return (": another program holds the line: is pitboard.service running? "
                "sudo systemctl stop pitboard")
    if isinstance(exc, OSError) and exc.errno in (errno.EACCES, errno.EPERM):
        return (": permission denied: be in the gpio and i2c groups (sudo usermod -aG "
                "gpio,i2c $USER, then log in again) or use sudo")
    return ""


def _int_report(report: Report, label: str, board: Any) -> None:
    """A station board's INT line: stuck active, or changes that came with no interrupt."""
    check = getattr(board, "check_int", None)
    if check is None:
        return
    check()
    pin = getattr(board, "int_pin", None)
    if getattr(board, "int_stuck", False):
        report.problem(f"{label} INT line GPIO {pin} stays active (low) after reads: a short to "
                       "GND on the INT wire (RJ45 pin 7) or at INTA (pin 20); presses are read "
                       "only every 0.1 s")
    missed = int(getattr(board, "missed_ints", 0))
    if missed >= 2:  # one could be a read racing the interrupt
        report.problem(f"{label}: {missed} input changes came with no interrupt: check the INT "
                       f"wire (RJ45 pin 7, MCP23017 INTA pin 20) to GPIO {pin}; presses are read "
                       "only every 0.1 s")


def _describe(event: StationEvent) -> str:
    import dataclasses

    fields = {k: v for k, v in dataclasses.asdict(event).items() if k != "station"}
    if "slot" in fields:  # tray slots count from 1, left to right, as everywhere people read
        fields["slot"] += 1
    return type(event).__name__ + "".join(f" {k}={v}" for k, v in fields.items())


# ---- the command -------------------------------------------------------------------------------


def run_hw_test(
    config: HwConfig,
    *,
    out: TextIO | None = None,
    pin_factory: Any = None,
    bus_factory: Callable[[int], SMBusLike] | None = None,
    open_display: Callable[..., Any] | None = None,
    seconds: float = 30.0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    proc_root: Path = Path("/proc"),
    boot_dirs: Sequence[Path] | None = None,
    root: Path = Path("/"),
    sys_root: Path = Path("/sys"),
) -> int:
    """Run every step on ``config``; 0 when all is well, 1 when something is wrong
    (``boot_dirs``: where config.txt may be, the Pi OS places by default)."""
    from .hwtest_i2c import BOOT_DIRS, i2c_report, open_smbus

    report = Report(sys.stdout if out is None else out)
    report.line(f'{COMMAND}: profile "{config.name}" ({config.label}), '
                f"{len(config.stations)} stations")
    factory = gpio_report(report, pin_factory, config, root=root)
    own_factory = pin_factory is None and factory is not None
    i2c_report(report, config, bus_factory or open_smbus, proc_root=proc_root,
               boot_dirs=BOOT_DIRS if boot_dirs is None else boot_dirs, sys_root=sys_root)
    from .hw.inputs import build_station_inputs

    if open_display is None:
        from .app import open_station_display

        open_display = open_station_display
    displays = display_report(report, config, open_display)
    events: list[StationEvent] = []
    inputs: list[StationInputs] = []
    for i, st in enumerate(config.stations):
        if factory is None and uses_gpio(config):  # gpiozero would only fail again, louder
            report.problem(f"{st.label} inputs: not opened: no GPIO pin factory (step 1)")
            continue
        try:
            inputs.append(build_station_inputs(config, i, events.append, pin_factory=factory,
                                               bus_factory=bus_factory, clock=clock))
        except Exception as exc:  # a pin in use, a bus that does not open: report, go on
            report.problem(f"{st.label} inputs: cannot open: {exc}{_inputs_advice(exc)}")
    try:
        if seconds > 0:
            live_view(report, inputs, events, seconds, clock, sleep)
        report.line("5. Bus errors")
        for st in config.stations:
            board = next((x for x in inputs if x.station == st.index), None)
            display = displays[st.index] if st.index < len(displays) else None
            board_errors = getattr(board, "errors", 0)
            display_errors = display.stats.errors if display is not None else 0
            report.line(f"  {st.label}: inputs {board_errors}, display {display_errors}")
            if getattr(board, "faulted", False):
                why = getattr(board, "fault_message", None)
                report.problem(f"{st.label} station board does not answer"
                               + (f": {why}" if why else "") + " (see the I2C step)")
            elif board is not None:
                _int_report(report, st.label, board)
        if config.race_control is not None and len(displays) > len(config.stations):
            rc = displays[len(config.stations)]  # the race-control display comes last
            report.line(f"  race control: display {rc.stats.errors if rc is not None else 0}")
    finally:
        for board in inputs:
            board.close()
        for display in displays:
            if display is not None:
                display.close(blank=False)  # leave the pattern up for the builder
        if own_factory:
            factory.close()  # made here, never gpiozero's global: nothing outlives hw-test
    if report.problems:
        report.line(f"{len(report.problems)} problem(s): see {DOCS_SECTION}")
        return 1
    report.line("all good")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from .usage import Parser

    parser = Parser(
        prog=COMMAND,
        description="Check a build before the first game: GPIO factory and chip, every I2C "
        "address on every mux channel, a test pattern on each display, every lever and button "
        "live, bus error counts.",
    )
    parser.add_argument("profile", help="shipped profile name (sim, duo, grid6) or .toml path")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="how long to show inputs live (default 30; 0 skips)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``pitboard hw-test``: 0 all good, 1 something is wrong, 2 bad profile."""
    args = build_parser().parse_args(argv)
    from .hwconfig import ConfigError, load_profile

    try:
        config = load_profile(args.profile)
    except ConfigError as exc:
        for line in exc.problems:
            print(line, file=sys.stderr)
        return 2
    try:
        return run_hw_test(config, seconds=max(0.0, args.seconds))
    except KeyboardInterrupt:
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
