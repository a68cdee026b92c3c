"""What ``systemd/install-pi.sh`` needs to know of a configuration, from the validated profile.

The installer is a shell script: it asks ``pitboard check-config --install-facts FILE`` (the
code it is about to install, on the standard library alone) and reads ``KEY=VALUE`` lines, so
the boot settings follow the same typed configuration and the same tables (:data:`EXTRA_I2C`,
:func:`is_pi_uart`, the staff PIN's advice) as the running program: one source for each fact.
The ``[[i2c.extra]]`` config.txt lines are built here for both of their readers: the installer,
which writes them, and the wiring docs (:func:`pitboard.wiring.config_txt_lines`), which show
them.

Example::

    >>> from pitboard.hwconfig import load_profile
    >>> facts = install_facts(load_profile("grid6"))
    >>> facts["hardware"], facts["uart"], facts["mux_address"], facts["i2c_baudrate"]
    ('1', '1', '0x70', '400000')
    >>> install_facts(load_profile("sim"))["hardware"]
    '0'
"""

from __future__ import annotations

from .advice import guards_with_default_pin
from .boardfacts import BOARDS
from .schema import GpioInput, HwConfig, Mcp23017Input


def extra_i2c_lines(config: HwConfig, board: str) -> list[str]:
    """The ``[[i2c.extra]]`` controllers' config.txt lines on ``board`` ("pi4", "pi5"): each
    controller's overlay on its pins at the profile's speed, then the i2c-mux overlay on it.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> for line in extra_i2c_lines(load_profile("grid6"), "pi5")[:2]:
        ...     print(line)
        dtoverlay=i2c3-pi5,pins_22_23,baudrate=400000
        dtoverlay=i2c-mux,pca9548,addr=0x70,i2c3
    """
    lines = []
    for extra in config.i2c.extra:
        pins = extra.pins
        lines.append(f"dtoverlay={pins.overlay(board)},baudrate={config.i2c.baudrate}")
        if extra.mux is not None:
            lines.append(f"dtoverlay=i2c-mux,pca9548,addr=0x{extra.mux.address:02x},"
                         f"{pins.controller(board)}")
    return lines


def uses_spi(config: HwConfig) -> bool:
    """True when a station's display is on SPI (the race-control OLED is I2C or emulated)."""
    return any(s.display.bus == "spi" for s in config.stations)


def install_facts(config: HwConfig) -> dict[str, str]:
    """The facts, in the order the installer's ``KEY=VALUE`` lines give them ("1"/"0" for yes/no).

    ``hardware``: any Pi interface is used (else the boot configuration is left alone);
    ``i2c_baudrate``; ``mux_address`` ("" without a mux on ``[i2c]``) and
    ``mux_idle_disconnect``; per board, ``i2c_extra_<board>`` (the ``[[i2c.extra]]`` overlay
    lines, each controller's before the mux on it, ";"-separated) and ``mux_params_<board>``
    (the i2c-mux bus parameters those lines use, for the overlay check); ``uart`` and ``spi``;
    ``web_lan`` (phones on the network), ``tv_screen`` (this machine's own screen shows the
    track view), ``web_net`` (either: the service needs the drop-in that lets it out of its
    private network: the desktop's browser is outside it too); ``default_pin`` (the staff PIN
    that guards the console or the phones' lobby settings is a published one).
    """
    displays = [s.display for s in config.stations]
    if config.race_control is not None:
        displays.append(config.race_control)
    uart = config.console.uses_pi_uart
    wired = any(isinstance(s.input, GpioInput | Mcp23017Input) for s in config.stations)
    i2c = config.i2c
    facts: dict[str, str | bool] = {
        "hardware": uart or wired or any(d.bus in ("i2c", "spi") for d in displays),
        "i2c_baudrate": str(i2c.baudrate),
        "mux_address": "" if i2c.mux is None else f"0x{i2c.mux.address:02x}",
        "mux_idle_disconnect": i2c.mux is not None and i2c.mux.idle_disconnect,
    }
    for board in BOARDS:
        facts[f"i2c_extra_{board}"] = ";".join(extra_i2c_lines(config, board))
        facts[f"mux_params_{board}"] = " ".join(
            e.pins.controller(board) for e in i2c.extra if e.mux is not None)
    web_lan = config.web.on_lan
    facts |= {
        "uart": uart,
        "spi": uses_spi(config),
        "web_lan": web_lan,
        "tv_screen": config.tv.screen,
        "web_net": web_lan or config.tv.screen,
        "default_pin": guards_with_default_pin(config),
    }
    return {key: str(int(value)) if isinstance(value, bool) else value
            for key, value in facts.items()}


def format_install_facts(config: HwConfig) -> str:
    """:func:`install_facts` as the ``KEY=VALUE`` lines ``check-config --install-facts`` prints."""
    return "".join(f"{key}={value}\n" for key, value in install_facts(config).items())
