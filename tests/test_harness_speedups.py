"""The harness's speed-ups (issue 15) give the answers the plain computations give.

Each cache or shortcut in the oracles is checked against the computation it stands in for,
on states of random games; the lockstep's reuse of the reference's objects is checked to
leave a diverging engine's own state under judgement; the overhead benchmark prints its
headline line.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles.base import NA, Oracle, Transition, Verdict
from gamecert.oracles.botwars import model as bw
from gamecert.oracles.carcassonne import board as cb
from gamecert.oracles.kingdomino import board as kb
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import CHANCE, TERMINAL, Game
from gamecert.spec import Profile, load_catalogue

ROOT = Path(__file__).resolve().parents[1]


def _states(game: Game[Any, Any], profile: Profile, seed: int, games: int = 2) -> list[Any]:
    """Canonical states of random games, in order."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = game.initial(profile)
        while (who := game.current(s)) != TERMINAL:
            a = (game.random_chance(s, rng) if who == CHANCE  # type: ignore[attr-defined]
                 else game.random_action(s, rng))  # type: ignore[attr-defined]
            s, _ = game.apply(s, a)
            out.append(game.observe(s))
    return out


def _feature_facts(board: cb.Board) -> list[tuple[Any, ...]]:
    return sorted((f.kind, tuple(f.tile_list()), f.open_sides, f.banners, tuple(f.meeples),
                   f.present) for f in board.features())


def test_carcassonne_shapes_from_the_cache_equal_a_fresh_flood() -> None:
    game = reference_game("carcassonne")
    states = _states(game, load_catalogue("carcassonne").profile(), seed=3, games=1)
    for state in states[::3]:
        cached = cb.Board(state)
        got = _feature_facts(cached)
        cb._shapes.clear()  # the same state, flooded from scratch
        fresh = cb.Board(state)
        assert _feature_facts(fresh) == got
        for cell in list(fresh.cells)[-3:]:
            slow = any(f.complete for f in fresh.features_on(cell)
                       + fresh.monasteries_near(cell))
            assert cached.completes_any(cell) == slow


def test_carcassonne_tile_totals_follow_the_state() -> None:
    game = reference_game("carcassonne")
    for state in _states(game, load_catalogue("carcassonne").profile(), seed=5, games=1)[::7]:
        assert cb.tile_totals(state) == cb._count_tiles(state)
        assert cb.tile_totals(dict(state)) == cb._count_tiles(state)  # a copy: counted anew


def _fits_slowly(g: str, squares: tuple[str, str], size: int, connect: bool) -> list[int] | None:
    for y in range(kb.N):
        for x in range(kb.N):
            for r in range(4):
                faults = kb.placement_faults(g, [x, y, r], squares, size)
                if not faults or (not connect and faults == ["KD-PLACE-CONNECT"]):
                    return [x, y, r]
    return None


def test_kingdomino_fits_somewhere_equals_trying_every_placement() -> None:
    game = reference_game("kingdomino")
    profile = load_catalogue("kingdomino").profile("legend")
    tiles = kb.tiles(profile)
    rng = random.Random(1)
    states = _states(game, profile, seed=9, games=2)
    for state in states[::5]:
        for player in range(1, len(state["grids"]) + 1):
            g = kb.grid(state, player)
            for tile in rng.sample(sorted(tiles), 4):
                for size, connect in ((5, True), (5, False), (3, True), (kb.N, True)):
                    kb.fits_somewhere.cache_clear()
                    assert kb.fits_somewhere(g, tiles[tile], size, connect) == \
                        _fits_slowly(g, tiles[tile], size, connect)


def test_kingdomino_changed_cells_reads_characters_and_odd_shapes_alike() -> None:
    a = "c0" * 81
    b = "c0" * 40 + "w1" + "c0" * 40
    assert kb.changed_cells(a, a) == {}
    assert kb.changed_cells(a, b) == {(4, 4): "w1"}
    assert kb.changed_cells(a, a[:-2]) == {(8, 8): ""}  # a short grid: the slicing reading


