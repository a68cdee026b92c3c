"""The installer as a Pi runs it, into a staging root: the wheel the other tests ran (WHEEL=)
goes into a real venv with its dependencies, and the installed copy works there:
check-config, hw-test and the first frame of ``pitboard run`` on the installed configuration.
Only the system commands (apt-get, useradd, systemctl, ...) are stand-ins."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from runkit import run_until_ready
from wheelkit import Installed, clean_env

pytestmark = pytest.mark.xdist_group("wheel")

TIMEOUT = 300.0  # pip may fetch what its cache lacks


def test_the_staged_install_runs_the_tested_wheel(installed: Installed, tmp_path: Path) -> None:
    installer, out = installed.installer, installed.output
    assert "ok: profile" in out and "passes pitboard check-config" in out
    assert f"install pitboard into {installer.root}/opt/pitboard/.venv from " \
        f"{installed.artifacts.wheel.name}" in out
    command = installed.bin / "pitboard"
    assert os.readlink(installer.root / "usr/local/bin/pitboard") == \
        "/opt/pitboard/.venv/bin/pitboard"
    config = installer.root / "etc" / "pitboard" / "pitboard.toml"
    assert config.read_bytes() == (installed.artifacts.src / "hw_config" / "sim.toml").read_bytes()
    # the installed copy is the wheel's, and nothing was built on the "Pi"
    assert (installed.site / "pitboard" / "engine" / "garage" / "upgrades.toml").is_file()
    assert not (installer.root / "opt" / "pitboard" / "src").exists()

    home = tmp_path / "home"
    home.mkdir()
    env = clean_env(command.parent, home)
    for args in (["check-config", str(config)], ["hw-test", "sim", "--seconds", "0"]):
        result = subprocess.run([str(command), *args], capture_output=True, text=True, env=env,
                                cwd=home, timeout=TIMEOUT)
        assert result.returncode == 0, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr

    status, err = run_until_ready([str(command), "run", "--config", str(config)], env=env,
                                  cwd=home, notify=tmp_path / "notify")
    assert status == 0, err
    assert f"(profile {config})" in err

    installer.clear_log()
    assert "install-pi: nothing changed" in installer.ok(
        PROFILE="sim", WHEEL=str(installed.artifacts.wheel), PIP_NO_COMPILE="1").splitlines()
