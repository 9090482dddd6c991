"""The adapter kit (gamecert.adapters) on our own engines written as if they were native:
the minimum capabilities, follow-mode draw reports, refusal and crash mapping, the wire
runner, the first-look lockstep and the conversion helpers. No third-party code needed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from examples.adapters.reference_native.adapter import (
    Carcassonne,
    Flit,
    Kingdomino,
    NoRefereeKingdomino,
    QuietKingdomino,
)
from gamecert.adapters import NativeAdapter, NativeRefusal
from gamecert.adapters.check import look_at
from gamecert.adapters.helpers import (
    Grid,
    IdMap,
    board_string,
    carcassonne_tile,
    counts,
    feature_name,
    kingdomino_grid,
    match_action,
    native_player,
    native_rotation,
    player_id,
    rotation,
)
from gamecert.fuzz.engines.engine import EngineFault, Refused
from gamecert.fuzz.engines.recipes import in_process
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import BadState
from gamecert.spec import Profile, load_catalogue

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "examples" / "adapters" / "reference_native" / "adapter.py"


def test_hello_declares_the_minimum_and_new_game_reports_its_draws() -> None:
    engine = in_process(Flit, "flit-native")
    assert engine.hello()["capabilities"] == []
    state = engine.new_game(None, 7)
    draws = [e["chance"] for e in engine.session.start_events if "chance" in e]  # type: ignore[attr-defined]
    assert len(draws) == 8 and all(d["type"] == "setup" for d in draws)
    placed = {tuple(d["at"]) for d in draws}
    assert len(placed) == 8 and state["phase"] != "setup"
    again = in_process(Flit, "flit-native")
    assert again.new_game(None, 7) == state  # the engine's own RNG is seeded by new_game


def test_refusal_is_illegal_and_leaves_the_state_and_crash_is_a_fault() -> None:
    engine = in_process(Kingdomino, "kd-native")
    before = engine.new_game(None, 1)
    with pytest.raises(Refused) as refused:
        engine.apply({"type": "pick", "tile": 999})
    assert refused.value.kind == "illegal"
    assert engine.observe() == before
    with pytest.raises(Refused):  # not offered: never a silent answer
        engine.legal()

    class Crashing(Flit):
        def play(self, native: Any, action: Any) -> Any:
            raise ZeroDivisionError("native bug")

    crashing = in_process(Crashing, "crash")
    crashing.new_game(None, 1)
    with pytest.raises(EngineFault) as fault:
        crashing.apply({"type": "pass"})
    assert fault.value.kind == "crash" and "native bug" in fault.value.message


@pytest.mark.parametrize("cls,profile", [(Flit, None), (Kingdomino, None),
                                         (Kingdomino, "legend-2p"), (Carcassonne, None)])
def test_lockstep_follows_the_engines_draws(cls: type[NativeAdapter], profile: str | None) -> None:
    look = look_at(cls(), profile, seed=3, steps=60)
    assert look.departure is None, look.departure
    assert look.draws > 0 and look.steps > 0


def test_lockstep_sees_a_draw_the_reference_does_not_allow() -> None:
    class Cheat(Kingdomino):
        """Deals tile 1 every time: a deck that ignores what is left."""

        def report(self, native: Any) -> list[Any]:
            return [{"chance": {"type": "deal", "tile": 1}} if e.get("chance", {}).get(
                "type") == "deal" else e for e in super().report(native)]

    look = look_at(Cheat(), None, seed=3, steps=60)
    assert look.departure is not None and "does not list" in look.departure


def test_lockstep_sees_a_wrong_canonical_state() -> None:
    class Forgetful(Flit):
        def canonical(self, native: Any) -> Any:
            return {**super().canonical(native), "turn": 0}

    look = look_at(Forgetful(), None, seed=1, steps=30)
    assert look.departure is not None and "turn" in look.departure


def test_wire_runner_serves_the_same_class_as_a_process() -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert.adapters.serve",
                               f"{ADAPTER}:Kingdomino"], timeout=20)
    try:
        hello = engine.hello()
        assert hello["game"] == "kingdomino" and hello["capabilities"] == []
        reply = engine.request("new_game", profile=None, seed=5)
        chance = [e["chance"] for e in reply["events"] if "chance" in e]
        assert chance[0]["type"] == "order" and len(chance) > 1
        assert reply["state"] == in_process(Kingdomino, "k").new_game(None, 5)
        with pytest.raises(Refused) as refused:
            engine.legal()
        assert refused.value.kind == "bad-request"
        with pytest.raises(Refused) as refused:
            engine.apply({"type": "pick", "tile": 999})
        assert refused.value.kind == "illegal"
    finally:
        engine.close()


def test_wire_runner_keeps_an_engines_prints_off_the_wire() -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert.adapters.serve",
                               f"{ADAPTER}:Chatty"], timeout=20)
    try:
        engine.hello()
        engine.new_game(None, 2)
        state = engine.observe()
        reference = in_process(Kingdomino, "k")
        assert reference.new_game(None, 2) == state
        with pytest.raises(Refused):
            engine.apply({"type": "pick", "tile": 999})  # printed first, then refused
        assert engine.observe() == state
        assert b"native engine: playing" in engine.stderr_tail
    finally:
        engine.close()


def test_serve_refuses_what_is_not_an_adapter() -> None:
    from gamecert.adapters.serve import main
    assert main(["gamecert.adapters.helpers:Grid"]) == 2


def certify(cls: str, tmp: Path) -> str:
    import subprocess
    out = subprocess.run(
        [sys.executable, "-m", "gamecert", "certify", "kingdomino", "--engine",
         f"{ADAPTER}:{cls}", "--rounds", "2", "--quiet", "--report", str(tmp)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    return out.stdout + out.stderr


def test_an_engine_without_events_is_certified_on_its_states_and_draws(tmp_path: Path) -> None:
    assert QuietKingdomino().hello()["capabilities"] == ["no_events"]
    text = certify("QuietKingdomino", tmp_path / "quiet")
    assert "0 violated" in text and "capabilities: no_events" in text, text[-2000:]
    wrong = certify("QuietWrongScore", tmp_path / "wrong")
    assert "RULES VIOLATED" in wrong and "turn" in wrong, wrong[-2000:]


def test_players_coordinates_rotations_ids() -> None:
    assert [player_id(i) for i in range(3)] == [1, 2, 3]
    assert native_player(1) == 0 and player_id(2, zero_based=False) == 2
    with pytest.raises(ValueError):
        native_player(0)
    grid = Grid(origin=(6, 15))  # a 2-D list [row][column] with the start at row 6, col 15
    assert grid.cell(6, 15) == [0, 0] and grid.cell(5, 17) == [2, -1]
    assert grid.native([2, -1]) == (5, 17)
    up = Grid(origin=(0, 0), rows_first=False, y_up=True)
    assert up.cell(3, 4) == [3, -4] and up.native([3, -4]) == (3, 4)
    turned = Grid(origin=(6, 15), quarter_turns=2)  # a board laid the other way round
    assert turned.cell(5, 17) == [-2, 1] and turned.native([-2, 1]) == (5, 17)
    quarter = Grid(quarter_turns=1)
    assert quarter.cell(-1, 0) == [1, 0]  # what was above the origin is now right of it
    assert all(quarter.native(quarter.cell(r, c)) == (r, c) for r in range(-2, 3)
               for c in range(-2, 3))
    assert turned.side(0) == 2 and turned.half(1) == 5
    assert rotation(270, unit=90) == 3 and rotation(1, clockwise=False) == 3
    assert native_rotation(3, unit=90, clockwise=False) == 90
    assert all(rotation(native_rotation(r, unit=90, clockwise=False), unit=90,
                        clockwise=False) == r for r in range(4))
    with pytest.raises(ValueError):
        rotation(45, unit=90)
    ids = IdMap({"chapel": "B", "chapel_with_road": "A"}, "tile")
    assert ids.ours("chapel") == "B" and ids.native("A") == "chapel_with_road"
    with pytest.raises(ValueError, match="unknown native tile"):
        ids.ours("cathedral")
    with pytest.raises(ValueError):
        IdMap([("a", "X"), ("b", "X")], "tile")
    assert counts(["D", "A", "D"]) == {"A": 1, "D": 2}
    assert match_action({"n": 2}, [1, 2, 3], lambda m: {"n": m}) == 2
    assert match_action({"n": 9}, [1, 2, 3], lambda m: {"n": m}) is None


def test_kingdomino_grids_and_board_strings() -> None:
    grid = kingdomino_grid({(3, 2): ("w", 1), (4, 2): ("f", 0)}, castle=(2, 2))
    assert len(grid) == 9 and all(len(r) == 18 for r in grid)
    assert grid[4] == "_0_0_0_0*0w1f0_0_0"
    with pytest.raises(ValueError, match="outside"):
        kingdomino_grid({(20, 2): ("w", 0)}, castle=(2, 2))
    with pytest.raises(ValueError, match="terrain"):
        kingdomino_grid({(3, 2): ("x", 0)}, castle=(2, 2))
    assert board_string([[0, 1], [None, 5]], lambda v: "0" if v is None else str(v)) == "0105"
    with pytest.raises(ValueError):
        board_string([[10]], str)


def test_carcassonne_tiles_by_their_look() -> None:
    # tile B is a monastery in fields; A the monastery with a road at the bottom
    assert carcassonne_tile(("field",) * 4, monastery=True) == [("B", 0)]
    assert carcassonne_tile(("field", "field", "field", "road"), monastery=True) == [("A", 1)]
    assert carcassonne_tile(("field", "field", "road", "field"), monastery=True) == [("A", 0)]
    # the river spring: river on one side only
    spring = carcassonne_tile(("river", "field", "field", "field"))
    assert sorted(t for t, _ in spring) == ["RE", "RS"]  # alike: the adapter tells them apart
    lake = carcassonne_tile(("river", "field", "field", "field"), role="lake")
    assert [t for t, _ in lake] == ["RE"]
    # a city's feature is named by its first side clockwise from the top
    assert feature_name("C", 0, "left") == "top"
    assert feature_name("B", 2, "monastery") == "monastery"
    with pytest.raises(ValueError):
        feature_name("B", 0, "top")  # a field edge is no road or city


def test_a_maintainer_only_writes_four_methods() -> None:
    class Counter(NativeAdapter):
        """A toy 'native engine' (a dict) standing in for a real one."""

        game_name = "flit"

        def start(self, profile: Profile, seed: int) -> Any:
            return {"n": seed}

        def play(self, native: Any, action: Any) -> Any:
            if action.get("type") != "pass":
                raise NativeRefusal("only pass")
            return {"n": native["n"] + 1}

        def canonical(self, native: Any) -> Any:
            return {"n": native["n"]}

    engine = in_process(Counter, "counter")
    assert engine.hello()["capabilities"] == ["no_events"]  # it writes no events of its own
    assert engine.new_game(None, 4) == {"n": 4}
    assert engine.apply({"type": "pass"}) == ({"n": 5}, [])
    with pytest.raises(Refused):
        engine.apply({"type": "move"})
    assert engine.observe() == {"n": 5}


def test_a_third_party_adapter_without_its_engine_says_what_to_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from gamecert.fuzz.engines.engine import EngineSpecError
    from gamecert.fuzz.engines.recipes import object_recipe

    monkeypatch.delenv("GAMECERT_WINGEDSHEEP_PATH", raising=False)
    spec = f"{ROOT / 'examples/adapters/wingedsheep_carcassonne/adapter.py'}:Wingedsheep"
    with pytest.raises(EngineSpecError, match="set GAMECERT_WINGEDSHEEP_PATH"):
        object_recipe("carcassonne", spec)
    monkeypatch.setenv("GAMECERT_WINGEDSHEEP_PATH", str(ROOT))  # a folder without the engine
    with pytest.raises(EngineSpecError, match="holds no wingedsheep/carcassonne"):
        object_recipe("carcassonne", spec)


# --- every capability and limit declared from the kit ------------------------------------
class Declaring(Kingdomino):
    """Writes load and referee, plays on a copy, and promises statelessness and no referee."""

    copy_before_play = True
    stateless = True
    no_referee = True

    def load(self, profile: Profile, state: Any) -> Any:
        self.ref = reference_game("kingdomino")
        self.rng = __import__("random").Random(0)
        self.log, self.own = [], []
        try:
            return self.ref.load(profile, state)
        except BadState as exc:
            raise NativeRefusal(str(exc)) from None

    def referee(self, native: Any, text: str) -> Any:
        return self.ref.action_to_json(native, self.ref.referee(native, text))


def test_every_capability_is_declared_from_what_the_adapter_writes() -> None:
    assert Declaring().hello()["capabilities"] == [
        "load_state", "bot_output", "stateless", "undo", "no_referee"]
    assert QuietKingdomino().hello()["capabilities"] == ["no_events"]
    assert NoRefereeKingdomino().hello()["capabilities"] == ["no_events", "no_referee"]
    engine = in_process(Declaring, "declaring")
    state = engine.new_game(None, 2)
    assert engine.load_state(state) == state
    with pytest.raises(Refused) as refused:
        engine.load_state({**state, "turn": "x"})
    assert refused.value.kind == "bad-state"
    assert engine.observe() == state  # a state refused leaves the game as it was
    assert engine.bot_output("nonsense")["type"] == "stop"


def test_served_adapters_offer_what_they_declare_and_refuse_the_rest() -> None:
    for cls, offered in (("Declaring", True), ("Kingdomino", False)):
        engine = SubprocessEngine([sys.executable, "-m", "gamecert.adapters.serve",
                                   f"{Path(__file__)}:{cls}"], timeout=20, game="kingdomino")
        try:
            state = engine.new_game(None, 3)
            engine.apply(reference_game("kingdomino").action_to_json(
                *_first_legal(state)))
            # each call is made within its own iteration: the late binding cannot bite
            for call in (engine.undo, lambda: engine.load_state(state),  # noqa: B023
                         lambda: engine.bot_output("x")):  # noqa: B023
                if offered:
                    call()
                    assert engine.observe() == state  # the undo took the move back
                else:
                    with pytest.raises(Refused) as refused:
                        call()
                    assert refused.value.kind == "bad-request"
        finally:
            engine.close()


def _first_legal(state: Any) -> tuple[Any, Any]:
    ref = reference_game("kingdomino")
    native = ref.load(load_catalogue("kingdomino").profile(state["profile"]), state)
    return native, ref.legal(native)[0]


# --- undo -----------------------------------------------------------------------------------
def test_undo_takes_back_the_last_accepted_move_of_a_copying_adapter() -> None:
    engine = in_process(Declaring, "declaring")
    start = engine.new_game(None, 5)
    with pytest.raises(Refused, match="nothing to undo"):
        engine.undo()
    native, action = _first_legal(start)
    engine.apply(reference_game("kingdomino").action_to_json(native, action))
    with pytest.raises(Refused):
        engine.apply({"type": "play", "put": None, "pick": 999})  # refused: not a move
    assert engine.undo() == start and engine.observe() == start
    with pytest.raises(Refused, match="nothing to undo"):  # one step back, no more
        engine.undo()
    plain = in_process(Kingdomino, "plain")
    plain.new_game(None, 5)
    with pytest.raises(Refused, match="does not offer 'undo'"):
        plain.undo()


def test_the_reference_session_undoes_over_the_wire_too() -> None:
    from gamecert.fuzz.engines.server import handle
    from gamecert.reference_engine import reference_session

    session = reference_session("flit")
    start = session.new_game(None, 3)
    assert handle(session, {"id": 1, "op": "undo"})[0]["error"]["kind"] == "illegal"
    legal = session.legal()
    action = legal["outcomes"][0]["action"] if legal["to_move"] == "chance" else \
        legal["actions"][0]
    session.apply(action)
    reply, _ = handle(session, {"id": 2, "op": "undo"})
    assert reply == {"id": 2, "ok": True, "state": start}
    assert session.observe() == start
    engine = in_process(session, "ref")
    engine.apply(action)
    assert engine.undo() == start


# --- new_game's rules: the profile the harness runs under ------------------------------------
def test_the_rules_object_carries_every_parameter_reading_and_the_players() -> None:
    import json

    from jsonschema import Draft202012Validator

    from gamecert.reference_engine.wire_rules import players_of, rules_json

    wire = Draft202012Validator(json.loads((ROOT / "schemas" / "wire.schema.json").read_text()))
    for game in ("flit", "botwars", "carcassonne", "kingdomino"):
        catalogue = load_catalogue(game)
        for profile in catalogue.profiles.values():
            rules = rules_json(profile)
            request = {"id": 1, "op": "new_game", "profile": profile.id, "seed": 0,
                       "rules": rules}
            assert not list(wire.iter_errors(request)), (game, profile.id)
            assert rules["profile"] == profile.id and rules["players"] == players_of(profile)
            assert rules["parameters"] == {f"{r}.{n}": v for r, ps in
                                           profile.parameters.items() for n, v in ps.items()}
            assert rules["readings"] == profile.variants
            assert rules["off"] == sorted(profile.off)
    kd = load_catalogue("kingdomino")
    assert rules_json(kd.profile("legend-3p"))["parameters"]["KD-PLAYERS.players"] == 3
    assert rules_json(kd.profile("legend-3p"))["players"] == 3
    assert rules_json(load_catalogue("botwars").profile())["players"] == 2
    assert rules_json(load_catalogue("flit").profile())["players"] == 4
    assert list(wire.iter_errors({"id": 2, "op": "undo"})) == []
    assert list(wire.iter_errors({"id": 3, "op": "new_game",
                                  "rules": {"parameters": {"no key": 1}}}))


def season() -> Profile:
    """A profile the catalogue does not list (a later season's), made from one it does."""
    base = load_catalogue("kingdomino").profile("legend-2p")
    return Profile("kingdomino", "season-2p", "a season", dict(base.variants),
                   {r: dict(p) for r, p in base.parameters.items()}, base.off)


def test_profile_from_rules_checks_against_the_catalogue() -> None:
    from gamecert.reference_engine.wire_rules import RulesError, profile_from_rules, rules_json

    kd = load_catalogue("kingdomino")
    legend = kd.profile("legend-2p")
    assert profile_from_rules(kd, rules_json(legend)) is legend  # its own: the same object
    made = profile_from_rules(kd, rules_json(season()))
    assert made.id == "season-2p" and made.parameters == legend.parameters
    three = profile_from_rules(kd, {"profile": "mine", "parameters": {"KD-PLAYERS.players": 3}})
    assert three.param("KD-PLAYERS", "players") == 3 and three.id == "mine"
    for bad, why in (({"parameters": {"KD-NOPE.x": 1}}, "no such parameter"),
                     ({"parameters": {"KD-PLAYERS.players": "3"}}, "expected int"),
                     ({"readings": {"KD-PLAYERS": "x"}}, "no open rule"),
                     ({"off": ["NOPE"]}, "rules.off"),
                     ({"players": 4, "profile": "legend-2p"}, "seat 2"),
                     ([1, 2], "must be an object")):
        with pytest.raises(RulesError, match=why):
            profile_from_rules(kd, bad)
    with pytest.raises(RulesError, match="not the request's profile"):
        profile_from_rules(kd, rules_json(legend), "legend")


def test_a_python_adapter_gets_the_harness_profile_and_its_player_count() -> None:
    seen: list[tuple[str, int, int]] = []

    class Recording(Kingdomino):
        def start(self, profile: Profile, seed: int) -> Any:
            seen.append((profile.id, self.players, profile.param("KD-PLAYERS", "players")))
            return super().start(profile, seed)

    engine = in_process(Recording, "recording")
    engine.new_game("legend-3p", 1)
    state = engine.new_game(season(), 1)  # not in the catalogue: handed over as it is
    assert seen == [("legend-3p", 3, 3), ("season-2p", 2, 2)]
    assert state["profile"] == "season-2p" and state["players"] == 2


def test_a_served_python_adapter_plays_the_rules_it_is_sent() -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert.adapters.serve",
                               f"{ADAPTER}:Kingdomino"], timeout=20, game="kingdomino")
    try:
        state = engine.new_game(season(), 4)  # the process's catalogue has no such profile
        assert state["profile"] == "season-2p" and state["players"] == 2
        assert engine.new_game("legend-3p", 4)["players"] == 3  # by id: rules from ours
        reply = engine.request("new_game", profile="legend", seed=1,
                               rules={"parameters": {"KD-PLAYERS.players": "two"}})
        raise AssertionError(f"bad rules accepted: {str(reply)[:200]}")
    except Refused as exc:
        assert exc.kind == "bad-state" and "expected int" in exc.message
    finally:
        engine.close()


def test_the_references_own_serve_ignores_the_rules() -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "kingdomino"],
                              timeout=20, game="kingdomino")
    try:
        state = engine.new_game("legend-2p", 1)  # rules sent, from our catalogue
        assert state == in_process(reference_game("kingdomino"), "r").new_game("legend-2p", 1)
        odd = engine.request("new_game", profile="legend-2p", seed=1, rules=[1, {"x": None}])
        assert odd["state"] == state
    finally:
        engine.close()
