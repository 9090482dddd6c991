"""Property: under any season an organiser could write (random profile files: any readings,
every parameter anywhere in its schema's range, fuzz.season_draw), the reference engine
certifies itself in a short rounds-based campaign, and a mutant is still caught.

Small here (a couple of seasons per game under every Hypothesis profile: each example is a
whole campaign); benchmarks/reach/season_property.py runs the same property as a large campaign.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from examples.engines import engine_spec
from gamecert.fuzz.engines.recipes import engine_recipe
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.search.season_draw import season_files, season_profiles
from gamecert.spec import Profile, load_catalogue
from gamecert.spec.profile_file import (
    ProfileFileError,
    derived_parameters,
    parse_profile,
    too_few,
)

GAMES = ("botwars", "carcassonne", "flit", "kingdomino")
PER_GAME = 2  # whole campaigns: a handful in all, whatever the profile's max_examples
MUTANT = engine_spec("kingdomino", "castle_off_centre")  # KD-GRID, in any season
# a campaign runs Hypothesis inside each example: allowed, the inner run is not shrunk
NESTED = [*settings().suppress_health_check, HealthCheck.nested_given]


def _departures(game: str, engine: str, profile: Profile) -> tuple[str | None, list[str]]:
    result = run_campaign(game, engine_recipe(game, engine=engine), profile=profile, rounds=2)
    return result.unusable, sorted({d.primary for d in result.departures})


@pytest.mark.parametrize("game", GAMES)
def test_the_reference_certifies_itself_under_any_season(game: str) -> None:
    @settings(max_examples=PER_GAME, suppress_health_check=NESTED)
    @given(season_files(game))
    def check(doc: dict[str, object]) -> None:
        profile = parse_profile(json.dumps(doc), "drawn.json", game)
        assert _departures(game, "reference", profile) == (None, []), json.dumps(doc)

    check()


@settings(max_examples=PER_GAME, suppress_health_check=NESTED)
@given(season_profiles("kingdomino"))
def test_a_mutant_is_still_caught_under_any_season(profile: Profile) -> None:
    assert _departures("kingdomino", MUTANT, profile) == (None, ["KD-GRID"])


@settings(max_examples=50)
@given(season_files())
def test_a_drawn_season_is_a_valid_profile_file(doc: dict[str, object]) -> None:
    """Every drawn season reads as a file would (exit 2 otherwise), its values within their
    schemas and the parameters the others bound set as the rules need."""
    profile = parse_profile(json.dumps(doc, indent=1), "drawn.json")
    assert derived_parameters(profile) == [] and too_few(profile) == []
    cat = load_catalogue(profile.game)
    for rule in cat.rules:
        for name, value in profile.parameters.get(rule.id, {}).items():
            schema = rule.parameter_schema.get(name, {})
            assert schema.get("minimum", value) <= value <= schema.get("maximum", value)


@pytest.mark.parametrize(("game", "extends", "changes", "says"), [
    ("kingdomino", "legend-3p", {"KD-TILES-IN-PLAY": {"line_3p": 4}},
     "KD-TILES-IN-PLAY.in_play_3p must be 48: 12 lines of 4 tiles"),
    ("kingdomino", "legend", {"KD-TILES-IN-PLAY": {"line_4p": 3}},
     "KD-TILES-IN-PLAY.line_4p must be at least 4: each of the 4 kings"),
    ("flit", "standard", {"FLIT-BOARD-SIZE": {"width": 3, "height": 3}},
     "FLIT-BOARD-SIZE.height must be at least 12: the 8 set-up pieces"),
    ("botwars", "original", {"BOTWARS-SPAWN": {"cost": 3}},
     "BOTWARS-FIRST-BOTLETS.initial_energy must be at least 3"),
])
def test_parameters_the_others_bound_are_checked(game: str, extends: str,
                                                 changes: dict[str, dict[str, int]],
                                                 says: str) -> None:
    """A season whose values the code cannot serve together is refused, naming the value
    the rules need (found by the property above: each was a crash or a refused state)."""
    doc = {"game": game, "id": "s", "title": "t", "extends": extends, "parameters": {
        rid: {name: {"value": v, "title": "t", "reason": "r"} for name, v in named.items()}
        for rid, named in changes.items()}}
    with pytest.raises(ProfileFileError, match=r"drawn\.json: line [0-9]+: ") as err:
        parse_profile(json.dumps(doc, indent=1), "drawn.json")
    assert says in str(err.value)
