"""The independent JavaScript Flit engine (examples/engines/flit-js/flit.js) certifies clean.

It is a second implementation of spec/flit.json, written from the rules, so these tests are
differential: the harness, the reference and every rule oracle against a program in another
language, over the wire protocol. They need Node.js (`node` on PATH) and fail, not skip,
without it.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gamecert.fuzz.cli import main as cli
from gamecert.fuzz.engines.engine import Refused
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.fuzz.games.flit import PLUGIN
from gamecert.fuzz.games.flit.starts import played_state
from gamecert.fuzz.search import campaign as fuzz_campaign
from gamecert.fuzz.step.lockstep import Coverage, Lockstep
from gamecert.oracles import oracles_for
from gamecert.oracles.flit.proofs import boundary_positions
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.reference_engine.flit import Flit
from gamecert.spec import load_catalogue

REPO = Path(__file__).resolve().parents[2]
ENGINE_JS = REPO / "examples" / "engines" / "flit-js" / "flit.js"
ENGINE_CMD = "node examples/engines/flit-js/flit.js"  # relative to the repository root
CATALOGUE = load_catalogue("flit")


def require_node() -> str:
    """The `node` executable; without it the test fails (it is not skipped)."""
    path = shutil.which("node")
    if path is None:
        pytest.fail("Node.js is required for the JavaScript Flit engine tests, but `node` is not "
                    "on PATH: install Node.js (tested with v20) (no npm packages are needed)",
                    pytrace=False)
    assert ENGINE_JS.is_file(), f"missing {ENGINE_JS}"
    return path


def open_js(engines: list[Any]) -> SubprocessEngine:
    engine = SubprocessEngine([require_node(), str(ENGINE_JS)])
    engine.start()
    engines.append(engine)
    return engine


# --- (1) certification through the command line --------------------------------------------

def test_certify_cli_certifies_and_exercises_every_rule(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`gamecert certify flit --engine-cmd "node ..."` exits 0, and the campaign it ran
    (captured from `run_campaign`) exercised every catalogue rule."""
    require_node()
    monkeypatch.chdir(REPO)
    results: list[fuzz_campaign.CampaignResult] = []
    real = fuzz_campaign.run_campaign

    def spy(*args: Any, **kwargs: Any) -> fuzz_campaign.CampaignResult:
        result = real(*args, **kwargs)
        results.append(result)
        return result

    monkeypatch.setattr(fuzz_campaign, "run_campaign", spy)
    code = cli.main(["certify", "flit", "--engine-cmd", ENGINE_CMD, "--rounds", "12",
                     "--seed", "0", "--quiet"])
    out = capsys.readouterr().out
    assert code == cli.EXIT_OK, out
    assert "CERTIFIED" in out, out
    (result,) = results
    assert result.status == "certified", [str(f) for f in result.findings]
    assert result.profile.id == "standard" and result.rounds == 12
    applied = result.coverage.applied
    missing = [r for r in CATALOGUE.rule_ids if applied[r] == 0]
    assert missing == [], f"rules never exercised: {missing}"
    assert applied["ENGINE-LOAD-STATE"] > 0 and applied["ENGINE-STATE-ROUNDTRIP"] > 0


@pytest.mark.parametrize("profile", ["list-neutrals", "strict"])
def test_other_profiles_certify(engines: list[Any], profile: str) -> None:
    engine = open_js(engines)
    result = fuzz_campaign.run_campaign("flit", engine, profile_id=profile, rounds=3, seed=1)
    assert not result.departures and result.status in ("certified", "incomplete"), \
        (profile, [str(f) for f in result.findings])
    assert result.coverage.steps > 50


def test_hello_lists_the_supported_profiles(engines: list[Any]) -> None:
    hello = open_js(engines).hello()
    assert hello["game"] == "flit"
    assert hello["profiles"] == sorted(CATALOGUE.profiles)


# --- (2) a long random lockstep against the reference -------------------------------------

def random_start(rng: random.Random, profile: Any) -> Any:
    """Where an example starts: a new game, a played position, a catch-up boundary (from
    z3), or a played position pushed near the turn cap / the all-pass end / a freeze."""
    r = rng.random()
    if r < 0.25:
        return {"kind": "new_game"}
    if r < 0.45:
        return {"kind": "state", "state": rng.choice(boundary_positions(profile))[1]}
    state = played_state(profile, rng.randrange(2**16), rng.randrange(0, 150))
    if r < 0.8 and state["phase"] != "setup":
        cap = profile.param("FLIT-END-TURNCAP", "max_turns")
        limit = profile.param("FLIT-FREEZE", "consecutive_timeouts")
        state["turn"] = rng.choice([state["turn"], cap - rng.randrange(1, 6)])
        state["passes"] = rng.randrange(0, 4)
        state["frozen"] = [rng.random() < 0.25 and b != state["to_move"] for b in (1, 2, 3, 4)]
        state["timeouts"] = [0 if f else rng.choice([limit - 1, rng.randrange(limit)])
                             for f in state["frozen"]]
    return {"kind": "state", "state": state}


