"""The systemd unit (verify + security score) and systemd/install-pi.sh (dry run, idempotence)."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "pitboard.service"
INSTALL = REPO / "systemd" / "install-pi.sh"
HWCONFIG_PY = REPO / "firmware_py" / "pitboard" / "hwconfig" / "schema.py"
ANALYZE = shutil.which("systemd-analyze") or (
    "/usr/bin/systemd-analyze" if Path("/usr/bin/systemd-analyze").exists() else None
)
needs_analyze = pytest.mark.skipif(
    ANALYZE is None, reason="systemd-analyze is not installed (it comes with systemd)")


def unit_settings(text: str) -> dict[tuple[str, str], list[str]]:
    """(section, key) -> every value, in order (systemd keys may repeat, e.g. DeviceAllow=)."""
    settings: dict[tuple[str, str], list[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault((section, key.strip()), []).append(value.strip())
    return settings


@pytest.fixture(scope="module")
def unit() -> dict[tuple[str, str], list[str]]:
    return unit_settings(UNIT.read_text())


def one(unit: dict[tuple[str, str], list[str]], key: str, section: str = "Service") -> str:
    values = unit.get((section, key))
    assert values, f"{key}= missing from [{section}]"
    return values[-1]


# -- the unit ------------------------------------------------------------------------------------


def verifiable_copy(directory: Path, text: str) -> Path:
    """The unit with ExecStart= pointing at a program that exists here (verify checks it)."""
    rewritten, count = re.subn(
        r"^ExecStart=\S+", f"ExecStart={sys.executable}", text, flags=re.MULTILINE
    )
    assert count == 1
    path = directory / "pitboard.service"
    path.write_text(rewritten)
    return path


def analyze(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None
    return subprocess.run(
        [ANALYZE, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SYSTEMD_COLORS": "0", "SYSTEMD_PAGER": "", "LC_ALL": "C.UTF-8"},
    )


@needs_analyze
def test_unit_verifies_without_a_single_warning(tmp_path: Path) -> None:
    path = verifiable_copy(tmp_path, UNIT.read_text())
    result = analyze("verify", str(path), cwd=tmp_path)
    # verify only warns about bad values and still exits 0: any stderr is a failure.
    assert result.stderr == ""
    assert result.returncode == 0
    assert result.stdout == ""


@needs_analyze
@pytest.mark.parametrize(
    "broken",
    ["WatchdogSecs=15s", "ProtectSystem=strictly", "DeviceAllow=char-gpiochip rwz"],
)
def test_verify_check_catches_mistakes(tmp_path: Path, broken: str) -> None:
    """The check above is not vacuous: a typo makes verify print something."""
    text = UNIT.read_text().replace("[Service]\n", f"[Service]\n{broken}\n", 1)
    result = analyze("verify", str(verifiable_copy(tmp_path, text)), cwd=tmp_path)
    assert result.stderr != ""


@needs_analyze
def test_security_exposure_is_at_most_2(tmp_path: Path) -> None:
    result = analyze("security", "--offline=yes", str(UNIT), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    match = re.search(r"Overall exposure level for pitboard\.service: (\d+\.\d+)", result.stdout)
    assert match, result.stdout
    exposed = "\n".join(line for line in result.stdout.splitlines() if line.startswith("✗"))
    assert float(match[1]) <= 2.0, exposed


def test_unit_essentials(unit: dict[tuple[str, str], list[str]]) -> None:
    assert one(unit, "Type") == "notify"
    assert one(unit, "NotifyAccess") == "main"
    assert one(unit, "WatchdogSec") == "15s"
    assert one(unit, "Restart") == "on-failure"
    assert "2" in one(unit, "RestartPreventExitStatus").split()
    assert one(unit, "StartLimitBurst", "Unit")
    assert one(unit, "StartLimitIntervalSec", "Unit")
    assert one(unit, "ExecStart") == (
        "/opt/pitboard/.venv/bin/pitboard run --config /etc/pitboard/pitboard.toml"
    )
    assert one(unit, "User") == "pitboard"
    assert set(one(unit, "SupplementaryGroups").split()) == {"gpio", "i2c", "spi", "dialout"}
    assert one(unit, "StateDirectory") == "pitboard"
    assert one(unit, "WorkingDirectory") in ("%S/pitboard", "/var/lib/pitboard")
    assert one(unit, "RestrictAddressFamilies") == "AF_UNIX"
    assert one(unit, "PrivateNetwork") == "yes"
    assert one(unit, "DevicePolicy") == "closed"
    assert one(unit, "CapabilityBoundingSet") == ""
    assert one(unit, "AmbientCapabilities") == ""
    assert one(unit, "UMask") == "0077"
    assert one(unit, "MemoryDenyWriteExecute") == "yes"
    assert one(unit, "WantedBy", "Install") == "multi-user.target"


def test_unit_allows_exactly_the_hardware_devices(unit: dict[tuple[str, str], list[str]]) -> None:
    allowed = {value.split()[0]: value.split()[1] for value in unit[("Service", "DeviceAllow")]}
    groups = ("gpiochip", "i2c", "spi", "ttyAMA", "ttyS", "ttyUSB", "ttyACM", "ttyGS")
    assert allowed == {f"char-{group}": "rw" for group in groups}


def test_unit_does_not_hide_proc_device_tree(unit: dict[tuple[str, str], list[str]]) -> None:
    """gpiozero reads the Pi revision from /proc/device-tree; ProcSubset=pid would hide it."""
    assert ("Service", "ProcSubset") not in unit
    assert ("Service", "PrivateDevices") not in unit


@pytest.mark.parametrize("profile", ["sim", "duo", "grid6"])
def test_profile_journal_is_writable_under_the_unit(profile: str) -> None:
    """ProtectSystem=strict leaves only the state directory (also the working directory)."""
    path = REPO / "hw_config" / f"{profile}.toml"
    journal = tomllib.loads(path.read_text())["journal"]["dir"]
    assert not journal.startswith("/") or journal.startswith("/var/lib/pitboard/"), journal


# -- install-pi.sh -------------------------------------------------------------------------------

STUB = r"""
import os
import shutil
import sys
from pathlib import Path

