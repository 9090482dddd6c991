"""Profile files (`--profile-file`): bad files are exit 2 naming the file, the line and the
allowed values, with nothing written; a season's profile travels with the work (worker
processes, traces, reports, checkpoints) and engines are told its values."""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path

import pytest

import gamecert
from examples.engines import engine_spec, load, path_of
from gamecert.fuzz.cli.args import EXIT_BAD_INPUT, EXIT_OK, EXIT_VIOLATIONS
from gamecert.fuzz.cli.main import main
from gamecert.fuzz.engines.recipes import open_engine
from gamecert.schemas import first_error
from gamecert.spec import load_catalogue
from gamecert.spec.profile_file import (
    ProfileFileError,
    diff_profiles,
    profile_from_record,
    profile_record,
    read_profile_file,
    record_key,
)

ROOT = Path(__file__).resolve().parent.parent
SEASON = ROOT / "examples" / "seasons" / "botwars-energy-5.toml"
EVERY_3 = f"{path_of('botwars', 'season_energy_every_3')}:ENGINE"

GOOD = """\
game = "botwars"
id = "club"
title = "A club season"
extends = "standard"

[variants.BOTWARS-ENERGY-SPAWN]
reading = "from-first"
title = "From turn 1"
reason = "the club's schedule"

[parameters.BOTWARS-ENERGY-SPAWN.interval]
value = 5
title = "Every 5 turns"
reason = "fewer squares"
"""

CARC = """\
game = "carcassonne"
id = "club-2p"
title = "Two players"
extends = "syncs-2025-base"

[players]
value = {players}
title = "Two players"
reason = "a duel league"
"""

# (name, file name, text, what the message must say, the line it must name or None)
BAD: list[tuple[str, str, str, list[str], int | None]] = [
    ("toml syntax", "s.toml", GOOD.replace('reading = "from-first"', 'reading = from-first'),
     ["not valid TOML", "line 7"], None),
    ("json syntax", "s.json", '{"game": "botwars",\n "id": "x",\n "title" "t"}',
     ["not valid JSON"], 3),
    ("missing extends", "s.toml", GOOD.replace('extends = "standard"\n', ""),
     ["'extends' is a required property"], None),
    ("unknown extends", "s.toml", GOOD.replace('"standard"', '"stadard"'),
     ["no shipped profile 'stadard'", "alternate, lenient, original, port, standard"], 4),
    ("unknown rule (reading)", "s.toml", GOOD.replace("variants.BOTWARS-ENERGY-SPAWN",
                                                      "variants.BOTWARS-ENERGY-SPAWNS"),
     ["no rule 'BOTWARS-ENERGY-SPAWNS'", "rules with readings:", "BOTWARS-GRID"], 6),
    ("rule without readings", "s.toml", GOOD.replace("variants.BOTWARS-ENERGY-SPAWN",
                                                     "variants.BOTWARS-SPAWN-POINTS"),
     ["BOTWARS-SPAWN-POINTS has no readings", "rules with readings:"], 6),
    ("unknown reading", "s.toml", GOOD.replace('"from-first"', '"from-the-first"'),
     ["'from-the-first' is not a reading", "readings: every-third, from-first"], 7),
    ("unknown rule (parameter)", "s.toml", GOOD.replace(
        "parameters.BOTWARS-ENERGY-SPAWN.", "parameters.BOTWARS-ENERGY."),
     ["no rule 'BOTWARS-ENERGY'", "rules with parameters:", "BOTWARS-GRID"], 11),
    ("unknown parameter", "s.toml", GOOD.replace(".interval]", ".every]"),
     ["has no parameter 'every'", "its parameters: interval"], 11),
    ("wrong type", "s.toml", GOOD.replace("value = 5", 'value = "5"'),
     ["takes an integer", "not '5'"], 12),
    ("out of range", "s.toml", GOOD.replace("value = 5", "value = 0"),
     ["0 is out of range", "an integer from 1 to"], 12),
    ("missing reason", "s.toml", GOOD.replace('reason = "fewer squares"\n', ""),
     ["'reason' is a required property"], 11),
    ("unknown key", "s.toml", GOOD.replace('title = "A club season"',
                                           'title = "A club season"\nseason = 2'),
     ["unknown key 'season'", "allowed: extends, format, game, id, parameters, players"], 4),
    ("players where fixed", "s.toml", GOOD + '[players]\nvalue = 3\ntitle = "t"\nreason = "r"\n',
     ["botwars has no player-count parameter"], 15),
    ("players out of range", "s.toml", CARC.format(players=7),
     ["7 is out of range", "an integer from 2 to 5"], 7),
    ("shipped id", "s.toml", GOOD.replace('id = "club"', 'id = "port"'),
     ["'port' is a shipped profile's name"], 2),
    ("other game", "s.toml", GOOD.replace('game = "botwars"', 'game = "flit"'),
     ["this is a flit profile, not botwars"], 1),
    ("not toml or json", "s.yaml", GOOD, ["a profile file is .toml or .json"], None),
]