def random_lockstep(ls: Lockstep, game: Flit, rng: random.Random, steps: int) -> Counter[str]:
    """Play `steps` random actions from varied starts; every step is compared (state and
    events) and judged by every oracle; legal sets, bot replies, probes, observe and reload
    now and then. Returns the rules of the events seen."""
    seen: Counter[str] = Counter()
    done = 0
    while done < steps:
        ls.start(random_start(rng, ls.profile))
        no_moves = rng.choice([0.1, 0.3, 0.9])  # 0.9: runs of no moves, freezes, all-pass
        kinds = rng.choice([["pass"], ["timeout"], ["pass", "pass", "timeout", "invalid"]])
        for _ in range(rng.randrange(10, 200)):
            state = ls.ref
            who = game.current(state)
            if who == TERMINAL or done >= steps:
                ls.compare_legal()
                break
            r = rng.random()
            if r < 0.08 and PLUGIN.cheap_to_list(ls):
                ls.compare_legal()
            elif r < 0.12:
                ls.reload()
            elif r < 0.16:
                ls.observe()
            if who == CHANCE:
                action = game.random_chance(state, rng)
                if ls.ref_json["phase"] == "neutral" and rng.random() < 0.2:
                    squares = game.available_squares(state)  # neutrals far more often
                    if squares:
                        sq = rng.choice(squares)
                        action = (("neutral-list", sq) if game.config(ls.profile).list_neutrals
                                  else ("neutral", sq, True))
            else:
                if rng.random() < 0.3:
                    ls.referee(_bot_text(rng, ls))
                if rng.random() < 0.1:
                    ls.probe(_probe(rng, ls))
                action = game.random_action(state, rng)
                if rng.random() < no_moves:
                    action = (rng.choice(kinds),)
            seen.update(e["rule"] for e in ls.step(game.action_to_json(state, action)))
            done += 1
        ls.observe()
    return seen


def _bot_text(rng: random.Random, ls: Lockstep) -> str:
    """A bot's raw reply: often a move near its own pieces, else odd or malformed text
    (Unicode digits and spaces, leading zeros, too few or too many numbers)."""
    state = ls.ref_json
    if rng.random() < 0.4:
        return _reply_near_own_piece(rng, state)
    choices = ["", "M\n", "1 2 3\n", "1 2 3 4 5\n", "+1 2 3 4\n", "-0 0 0 0\n",
               "\t0 0 0 1 \r\n", "1 2 3 99999999999999999999999\n", "0000000000005 3 6 3",
               "\u0665 3 6 3", "5\u30003 6 3", "5\u200b3 6 3", "\U0001d7d9 0 0 0",
               "\U0001e4f1 0 0 0"]
    if rng.random() < 0.4:
        return rng.choice(choices)
    nums = [rng.randrange(-3, 35) for _ in range(rng.choice((3, 4, 4, 4, 5)))]
    return " ".join(map(str, nums)) + "\n"


def _reply_near_own_piece(rng: random.Random, state: Any) -> str:
    w, h, board = state["width"], state["height"], state["board"]
    own = [i for i, c in enumerate(board) if c == str(state["to_move"])]
    o, q = rng.choice(own), rng.choice(own)
    x, y = q % w, q // w
    dx, dy = rng.choice([(0, -1), (1, 0), (0, 1), (-1, 0), (0, 0)])
    return f"{o % w} {o // w} {(x + dx) % w} {(y + dy) % h}\n"


def _probe(rng: random.Random, ls: Lockstep) -> Any:
    w, h = ls.ref_json["width"], ls.ref_json["height"]

    def sq() -> list[int]:
        return [rng.randrange(-1, w + 1), rng.randrange(-1, h + 1)]

    return rng.choice([
        {"type": "move", "from": sq(), "to": sq()}, {"type": "setup", "at": sq()},
        {"type": "neutral", "at": sq(), "hit": True}, {"type": "neutral-list", "at": sq()},
        {"type": "move", "from": sq(), "to": sq()}, {"type": "pass"},
    ])


@pytest.mark.parametrize(("profile", "steps"), [("standard", 3000), ("list-neutrals", 1500),
                                                ("strict", 1500)])
def test_random_lockstep_agrees_with_reference(engines: list[Any], profile: str,
                                               steps: int) -> None:
    engine = open_js(engines)
    engine.hello()
    game = Flit()
    coverage = Coverage()
    ls = Lockstep(game, engine, CATALOGUE.profile(profile), oracles_for("flit"),
                  coverage=coverage)
    seen = random_lockstep(ls, game, random.Random(f"flit-js:{profile}"), steps)
    # a Finding is raised at the first disagreement; reaching here means there was none
    assert coverage.steps == steps
    assert not ls.dead and not ls.muted_findings
    # the walk went through every kind of turn and every way a game ends
    assert {"FLIT-MOVE-VALID", "FLIT-CONVERT", "FLIT-NEUTRAL-ADD", "FLIT-MOVE-NOMOVE",
            "FLIT-TIME-LIMIT", "FLIT-MOVE-INVALID", "FLIT-FREEZE", "FLIT-END-CATCHUP",
            "FLIT-END-ALLPASS", "FLIT-END-TURNCAP"} <= set(seen), seen


