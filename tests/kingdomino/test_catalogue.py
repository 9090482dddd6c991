"""The Kingdomino catalogue: every topic of the issue has a rule id, every rule an oracle and
a mutant, the leagues are profiles, and the open points carry their variants."""

from __future__ import annotations

from examples.engines import load
from examples.engines.kingdomino import MUTANTS
from gamecert.oracles import oracles_for
from gamecert.spec import load_catalogue

TOPICS = {
    "KD-TILES", "KD-PLAYERS", "KD-TILES-IN-PLAY", "KD-KINGS", "KD-DEAL", "KD-ORDER-FIRST",
    "KD-ORDER", "KD-FIRST-TURN-NO-PUT", "KD-PICK", "KD-LAST-TURN-NO-PICK", "KD-GAME-LENGTH",
    "KD-GRID", "KD-PLACE-ROTATION", "KD-PLACE-NO-OVERLAP", "KD-PLACE-EXTENT",
    "KD-PLACE-CONNECT", "KD-DISCARD", "KD-SCORE-ZONES", "KD-TIE-BREAK", "KD-STOP",
    "KD-PUT-INVALID", "KD-PROTO-INPUT", "KD-PROTO-OUTPUT", "KD-PROTO-LIMITS",
}


def test_catalogue_covers_the_issue() -> None:
    cat = load_catalogue("kingdomino")
    assert set(cat.rule_ids) == TOPICS
    assert all(r.source_doc in cat.sources and r.source_section for r in cat.rules)
    prof = cat.profile()
    assert prof.id == "legend" and prof.param("KD-PLAYERS", "players") == 4
    assert [prof.param("KD-TILES-IN-PLAY", k) for k in ("line_2p", "line_3p", "line_4p")] == \
        [4, 3, 4]
    assert [prof.param("KD-TILES-IN-PLAY", k)
            for k in ("in_play_2p", "in_play_3p", "in_play_4p")] == [24, 36, 48]
    assert [prof.param("KD-GAME-LENGTH", k) for k in ("turns_2p", "turns_3p", "turns_4p")] == \
        [7, 13, 13]
    assert prof.param("KD-KINGS", "kings_2p") == 2
    assert prof.param("KD-PLACE-EXTENT", "size") == 5
    assert (prof.param("KD-PROTO-LIMITS", "first_ms"),
            prof.param("KD-PROTO-LIMITS", "turn_ms")) == (1000, 50)


def test_open_points_are_variants() -> None:
    cat = load_catalogue("kingdomino")
    tie = cat.rule("KD-TIE-BREAK").interpretation
    assert tie is not None and set(tie.variants) == {"total-squares", "largest-zone"}
    assert tie.chosen == "total-squares"
    tiles = cat.rule("KD-TILES").interpretation
    assert tiles is not None and set(tiles.variants) == {"board-game", "fiddleatwork"}
    put = cat.rule("KD-PUT-INVALID").interpretation
    assert put is not None and put.chosen == "end-game"


def test_leagues_are_profiles_that_say_what_differs() -> None:
    cat = load_catalogue("kingdomino")
    assert cat.profile("wood").variant("KD-PUT-INVALID") == "discard"
    assert cat.profile("legend").variant("KD-PUT-INVALID") == "end-game"
    assert "invalid PUT" in cat.profile("wood").title
    assert cat.profile("legend-2p").param("KD-PLAYERS", "players") == 2
    assert cat.profile("legend-3p").param("KD-PLAYERS", "players") == 3
    assert cat.profile("legend-largest-zone").variant("KD-TIE-BREAK") == "largest-zone"
    assert cat.profile("legend-fiddleatwork").variant("KD-TILES") == "fiddleatwork"
    for rule in cat.rules:  # every reading is played by some profile
        if rule.interpretation:
            played = {p.variant(rule.id) for p in cat.profiles.values()}
            assert played == set(rule.interpretation.variants), rule.id


def test_every_rule_has_an_oracle_and_a_mutant() -> None:
    rules = set(load_catalogue("kingdomino").rule_ids)
    assert {o.rule for o in oracles_for("kingdomino")} == rules
    broken = {load("kingdomino", m).RULE
              for m in MUTANTS}
    assert broken == rules
