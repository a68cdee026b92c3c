"""Hardware profiles: TOML files that say how a Pitboard table is wired.

The package is split by job: :mod:`.schema` (the dataclasses and the fixed facts, with the
schema of the TOML file), :mod:`.parse` (loading and validation), :mod:`.pins` (pin and bus
planning), :mod:`.advice` (warnings such as a default staff PIN) and :mod:`.cli`
(``pitboard check-config``). Every public name is re-exported here.

Example::

    >>> config = load_profile("grid6")
    >>> len(config.stations), config.i2c.mux.address if config.i2c.mux else None
    (6, 112)
"""

from __future__ import annotations

from .advice import config_warnings, is_default_pin, shipped_pins
from .cli import check_config_main
from .parse import default_config_path, load_config, load_profile, parse_config, profiles_dir
from .pins import I2cDeviceUse, PinUse, format_pin_map, i2c_map, pin_map, resolve_i2c_bus
from .schema import (
    BAUD_RATES,
    BCM_TO_PHYSICAL,
    DISPLAY_BUSES,
    DISPLAY_DRIVERS,
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
    GpioConfig,
    GpioInput,
    HwConfig,
    I2cConfig,
    InputConfig,
    JournalConfig,
    Mcp23017Input,
    MuxConfig,
    StationConfig,
    TableConfig,
    is_pi_uart,
)

__all__ = [
    "BAUD_RATES",
    "BCM_TO_PHYSICAL",
    "DISPLAY_BUSES",
    "DISPLAY_DRIVERS",
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
    "GpioConfig",
    "GpioInput",
    "HwConfig",
    "I2cConfig",
    "I2cDeviceUse",
    "InputConfig",
    "JournalConfig",
    "Mcp23017Input",
    "MuxConfig",
    "PinUse",
    "StationConfig",
    "TableConfig",
    "check_config_main",
    "config_warnings",
    "default_config_path",
    "format_pin_map",
    "i2c_map",
    "is_default_pin",
    "is_pi_uart",
    "load_config",
    "load_profile",
    "parse_config",
    "pin_map",
    "profiles_dir",
    "resolve_i2c_bus",
    "shipped_pins",
]
