"""Loading and validating profiles: every problem as one line ``<file>: <key path>: <what>``.

The table-wide sections are here, the stations and the cross-checks over them in
:mod:`.stations`; the problem list and the typed getters they use are :class:`~.reader._Reader`
in :mod:`.reader`.
"""

from __future__ import annotations

import os
import pkgutil
import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pitboard.trackfile import TrackFileError, load_track, load_track_file
from pitboard.userfile import UserFileError, escape, parse_toml, read_user_file

from .reader import _describe
from .schema import (
    BAUD_RATES,
    CONTROLLER_NAMES,
    EXTRA_I2C,
    I2C_BAUDRATES,
    MAX_STATIONS,
    MUX_TYPES,
    SHIPPED_PROFILES,
    ConfigError,
    ConsoleConfig,
    ExtraI2cConfig,
    GpioConfig,
    HwConfig,
    I2cConfig,
    JournalConfig,
    MuxConfig,
    StationConfig,
    TableConfig,
    profile_label,
    profiles_dir,
)
from .stations import _StationParser
from .web import WebReader

# ---- loading -------------------------------------------------------------------------------


def default_config_path() -> Path:
    """``$PITBOARD_HW_CONFIG`` when set, else the shipped ``sim`` profile (no hardware)."""
    override = os.environ.get("PITBOARD_HW_CONFIG")
    if override:
        return Path(override)
    return profiles_dir() / "sim.toml"


def load_profile(name: str | os.PathLike[str]) -> HwConfig:
    """Load a shipped profile by name ("sim", "duo", "grid6") or any profile by path.

    Example::

        >>> load_profile("duo").stations[1].display.address == 0x3D
        True
    """
    text = os.fspath(name)
    if "/" in text or text.endswith(".toml") or os.sep in text:
        return load_config(text)
    if text not in SHIPPED_PROFILES:
        raise ConfigError(
            [f"{text}: unknown profile (shipped profiles: {', '.join(SHIPPED_PROFILES)})"]
        )
    return load_config(profiles_dir() / f"{text}.toml")


