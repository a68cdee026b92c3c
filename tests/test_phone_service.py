"""The service with phones (systemd/pitboard-web.conf): the unit keeps pitboard off the
network; the drop-in for a profile that serves phones opens it to the local network only, and
the unit with it still verifies without a warning and stays within the exposure limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from systemdkit import REPO, UNIT, unit_settings
from test_systemd import analyze, needs_analyze, verifiable_copy

DROP_IN = REPO / "systemd" / "pitboard-web.conf"


def _with_drop_in() -> str:
    # systemd reads a drop-in after the unit: the same as its lines appended to the unit
    return UNIT.read_text() + "\n" + DROP_IN.read_text()


def test_the_drop_in_opens_the_lan_and_nothing_else() -> None:
    settings = unit_settings(DROP_IN.read_text())
    assert set(settings) == {("Service", key) for key in (
        "PrivateNetwork", "RestrictAddressFamilies", "IPAddressDeny", "IPAddressAllow")}
    assert settings[("Service", "IPAddressDeny")] == ["any"]
    allowed = settings[("Service", "IPAddressAllow")][0].split()
    assert "any" not in allowed and "0.0.0.0/0" not in allowed
    assert set(allowed) <= {"localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12",
                            "192.168.0.0/16", "fc00::/7"}
    assert settings[("Service", "RestrictAddressFamilies")] == ["AF_UNIX AF_INET AF_INET6"]


@needs_analyze
def test_the_unit_with_the_drop_in_verifies_without_a_warning(tmp_path: Path) -> None:
    path = verifiable_copy(tmp_path, _with_drop_in())
    result = analyze("verify", str(path), cwd=tmp_path)
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")


@needs_analyze
def test_the_unit_with_the_drop_in_stays_within_the_exposure_limit(tmp_path: Path) -> None:
    path = verifiable_copy(tmp_path, _with_drop_in())
    result = analyze("security", "--offline=yes", str(path), cwd=tmp_path)
    found = [line for line in result.stdout.splitlines() if "Overall exposure level" in line]
    assert found, result.stdout[-500:]
    exposure = float(found[0].split(":")[1].split()[0])
    assert exposure <= 2.0


@pytest.mark.parametrize("name", ["phones", "sim"])
def test_shipped_profiles_with_phones_say_where(name: str) -> None:
    from pitboard.hwconfig import load_profile
    from pitboard.hwconfig.web import join_url

    web = load_profile(name).web
    assert web.enabled
    url = join_url(web, hostname="pitboard")
    assert url == ("http://pitboard.local:8080/" if name == "phones"
                   else "http://127.0.0.1:8080/")