@pytest.mark.parametrize(("name", "filename", "text", "says", "line"), BAD,
                         ids=[b[0] for b in BAD])
def test_a_bad_profile_file_is_exit_2_naming_the_place(
        name: str, filename: str, text: str, says: list[str], line: int | None,
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / filename
    path.write_text(text, "utf-8")
    report = tmp_path / "out"
    game = "carcassonne" if text.startswith('game = "carcassonne"') else "botwars"
    code = main(["certify", game, "--engine", "reference", "--rounds", "1", "--quiet",
                 "--profile-file", str(path), "--report", str(report)])
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT, err
    assert str(path) in err
    for words in says:
        assert words in err, err
    if line is not None:
        assert f"line {line}" in err, err
    assert not report.exists()  # nothing written


def test_every_command_reads_a_bad_file_the_same_way(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.toml"
    path.write_text(GOOD.replace("value = 5", "value = 0"), "utf-8")
    for argv in (["rules", "botwars"], ["prove", "botwars"],
                 ["bot-check", "botwars", "--bot-cmd", "true"]):
        assert main([*argv, "--profile-file", str(path)]) == EXIT_BAD_INPUT, argv
        assert f"{path}: line 12:" in capsys.readouterr().err
    assert main(["certify", "botwars", "--profile", "port", "--profile-file",
                 str(SEASON)]) == EXIT_BAD_INPUT
    assert "not both" in capsys.readouterr().err


def test_a_season_is_read_with_its_changes_and_records_itself() -> None:
    season = read_profile_file(SEASON)
    assert season.id == "season-energy-5" and season.extends == "standard"
    assert season.variant("BOTWARS-ENERGY-SPAWN") == "from-first"
    assert season.param("BOTWARS-ENERGY-SPAWN", "interval") == 5
    assert [c.reason for c in season.changes] == [
        "the season places energy on the first turn, then every interval",
        "fewer energy squares make spawning dearer"]
    record = profile_record(season)
    assert profile_from_record(json.loads(json.dumps(record))) is season  # one per process
    assert record_key(season).startswith("season-energy-5@")
    standard = load_catalogue("botwars").profile("standard")
    assert record_key(standard) == "standard"
    changed = {**record, "parameters": {**record["parameters"],
                                        "BOTWARS-ENERGY-SPAWN.interval": 0}}
    with pytest.raises(ProfileFileError, match="out of range"):
        profile_from_record(changed)


def test_diff_lists_the_changes_rule_by_rule(capsys: pytest.CaptureFixture[str]) -> None:
    cat = load_catalogue("botwars")
    season = read_profile_file(SEASON)
    changes = diff_profiles(cat.profile("standard"), season, cat)
    assert [(c.rule, c.what, c.old, c.new) for c in changes] == [
        ("BOTWARS-ENERGY-SPAWN", "reading", "every-third", "from-first"),
        ("BOTWARS-ENERGY-SPAWN", "interval", 3, 5)]
    # against the port's profile: only what the season leaves as the standard has it
    assert [(c.rule, c.old, c.new) for c in diff_profiles(cat.profile("port"), season, cat)] \
        == [("BOTWARS-ENERGY-CONTESTED", "majority", "removed")]
    assert main(["rules", "botwars", "--profile-file", str(SEASON), "--diff"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "2 change(s) in 1 rule(s)" in out
    assert "interval: 3 -> 5  (fewer energy squares make spawning dearer)" in out
    assert main(["rules", "botwars", "--profile-file", str(SEASON), "--diff", "port"]) == 0
    assert "1 change(s) in 1 rule(s)" in capsys.readouterr().out


def test_the_subprocess_engine_is_told_the_seasons_values() -> None:
    """The bundled reference, served as a process, plays the season from new_game's rules."""
    season = read_profile_file(SEASON)
    engine = open_engine("botwars", command=[sys.executable, "-m", "gamecert", "serve", "botwars"])
    phases = []
    try:
        engine.hello()
        for profile in (season, load_catalogue("botwars").profile("standard")):
            engine.new_game(profile, 1)
            for _ in range(2):  # both players submit no moves: the first turn resolves
                state, _ = engine.apply({"type": "moves", "moves": []})
            phases.append((state["profile"], state["phase"]))
    finally:
        engine.close()
    # from-first: energy is due after the first turn; the shipped rule waits for turn 3
    assert phases == [("season-energy-5", "energy"), ("standard", "p1")]


def test_a_season_travels_to_workers_traces_and_reports(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    season = tmp_path / "season.toml"
    shutil.copy(SEASON, season)
    out = tmp_path / "out"
    code = main(["certify", "botwars", "--engine", EVERY_3, "--profile-file", str(season),
                 "--rounds", "3", "--jobs", "2", "--quiet", "--report", str(out)])
    text = capsys.readouterr().out
    assert code == EXIT_VIOLATIONS, text
    assert f"--profile-file {season}" in text
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert first_error("report", report) is None
    assert report["profile"] == "season-energy-5"
    assert report["profile_doc"]["parameters"]["BOTWARS-ENERGY-SPAWN.interval"] == 5
    assert [f["primary"] for f in report["findings"]] == ["BOTWARS-ENERGY-SPAWN"]
    checkpoint = json.loads((out / "checkpoint.json").read_text("utf-8"))
    assert checkpoint["profile_doc"] == report["profile_doc"]
    trace = out / report["findings"][0]["trace"]
    doc = json.loads(trace.read_text("utf-8"))
    assert first_error("trace", doc) is None
    assert doc["profile_doc"]["changes"][1]["value"] == 5
    season.unlink()  # the replay plays the recorded season, whatever is on disk now
    assert main(["replay", str(trace), "--engine", EVERY_3]) == EXIT_VIOLATIONS
    assert main(["replay", str(trace), "--engine", "reference"]) == EXIT_OK
    assert "reproduced" in capsys.readouterr().out
    # with the shipped interval the mutant is the reference: --profile-file overrides
    shipped = tmp_path / "shipped.toml"
    shipped.write_text(SEASON.read_text("utf-8").replace("value = 5", "value = 3"), "utf-8")
    assert main(["replay", str(trace), "--engine", EVERY_3, "--profile-file",
                 str(shipped)]) == EXIT_OK


def test_the_python_api_takes_a_profile_file() -> None:
    result = gamecert.certify("botwars", engine=EVERY_3, profile_file=SEASON, rounds=2)
    assert result.profile.id == "season-energy-5"
    assert "BOTWARS-ENERGY-SPAWN" in {d.primary for d in result.departures}
    with pytest.raises(ProfileFileError, match="botwars profile, not flit"):
        gamecert.certify("flit", engine="reference", profile_file=SEASON, rounds=1)


@pytest.mark.parametrize("season", sorted((ROOT / "examples" / "seasons").glob("*.toml")),
                         ids=lambda p: p.stem)
def test_the_reference_plays_every_season_file_clean(season: Path) -> None:
    """A rounds-based campaign of the reference against itself under each season file."""
    profile = read_profile_file(season)
    result = gamecert.certify(profile.game, engine="reference", profile_file=season, rounds=3)
    assert result.profile is profile
    assert result.unusable is None
    assert [d.primary for d in result.departures] == []
    assert result.coverage.steps > 0


def _season_mutants() -> list[tuple[str, str, str]]:
    out = []
    for game in ("botwars", "carcassonne", "flit", "kingdomino"):
        pairs = importlib.import_module(f"examples.engines.{game}").SEASONS
        out += [(game, module, season) for module, season in pairs]
    return out


def test_every_game_has_three_seasons_each_with_its_mutant() -> None:
    files = sorted(p.name for p in (ROOT / "examples" / "seasons").glob("*.toml"))
    mutants = _season_mutants()
    assert sorted(season for _, _, season in mutants) == files
    for game in ("botwars", "carcassonne", "flit", "kingdomino"):
        assert sum(f.startswith(game + "-") for f in files) >= 3, game


@pytest.mark.parametrize(("game", "module", "season"), _season_mutants(),
                         ids=[f"{m}-under-{s.removesuffix('.toml')}"
                              for _, m, s in _season_mutants()])
def test_a_season_mutant_is_caught_under_its_season_and_is_the_reference_without(
        game: str, module: str, season: str) -> None:
    """The mutant keeps the shipped profile's value of one parameter: a short campaign under
    the season file charges that parameter's rule; under the profile the season extends it
    plays clean (it follows the shipped rules)."""
    path = ROOT / "examples" / "seasons" / season
    profile = read_profile_file(path)
    engine = f"{path_of(game, module)}:ENGINE"
    rule = load(game, module).RULE
    assert rule in {c.rule for c in profile.changes}  # the season changes the mutant's rule
    caught = gamecert.certify(game, engine=engine, profile_file=path, rounds=3)
    assert caught.unusable is None
    assert [d.primary for d in caught.departures] == [rule]
    assert profile.extends is not None
    shipped = gamecert.certify(game, engine=engine, profile=profile.extends, rounds=1)
    assert [d.primary for d in shipped.departures] == []


FARMS_ON = """\
game = "carcassonne"
id = "base-with-farms"
title = "Stage 1 with farms"
extends = "syncs-2025-base"

[rules_on]
rules = ["CARC-FARM-FIELDS", "CARC-FARM-CLAIM", "CARC-FARM-STAYS", "CARC-FARM-MAJORITY",
         "CARC-FARM-SCORE"]
title = "Farms"
reason = "the league plays farms from the first stage"

[parameters.CARC-FARM-FIELDS.enabled]
value = true
title = "Fields on the board"
reason = "farms need fields"
"""


def test_a_season_switches_a_later_stages_rules_on(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A base-stage season with the farm rules on plays the farm stage: the reference is
    clean under it and a farm mutant is charged its farm rule (the rules applied, not only
    accepted)."""
    path = tmp_path / "farms.toml"
    path.write_text(FARMS_ON, "utf-8")
    season = read_profile_file(path)
    cat = load_catalogue("carcassonne")
    assert not {r for r in season.off if r.startswith("CARC-FARM")}
    assert season.off == cat.profile("syncs-2025-farms").off
    assert [c.kind for c in season.changes] == ["applies"] * 5 + ["parameter"]
    assert profile_from_record(json.loads(json.dumps(profile_record(season)))) is season
    assert diff_profiles(cat.profile("syncs-2025-farms"), season, cat) == []
    assert main(["rules", "carcassonne", "--profile-file", str(path), "--diff"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "6 change(s) in 5 rule(s)" in out and "farms from the first stage" in out, out
    clean = gamecert.certify("carcassonne", engine="reference", profile_file=path, rounds=3)
    assert [d.primary for d in clean.departures] == []
    caught = gamecert.certify("carcassonne", engine=engine_spec("carcassonne",
                                                                "farm_incomplete_towns"),
                              profile_file=path, rounds=3)
    assert [d.primary for d in caught.departures] == ["CARC-FARM-SCORE"]


@pytest.mark.parametrize(("text", "says", "line"), [
    (FARMS_ON.replace('"CARC-FARM-FIELDS", ', ""),
     "CARC-FARM-FIELDS does not apply in this season (syncs-2025-base switches it off): "
     "list it in rules_on", 12),
    (FARMS_ON.replace('"CARC-FARM-SCORE"]', '"CARC-FARM-SCORE", "CARC-END-POINTS"]'),
     "CARC-END-POINTS already applies in syncs-2025-base", 7),
    (FARMS_ON.replace('"CARC-FARM-SCORE"]', '"CARC-FARM-SCORES"]'),
     "no rule 'CARC-FARM-SCORES'", 7),
    (FARMS_ON.replace("[rules_on]", "[rules_off]"),
     "CARC-FARM-FIELDS is already off in syncs-2025-base", 7),
], ids=["parameter of a rule off", "on already", "unknown rule", "off already"])
def test_a_bad_rule_switch_is_exit_2(text: str, says: str, line: int, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.toml"
    path.write_text(text, "utf-8")
    assert main(["rules", "carcassonne", "--profile-file", str(path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"{path}: line {line}:" in err and says in err, err


@pytest.mark.parametrize("season", sorted((ROOT / "examples" / "seasons").glob("*.toml")),
                         ids=lambda p: p.stem)
def test_prove_runs_under_every_season_file(season: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The z3 proofs and boundary positions play the reference under the season (its
    states are loaded after a new game that tells it the season's rules)."""
    game = season.name.split("-")[0]
    code = main(["prove", game, "--profile-file", str(season)])
    out = capsys.readouterr().out
    assert code == EXIT_OK, out
    assert "no profile" not in out and "0 disagree" in out, out
