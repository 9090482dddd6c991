"""Random seasons: a Hypothesis strategy for profile files drawn from the catalogue.

`season_files(game)` draws the document of a profile file (what an organiser could write):
a shipped profile to extend, any combination of readings of the rules that apply, each
parameter left alone or set anywhere in its schema's range, and the player count. Ranges
without an upper bound are drawn up to `UNBOUNDED_SPAN` times the shipped value (the
campaign must stay short; the value is still one the schema allows). The document is then
read by `spec.profile_file.parse_profile`, so a drawn season passes every check a file
does; parameters the catalogue derives from others (`derived_parameters`) are set from the
drawn ones, as an organiser would have to.

Used by the property test (tests/test_season_property.py) and its campaign
(benchmarks/season_property.py). This module draws profiles only; it must not run engines.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from gamecert.spec import Catalogue, Profile, games, load_catalogue
from gamecert.spec.profile_file import (
    derived_parameters,
    parse_profile,
    player_parameter,
    too_few,
)

JSON = Any
UNBOUNDED_SPAN = 4


def _values(schema: dict[str, Any], default: Any) -> st.SearchStrategy[Any]:
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, int):
        low = int(schema.get("minimum", 0))
        high = int(schema.get("maximum", max(low + 1, UNBOUNDED_SPAN * default)))
        return st.integers(low, high)
    return st.just(default)


def _change(value: Any) -> JSON:
    return {"value": value, "title": "drawn", "reason": "a random season"}


@st.composite
def season_files(draw: st.DrawFn, game: str | None = None) -> JSON:
    """The document of a random profile file for `game` (any game when None)."""
    game = game or draw(st.sampled_from(games()))
    cat = load_catalogue(game)
    base = cat.profiles[draw(st.sampled_from(sorted(cat.profiles)), label="extends")]
    doc: JSON = {"game": game, "id": "drawn", "title": "A drawn season", "extends": base.id}
    seat = player_parameter(cat)
    variants: JSON = {}
    params: JSON = {}
    for rule in cat.rules:
        if rule.id in base.off:
            continue  # a rule the season leaves off takes no change
        if rule.interpretation is not None and draw(st.booleans()):
            reading = draw(st.sampled_from(list(rule.interpretation.variants)), label=rule.id)
            variants[rule.id] = {"reading": reading, "title": "drawn",
                                 "reason": "a random reading"}
        for name, default in rule.parameters.items():
            if not draw(st.booleans()):
                continue
            value = draw(_values(rule.parameter_schema.get(name, {}), default),
                         label=f"{rule.id}.{name}")
            if (rule.id, name) == seat:
                doc["players"] = _change(value)
            else:
                params.setdefault(rule.id, {})[name] = _change(value)
    if variants:
        doc["variants"] = variants
    doc["parameters"] = params
    _fit(doc, cat)
    for rid, name, value, _ in derived_parameters(_read(doc, cat, derived=False)):
        params.setdefault(rid, {})[name] = _change(value)
    if not params:
        del doc["parameters"]
    return doc


def _fit(doc: JSON, cat: Catalogue) -> None:
    """Parameters the others bound, brought within bounds as an organiser would have to:
    a line raised to one tile per king, a Flit board to the rows its set-up pieces need
    (`too_few`); a Kingdomino game length whose lines
    need more tiles than there are (48) cut to the longest the line size allows, so that
    the derived tiles in play stay in their schema's range."""
    for rid, name, least, _ in too_few(_read(doc, cat, derived=False)):
        doc["parameters"].setdefault(rid, {})[name] = _change(least)
    if cat.game != "kingdomino":
        return
    profile = _read(doc, cat, derived=False)
    n = profile.param("KD-PLAYERS", "players")
    line = profile.param("KD-TILES-IN-PLAY", f"line_{n}p")
    most = int(cat.rule("KD-TILES-IN-PLAY").parameter_schema[f"in_play_{n}p"]["maximum"])
    if line * (profile.param("KD-GAME-LENGTH", f"turns_{n}p") - 1) > most:
        doc["parameters"].setdefault("KD-GAME-LENGTH", {})[f"turns_{n}p"] = _change(
            1 + most // line)


def _read(doc: JSON, cat: Catalogue, derived: bool = True) -> Profile:
    return parse_profile(json.dumps(doc, indent=1), "drawn.json", cat.game, derived)


def season_profiles(game: str | None = None) -> st.SearchStrategy[Profile]:
    """Random seasons as profiles (see `season_files`)."""
    return season_files(game).map(lambda doc: _read(doc, load_catalogue(doc["game"])))
