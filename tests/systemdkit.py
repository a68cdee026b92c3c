"""Test kit for systemd/: the unit's settings and a sandbox that runs install-pi.sh against a
fake source tree and Pi root, with stub system commands that log what they would change."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "pitboard.service"
WEB_DROPIN = REPO / "systemd" / "pitboard-web.conf"
TV_DESKTOP = REPO / "systemd" / "pitboard-tv.desktop"
INSTALL = REPO / "systemd" / "install-pi.sh"
PACKAGE = REPO / "firmware_py" / "pitboard"


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


def one(unit: dict[tuple[str, str], list[str]], key: str, section: str = "Service") -> str:
    values = unit.get((section, key))
    assert values, f"{key}= missing from [{section}]"
    return values[-1]


#: every stand-in command is this one bash script under the command's name (bash, not Python:
#: an installer run calls a dozen of them, and a Python start-up each cost most of the tests' time)
STUB = r"""#!/usr/bin/env bash
name=${0##*/}
state=$STUB_STATE
log() { printf '%s\n' "$name${*:+ $*}" >>"$state/log"; }
join_group() { # USER GROUP
    awk -F: -v OFS=: -v u="$1" -v g="$2" '$1 == g { $4 = ($4 == "" ? u : $4 "," u) } { print }' \
        "$state/group" >"$state/group.new" && mv "$state/group.new" "$state/group"
}
case $name in
    dpkg-query)
        grep -qx -- "${*: -1}" "$state/dpkg" 2>/dev/null || exit 1
        printf installed; exit 0 ;;
    getent)
        grep -m1 -- "^$2:" "$state/$1" 2>/dev/null || exit 2
        exit 0 ;;
    systemctl)
        words=(); for a in "$@"; do [[ $a == -* ]] || words+=("$a"); done
        verb=${words[0]}; unit=${words[1]:-pitboard.service}
        # "enabled" marks pitboard.service, "enabled-<unit>" any other unit
        flag=$state/enabled
        [[ $unit == pitboard.service ]] || flag=$state/enabled-$unit
        case $verb in
            is-enabled) [[ -e $flag ]]; exit ;;
            is-active) exit 3 ;;
        esac
        log "$@"
        [[ $verb == enable ]] && touch "$flag"
        [[ $verb == disable ]] && rm -f "$flag"
        exit 0 ;;
    python3)
        [[ $1 == -m && $2 == venv ]] || exec "$REAL_PYTHON" "$@" ;;