def test_botwars_move_list_judgements_are_cached() -> None:
    profile = load_catalogue("botwars").profile()
    r = bw.readings(profile)
    assert hash(r) == hash(bw.readings(profile))
    grid = "." * r.size
    bw._judged.cache_clear()
    first = bw.judge_list(r, grid, 1, [(0, 1)])
    assert bw.judge_list(r, grid, 1, [(0, 1)]) is first
    assert bw._judged.cache_info().hits == 1


def test_a_diverging_engine_is_judged_on_its_own_state() -> None:
    """When the engine's state equals the reference's the oracles are shown the reference's
    objects; when it differs they must see the engine's."""
    seen: list[Any] = []

    def spy(t: Transition, p: Profile) -> Verdict:
        seen.append(t.after)
        return NA

    class Off:  # the reference, but its turn counter is off after every apply
        def __init__(self) -> None:
            self.inner = InProcessEngine(reference_session("flit"))

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

        def apply(self, action: Any) -> Any:
            state, events = self.inner.apply(action)
            return {**state, "turn": state["turn"] + 100}, events

    game = reference_game("flit")
    profile = load_catalogue("flit").profile()
    ls = Lockstep(game, Off(), profile, [Oracle("SPY", check=spy)],  # type: ignore[arg-type]
                  coverage=Coverage())
    ls.start({"kind": "new_game"})
    rng = random.Random(0)
    action = game.action_to_json(ls.ref, game.random_chance(ls.ref, rng))  # type: ignore[attr-defined]
    try:
        ls.step(action)
    except Finding as finding:
        assert finding.rules == ["ENGINE-AGREES"]
    assert seen and seen[0]["turn"] == ls.ref_json["turn"] + 100


def test_the_overhead_benchmark_prints_its_headline() -> None:
    script = ROOT / "benchmarks" / "speed" / "overhead.py"
    run = subprocess.run([sys.executable, str(script), "flit",
                          "--games", "1", "--max-steps", "40", "--repeats", "1",
                          "--clock", "cpu"],
                         capture_output=True, text=True, timeout=300, check=True)
    lines = run.stdout.splitlines()
    assert re.match(r"harness overhead: \d+\.\dx ", lines[0]), run.stdout
    assert any(line.startswith("lockstep steps/s: ") for line in lines)
    parts = next(line for line in lines if line.startswith("time per part, Hypothesis"))
    for part in ("engine", "reference", "oracles", "comparison", "Hypothesis"):
        assert part in parts


def _overhead() -> Any:
    sys.path.insert(0, str(ROOT / "benchmarks" / "speed"))
    import overhead  # type: ignore[import-not-found]

    return overhead


def test_the_benchmarks_engine_keeps_caches_of_its_own() -> None:
    """The overhead benchmark's engine under test is the reference loaded as modules of its
    own: its caches are not the lockstep's reference's (the reference, asked first, would
    otherwise have worked out the engine's answers for it), it plays the same games, and the
    modules already loaded stay in place."""
    from gamecert.reference_engine import kingdomino as kd_package
    from gamecert.reference_engine.kingdomino import engine as kd_engine

    overhead = _overhead()
    private = overhead.private_reference("kingdomino")
    assert private is not kd_package and private.engine is not kd_engine
    assert private.engine._rows is not kd_engine._rows
    assert sys.modules["gamecert.reference_engine.kingdomino"] is kd_package
    assert sys.modules["gamecert.reference_engine.kingdomino.engine"] is kd_engine
    import gamecert.reference_engine as package
    assert package.kingdomino is kd_package
    profile = load_catalogue("kingdomino").profile(None)
    script = overhead.record_games(reference_game("kingdomino"), profile, 1, seed=3)[0]
    ours, theirs = reference_session("kingdomino"), InProcessEngine(
        overhead.Session(private.ENGINE()))
    assert ours.new_game(profile.id) == theirs.new_game(profile.id)
    before, grids = kd_engine._rows.cache_info(), 0
    for action in script:
        reply = ours.apply(action)
        assert reply == theirs.apply(action)
        grids += len(reply[0]["grids"])
    # only our reference's own observations went through our cache: a call a grid a step
    after = kd_engine._rows.cache_info()
    assert after.hits + after.misses - before.hits - before.misses == grids > 0


