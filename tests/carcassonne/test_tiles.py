"""The tile catalogue: counts, banners, rotations, fields, the River I set and the Tower tiles."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from gamecert.reference_engine.carcassonne.tiles import (
    HALVES,
    SIDES,
    TileCatalogueError,
    TileKind,
    _check_tile,
    facing_half,
    load_tiles,
    parse_tiles,
)

TILES = load_tiles()
LAND_COUNTS = {"A": 2, "B": 4, "C": 1, "D": 4, "E": 5, "F": 2, "G": 1, "H": 3, "I": 2, "J": 3,
               "K": 3, "L": 3, "M": 2, "N": 3, "O": 2, "P": 3, "Q": 1, "R": 3, "S": 2, "T": 1,
               "U": 8, "V": 9, "W": 4, "X": 1}
# the letter table of rules/carcassonne.md, top/right/bottom/left (RE = a road that ends)
LAND_EDGES = {"A": "G/G/RE/G", "B": "G/G/G/G", "C": "C/C/C/C", "D": "Rd/C/Rd/G", "E": "C/G/G/G",
              "F": "G/C/G/C", "G": "C/G/C/G", "H": "G/C/G/C", "I": "G/C/C/G", "J": "C/Rd/Rd/G",
              "K": "Rd/C/G/Rd", "L": "RE/C/RE/RE", "M": "C/G/G/C", "N": "C/G/G/C",
              "O": "C/Rd/Rd/C", "P": "C/Rd/Rd/C", "Q": "C/C/G/C", "R": "C/C/G/C",
              "S": "C/C/RE/C", "T": "C/C/RE/C", "U": "Rd/G/Rd/G", "V": "G/G/Rd/Rd",
              "W": "G/RE/RE/RE", "X": "RE/RE/RE/RE"}
RIVER_EDGES = {"RS": "Rv/G/G/G", "R1": "Rv/C/Rv/RE", "R2": "Rv/G/Rv/G", "R3": "Rd/Rv/Rv/Rd",
               "R4": "C/Rv/C/Rv", "R5": "Rv/G/G/Rv", "R6": "Rv/Rd/Rv/Rd", "R7": "C/C/Rv/Rv",
               "R8": "G/Rv/RE/Rv", "R9": "Rv/Rv/G/G", "RE": "G/G/Rv/G"}
KIND = {"G": "field", "Rd": "road", "RE": "road", "C": "city", "Rv": "river"}


def test_land_counts_per_letter_and_total() -> None:
    land = {t.id: t.count for t in TILES.of_set("land")}
    assert land == LAND_COUNTS
    assert TILES.total("land") == 72


def test_river_set_is_river_one() -> None:
    river = {t.id: t.count for t in TILES.of_set("river")}
    assert river == {"RS": 1, "R1": 1, "R2": 2, "R3": 1, "R4": 1, "R5": 1, "R6": 1, "R7": 1,
                     "R8": 1, "R9": 1, "RE": 1}
    assert TILES.total("river") == 12
    assert TILES.get("RS").role == "spring" and TILES.get("RE").role == "lake"


@pytest.mark.parametrize("table", [LAND_EDGES, RIVER_EDGES])
def test_edges_follow_the_rules_tables(table: dict[str, str]) -> None:
    for tile_id, text in table.items():
        tile = TILES.get(tile_id)
        assert list(tile.edges) == [KIND[k] for k in text.split("/")], tile_id
        # RE in the table: a road that ends on this tile (a one-sided road feature)
        for s, k in enumerate(text.split("/")):
            if k in ("Rd", "RE"):
                road = next(f for f in tile.features if s in f.sides)
                assert (len(road.sides) == 1) == (k == "RE"), (tile_id, SIDES[s])


def test_banners() -> None:
    banner_tiles = {t.id for t in TILES if t.banner and t.set == "land"}
    assert banner_tiles == {"C", "F", "M", "O", "Q", "S"}
    assert sum(t.count for t in TILES if t.banner and t.set == "land") == 10
    assert {t.id for t in TILES if t.banner and t.set == "tower"} == {"TO17"}


def test_monasteries() -> None:
    assert {t.id for t in TILES if t.monastery} == {"A", "B", "R8", "TO3"}


def test_river_has_exactly_four_curves() -> None:
    curves = []
    for t in TILES.of_set("river"):
        river = [f for f in t.features if f.kind == "river"]
        assert len(river) == 1, t.id
        sides = river[0].sides
        if t.role:
            assert len(sides) == 1, t.id
        else:
            assert len(sides) == 2, t.id
            if (sides[1] - sides[0]) % 2 == 1:
                curves.append(t.id)
    assert sorted(curves) == ["R3", "R5", "R7", "R9"]
    assert sum(TILES.get(c).count for c in curves) == 4


def test_no_land_tile_has_a_river_edge() -> None:
    assert all("river" not in t.edges for t in TILES.of_set("land"))


def _side_feature(tile: TileKind, side: int) -> tuple[str, tuple[int, ...]] | None:
    for f in tile.features:
        if side in f.sides:
            return f.kind, f.sides
    return None


@pytest.mark.parametrize("tile", list(TILES), ids=lambda t: t.id)
def test_rotations_are_consistent(tile: TileKind) -> None:
    assert tile.rotated(4) == tile
    assert tile.rotated(1).rotated(1).rotated(1).rotated(1) == tile
    for r in range(4):
        rot = tile.rotated(r)
        _check_tile(rot, f"{tile.id}@{r}")  # fields still cover exactly the non-city halves
        for s in range(4):
            assert rot.edges[s] == tile.edge(s, r)
            # the feature on board side s is the unrotated feature on side s - r, turned whole
            here, there = _side_feature(rot, s), _side_feature(tile, (s - r) % 4)
            assert (here is None) == (there is None)
            if here and there:
                assert here[0] == there[0]
                assert sorted(here[1]) == sorted((x + r) % 4 for x in there[1])
        for f0, f1 in zip(tile.fields, rot.fields, strict=True):
            assert f0.cities == f1.cities
            assert sorted(f1.halves) == sorted((h + 2 * r) % 8 for h in f0.halves)


def test_neighbouring_halves_agree_when_edges_match() -> None:
    """Across any matched edge, each half meets a half of the same sort (field or not)."""
    for a in TILES:
        for b in TILES:
            for ra in range(4):
                ta = a.rotated(ra)
                for rb in range(4):
                    tb = b.rotated(rb)
                    # b to the right of a: a's right side (1) meets b's left side (3)
                    if ta.edges[1] != tb.edges[3]:
                        continue
                    fa = {h for f in ta.fields for h in f.halves}
                    fb = {h for f in tb.fields for h in f.halves}
                    for h in (2, 3):
                        assert (h in fa) == (facing_half(h) in fb), (a.id, ra, b.id, rb, h)


def test_facing_half_pairs_sides() -> None:
    assert HALVES[facing_half(HALVES.index("right1"))] == "left2"
    assert HALVES[facing_half(HALVES.index("top1"))] == "bottom2"
    assert all(facing_half(facing_half(h)) == h for h in range(8))


def _doc() -> dict[str, object]:
    text = resources.files("gamecert.spec").joinpath("tiles/carcassonne.json").read_text("utf-8")
    doc: dict[str, object] = json.loads(text)
    return doc


def test_loader_rejects_bad_catalogues() -> None:
    with pytest.raises(TileCatalogueError, match=r"x\.json: line 1"):
        parse_tiles("{", "x.json")
    doc = _doc()
    tiles = doc["tiles"]
    assert isinstance(tiles, list)
    tiles.append(dict(tiles[0]))
    with pytest.raises(TileCatalogueError, match=r"duplicate tile id 'A'"):
        parse_tiles(json.dumps(doc), "x.json")
    doc = _doc()
    tiles = doc["tiles"]
    assert isinstance(tiles, list)
    tiles[3] = dict(tiles[3], edges=["road", "field", "road", "field"])  # D without its city
    with pytest.raises(TileCatalogueError,
                       match=r"tiles\[3\]\.features\[1\]: side right is a city"):
        parse_tiles(json.dumps(doc), "x.json")
    doc = _doc()
    tiles = doc["tiles"]
    assert isinstance(tiles, list)
    tiles[0] = dict(tiles[0], count=0)
    with pytest.raises(TileCatalogueError, match=r"tiles\[0\]\.count"):
        parse_tiles(json.dumps(doc), "x.json")



def test_tower_set_is_the_18_tower_tiles() -> None:
    tower = TILES.of_set("tower")
    assert TILES.total("tower") == 18 and len(tower) == 17
    assert all(t.tower for t in tower) and not any(t.tower for t in TILES if t.set != "tower")
    assert TILES.get("TO1").count == 2
    # TO3 has a monastery beside its foundation; TO7 four roads, so four corner fields
    assert TILES.get("TO3").monastery and len(TILES.get("TO7").fields) == 4