esac
log "$@"
[[ ${STUB_FAIL:-} == "$name" ]] && exit 100
case $name in
    python3) # -m venv [...] DIR
        venv=${*: -1}
        mkdir -p "$venv/bin"
        cp "$0" "$venv/bin/python"
        flag=false; [[ " $* " == *" --system-site-packages "* ]] && flag=true
        printf 'include-system-site-packages = %s\n' "$flag" >"$venv/pyvenv.cfg" ;;
    python) # the venv's: -m pip wheel ... --wheel-dir DIR SRC, or -m pip install ...
        if [[ $3 == wheel ]]; then
            args=("$@")
            for ((k = 0; k < ${#args[@]}; k++)); do
                [[ ${args[k]} == --wheel-dir ]] && dist=${args[k + 1]}
            done
            printf 'a wheel\n' >"$dist/pitboard-0-py3-none-any.whl"
        else
            printf '#!/bin/sh\nexit 0\n' >"${0%/*}/pitboard"
            chmod 755 "${0%/*}/pitboard"
        fi ;;
    apt-get)
        if [[ " $* " == *" install "* ]]; then
            seen=0
            for a in "$@"; do
                if ((seen)) && [[ $a != -* ]]; then printf '%s\n' "$a" >>"$state/dpkg"; fi
                [[ $a == install ]] && seen=1
            done
        fi ;;
    groupadd)
        count=$(wc -l <"$state/group")
        printf '%s:x:%d:\n' "${*: -1}" $((900 + count)) >>"$state/group" ;;
    useradd)
        user=${*: -1}
        printf '%s:x:999:999::/var/lib/pitboard:/bin/false\n' "$user" >>"$state/passwd"
        args=("$@")
        for ((k = 0; k < ${#args[@]}; k++)); do
            [[ ${args[k]} == --groups ]] && groups=${args[k + 1]}
        done
        IFS=, read -ra list <<<"$groups"
        for g in "${list[@]}"; do join_group "$user" "$g"; done ;;
    usermod)
        args=("$@")
        for ((k = 0; k < ${#args[@]}; k++)); do
            [[ ${args[k]} == --groups ]] && group=${args[k + 1]}
        done
        join_group "${*: -1}" "$group" ;;
esac
exit 0
"""

MUTATING = ("apt-get", "groupadd", "useradd", "usermod", "systemctl", "python3", "python",
            "raspi-config")

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
HEAD = '[table]\nname = "Test table"\n[journal]\ndir = "journal"\n'
PI_CMDLINE = (
    "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
    "fsck.repair=yes rootwait quiet splash plymouth.ignore-serial-consoles\n"
)
PROFILES = {
    "sim": HEAD + '[console]\nport = ""\nstaff_pin = "2468"\n'
    '[[stations]]\ninput = { kind = "emulated" }\n'
    'display = { driver = "ssd1306", bus = "emulated" }\n',
    "duo": HEAD + '[console]\nport = "/dev/ttyUSB0"  # never /dev/serial0, dtparam=spi=off\n'
    'staff_pin = "2468"\n'
    "[i2c]\nbus = 1\nbaudrate = 400000\n"
    '[[stations]]\ninput = { kind = "gpio", lever = [4, 17, 27, 22], '
    'slots = [10, 9, 11, 5, 6, 13, 19], go = 26 }\n'
    'display = { driver = "ssd1306", bus = "i2c", address = 0x3C }\n',
    "grid6": HEAD + '[console]\nport = "/dev/serial0"\nstaff_pin = "2468"\n'
    '[i2c]\nbus = 1\nbaudrate = 400000\n[i2c.mux]\ntype = "tca9548a"\naddress = 0x70\n'
    '[[stations]]\ninput = { kind = "mcp23017", mux_channel = 0, address = 0x20 }\n'
    'display = { driver = "ssd1306", bus = "i2c", mux_channel = 0, address = 0x3C }\n',
    "spiboard": HEAD + '[console]\nport = "/dev/ttyACM0"\nstaff_pin = "2468"\n'
    '[[stations]]\ninput = { kind = "gpio", lever = [4, 17, 27, 22], '
    'slots = [5, 6, 13, 19, 26, 16, 20], go = 21 }\n'
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
        # nothing on stderr but pip's own warnings (a machine's pip.conf may name a missing
        # find-links folder, for instance) when pip runs for real
        assert [line for line in result.stderr.splitlines()
                if not line.startswith("WARNING: ")] == [], result.stderr
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


def fake_source(src: Path) -> Path:
    """A checkout's layout with the real package, the test PROFILES as its shipped ones."""
    (src / "systemd").mkdir(parents=True)
    shutil.copy(UNIT, src / "systemd" / UNIT.name)
    shutil.copy(WEB_DROPIN, src / "systemd" / WEB_DROPIN.name)
    shutil.copy(TV_DESKTOP, src / "systemd" / TV_DESKTOP.name)
    # with its bytecode (copy2 keeps the sources' times, so it stays valid): every installer
    # run starts Python on this copy two or three times, each would compile it all again
    shutil.copytree(PACKAGE, src / "firmware_py" / "pitboard",
                    ignore=shutil.ignore_patterns("hw_config"))
    profiles = src / "firmware_py" / "pitboard" / "hw_config"
    profiles.mkdir()
    for name, text in PROFILES.items():
        (profiles / f"{name}.toml").write_text(text)
    (src / "hw_config").symlink_to("firmware_py/pitboard/hw_config")
    (src / "pyproject.toml").write_text('[project]\nname = "pitboard"\nversion = "0"\n')
    (src / "README.md").write_text("fake\n")
    (src / "MANIFEST.in").write_text("graft firmware_py/pitboard\n")
    return src


def new_installer(tmp_path: Path, *, src: Path | None = None) -> Installer:
    """A source tree laid out as a checkout (the real package, the test profiles as its
    shipped ones, ``hw_config`` linking to them), a Pi root and stub commands under
    ``tmp_path``. With ``src`` (a real checkout) the installer runs Python for real: its
    venv, pip and the installed ``pitboard``; the system commands are still stubs."""
    real_python = src
    if src is None:
        src = fake_source(tmp_path / "src")
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
    stub = stubs / "stub.sh"
    stub.write_text(STUB)
    stub.chmod(0o755)
    for name in ("apt-get", "dpkg-query", "getent", "groupadd", "useradd", "usermod",
                 "raspi-config"):
        shutil.copy(stub, stubs / name)
    for name in ("systemctl", "python3") if real_python is None else ("systemctl",):
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
    return Installer(src, root, state, env)


def block_lines(config_txt: Path) -> list[str]:
    text = config_txt.read_text()
    start = text.index("# >>> pitboard")
    end = text.index("# <<< pitboard <<<")
    return text[start:end].splitlines()[1:]


def mutations(log: list[str]) -> list[str]:
    return [line for line in log if line.split()[0] in MUTATING]
