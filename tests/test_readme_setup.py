"""The README's set-up, run as written on a fresh copy of the repository, with the machine's
own `python3` as a fresh machine's shell finds it (not this test's virtual environment).

Where that Python refuses to install packages (PEP 668: Debian 12, Ubuntu 23.04 and later,
`externally-managed-environment`), the test first shows that the old first command
(`python3 -m pip install .`) fails there; the README's commands must work all the same.
The packages come from the package index, as in CI. Slow: it installs gamecert and its
dependencies into a new virtual environment, and runs the README's main job (20 s).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def readme_commands() -> list[str]:
    """The Set-up section's commands, read as .ci/run reads them."""
    import runpy

    module = runpy.run_path(str(ROOT / ".ci" / "readme_commands.py"))
    commands: list[str] = module["setup_commands"]((ROOT / "README.md").read_text("utf-8"))
    return commands


def fresh_shell_path() -> str:
    """A PATH whose python3 is the machine's own: the system's when there is one, else the
    test run's PATH without this virtual environment."""
    if shutil.which("python3", path=SYSTEM_PATH):
        return SYSTEM_PATH
    venv_bin = str(Path(sys.prefix) / "bin")
    return os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if p and p != venv_bin)


def externally_managed(path: str) -> bool:
    python = shutil.which("python3", path=path)
    if python is None:
        return False
    out = subprocess.run([python, "-c", "import sysconfig, os; print(os.path.isfile(os.path."
                          "join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')))"],
                         capture_output=True, text=True, timeout=60)
    return out.stdout.strip() == "True"


def fresh_copy(target: Path) -> Path:
    """The repository's files as they are now in the work tree (tracked, and new files not
    ignored), nothing else: no virtual environment, no cache, no build."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, timeout=60, check=True).stdout.decode()
    for name in filter(None, out.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def test_the_readme_has_two_commands_and_ci_runs_them_as_written() -> None:
    first, second = readme_commands()
    assert first.startswith("python3 -m venv .venv && ") and "gamecert certify flit" in first
    assert "pytest" in second
    # neither installs into the Python that runs it: only into the venv the first makes
    for command in (first, second):
        assert "python3 -m pip" not in command and "pip install" in command
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert "readme_commands.py README.md" in ci and "pip install ." not in ci


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_readme_set_up_works_as_written(tmp_path: Path) -> None:
    if not (shutil.which("git") and (ROOT / ".git").exists()):
        pytest.fail("this test copies the repository's tracked files: it needs its git checkout")
    first, second = readme_commands()
    path = fresh_shell_path()
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PATH")}
    env.update(PATH=path, XDG_CACHE_HOME=str(tmp_path / "cache"))
    work = fresh_copy(tmp_path / "gamecert")
    if externally_managed(path):  # where the old first command failed
        old = subprocess.run(["bash", "-c", "python3 -m pip install ."], cwd=work, env=env,
                             capture_output=True, text=True, timeout=300)
        assert old.returncode != 0 and "externally-managed-environment" in old.stderr, \
            old.stdout[-2000:] + old.stderr[-2000:]
    one = subprocess.run(["bash", "-c", first], cwd=work, env=env, capture_output=True,
                         text=True, timeout=1200)
    said = one.stdout[-3000:] + one.stderr[-3000:]
    assert (work / ".venv" / "bin" / "gamecert").is_file(), said
    # the main job ran to a verdict: certified, or incomplete on a machine too busy for 20 s
    assert one.returncode in (0, 4), said
    assert ("CERTIFIED:" in one.stdout or "INCOMPLETE:" in one.stdout), said
    assert "RULES VIOLATED" not in one.stdout
    # the second command's install as written, and its test run as far as collecting the
    # whole suite (running it is CI's job, through .ci/run: 25 minutes and more)
    two = subprocess.run(["bash", "-c", f"{second} --collect-only -q"], cwd=work, env=env,
                         capture_output=True, text=True, timeout=1200)
    assert two.returncode == 0, two.stdout[-3000:] + two.stderr[-3000:]
    assert " tests collected" in two.stdout or "tests collected" in two.stdout, \
        two.stdout[-2000:]
