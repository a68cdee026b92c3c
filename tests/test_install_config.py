"""systemd/install-pi.sh and an installed configuration: it is the owner's. A rerun keeps a
hand-edited one (and takes the boot settings from it), a new one only when asked, with its diff;
a profile file by path; the warning while the staff PIN is a shipped default."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from systemdkit import PROFILES, Installer, block_lines, mutations, new_installer


@pytest.fixture
def installer(tmp_path: Path) -> Iterator[Installer]:
    yield new_installer(tmp_path)


#: the grid6 profile as its owner edited it: a kiosk now, without a TV on its HDMI (a kiosk's
#: TV would be set up by the rerun: test_install_pi.py)
EDITED = PROFILES["grid6"].replace("[table]\n", "[table]\nkiosk = true\n", 1) + \
    "\n[tv]\nscreen = false\n"


def test_rerun_keeps_a_hand_edited_configuration(installer: Installer) -> None:
    installer.ok()
    config = installer.root / "etc/pitboard/pitboard.toml"
    config.write_text(EDITED)
    before = installer.tree()
    installer.clear_log()
    out = installer.ok()
    assert installer.tree() == before
    assert config.read_text() == EDITED
    assert not config.with_name("pitboard.toml.old").exists()
    assert f"ok: {config} kept (installed earlier; it differs from profile grid6)" in out
    assert "NEW_CONFIG=1" in out
    assert "install-pi: nothing changed" in out.splitlines()
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
    config.write_text(EDITED)
    ask = {"NEW_CONFIG": "1"} if how == "env" else {}
    flag = () if how == "env" else ("--new-config",)

    before = installer.tree()
    out = installer.ok("--dry-run", *flag, **ask)
    assert installer.tree() == before
    assert f"would: install {config} from profile grid6" in out
    assert "    -kiosk = true" in out

    out = installer.ok(*flag, **ask)
    assert config.read_text() == PROFILES["grid6"]
    assert config.with_name("pitboard.toml.old").read_text() == EDITED
    assert "    -kiosk = true" in out
    assert "install-pi: nothing changed" in installer.ok(*flag, **ask).splitlines()


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
    out = installer.ok()  # the test profiles ship "2468"
    assert "staff PIN in" in out and "still the default" in out
    config = installer.root / "etc/pitboard/pitboard.toml"
    config.write_text(PROFILES["grid6"].replace('"2468"', '"80417"'))
    out = installer.ok()
    assert "still the default" not in out
    # any shipped profile's PIN counts, not only the installed profile's
    config.write_text(PROFILES["grid6"].replace('"2468"', '"1357"'))
    (installer.src / "hw_config" / "sim.toml").write_text(
        PROFILES["sim"].replace('"2468"', '"1357"'))
    assert "still the default" in installer.ok()
