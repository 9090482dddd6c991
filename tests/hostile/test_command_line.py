"""The command line a newcomer expects: --version, --help that lists the commands, games,
profiles and exit codes, one name per command, engines by file path from any folder, and
no certificate without evidence."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from examples.engines import path_of
from gamecert.fuzz.cli.args import EXIT_CODES, build_parser
from gamecert.fuzz.cli.main import main
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.spec import games, load_catalogue

ROOT = Path(__file__).resolve().parents[2]


def _exit(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit(["--version"]) == 0
    assert re.fullmatch(r"gamecert \S+\n", capsys.readouterr().out)


def test_help_lists_commands_games_profiles_and_exit_codes(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("rules", "certify", "replay", "prove", "serve"):
        assert command in out
    for game in games():
        assert game in out
        for profile in load_catalogue(game).profiles:
            assert profile in out
    for code in range(5):
        assert f"\n  {code}  " in out
    assert "fuzz" not in build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]


def test_profile_help_lists_each_games_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit(["certify", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for game in games():
        cat = load_catalogue(game)
        assert f"{game}: {cat.default_profile} (default)" in out
        assert all(p in out for p in cat.profiles)


def test_exit_codes_documented_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    codes = [line.split()[0] for line in EXIT_CODES.splitlines()[1:]
             if line.split()[0].isdigit()]  # continuation lines are indented text
    assert codes == ["0", "1", "2", "3", "4", "5", "130"]
    for code in codes:
        assert f"| {code} |" in readme


def test_engine_by_file_path_from_any_folder(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    mutant = path_of("flit", "turncap_off_by_one")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(["certify", "flit", "--engine", f"{mutant}:ENGINE", "--rounds", "10",
                     "--quiet", "--report", "out"]) == 1
        out = capsys.readouterr().out
        assert "[FLIT-END-TURNCAP]" in out and "confirmed" in out
        trace = next((tmp_path / "out" / "traces").glob("*.json"))
        assert main(["replay", str(trace), "--engine",
                     os.path.relpath(mutant, tmp_path) + ":ENGINE"]) == 1
        assert "reproduced" in capsys.readouterr().out
    finally:
        os.chdir(here)


def test_a_run_that_executed_no_step_never_certifies(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = run_campaign("flit", object_recipe("flit", "reference"), budget=1e-9)
    assert result.coverage.steps == 0 and result.status == "incomplete"
    assert main(["certify", "flit", "--engine", "reference", "--budget", "1e-9",
                 "--quiet"]) == 4
    out = capsys.readouterr().out
    assert "no step was executed" in out and "CERTIFIED" not in out


def test_certificate_names_what_was_certified(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["certify", "flit", "--rounds", "1", "--quiet", "--seed", "4",
                 "--report", str(tmp_path)]) in (0, 4)  # clean (one round: maybe incomplete)
    out = capsys.readouterr().out
    assert "engine says: 'gamecert-reference-flit' plays 'flit'" in out
    doc = json.loads((tmp_path / "report.json").read_text())
    assert doc["engine_spec"]["kind"] == "command"
    assert doc["engine_spec"]["command"][-2:] == ["serve", "flit"]
    assert doc["engine_hello"]["game"] == "flit" and doc["seed"] == 4
    assert doc["profile"] == "standard" and doc["gamecert_version"]
