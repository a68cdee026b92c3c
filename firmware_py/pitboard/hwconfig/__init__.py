"""Hardware profiles: TOML files that say how a Pitboard table is wired.

The package is split by job: :mod:`.schema` (the dataclasses and the fixed facts, with the
schema of the TOML file), :mod:`.parse` (loading, and validation of the table-wide sections),
:mod:`.stations` (the stations and the checks across them), both on the typed getters of
:mod:`.reader`; :mod:`.pins` (pin and bus planning), :mod:`.advice` (warnings such as a
default staff PIN), :mod:`.installfacts` (what systemd/install-pi.sh reads of a profile) and
:mod:`.cli` (``pitboard check-config``). Every public name is re-exported here.

Example::

    >>> from pitboard.hwconfig import load_profile
    >>> config = load_profile("grid6")
    >>> len(config.stations), config.i2c.mux.address if config.i2c.mux else None
    (6, 112)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .advice import config_warnings, is_default_pin, shipped_pins
    from .cli import check_config_main
    from .installfacts import install_facts
    from .interfaces import Need, missing, needs
    from .parse import default_config_path, load_config, load_profile, parse_config
    from .pins import (
        I2cDeviceUse,
        PinUse,
        format_pin_map,
        i2c_map,
        pi_board,
        pin_map,
        resolve_i2c_bus,
    )
    from .schema import (
        BAUD_RATES,
        BCM_TO_PHYSICAL,
        CONTROLLER_NAMES,
        DISPLAY_BUSES,
        DISPLAY_DRIVERS,
        EXTRA_I2C,
        I2C_BAUDRATES,
        INPUT_KINDS,
        MAX_STATIONS,
        MUX_TYPES,
        OLED_ADDRESSES,
        PI_UART_PATTERN,
        SHIPPED_PROFILES,
        ConfigError,
        ConsoleConfig,
        DisplayConfig,
        EmulatedInput,
        ExtraI2cConfig,
        GpioConfig,
        GpioInput,
        HwConfig,
        I2cConfig,
        I2cController,
        InputConfig,
        JournalConfig,
        Mcp23017Input,
        MuxConfig,
        StationConfig,
        TableConfig,
        is_pi_uart,
        profiles_dir,
    )

__all__ = [
    "BAUD_RATES",
    "BCM_TO_PHYSICAL",
    "CONTROLLER_NAMES",
    "DISPLAY_BUSES",
    "DISPLAY_DRIVERS",
    "EXTRA_I2C",
    "I2C_BAUDRATES",
    "INPUT_KINDS",
    "MAX_STATIONS",
    "MUX_TYPES",
    "OLED_ADDRESSES",
    "PI_UART_PATTERN",
    "SHIPPED_PROFILES",
    "ConfigError",
    "ConsoleConfig",
    "DisplayConfig",
    "EmulatedInput",
    "ExtraI2cConfig",
    "GpioConfig",
    "GpioInput",
    "HwConfig",
    "I2cConfig",
    "I2cController",
    "I2cDeviceUse",
    "InputConfig",
    "JournalConfig",
    "Mcp23017Input",
    "MuxConfig",
    "Need",
    "PinUse",
    "StationConfig",
    "TableConfig",
    "check_config_main",
    "config_warnings",
    "default_config_path",
    "format_pin_map",
    "i2c_map",
    "install_facts",
    "is_default_pin",
    "is_pi_uart",
    "load_config",
    "load_profile",
    "missing",
    "needs",
    "parse_config",
    "pi_board",
    "pin_map",
    "profiles_dir",
    "resolve_i2c_bus",
    "shipped_pins",
]

#: where each name lives; a name's file is imported the first time it is used, so a command
#: that needs one constant (``pitboard wiring-docs --help``) does not load the whole parser
_HOMES = {
    "config_warnings": "advice", "is_default_pin": "advice", "shipped_pins": "advice",
    "check_config_main": "cli", "install_facts": "installfacts", "Need": "interfaces",
    "missing": "interfaces", "needs": "interfaces",
    "default_config_path": "parse", "load_config": "parse",
    "load_profile": "parse", "parse_config": "parse", "profiles_dir": "schema",
    "I2cDeviceUse": "pins", "PinUse": "pins", "format_pin_map": "pins", "i2c_map": "pins",
    "pin_map": "pins", "pi_board": "pins", "resolve_i2c_bus": "pins", "BAUD_RATES": "schema",
    "BCM_TO_PHYSICAL": "schema", "DISPLAY_BUSES": "schema", "DISPLAY_DRIVERS": "schema",
    "I2C_BAUDRATES": "schema", "INPUT_KINDS": "schema", "MAX_STATIONS": "schema",
    "MUX_TYPES": "schema", "OLED_ADDRESSES": "schema", "PI_UART_PATTERN": "schema",
    "SHIPPED_PROFILES": "schema", "CONTROLLER_NAMES": "schema", "EXTRA_I2C": "schema",
    "ExtraI2cConfig": "schema", "I2cController": "schema", "ConfigError": "schema",
    "ConsoleConfig": "schema",
    "DisplayConfig": "schema", "EmulatedInput": "schema", "GpioConfig": "schema",
    "GpioInput": "schema", "HwConfig": "schema", "I2cConfig": "schema", "InputConfig": "schema",
    "JournalConfig": "schema", "Mcp23017Input": "schema", "MuxConfig": "schema",
    "StationConfig": "schema", "TableConfig": "schema", "is_pi_uart": "schema",
}


def __getattr__(name: str) -> Any:
    from pitboard.lazy import export

    return export(__name__, _HOMES, name)