def load_config(path: str | os.PathLike[str]) -> HwConfig:
    """Read and validate one profile; raise :class:`ConfigError` listing every problem.

    Example::

        >>> load_config(profiles_dir() / "grid6.toml").i2c.baudrate
        400000
    """
    label = profile_label(Path(path))
    try:
        # a regular file of sane size only: /dev/zero or a FIFO is refused, not read for ever
        raw = parse_toml(read_user_file(path).decode("utf-8"))
    except UserFileError as exc:
        raise ConfigError([str(exc)]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([_syntax_problem(label, str(exc))]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError([f"{label}: not UTF-8 text ({exc.reason} at byte {exc.start})"]) from None
    return parse_config(raw, source=Path(path))


def _syntax_problem(label: str, message: str) -> str:
    match = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message)
    if match is None:
        return f"{label}: TOML syntax error: {message}"
    what, line, column = match.groups()
    return f"{label}: line {line}: TOML syntax error: {what} (column {column})"


def parse_config(raw: dict[str, Any], *, source: Path) -> HwConfig:
    """Validate an already-parsed TOML document (``source`` names it in messages).

    Example::

        >>> parse_config({"table": {"name": "T"}, "console": {"staff_pin": "1234"},
        ...               "journal": {"dir": "j"},
        ...               "stations": [{"input": {"kind": "emulated"},
        ...                             "display": {"driver": "sh1106", "bus": "emulated"}}]},
        ...              source=Path("t.toml")).stations[0].display.driver
        'sh1106'
    """
    return _Parser(profile_label(source), source).parse(raw)


# ---- validation ----------------------------------------------------------------------------


def _looks_like_track_path(name: str) -> bool:
    return name.lower().endswith(".toml") or "/" in name or os.sep in name


def _console_port_problem(port: str) -> str:
    """Why pyserial could not open ``port`` (a device path or a pyserial URL), or ""."""
    if "://" not in port:
        return ""
    import serial.urlhandler as serial_urlhandlers  # only when a URL is given

    scheme = port.split("://", 1)[0].lower()
    known = sorted(
        info.name.removeprefix("protocol_")
        for info in pkgutil.iter_modules(serial_urlhandlers.__path__)
        if info.name.startswith("protocol_")
    )
    if scheme not in known:
        return (f'"{escape(port)}": unknown URL scheme "{escape(scheme)}://" (pyserial knows '
                f"{', '.join(s + '://' for s in known)}; or give a device such as /dev/ttyUSB0)")
    if scheme in ("socket", "rfc2217"):
        try:
            host_port = urlsplit(port).port
        except ValueError:
            host_port = None
        if not urlsplit(port).hostname or host_port is None:
            return f'"{escape(port)}": expected {scheme}://HOST:PORT'
    return ""


#: the kiosk's times in [table]: key -> (default, lowest, highest) seconds
_KIOSK_TIMES: dict[str, tuple[int, int, int]] = {
    "seat_idle_seconds": (30, 5, 3600),
    "table_idle_seconds": (120, 10, 86400),
    "join_seconds": (20, 3, 600),
    "results_seconds": (30, 3, 3600),
}


class _Parser(_StationParser, WebReader):
    """Collects every problem; builds each dataclass only when its keys have the right types."""

    # -- sections --

    def parse(self, raw: dict[str, Any]) -> HwConfig:
        self.unknown_keys(raw, "", ("table", "console", "journal", "gpio", "i2c", "stations",
                                    "race_control", "web"))
        table = self.parse_table(raw)
        console = self.parse_console(raw)
        journal = self.parse_journal(raw)
        gpio = self.parse_gpio(raw)
        i2c = self.i2c_config = self.parse_i2c(raw)
        self.i2c_broken = i2c is None and "i2c" in raw
        wired = raw.get("stations")
        web = self.parse_web(raw, wired=len(wired) if isinstance(wired, list) else 0,
                             kiosk=table is not None and table.kiosk)
        phones = web.phone_seats if web is not None and web.enabled else 0
        parts = self.parse_stations(raw, i2c, phones=phones)
        mux = i2c.mux if i2c is not None else None
        race_control = self.parse_race_control(raw, mux is not None)
        self.check_pins(parts, gpio, console, mux.reset_pin if mux is not None else None)
        if i2c is not None:
            self.check_i2c(parts, i2c, race_control)
        self.check_spi(parts)
        if self.problems:
            raise ConfigError(self.problems)
        assert table and console and journal and gpio and i2c and web
        stations = tuple(
            StationConfig(index=i, input=spec, display=display)
            for i, spec, display in parts
            if spec is not None and display is not None
        )
        return HwConfig(self.source, table, console, journal, gpio, i2c, stations, race_control,
                        web)

    def parse_table(self, raw: dict[str, Any]) -> TableConfig | None:
        t = self.table(raw, "", "table", True)
        if t is None:
            return None
        before = self.type_errors
        self.unknown_keys(t, "table", ("name", "kiosk", "track", "laps", *_KIOSK_TIMES,
                                       "idle_seconds", "kiosk_cars", "modules",
                                       "kiosk_modules"))
        name = self.str_(t, "table", "name", "", required=True)
        if "name" in t and isinstance(t["name"], str) and not name.strip():
            self.add("table.name", "must not be empty")
        elif not name.isprintable():  # it reaches the log, systemctl status and terminals
            self.add("table.name", f'must be printable text, got "{escape(name)}"')
        kiosk = self.bool_(t, "table", "kiosk", False)
        track = self.str_(t, "table", "track", "usa")
        if not track.strip():
            self.add("table.track", "must not be empty")
        laps = self.opt_int(t, "table", "laps")
        self.in_range("table.laps", laps, 1, 9)  # what a race accepts (RaceSetup)
        if "idle_seconds" in t:  # its name before the split into seat and table idle times
            if "table_idle_seconds" in t:
                self.add("table.idle_seconds", "is the old name of table_idle_seconds: "
                         "give only table_idle_seconds")
            else:
                t = {**t, "table_idle_seconds": t["idle_seconds"]}
        times = {}
        for key, (default, lo, hi) in _KIOSK_TIMES.items():
            times[key] = self.int_(t, "table", key, default)
            self.in_range(f"table.{key}", times[key], lo, hi)
        if times["table_idle_seconds"] <= times["seat_idle_seconds"]:
            self.add("table.table_idle_seconds", f"{times['table_idle_seconds']} must be more "
                     f"than seat_idle_seconds ({times['seat_idle_seconds']}), or no seat would "
                     "ever go to a bot before the table gives up")
        cars = self.int_(t, "table", "kiosk_cars", 4)
        self.in_range("table.kiosk_cars", cars, 1, MAX_STATIONS)
        if self.type_errors != before:
            return None
        if track.strip():
            track = self.track(track)
        modules = self.modules(t, track, laps)
        kiosk_modules = self.modules(t, track, laps, key="kiosk_modules") \
            if "kiosk_modules" in t else None
        return TableConfig(name=name, kiosk=kiosk, track=track, laps=laps, kiosk_cars=cars,
                           modules=modules, kiosk_modules=kiosk_modules, **times)

    def modules(self, t: dict[str, Any], track: str, laps: int | None, *,
                key: str = "modules") -> dict[str, dict[str, Any]]:
        """``[table.modules.NAME]`` (or ``[table.kiosk_modules.NAME]``): installed modules,
        options they accept for this track."""
        raw = self.table(t, "table", key, False)
        if not raw:
            return {}
        from pitboard.catalog import NOT_AT_THE_TABLE
        from pitboard.engine.modules import MODULES  # the engine registers what is installed
        from pitboard.engine.setup import MAX_CARS, RaceSetup
        from pitboard.trackfile import track_names

        out: dict[str, dict[str, Any]] = {}
        for name, options in raw.items():
            path = f"table.{key}.{escape(name)}"
            if name not in MODULES:
                known = ", ".join(sorted(MODULES)) or "none installed"
                self.add(path, f"unknown module (modules: {known})")
            elif name in NOT_AT_THE_TABLE:
                self.add(path, NOT_AT_THE_TABLE[name])
            elif not isinstance(options, dict):
                self.add(path, f"must be a table of options, not {_describe(options)}")
            else:
                # refused only when no race of this table could use them: the lobby judges
                # its own race (cars change there) and says why it will not start
                reasons = []
                for cars in range(MAX_CARS, 0, -1):
                    try:
                        RaceSetup(track=track if track in track_names() else "usa", cars=cars,
                                  laps=laps or 1, modules={name: options}).validate()
                    except ValueError as exc:
                        reasons.append(str(exc))
                    else:
                        out[name] = options
                        break
                else:
                    self.add(path, reasons[0])
        return out

    def track(self, track: str) -> str:
        """Check ``table.track`` as ``pitboard run`` will load it; a track file is returned as
        its full path. Relative paths start at the profile's folder and must stay inside it."""
        if not _looks_like_track_path(track):
            try:
                return load_track(track).key
            except TrackFileError as exc:
                self.add("table.track", f'"{escape(track)}": {exc.problem}')
                return track
        folder = self.source.parent.resolve()
        path = (folder / Path(track).expanduser()).resolve()
        if not path.is_relative_to(folder):
            self.add("table.track", f'"{escape(track)}" is outside the profile\'s folder '
                     f"{folder} (track files go beside the profile)")
            return track
        try:
            load_track_file(path)
        except TrackFileError as exc:
            self.add("table.track", str(exc))
        return str(path)

    def parse_console(self, raw: dict[str, Any]) -> ConsoleConfig | None:
        t = self.table(raw, "", "console", True)
        if t is None:
            return None
        before = self.type_errors
        self.unknown_keys(t, "console", ("port", "baud", "staff_pin"))
        port = self.str_(t, "console", "port", "")
        baud = self.int_(t, "console", "baud", 115200)
        if baud not in BAUD_RATES:
            self.add("console.baud", f"{baud} is not one of {', '.join(map(str, BAUD_RATES))}")
        pin = ""
        if "staff_pin" not in t:
            self._type_problem("console.staff_pin", "missing required key")
        elif not isinstance(t["staff_pin"], str):
            self._type_problem(
                "console.staff_pin",
                f"expected a string of 4–8 digits in quotes, got {_describe(t['staff_pin'])}",
            )
        else:
            pin = t["staff_pin"]
            if not re.fullmatch(r"[0-9]{4,8}", pin):
                self.add("console.staff_pin", f'must be 4–8 digits, got "{escape(pin)}"')
        problem = _console_port_problem(port)
        if problem:
            self.add("console.port", problem)
        if self.type_errors != before:
            return None
        return ConsoleConfig(staff_pin=pin, port=port, baud=baud)

    def parse_journal(self, raw: dict[str, Any]) -> JournalConfig | None:
        t = self.table(raw, "", "journal", True)
        if t is None:
            return None
        before = self.type_errors
        self.unknown_keys(t, "journal", ("dir",))
        directory = self.str_(t, "journal", "dir", "", required=True)
        if "dir" in t and isinstance(t["dir"], str) and not directory.strip():
            self.add("journal.dir", "must not be empty")
        if self.type_errors != before:
            return None
        return JournalConfig(dir=Path(directory).expanduser())

    def parse_gpio(self, raw: dict[str, Any]) -> GpioConfig | None:
        t = self.table(raw, "", "gpio", False)
        if t is None:
            return None if "gpio" in raw else GpioConfig()
        before = self.type_errors
        self.unknown_keys(t, "gpio", ("allow_id_eeprom_pins",))
        allow = self.bool_(t, "gpio", "allow_id_eeprom_pins", False)
        if self.type_errors != before:
            return None
        return GpioConfig(allow_id_eeprom_pins=allow)

    def parse_i2c(self, raw: dict[str, Any]) -> I2cConfig | None:
        t = self.table(raw, "", "i2c", False)
        if t is None:
            return None if "i2c" in raw else I2cConfig()
        before = self.type_errors
        self.unknown_keys(t, "i2c", ("bus", "baudrate", "mux", "extra"))
        bus = self.int_(t, "i2c", "bus", 1)
        self.in_range("i2c.bus", bus, 0, 255)
        baudrate = self.int_(t, "i2c", "baudrate", 100000)
        if baudrate not in I2C_BAUDRATES:
            self.add("i2c.baudrate", f"must be 100000 or 400000, got {baudrate}")
        mux: MuxConfig | None = None
        m = self.table(t, "i2c", "mux", False)
        if m is not None:
            self.unknown_keys(m, "i2c.mux", ("type", "address", "first_bus", "reset_pin",
                                             "idle_disconnect"))
            mux_type = self.choice(m, "i2c.mux", "type", MUX_TYPES, True)
            address = self.int_(m, "i2c.mux", "address", 0x70)
            self.i2c_address("i2c.mux.address", address, 0x70, 0x77, "TCA9548A")
            first_bus = self.opt_int(m, "i2c.mux", "first_bus")
            self.in_range("i2c.mux.first_bus", first_bus, 0, 248)
            reset_pin = self.opt_int(m, "i2c.mux", "reset_pin")
            self.pin("i2c.mux.reset_pin", reset_pin)
            idle = self.bool_(m, "i2c.mux", "idle_disconnect", True)
            if reset_pin is not None and idle is False:
                # a RESET pulse deselects every channel behind the pca954x driver's back: it
                # caches the last channel and selects only a different one
                self.add("i2c.mux.idle_disconnect", "must be true when reset_pin is set (the "
                         "kernel's pca954x driver would keep selecting a channel the RESET "
                         "pulse cut off): set idle_disconnect = true, or drop reset_pin")
            mux = MuxConfig(type=mux_type or "tca9548a", address=address, first_bus=first_bus,
                            reset_pin=reset_pin, idle_disconnect=idle)
        extra = self.parse_extra_i2c(t, mux)
        if self.type_errors != before:
            return None
        return I2cConfig(bus=bus, baudrate=baudrate, mux=mux, extra=extra)

    def parse_extra_i2c(self, t: dict[str, Any], mux: MuxConfig | None
                        ) -> tuple[ExtraI2cConfig, ...]:
        """``[[i2c.extra]]``: more controllers (B, C), each on its own pins and TCA9548A; their
        muxes share the RESET line and the idle disconnect of ``[i2c.mux]``."""
        if "extra" not in t:
            return ()
        entries = t["extra"]
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            self._type_problem("i2c.extra", "expected an array of tables ([[i2c.extra]]), got "
                               f"{_describe(entries)}")
            return ()
        if len(entries) > len(CONTROLLER_NAMES) - 1:
            self.add("i2c.extra", f"{len(entries)} extra controllers, at most "
                     f"{len(CONTROLLER_NAMES) - 1} ({', '.join(CONTROLLER_NAMES[1:])})")
        pins = ", ".join(f"{c.sda} (GPIO {c.sda}/{c.scl})" for c in EXTRA_I2C.values())
        out: list[ExtraI2cConfig] = []
        for i, e in enumerate(entries[: len(CONTROLLER_NAMES) - 1]):
            path = f"i2c.extra[{i}]"
            self.unknown_keys(e, path, ("sda", "bus", "mux"))
            sda = self.req_int(e, path, "sda")
            if "sda" in e and sda not in EXTRA_I2C:
                self.add(f"{path}.sda", f"GPIO {sda} carries no I2C controller on both a Pi 4 "
                         f"and a Pi 5 beside I2C1 (sda: {pins})")
            elif any(x.sda == sda for x in out):
                self.add(f"{path}.sda", f"GPIO {sda} is already i2c.extra's controller "
                         f"{CONTROLLER_NAMES[1 + [x.sda for x in out].index(sda)]}")
            number = self.opt_int(e, path, "bus")
            self.in_range(f"{path}.bus", number, 0, 255)
            extra_mux: MuxConfig | None = None
            m = self.table(e, path, "mux", False)
            if m is not None:
                self.unknown_keys(m, f"{path}.mux", ("address", "first_bus"),
                                  {"reset_pin": "i2c.mux", "idle_disconnect": "i2c.mux"})
                address = self.int_(m, f"{path}.mux", "address", 0x70)
                self.i2c_address(f"{path}.mux.address", address, 0x70, 0x77, "TCA9548A")
                first_bus = self.opt_int(m, f"{path}.mux", "first_bus")
                self.in_range(f"{path}.mux.first_bus", first_bus, 0, 248)
                extra_mux = MuxConfig(address=address, first_bus=first_bus,
                                      reset_pin=mux.reset_pin if mux else None,
                                      idle_disconnect=mux.idle_disconnect if mux else True)
            out.append(ExtraI2cConfig(sda=sda, bus=number, mux=extra_mux))
        return tuple(out)
