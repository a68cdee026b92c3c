"""systemd/install-pi.sh: dry run, idempotence, the boot settings it writes (config.txt,
cmdline.txt) for each profile, the system user and groups, failures, --help and shellcheck
(the owner's installed configuration: test_install_config.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from fdtkit import MUX_2024, MUX_2025, fdt
from systemdkit import (
    INSTALL,
    PI_CMDLINE,
    PI_CONFIG,
    PROFILES,
    REPO,
    TV_DESKTOP,
    UNIT,
    WEB_DROPIN,
    Installer,
    block_lines,
    mutations,
    new_installer,
    one,
    unit_settings,
)


@pytest.fixture
def installer(tmp_path: Path) -> Iterator[Installer]:
    yield new_installer(tmp_path)


@pytest.mark.parametrize("how", ["flag", "env"])
def test_dry_run_prints_every_action_and_touches_nothing(installer: Installer, how: str) -> None:
    before = installer.tree()
    out = installer.ok("--dry-run") if how == "flag" else installer.ok(DRY_RUN="1")

    assert installer.tree() == before
    assert mutations(installer.log()) == []
    for expected in (
        "would: install python3-pip python3-lgpio i2c-tools",
        "apt-get install -y --no-install-recommends python3-pip python3-lgpio i2c-tools",
        "would: create group spi",
        "would: create system user pitboard",
        f"would: write {installer.config_txt}",
        "+dtoverlay=i2c-mux,pca9548,addr=0x70",
        f"would: remove the serial console from {installer.cmdline_txt}",
        "would: create venv",
        "--system-site-packages",
        "would: install pitboard into",
        "would: install " + str(installer.root / "etc/pitboard/pitboard.toml"),
        "would: install " + str(installer.root / "etc/systemd/system/pitboard.service"),
        "would: enable pitboard.service at boot",
        "change(s) would be made; nothing was touched",
    ):
        assert expected in out, expected


def test_the_shipped_grid6_gets_every_controller_in_config_txt(installer: Installer,
                                                                 tmp_path: Path) -> None:
    """The real grid6 profile: controllers B and C, each board its own overlay and mux line,
    exactly the block wiring_docs/grid6.md shows (config_txt_lines)."""
    from pitboard.hwconfig import load_profile, profiles_dir
    from pitboard.wiring import config_txt_lines

    shipped = profiles_dir() / "grid6.toml"
    mine = tmp_path / "grid6-shipped.toml"
    mine.write_text(shipped.read_text())
    installer.ok(PROFILE=str(mine))
    lines = block_lines(installer.config_txt)
    assert lines == config_txt_lines(load_profile(shipped))
    assert "dtoverlay=i2c-mux,pca9548,addr=0x70,i2c6" in lines[lines.index("[pi4]"):]
    assert "dtoverlay=i2c3-pi5,pins_22_23,baudrate=400000" in lines[lines.index("[pi5]"):]


def test_install_then_again_changes_nothing(installer: Installer) -> None:
    out = installer.ok()
    assert "change(s) made" in out
    assert "reboot to apply the boot configuration" in out
    log = installer.log()
    assert any(line.startswith("apt-get install") for line in log)
    assert "groupadd --system spi" in log
    assert any(
        line.startswith("useradd --system") and "gpio,i2c,spi,dialout" in line for line in log
    )
    assert any(line.startswith("python3 -m venv --clear --system-site-packages") for line in log)
    # a venv without a pitboard: the wheel and its dependencies in one pip install
    (pip_install,) = [line for line in log if line.startswith("python -m pip install")]
    assert "--no-deps" not in pip_install and pip_install.endswith(".whl")
    assert f"systemctl --root={installer.root} enable pitboard.service" in log

    config = installer.config_txt.read_text()
    assert config.startswith(PI_CONFIG.rstrip("\n"))  # the Pi's own settings are untouched
    assert block_lines(installer.config_txt) == [
        "[all]",
        "dtparam=i2c_arm=on,i2c_arm_baudrate=400000",
        "dtoverlay=i2c-mux,pca9548,addr=0x70",
        "dtoverlay=",
        "enable_uart=1",
        "[pi4]",
        "dtoverlay=disable-bt",
        "dtoverlay=",
        "[pi5]",
        "dtparam=uart0=on",
        "[all]",
        "dtparam=spi=off",
    ]
    assert "console=serial0" not in installer.cmdline_txt.read_text()
    assert "console=tty1 root=PARTUUID" in installer.cmdline_txt.read_text()
    etc = installer.root / "etc"
    assert (etc / "pitboard/pitboard.toml").read_text() == PROFILES["grid6"]
    assert (etc / "systemd/system/pitboard.service").read_bytes() == UNIT.read_bytes()
    modules = (etc / "modules-load.d/pitboard.conf").read_text().splitlines()
    assert modules[1:] == ["i2c-dev", "usbserial", "cdc_acm"]
    assert (installer.root / "opt/pitboard/src/firmware_py/pitboard/__init__.py").exists()
    # the unit's ExecStart and --config point at what the installer made
    exec_start = one(unit_settings(UNIT.read_text()), "ExecStart").split()
    assert os.access(installer.root / exec_start[0].lstrip("/"), os.X_OK)
    assert (installer.root / exec_start[exec_start.index("--config") + 1].lstrip("/")).is_file()

    before = installer.tree()
    installer.clear_log()
    out = installer.ok()
    assert "install-pi: nothing changed" in out.splitlines()
    assert "change:" not in out
    assert mutations(installer.log()) == []
    assert installer.tree() == before
    for line in ("dtparam=i2c_arm=on,i2c_arm_baudrate=400000", "enable_uart=1"):
        assert installer.config_txt.read_text().splitlines().count(line) == 1


def test_switching_profile_rewrites_the_block(installer: Installer) -> None:
    installer.ok()
    out = installer.ok(PROFILE="duo", NEW_CONFIG="1")
    assert block_lines(installer.config_txt) == [
        "[all]",
        "dtparam=i2c_arm=on,i2c_arm_baudrate=400000",
        "enable_uart=0",
        "dtparam=spi=off",
    ]
    assert installer.config_txt.read_text().count("# >>> pitboard") == 1
    etc = installer.root / "etc/pitboard"
    assert (etc / "pitboard.toml").read_text() == PROFILES["duo"]
    assert (etc / "pitboard.toml.old").read_text() == PROFILES["grid6"]
    assert "keep the previous configuration" in out
    assert "-port = \"/dev/serial0\"" in out  # the diff of what the new configuration changes
    assert "install-pi: nothing changed" in installer.ok(PROFILE="duo").splitlines()


def test_spi_display_turns_spi_on(installer: Installer) -> None:
    installer.ok(PROFILE="spiboard")
    assert "dtparam=spi=on" in block_lines(installer.config_txt)
    modules = installer.root / "etc/modules-load.d/pitboard.conf"
    assert "spidev" in modules.read_text().splitlines()
    assert "enable_uart=0" in block_lines(installer.config_txt)


def test_overrides_win_over_the_profile(installer: Installer) -> None:
    installer.ok(PROFILE="duo", UART="1", SPI="on")
    assert block_lines(installer.config_txt)[2:] == [
        "enable_uart=1", "[pi4]", "dtoverlay=disable-bt", "dtoverlay=", "[pi5]", "dtparam=uart0=on",
        "[all]", "dtparam=spi=on"]
    result = installer.run(UART="maybe")
    assert result.returncode != 0
    assert "UART must be auto, 0 or 1" in result.stderr


UART_PORTS = (
    "/dev/serial0",
    "/dev/serial1",
    "/dev/ttyAMA0",
    "/dev/ttyAMA1",
    "/dev/ttyAMA10",
    "/dev/ttyS0",
    "/dev/ttyUSB0",
    "/dev/ttyACM0",
    "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A10K1234-if00-port0",
    "",
)


@pytest.mark.parametrize("port", UART_PORTS)
def test_enable_uart_follows_the_hwconfig_rule(installer: Installer, port: str) -> None:
    """install-pi.sh and pitboard.hwconfig.is_pi_uart agree on every console port."""
    from pitboard.hwconfig import is_pi_uart

    profile = PROFILES["duo"].replace('"/dev/ttyUSB0"', f'"{port}"')
    (installer.src / "hw_config" / "port.toml").write_text(profile)
    installer.ok(PROFILE="port")
    expected = "enable_uart=1" if is_pi_uart(port) else "enable_uart=0"
    assert expected in block_lines(installer.config_txt)
    assert is_pi_uart(port) == (port in UART_PORTS[:6])


def test_the_uart_rule_is_read_from_hwconfig(installer: Installer) -> None:
    """No copy of the pattern in the script: change hwconfig's and the installer follows
    (it asks the code it installs: check-config --install-facts)."""
    hwconfig = installer.src / "firmware_py" / "pitboard" / "hwconfig" / "schema.py"
    text = hwconfig.read_text()
    changed = re.sub(r"^(PI_UART_PATTERN: Final = ).*$", r'\1r"/dev/ttyUSB[0-9]+"', text,
                     count=1, flags=re.MULTILINE)
    assert changed != text
    hwconfig.write_text(changed)
    installer.ok(PROFILE="duo")  # console on /dev/ttyUSB0
    assert "enable_uart=1" in block_lines(installer.config_txt)


def test_block_is_its_own_all_section_after_a_model_section(installer: Installer) -> None:
    installer.config_txt.write_text("dtparam=audio=on\n\n[pi4]\narm_boost=1\n")
    installer.ok()
    text = installer.config_txt.read_text()
    assert text.startswith("dtparam=audio=on\n\n[pi4]\narm_boost=1\n\n# >>> pitboard")
    assert block_lines(installer.config_txt)[0] == "[all]"


def test_sim_profile_leaves_the_boot_files_alone(installer: Installer) -> None:
    out = installer.ok(PROFILE="sim")
    assert "boot configuration left alone" in out
    assert installer.config_txt.read_text() == PI_CONFIG
    assert installer.cmdline_txt.read_text() == PI_CMDLINE


def test_existing_user_gets_only_the_missing_groups(installer: Installer) -> None:
    (installer.state / "passwd").write_text("pitboard:x:999:999::/var/lib/pitboard:/bin/false\n")
    (installer.state / "group").write_text(
        "dialout:x:20:pitboard\ngpio:x:993:pi,pitboard\ni2c:x:994:pi\nspi:x:995:\n"
    )
    installer.ok()
    user_changes = [line for line in installer.log() if line.split()[0] in ("useradd", "usermod")]
    assert user_changes == [
        "usermod --append --groups i2c pitboard",
        "usermod --append --groups spi pitboard",
    ]


def test_changed_source_is_reinstalled(installer: Installer) -> None:
    installer.ok()
    installer.clear_log()
    v2 = '"""v2"""\n__version__ = "0.1.0"\n'
    (installer.src / "firmware_py" / "pitboard" / "__init__.py").write_text(v2)
    out = installer.ok()
    assert "install pitboard into" in out
    assert [line.split()[:4] for line in mutations(installer.log())] == [
        ["python", "-m", "pip", "wheel"],  # built from the changed source, then installed
        ["python", "-m", "pip", "install"], ["python", "-m", "pip", "install"],
    ]  # the second over the copy of the same version installed before
    assert "--force-reinstall --no-deps" in mutations(installer.log())[-1]
    copied = installer.root / "opt/pitboard/src/firmware_py/pitboard/__init__.py"
    assert copied.read_text() == v2


@pytest.mark.parametrize("failing", ["apt-get", "useradd", "python"])
def test_a_failing_step_stops_the_install(installer: Installer, failing: str) -> None:
    result = installer.run(STUB_FAIL=failing)
    assert result.returncode != 0
    assert "nothing changed" not in result.stdout
    assert mutations(installer.log())[-1].split()[0] == failing
    assert not (installer.root / "etc/systemd/system/pitboard.service").exists()


def test_unknown_profile_is_refused_before_anything_happens(installer: Installer) -> None:
    result = installer.run(PROFILE="quad")
    assert result.returncode != 0
    assert "no profile" in result.stderr
    assert "grid6.toml" in result.stderr
    assert installer.log() == []


def test_missing_config_txt_is_a_warning(installer: Installer) -> None:
    installer.config_txt.unlink()
    out = installer.ok()
    assert "warning: no" in out
    assert not installer.config_txt.exists()


def test_unknown_argument(installer: Installer) -> None:
    result = installer.run("--yes-please")
    assert result.returncode == 2
    assert "unknown argument" in result.stderr


def test_help_describes_the_settings() -> None:
    result = subprocess.run(
        ["bash", str(INSTALL), "--help"], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0
    for word in ("PROFILE", "DRY_RUN", "ROOT", "--dry-run"):
        assert word in result.stdout


@pytest.mark.parametrize("profile", ["duo", "grid6", "sim"])
def test_dry_run_with_the_real_profiles(installer: Installer, profile: str) -> None:
    """The repository's own profiles parse, and give the boot settings their comments ask for."""
    out = installer.ok("--dry-run", PITBOARD_SRC=str(REPO), PROFILE=profile)
    assert installer.config_txt.read_text() == PI_CONFIG
    if profile == "sim":
        assert "boot configuration left alone" in out
    elif profile == "duo":
        assert "+enable_uart=0" in out and "+dtparam=spi=off" in out
        assert "dtoverlay=i2c-mux" not in out
    else:
        assert "+enable_uart=1" in out and "+dtoverlay=i2c-mux,pca9548,addr=0x70" in out