def test_the_benchmarks_games_are_recorded_elsewhere() -> None:
    """Each repeat's games are recorded in a child process (the positions they reach warm no
    cache of the benchmark's process), a set for each seed from 11, the games
    `record_games` records; the child is gone afterwards."""
    import multiprocessing

    from gamecert.reference_engine.kingdomino import engine as kd_engine

    overhead = _overhead()
    profile = load_catalogue("kingdomino").profile(None)
    before = kd_engine._fast_masks.cache_info()
    sets = overhead.record_sets("kingdomino", profile, 2, 2)
    assert kd_engine._fast_masks.cache_info() == before
    assert not multiprocessing.active_children()
    game = reference_game("kingdomino")
    assert sets == [overhead.record_games(game, profile, 2, seed=seed) for seed in (11, 12)]
    assert sets[0] != sets[1]
    assert kd_engine._fast_masks.cache_info() != before  # recording here warms it


def test_remembered_step_patterns_count_what_each_step_says() -> None:
    """The lockstep remembers what a step's pattern of OK and NA counts (`_count_step`):
    the counts are those of counting each verdict, step by step, and a violation whose text
    is the very text of OK or NA is still a violation."""
    from gamecert.oracles.base import OK, Violation

    answers = iter([OK, NA, OK, OK, NA, Violation(str(OK)), OK, Violation(str(NA)), OK] * 50)
    said: list[Verdict] = []

    def check(t: Transition, p: Profile) -> Verdict:
        v = next(answers)
        said.append(v)
        return v

    game = reference_game("flit")
    profile = load_catalogue("flit").profile()
    cov = Coverage()
    ls = Lockstep(game, InProcessEngine(reference_session("flit")), profile,
                  [Oracle("R-A", check=check), Oracle("R-B", state=lambda s, p: OK)],
                  coverage=cov)
    ls.start({"kind": "new_game"})
    rng = random.Random(1)
    found = []
    for _ in range(60):
        if not ls.live:
            break
        a = (game.random_chance(ls.ref, rng) if game.current(ls.ref) == CHANCE  # type: ignore[attr-defined]
             else game.random_action(ls.ref, rng))  # type: ignore[attr-defined]
        try:
            ls.step(game.action_to_json(ls.ref, a))
        except Finding as finding:
            found.append(finding)
            ls.muted |= finding.causes
            break
    assert found and found[0].rules == ["R-A"] and said[-1] == str(OK)
    assert type(said[-1]) is Violation
    assert cov.applied["R-A"] == sum(1 for v in said if v is not NA)
    assert cov.applied["R-B"] == len(said) + 1  # and the new game's state
    assert ls.counted  # patterns were remembered


def test_the_campaign_benchmark_measures_the_lockstep_beside_the_campaign() -> None:
    """`benchmarks/speed/campaign_bench.py` prints a game's campaign steps/s beside the
    lockstep's, measured on the other core while the campaign runs (the median of those
    measures), and their ratio."""
    script = ROOT / "benchmarks" / "speed" / "campaign_bench.py"
    run = subprocess.run([sys.executable, str(script), "--game", "kingdomino", "--budget",
                          "2", "--mutants", "0", "--no-profile", "--repeats", "1"],
                         capture_output=True, text=True, timeout=600, check=True)
    out = run.stdout
    ratio = re.search(r"in process ([\d.]+)%, through the wire [\d.]+% \(lockstep ([\d,]+) "
                      r"steps/s, the median of (\d+) measures beside the campaign, ([\d,]+) "
                      r"to ([\d,]+)\)", out)
    assert ratio is not None, out
    lock, low, high = (float(ratio.group(i).replace(",", "")) for i in (2, 4, 5))
    assert int(ratio.group(3)) >= 1 and 0 < low <= lock <= high
    row = re.search(r"^\| kingdomino \| ([\d,]+) \| [\d,]+ \| ([\d,]+) \| ([\d.]+)% \|$", out,
                    re.MULTILINE)
    assert row is not None and float(row.group(2).replace(",", "")) == round(lock)
    steps = float(row.group(1).replace(",", ""))
    assert abs(float(row.group(3)) - 100 * steps / lock) < 0.2