name = Path(sys.argv[0]).name
args = sys.argv[1:]
state = Path(os.environ["STUB_STATE"])


def log() -> None:
    with open(state / "log", "a") as f:
        f.write(" ".join([name, *args]) + "\n")


def lines(db: str) -> list[str]:
    path = state / db
    return path.read_text().splitlines() if path.exists() else []


def save(db: str, rows: list[str]) -> None:
    (state / db).write_text("".join(row + "\n" for row in rows))


def join_group(user: str, group: str) -> None:
    rows = []
    for row in lines("group"):
        parts = row.split(":")
        if parts[0] == group:
            members = [m for m in parts[3].split(",") if m]
            parts[3] = ",".join([*members, user])
        rows.append(":".join(parts))
    save("group", rows)


if name == "dpkg-query":
    if args[-1] not in lines("dpkg"):
        sys.exit(1)
    print("installed", end="")
    sys.exit(0)
if name == "getent":
    db, key = args
    for row in lines(db):
        if row.split(":")[0] == key:
            print(row)
            sys.exit(0)
    sys.exit(2)
if name == "systemctl":
    verb = next(a for a in args if not a.startswith("-"))
    if verb == "is-enabled":
        sys.exit(0 if (state / "enabled").exists() else 1)
    if verb == "is-active":
        sys.exit(3)
    log()
    if verb == "enable":
        (state / "enabled").touch()
    sys.exit(0)
if name == "python3" and args[:2] != ["-m", "venv"]:
    os.execv(os.environ["REAL_PYTHON"], [os.environ["REAL_PYTHON"], *args])

log()
if os.environ.get("STUB_FAIL") == name:
    sys.exit(100)
if name == "python3":  # -m venv [...] DIR
    venv = Path(args[-1])
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    shutil.copy(sys.argv[0], venv / "bin" / "python")
    flag = "true" if "--system-site-packages" in args else "false"
    (venv / "pyvenv.cfg").write_text(f"include-system-site-packages = {flag}\n")
elif name == "python":  # the venv's: -m pip install ...
    script = Path(sys.argv[0]).parent / "pitboard"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
