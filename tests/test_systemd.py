"""The systemd unit: systemd-analyze verify (no warnings) and its security score, the
essentials and the devices it allows (install-pi.sh: test_install_pi.py, test_install_config.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from systemdkit import REPO, UNIT, one, unit_settings

ANALYZE = shutil.which("systemd-analyze") or (
    "/usr/bin/systemd-analyze" if Path("/usr/bin/systemd-analyze").exists() else None
)
needs_analyze = pytest.mark.skipif(
    ANALYZE is None, reason="systemd-analyze is not installed (it comes with systemd)")


@pytest.fixture(scope="module")
def unit() -> dict[tuple[str, str], list[str]]:
    return unit_settings(UNIT.read_text())


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