def test_makefile_targets() -> None:
    for target, flag in (("install-pi", ""), ("install-pi-dry-run", " --dry-run")):
        result = subprocess.run(
            ["make", "-n", "-C", str(REPO), target], capture_output=True, text=True, timeout=30
        )
        assert result.returncode == 0, result.stderr
        assert f"bash systemd/install-pi.sh{flag}" in result.stdout


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck is not installed (apt install shellcheck)")
def test_install_script_is_shellcheck_clean() -> None:
    result = subprocess.run(
        ["shellcheck", str(INSTALL)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout


def test_the_mux_cuts_its_channels_off_between_transfers(installer: Installer) -> None:
    """idle_disconnect (the default): a udev rule sets the pca954x driver's idle_state to -2
    when it binds, so a station board holding SDA low is cut off between transfers."""
    installer.ok(PROFILE="grid6")
    rule = installer.root / "etc/udev/rules.d/60-pitboard-i2c-mux.rules"
    assert 'DRIVER=="pca954x", ATTR{idle_state}="-2"' in rule.read_text()


def test_idle_disconnect_applies_now_or_asks_for_a_reboot(installer: Installer) -> None:
    """The udev rule acts when the driver binds: a mux bound already gets idle_state -2 at
    once; with none bound, a new rule waits for the reboot, and the installer says so."""
    installer.ok(PROFILE="grid6")
    rule = installer.root / "etc/udev/rules.d/60-pitboard-i2c-mux.rules"
    rule.unlink()  # the rule is new, config.txt is not: no reboot for the boot settings
    out = installer.ok(PROFILE="grid6")
    assert f"change: write {rule}" in out and "reboot to apply" in out
    state = installer.root / "sys/bus/i2c/drivers/pca954x/1-0070/idle_state"
    state.parent.mkdir(parents=True)
    state.write_text("0\n")  # bound before the rule existed: channels stay connected
    rule.unlink()
    out = installer.ok(PROFILE="grid6")
    assert f"change: set {state} to -2 (idle disconnect, now)" in out
    assert state.read_text() == "-2\n" and "reboot to apply" not in out
    assert f"ok: {state} is -2" in installer.ok(PROFILE="grid6")


def test_the_mux_rule_goes_when_the_profile_has_no_mux(installer: Installer) -> None:
    installer.ok(PROFILE="grid6")
    rule = installer.root / "etc/udev/rules.d/60-pitboard-i2c-mux.rules"
    assert rule.exists()
    out = installer.ok("--new-config", PROFILE="duo")  # the owner switches to duo
    assert f"change: remove {rule} (this profile has no mux" in out
    assert not rule.exists()


def _board(installer: Installer, compatible: str) -> None:
    tree = installer.root / "proc" / "device-tree"
    tree.mkdir(parents=True)
    (tree / "compatible").write_bytes(compatible.encode() + b"\0")


@pytest.mark.parametrize(("board", "profile", "disabled"), [
    ("raspberrypi,4-model-b\0brcm,bcm2711", "grid6", True),   # console on ttyAMA0: disable-bt
    ("raspberrypi,5-model-b\0brcm,bcm2712", "grid6", False),  # its Bluetooth has its own UART
    ("raspberrypi,4-model-b\0brcm,bcm2711", "duo", False),    # no console on the Pi's UART
])
def test_a_pi4_console_turns_the_modem_service_off(installer: Installer, board: str,
                                                   profile: str, disabled: bool) -> None:
    """configuration/uart.adoc: with disable-bt "you must also disable the system service that
    initialises the modem ... sudo systemctl disable hciuart"."""
    _board(installer, board)
    (installer.state / "enabled-hciuart.service").touch()
    out = installer.ok(PROFILE=profile)
    command = f"systemctl --root={installer.root} disable hciuart.service"
    assert (command in installer.log()) is disabled
    assert (installer.state / "enabled-hciuart.service").exists() is not disabled
    if disabled:
        assert "change: disable hciuart.service" in out
        installer.clear_log()
        assert "ok: hciuart.service not enabled" in installer.ok(PROFILE=profile)
        assert mutations(installer.log()) == []


@pytest.mark.parametrize(("params", "verdict"), [
    (MUX_2025, "ok: {dtbo} takes the [pi5] bus parameters: i2c3 i2c2"),
    (MUX_2024, "warning: {dtbo} has no parameter i2c2 (used under [pi5])"),
    (None, "warning: no {dtbo} to check"),
])
def test_the_mux_overlay_on_the_card_is_checked(installer: Installer, tmp_path: Path,
                                                params: list[str] | None, verdict: str) -> None:
    """grid6 puts a mux on i2c2 on a Pi 5: an i2c-mux overlay from before raspberrypi/linux
    PR 6636 has no such parameter, and the installer says so (and still installs)."""
    from pitboard.hwconfig import profiles_dir

    dtbo = installer.root / "boot" / "firmware" / "overlays" / "i2c-mux.dtbo"
    if params is not None:
        dtbo.parent.mkdir()
        dtbo.write_bytes(fdt(params))
    mine = tmp_path / "grid6-shipped.toml"
    mine.write_text((profiles_dir() / "grid6.toml").read_text())
    out = installer.ok(PROFILE=str(mine))
    assert verdict.format(dtbo=dtbo) in out
    assert "ok: " + str(dtbo) + " takes the [pi4] bus parameters: i2c6 i2c5" in out or \
        params is None


def test_a_profile_that_fails_check_config_is_refused_and_nothing_changes(
        installer: Installer, tmp_path: Path) -> None:
    mine = tmp_path / "typo.toml"
    mine.write_text(PROFILES["duo"].replace("baudrate = 400000", "baudrat = 400000"))
    before = installer.tree()
    result = installer.run(PROFILE=str(mine))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"install-pi: refused: profile {mine} does not pass "
                                    "pitboard check-config: ")
    assert "i2c.baudrat" in result.stderr
    assert installer.tree() == before
    assert mutations(installer.log()) == []
    # a dry run says the same
    assert installer.run("--dry-run", PROFILE=str(mine)).returncode == 2


def test_a_kept_configuration_that_fails_check_config_is_refused(installer: Installer) -> None:
    installer.ok()
    config = installer.root / "etc/pitboard/pitboard.toml"
    config.write_text(PROFILES["grid6"].replace("[table]\n", "[table]\nkisok = true\n"))
    before = installer.tree()
    installer.clear_log()
    result = installer.run()
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert f"the installed configuration {config} does not pass" in result.stderr
    assert "table.kisok" in result.stderr
    assert installer.tree() == before and mutations(installer.log()) == []
    # asking for the profile instead replaces it
    installer.ok(NEW_CONFIG="1")
    assert config.read_text() == PROFILES["grid6"]


def test_pitboard_goes_on_path(installer: Installer) -> None:
    installer.ok()
    link = installer.root / "usr/local/bin/pitboard"
    assert os.readlink(link) == "/opt/pitboard/.venv/bin/pitboard"
    installer.clear_log()
    out = installer.ok()
    assert f"ok: {link} -> /opt/pitboard/.venv/bin/pitboard" in out
    assert mutations(installer.log()) == []


def test_a_given_wheel_is_installed_not_a_build(installer: Installer, tmp_path: Path) -> None:
    """WHEEL=: the wheel the tests ran (here a zip of the package, enough for the installer's
    own check-config, which runs from it) is what pip installs; nothing is built."""
    wheel = tmp_path / "pitboard-0.1.0-py3-none-any.whl"
    shutil.make_archive(str(wheel.with_suffix("")), "zip", installer.src / "firmware_py",
                        "pitboard")
    wheel.with_suffix(".zip").rename(wheel)
    out = installer.ok(WHEEL=str(wheel))
    assert f"install pitboard into {installer.root}/opt/pitboard/.venv from {wheel.name}" in out
    installs = [line for line in mutations(installer.log()) if line.startswith("python ")]
    assert installs and all(line.split()[3] == "install" and line.endswith(str(wheel))
                            for line in installs)
    installer.clear_log()
    assert "install-pi: nothing changed" in installer.ok(WHEEL=str(wheel)).splitlines()
    result = installer.run(WHEEL=str(tmp_path / "nosuch.whl"))
    assert result.returncode == 2 and "is not a pitboard-*.whl file" in result.stderr


def test_phones_on_the_lan_get_the_network_drop_in_and_lose_it_with_them(
        installer: Installer, tmp_path: Path) -> None:
    """The unit keeps the service off the network; a configuration that serves phones on the
    LAN needs systemd/pitboard-web.conf beside it, and one that stops doing so must not keep it."""
    phones = tmp_path / "phones.toml"
    phones.write_text(PROFILES["sim"] + '[web]\nenabled = true\nbind = "0.0.0.0"\nport = 8080\n')
    dropin = installer.root / "etc/systemd/system/pitboard.service.d/web.conf"
    out = installer.ok(PROFILE=str(phones))
    assert dropin.read_bytes() == WEB_DROPIN.read_bytes()
    assert "staff PIN in" in out  # the shipped PIN would unlock the lobby from any phone
    local = tmp_path / "local.toml"  # the same on the loopback address: no network needed
    local.write_text(phones.read_text().replace("0.0.0.0", "127.0.0.1"))
    out = installer.ok(PROFILE=str(local), NEW_CONFIG="1")
    assert not dropin.exists() and f"remove {dropin}" in out
    assert f"ok: no {dropin}" in installer.ok(PROFILE=str(local))


def test_a_kiosk_gets_the_tv_on_its_screen_and_loses_it_with_the_setting(
        installer: Installer, tmp_path: Path) -> None:
    """[tv] screen (a kiosk's default): the desktop's autostart entry that opens the track
    view, the network drop-in (the desktop's browser is outside the service's private
    network), and screen blanking off once, when the TV is set up; [tv] screen = false takes
    the entry and the drop-in away again."""
    kiosk = tmp_path / "kiosk.toml"
    kiosk.write_text(PROFILES["sim"].replace('name = "Test table"\n',
                                             'name = "Test table"\nkiosk = true\n'))
    entry = installer.root / "etc/xdg/autostart/pitboard-tv.desktop"
    dropin = installer.root / "etc/systemd/system/pitboard.service.d/web.conf"
    before = installer.tree()
    out = installer.ok("--dry-run", PROFILE=str(kiosk))
    assert installer.tree() == before and mutations(installer.log()) == []
    assert f"would: install {entry}" in out and "would: turn screen blanking off" in out

    installer.ok(PROFILE=str(kiosk))
    assert entry.read_bytes() == TV_DESKTOP.read_bytes()
    assert dropin.read_bytes() == WEB_DROPIN.read_bytes()
    assert installer.log().count("raspi-config nonint do_blanking 1") == 1
    installer.clear_log()
    assert "install-pi: nothing changed" in installer.ok(PROFILE=str(kiosk))
    assert mutations(installer.log()) == []  # blanking is not set again at every run

    off = tmp_path / "off.toml"
    off.write_text(kiosk.read_text() + "[tv]\nscreen = false\n")
    out = installer.ok(PROFILE=str(off), NEW_CONFIG="1")
    assert not entry.exists() and f"remove {entry}" in out
    assert not dropin.exists()
    assert f"ok: no {entry}" in installer.ok(PROFILE=str(off))


def test_the_tv_autostart_entry_runs_the_installed_command_on_the_installed_config() -> None:
    """The entry names what the installer makes: the command on PATH and the configuration
    the service runs with (its ExecStart's --config)."""
    import configparser

    entry = configparser.ConfigParser(interpolation=None)
    entry.read_string(TV_DESKTOP.read_text())
    desktop = entry["Desktop Entry"]
    assert desktop["Type"] == "Application" and desktop["Terminal"] == "false"
    exec_words = desktop["Exec"].split()
    service = one(unit_settings(UNIT.read_text()), "ExecStart").split()
    assert exec_words[0] == "/usr/local/bin/pitboard"  # COMMAND_LINK in install-pi.sh
    assert exec_words[1:] == ["tv", "--config", service[service.index("--config") + 1],
                              "--at-login"]
    text = INSTALL.read_text()
    assert "COMMAND_LINK=$ROOT/usr/local/bin/pitboard" in text