elif name == "apt-get" and "install" in args:
    save("dpkg", lines("dpkg") + [a for a in args[args.index("install") + 1 :] if a[0] != "-"])
elif name == "groupadd":
    save("group", [*lines("group"), f"{args[-1]}:x:{900 + len(lines('group'))}:"])
elif name == "useradd":
    save("passwd", [*lines("passwd"), f"{args[-1]}:x:999:999::/var/lib/pitboard:/bin/false"])
    for group in args[args.index("--groups") + 1].split(","):
        join_group(args[-1], group)
elif name == "usermod":
    join_group(args[-1], args[args.index("--groups") + 1])
"""

MUTATING = ("apt-get", "groupadd", "useradd", "usermod", "systemctl", "python3", "python")

PI_CONFIG = """\
# For more options and information see http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""
PI_CMDLINE = (
    "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
    "fsck.repair=yes rootwait quiet splash plymouth.ignore-serial-consoles\n"
)
PROFILES = {
    "sim": '[console]\nport = ""\n[journal]\ndir = "journal"\n'
    '[[stations]]\ninput = { kind = "emulated" }\n'
    'display = { driver = "ssd1306", bus = "emulated" }\n',
    "duo": '[console]\nport = "/dev/ttyUSB0"  # never /dev/serial0, dtparam=spi=off\n'
    "[i2c]\nbus = 1\nbaudrate = 400000\n"
    '[[stations]]\ninput = { kind = "gpio", lever = [4, 17, 27, 22] }\n'
    'display = { driver = "ssd1306", bus = "i2c", address = 0x3C }\n',
    "grid6": '[console]\nport = "/dev/serial0"\n'
    '[i2c]\nbus = 1\nbaudrate = 400000\n[i2c.mux]\ntype = "tca9548a"\naddress = 0x70\n'
    '[[stations]]\ninput = { kind = "mcp23017", mux_channel = 0, address = 0x20 }\n'
    'display = { driver = "ssd1306", bus = "i2c", mux_channel = 0, address = 0x3C }\n',
    "spiboard": '[console]\nport = "/dev/ttyACM0"\n'
    '[[stations]]\ninput = { kind = "gpio", lever = [4, 17, 27, 22] }\n'
    'display = { driver = "sh1106", bus = "spi", device = 0 }\n',
}


@dataclass
class Installer:
    """Runs install-pi.sh against a fake source tree and root, with stub system commands."""

    src: Path
    root: Path
    state: Path
    env: dict[str, str]

    def run(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(INSTALL), *args],
            env={**self.env, **env},
            capture_output=True,
            text=True,
            timeout=120,
        )

    def ok(self, *args: str, **env: str) -> str:
        result = self.run(*args, **env)
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stderr == ""
        return result.stdout

    def log(self) -> list[str]:
        path = self.state / "log"
        return path.read_text().splitlines() if path.exists() else []

    def clear_log(self) -> None:
        (self.state / "log").unlink(missing_ok=True)

    def tree(self) -> dict[str, tuple[bytes, int, int]]:
        """Every file under the root with its bytes, mode and mtime (to prove nothing moved)."""
        found: dict[str, tuple[bytes, int, int]] = {}
        for path in sorted(self.root.rglob("*")):
            info = path.lstat()
            content = path.read_bytes() if stat.S_ISREG(info.st_mode) else b""
            found[str(path.relative_to(self.root))] = (content, info.st_mode, info.st_mtime_ns)
        return found

    @property
    def config_txt(self) -> Path:
        return self.root / "boot" / "firmware" / "config.txt"

    @property
    def cmdline_txt(self) -> Path:
        return self.root / "boot" / "firmware" / "cmdline.txt"


