"""Build Pitboard as it ships: an sdist and a wheel from the tracked files only (what
``git archive`` gives), installed by ``install-pi.sh`` into a staging root: a fresh venv outside
the checkout with that wheel, exactly what a Pi's service runs.

The wheel is built from the sdist (``python -m build`` does that when asked for both), so a
file missing from the sdist is missing from the wheel too, and :func:`missing_files` names it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from systemdkit import Installer, new_installer

REPO = Path(__file__).resolve().parent.parent
PACKAGE = Path("firmware_py") / "pitboard"
#: a bound on a build or an install (pip may download what its cache lacks)
TIMEOUT = 600


def tracked_files(repo: Path = REPO) -> list[Path]:
    """The repository's tracked files (relative), as a clean clone or ``git archive`` has
    them; None-tracked junk in the working tree (editor backups, caches) is left out."""
    out = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True,
                         check=True, timeout=TIMEOUT).stdout
    return [Path(p) for p in out.decode().split("\0") if p]


def export_tree(dest: Path, repo: Path = REPO) -> Path:
    """Copy the tracked files (symlinks as symlinks) to ``dest``; deleted ones are skipped."""
    for rel in tracked_files(repo):
        src = repo / rel
        if not src.is_symlink() and not src.exists():
            continue  # deleted in the working tree, not yet committed
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            target.symlink_to(os.readlink(src))
        else:
            shutil.copy2(src, target)
    return dest


@dataclass(frozen=True)
class Artifacts:
    #: the tracked tree they were built from (what a clean clone holds)
    src: Path
    sdist: Path
    wheel: Path

    def sdist_names(self) -> set[str]:
        with tarfile.open(self.sdist) as tar:
            top = tar.getnames()[0].split("/")[0]
            return {n.removeprefix(top + "/") for n in tar.getnames() if n != top}

    def wheel_names(self) -> set[str]:
        with zipfile.ZipFile(self.wheel) as whl:
            return set(whl.namelist())


def build(workdir: Path) -> Artifacts:
    """Export the tracked tree to ``workdir/src`` and build the sdist, then the wheel from it,
    into ``workdir/dist`` (no network: the dev venv's setuptools, ``--no-isolation``)."""
    src = export_tree(workdir / "src")
    dist = workdir / "dist"
    result = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel",
         "--outdir", str(dist), str(src)],
        capture_output=True, text=True, timeout=TIMEOUT, cwd=workdir)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (sdist,) = dist.glob("pitboard-*.tar.gz")
    (wheel,) = dist.glob("pitboard-*.whl")
    return Artifacts(src, sdist, wheel)


def missing_files(artifacts: Artifacts, repo: Path = REPO) -> list[str]:
    """Every tracked file of the package that the sdist or the wheel lacks, one line each."""
    problems = []
    sdist, wheel = artifacts.sdist_names(), artifacts.wheel_names()
    for rel in tracked_files(repo):
        if not rel.is_relative_to(PACKAGE) or not (repo / rel).is_file():
            continue
        in_package = rel.relative_to(PACKAGE.parent).as_posix()  # pitboard/...
        if rel.as_posix() not in sdist:
            problems.append(f"{rel}: not in the sdist {artifacts.sdist.name}")
        if in_package not in wheel:
            problems.append(f"{rel}: not in the wheel {artifacts.wheel.name}")
    return problems


def clean_env(bin_dir: Path, home: Path, **extra: str) -> dict[str, str]:
    """An environment that sees only the venv and the system: no PYTHONPATH, no checkout, a
    home of its own (so state and caches land there)."""
    env = {"PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin", "HOME": str(home),
           "LANG": "C.UTF-8", **extra}
    for name in ("TMPDIR", "SYSTEMROOT"):
        if name in os.environ:
            env[name] = os.environ[name]
    return env


@dataclass(frozen=True)
class Installed:
    """The built artifacts, installed as a Pi gets them: ``install-pi.sh`` with ``WHEEL=`` into a
    staging root (``installer``; what it printed: ``output``), whose new venv (``bin``, its
    ``site``-packages) holds the wheel and its dependencies; ``env`` and ``home`` see nothing
    of the checkout."""

    artifacts: Artifacts
    installer: Installer
    output: str
    bin: Path
    site: Path
    home: Path
    env: dict[str, str]


def install_fresh(workdir: Path) -> Installed:
    """Build, then install with the installer into ``workdir/stage`` (real venv and pip;
    stand-ins for apt-get, useradd, systemctl), the sim profile as the configuration. pip
    compiles nothing ahead (PIP_NO_COMPILE): the commands compile what they import, once."""
    artifacts = build(workdir)
    installer = new_installer(workdir / "stage", src=artifacts.src)
    output = installer.ok(PROFILE="sim", WHEEL=str(artifacts.wheel), PIP_NO_COMPILE="1")
    venv = installer.root / "opt" / "pitboard" / ".venv"
    (site,) = (venv / "lib").glob("python3*/site-packages")
    home = workdir / "home"
    home.mkdir()
    return Installed(artifacts, installer, output, venv / "bin", site, home,
                     clean_env(venv / "bin", home))