# --- (3) malformed requests ---------------------------------------------------------------

MALFORMED: list[tuple[str, str]] = [
    ("this is not json", "bad-request"),
    ("[1, 2, 3]", "bad-request"),
    ('"hello"', "bad-request"),
    ('{"id": 10}', "bad-request"),
    ('{"id": 11, "op": 7}', "bad-request"),
    ('{"id": 12, "op": "frobnicate"}', "bad-request"),
    ('{"id": 13, "op": "constructor"}', "bad-request"),
    ('{"id": 14, "op": "apply"}', "bad-request"),
    ('{"id": 15, "op": "load_state"}', "bad-request"),
    ('{"id": 16, "op": "bot_output", "text": 5}', "bad-request"),
    ('{"id": 17, "op": "new_game", "profile": "no-such-profile"}', "bad-state"),
    ('{"id": 18, "op": "load_state", "state": 5}', "bad-state"),
    ('{"id": 19, "op": "load_state", "state": {"game": "flit"}}', "bad-state"),
    ('{"id": 20, "op": "apply", "action": "pass"}', "illegal"),
    ('{"id": 21, "op": "apply", "action": {"type": "bogus"}}', "illegal"),
    ('{"id": 22, "op": "apply", "action": {"type": "setup", "at": [1.0, 2]}}', "illegal"),
    ('{"id": 23, "op": "apply", "action": {"type": "setup", "at": [true, 2]}}', "illegal"),
    ('{"id": 24, "op": "apply", "action": {"type": "setup", "at": [32, 0]}}', "illegal"),
    ('{"id": 25, "op": "apply", "action": {"type": "setup", "at": [1, 2], "x": 0}}', "illegal"),
    ('{"id": 26, "op": "apply", "action": {"type": "pass"}}', "illegal"),  # setup is due
    ('{"id": 27, "op": "bot_output", "text": "0 0 0 1"}', "illegal"),  # nobody to move
    ("[" * 50_000 + "]" * 50_000, "bad-request"),
]


def test_malformed_requests_get_error_replies_and_the_engine_keeps_serving() -> None:
    lines = ['{"id": 1, "op": "apply", "action": {"type": "pass"}}',  # no game yet
             '{"id": 2, "op": "new_game", "profile": null, "seed": 5}']
    lines += [line for line, _ in MALFORMED]
    lines += ["", "   ", '{"id": 98, "op": "observe"}', '{"id": 99, "op": "hello"}',
              '{"id": 100, "op": "bye"}', '{"id": 101, "op": "hello"}']
    node = require_node()
    started = time.monotonic()
    proc = subprocess.run([node, str(ENGINE_JS)], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=30, check=False)
    assert time.monotonic() - started < 30
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    # one reply per non-blank request up to bye; nothing after bye
    assert len(replies) == 2 + len(MALFORMED) + 3, proc.stdout[-2000:]
    assert replies[0] == {"id": 1, "ok": False, "error": replies[0]["error"]}
    assert replies[0]["error"]["kind"] == "illegal"
    assert replies[1]["ok"] is True and replies[1]["state"]["phase"] == "setup"
    for (line, kind), reply in zip(MALFORMED, replies[2:2 + len(MALFORMED)], strict=True):
        assert reply["ok"] is False, (line[:80], reply)
        assert reply["error"]["kind"] == kind, (line[:80], reply)
        assert isinstance(reply["error"]["message"], str) and reply["error"]["message"]
        try:
            sent = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            sent = None
        want_id = sent.get("id") if isinstance(sent, dict) else None
        assert reply["id"] == want_id, (line[:80], reply)
    observed, hello, bye = replies[-3:]
    # the refused requests changed nothing
    assert observed["ok"] is True and observed["state"] == replies[1]["state"]
    assert hello["ok"] is True and hello["game"] == "flit"
    assert bye == {"id": 100, "ok": True}


def test_refused_action_leaves_the_state_unchanged(engines: list[Any]) -> None:
    engine = open_js(engines)
    game = Flit()
    profile = CATALOGUE.profile()
    state = game.initial(profile)
    rng = random.Random(4)
    while game.current(state) == CHANCE:  # the eight initial pieces
        state, _ = game.apply(state, game.random_chance(state, rng))
    before = game.observe(state)
    assert engine.load_state(before) == before
    for bad in ({"type": "move", "from": [0, 0], "to": [0, 0]}, {"type": "neutral",
                "at": [0, 0], "hit": False}, {"type": "setup", "at": [3, 3]}):
        with pytest.raises(Refused) as info:
            engine.apply(bad)
        assert info.value.kind == "illegal"
        assert engine.observe() == before