@pytest.fixture
def installer(tmp_path: Path) -> Iterator[Installer]:
    src = tmp_path / "src"
    (src / "systemd").mkdir(parents=True)
    shutil.copy(UNIT, src / "systemd" / UNIT.name)
    (src / "hw_config").mkdir()
    for name, text in PROFILES.items():
        (src / "hw_config" / f"{name}.toml").write_text(text)
    (src / "firmware_py" / "pitboard" / "hwconfig").mkdir(parents=True)
    (src / "firmware_py" / "pitboard" / "__init__.py").write_text('"""fake"""\n')
    shutil.copy(HWCONFIG_PY, src / "firmware_py" / "pitboard" / "hwconfig" / "schema.py")
    (src / "pyproject.toml").write_text('[project]\nname = "pitboard"\nversion = "0"\n')
    (src / "README.md").write_text("fake\n")

    root = tmp_path / "root"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(PI_CONFIG)
    (root / "boot" / "firmware" / "cmdline.txt").write_text(PI_CMDLINE)

    state = tmp_path / "state"
    state.mkdir()
    (state / "group").write_text("dialout:x:20:\ngpio:x:993:\ni2c:x:994:\n")  # no spi yet
    (state / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (state / "dpkg").write_text("python3\npython3-venv\n")

    stubs = tmp_path / "stubs"
    stubs.mkdir()
    stub = stubs / "stub.py"
    stub.write_text(f"#!{sys.executable}\n{STUB}")
    stub.chmod(0o755)
    for name in ("apt-get", "dpkg-query", "getent", "groupadd", "useradd", "usermod"):
        shutil.copy(stub, stubs / name)
    for name in ("systemctl", "python3"):
        shutil.copy(stub, stubs / name)

    env = {k: v for k, v in os.environ.items() if k not in ("DRY_RUN", "PROFILE", "UART", "SPI")}
    env.update(
        PATH=f"{stubs}:{os.environ['PATH']}",
        ROOT=str(root),
        PITBOARD_SRC=str(src),
        STUB_STATE=str(state),
        REAL_PYTHON=sys.executable,
        PROFILE="grid6",
    )
    yield Installer(src, root, state, env)


def block_lines(config_txt: Path) -> list[str]:
    text = config_txt.read_text()
    start = text.index("# >>> pitboard")
    end = text.index("# <<< pitboard <<<")
    return text[start:end].splitlines()[1:]


def mutations(log: list[str]) -> list[str]:
    return [line for line in log if line.split()[0] in MUTATING]


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
    assert any(line.startswith("python -m pip install") for line in log)
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
        "dtparam=uart0",
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
    assert out.rstrip().endswith("install-pi: nothing changed")
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
    assert installer.ok(PROFILE="duo").rstrip().endswith("nothing changed")


# -- an installed configuration is the owner's ---------------------------------------------------

EDITED = '[table]\nkiosk = true\n'


def test_rerun_keeps_a_hand_edited_configuration(installer: Installer) -> None:
    installer.ok()
    config = installer.root / "etc/pitboard/pitboard.toml"
    config.write_text(EDITED + PROFILES["grid6"])
    before = installer.tree()
    installer.clear_log()
    out = installer.ok()
    assert installer.tree() == before
    assert config.read_text() == EDITED + PROFILES["grid6"]
    assert not config.with_name("pitboard.toml.old").exists()
    assert f"ok: {config} kept (installed earlier; it differs from profile grid6)" in out
    assert "NEW_CONFIG=1" in out
    assert out.rstrip().endswith("nothing changed")
    assert mutations(installer.log()) == []


def test_the_kept_configuration_drives_the_boot_settings(installer: Installer) -> None:
    installer.ok()
    config = installer.root / "etc/pitboard/pitboard.toml"
    config.write_text(PROFILES["grid6"].replace('"/dev/serial0"', '"/dev/ttyUSB0"'))
    out = installer.ok()
    assert "settings from the installed" in out
    assert "enable_uart=0" in block_lines(installer.config_txt)


@pytest.mark.parametrize("how", ["env", "flag"])
def test_a_new_configuration_only_when_asked_with_its_diff(installer: Installer, how: str) -> None:
    installer.ok()
    config = installer.root / "etc/pitboard/pitboard.toml"
    config.write_text(EDITED + PROFILES["grid6"])
    ask = {"NEW_CONFIG": "1"} if how == "env" else {}
    flag = () if how == "env" else ("--new-config",)

    before = installer.tree()
    out = installer.ok("--dry-run", *flag, **ask)
    assert installer.tree() == before
    assert f"would: install {config} from profile grid6" in out
    assert "    -kiosk = true" in out and "    -[table]" in out

    out = installer.ok(*flag, **ask)
    assert config.read_text() == PROFILES["grid6"]
    assert config.with_name("pitboard.toml.old").read_text() == EDITED + PROFILES["grid6"]
    assert "    -kiosk = true" in out
    assert installer.ok(*flag, **ask).rstrip().endswith("nothing changed")


def test_a_profile_file_by_path(installer: Installer, tmp_path: Path) -> None:
    mine = tmp_path / "elsewhere" / "club-table.toml"
    mine.parent.mkdir()
    mine.write_text(PROFILES["duo"].replace("400000", "100000"))
    out = installer.ok(PROFILE=str(mine))
    assert (installer.root / "etc/pitboard/pitboard.toml").read_text() == mine.read_text()
    assert "dtparam=i2c_arm=on,i2c_arm_baudrate=100000" in block_lines(installer.config_txt)
    assert f"profile {mine}" in out
    result = installer.run(PROFILE=str(tmp_path / "missing.toml"))
    assert result.returncode != 0
    assert "no profile file" in result.stderr


def test_bad_new_config_value(installer: Installer) -> None:
    result = installer.run(NEW_CONFIG="please")
    assert result.returncode != 0
    assert "NEW_CONFIG must be 0 or 1" in result.stderr
    assert installer.log() == []


def test_warns_while_the_staff_pin_is_a_shipped_default(installer: Installer) -> None:
    shipped = PROFILES["grid6"] + '[table]\nname = "x"\n'
    shipped = shipped.replace('[console]\n', '[console]\nstaff_pin = "2468"\n')
    (installer.src / "hw_config" / "grid6.toml").write_text(shipped)
    out = installer.ok()
    assert "staff PIN in" in out and "still the default" in out
    config = installer.root / "etc/pitboard/pitboard.toml"
    config.write_text(shipped.replace('"2468"', '"80417"'))
    out = installer.ok()
    assert "still the default" not in out
    # any shipped profile's PIN counts, not only the installed profile's
    config.write_text(shipped.replace('"2468"', '"1357"'))
    (installer.src / "hw_config" / "sim.toml").write_text(
        PROFILES["sim"].replace('[console]\n', '[console]\nstaff_pin = "1357"\n'))
    assert "still the default" in installer.ok()


def test_spi_display_turns_spi_on(installer: Installer) -> None:
    installer.ok(PROFILE="spiboard")
    assert "dtparam=spi=on" in block_lines(installer.config_txt)
    modules = installer.root / "etc/modules-load.d/pitboard.conf"
    assert "spidev" in modules.read_text().splitlines()
    assert "enable_uart=0" in block_lines(installer.config_txt)


def test_overrides_win_over_the_profile(installer: Installer) -> None:
    installer.ok(PROFILE="duo", UART="1", SPI="on")
    assert block_lines(installer.config_txt)[2:] == [
        "enable_uart=1", "[pi4]", "dtoverlay=disable-bt", "dtoverlay=", "[pi5]", "dtparam=uart0",
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
    """No copy of the pattern in the script: change hwconfig's and the installer follows."""
    hwconfig = installer.src / "firmware_py" / "pitboard" / "hwconfig" / "schema.py"
    text = hwconfig.read_text()
    changed = re.sub(r"^(PI_UART_PATTERN: Final = ).*$", r'\1r"/dev/ttyUSB[0-9]+"', text,
                     count=1, flags=re.MULTILINE)
    assert changed != text
    hwconfig.write_text(changed)
    installer.ok(PROFILE="duo")  # console on /dev/ttyUSB0
    assert "enable_uart=1" in block_lines(installer.config_txt)
    hwconfig.write_text("X = 1\n")
    result = installer.run(PROFILE="duo")
    assert result.returncode != 0
    assert "no string PI_UART_PATTERN" in result.stderr


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
    (installer.src / "firmware_py" / "pitboard" / "__init__.py").write_text('"""v2"""\n')
    out = installer.ok()
    assert "install pitboard into" in out
    assert [line.split()[:4] for line in mutations(installer.log())] == [
        ["python", "-m", "pip", "install"]
    ]
    copied = installer.root / "opt/pitboard/src/firmware_py/pitboard/__init__.py"
    assert copied.read_text() == '"""v2"""\n'


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
