"""`gamecert prove kingdomino`: z3's checks of the scoring and the tie-break on the grids of
random reference games, and z3's near-full kingdoms played on the engine beside the
reference.
"""

from __future__ import annotations

from typing import Any

from gamecert.fuzz.engines.engine import Engine
from gamecert.fuzz.games.proving import disagreements, engine_code
from gamecert.fuzz.step.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game
from gamecert.spec import Profile


def finished_grids(profile: Profile, games: int) -> list[str]:
    """The final grids of a few random reference games (seeded: the same every run)."""
    import random

    from gamecert.reference_engine.contract import CHANCE, TERMINAL
    from gamecert.reference_engine.kingdomino import Kingdomino

    game, rng = Kingdomino(), random.Random(f"grids:{profile.id}")
    out: list[str] = []
    for _ in range(games):
        state = game.initial(profile)
        while (who := game.current(state)) != TERMINAL:
            action = game.random_chance(state, rng) if who == CHANCE else \
                game.random_action(state, rng)
            state = game.apply(state, action)[0]
        out.extend(state.grids)
    return out


def prove_kingdomino(engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
    """z3 for Kingdomino: discards only when no placement exists, the extent kept at every
    accepted placement, the tie-break order, and near-full kingdoms played on the engine."""
    from gamecert.fuzz.games.kingdomino.crafted import near_full_states
    from gamecert.oracles.kingdomino import board, tie_break
    from gamecert.oracles.kingdomino.z3_checks import (
        extent_edge,
        prove_tie_order,
        tie_order_witnesses,
        z3_placement,
        z3_score,
    )

    ok, lines = True, []
    proved, message = prove_tie_order()
    ok &= proved
    lines.append(f"KD-TIE-BREAK order (territory, then crowns) by z3: "
                 f"{'PROVED' if proved else 'FAILED'}: {message}")
    code = engine_code(engine)
    if code is None:
        ok = False
        lines.append("KD-TIE-BREAK on the engine's code: NOT RUN: the engine runs in another "
                     "process; give it in-process (--engine package.module:attr)")
    else:
        cases = tie_order_witnesses()
        wrong = [c for c in cases if code.tie_break(*c) != tie_break(*c)]
        ok &= not wrong and bool(cases)
        lines.append(f"KD-TIE-BREAK on the engine's code, z3 ties where the order matters: "
                     f"{len(cases)} run, {len(wrong)} wrong")
        lines.extend(f"  scores {s}, territory {t}, crowns {c}: engine "
                     f"{code.tie_break(s, t, c)}, rule {tie_break(s, t, c)}"
                     for s, t, c in wrong[:5])
    positions = near_full_states(profile)
    size = profile.param("KD-PLACE-EXTENT", "size")
    tiles = board.tiles(profile)
    if code is not None:
        grids: list[str] = [g for st in positions for g in ("".join(r) for r in st["grids"])]
        grids += finished_grids(profile, games=4)
        proved_all, bad_scores = True, []
        for g in grids:
            want, unique = z3_score(g)
            proved_all &= unique
            if code.score_grid(g) != want:
                bad_scores.append(f"  grid {g}: engine {code.score_grid(g)}, zone model {want}")
        ok &= proved_all and not bad_scores
        lines.append(f"KD-SCORE-ZONES on the engine's code, against z3's zone model (the score "
                     f"{'proved unique' if proved_all else 'NOT proved unique'} for each "
                     f"grid): {len(grids)} grids, {len(bad_scores)} wrong")
        lines.extend(bad_scores[:5])

    def only_placement(state: Any) -> list[Any]:
        k = state["placing"][state["next"]]
        g = board.grid(state, k["player"])
        put = z3_placement(g, tiles[k["tile"]], size)
        pick = next(e["tile"] for e in state["line"] if e["player"] is None)
        return [{"type": "play", "put": put, "pick": pick}]

    bad = disagreements("kingdomino", engine, profile,
                        [(f"near-full {i}", s) for i, s in enumerate(positions)], only_placement)
    ref, oracles = reference_game("kingdomino"), oracles_for("kingdomino")
    for i, s in enumerate(positions):  # z3 found a placement: a discard must be refused
        ls = Lockstep(ref, engine, profile, oracles, coverage=Coverage())
        try:
            ls.start({"kind": "state", "state": s})
            ls.probe({"type": "play", "put": None, "pick": next(
                e["tile"] for e in s["line"] if e["player"] is None)})
        except Finding as f:
            bad.append(f"  near-full {i}, discard offered: [{', '.join(f.rules)}] {f.message}")
    ok &= not bad and bool(positions)
    lines.append(f"KD-PLACE-* and KD-DISCARD near-full kingdoms from z3 (exactly one spot "
                 f"left; it is played, a discard is offered): {len(positions)} "
                 f"positions, {len(bad)} disagreements")
    lines.extend(bad[:10])

    # discards: fill the one placement z3 found, so z3 proves nothing fits (unsat)
    discard_positions = []
    for i, s in enumerate(positions):
        k = s["placing"][s["next"]]
        g = board.grid(s, k["player"])
        x, y, r = z3_placement(g, tiles[k["tile"]], size) or (0, 0, 0)
        x2, y2 = board.second(x, y, r)
        cells = list(g)
        for cx, cy in ((x, y), (x2, y2)):
            cells[2 * (cy * 9 + cx):2 * (cy * 9 + cx) + 2] = "m0"
        g2 = "".join(cells)
        if z3_placement(g2, tiles[k["tile"]], size) is None:
            rows = [list(row) for row in s["grids"]]
            rows[k["player"] - 1] = [g2[18 * r_:18 * (r_ + 1)] for r_ in range(9)]
            discard_positions.append((f"fits nowhere {i}", {**s, "grids": rows}))
    bad = disagreements("kingdomino", engine, profile, discard_positions, lambda s: [
        {"type": "play", "put": None,
         "pick": next(e["tile"] for e in s["line"] if e["player"] is None)}])
    ok &= not bad
    lines.append(f"KD-DISCARD positions where z3 proves no placement exists (unsat): "
                 f"{len(discard_positions)} played, {len(bad)} disagree")
    lines.extend(bad[:10])

    # extent: z3's placements one square too wide or tall must be refused
    refused_wrongly, tried = [], 0
    for label, s in [*[(f"near-full {i}", s) for i, s in enumerate(positions)],
                     *discard_positions]:
        k = s["placing"][s["next"]]
        put = extent_edge(board.grid(s, k["player"]), tiles[k["tile"]], size)
        if put is None:
            continue
        tried += 1
        ls = Lockstep(ref, engine, profile, oracles, coverage=Coverage())
        pick = next(e["tile"] for e in s["line"] if e["player"] is None)
        try:
            ls.start({"kind": "state", "state": s})
            ls.probe({"type": "play", "put": put, "pick": pick})
        except Finding as f:
            refused_wrongly.append(f"  {label}: [{', '.join(f.rules)}] {f.message}")
    ok &= not refused_wrongly
    lines.append(f"KD-PLACE-EXTENT placements one square past {size} x {size} from z3: "
                 f"{tried} offered, {len(refused_wrongly)} accepted")
    lines.extend(refused_wrongly[:10])
    return ok, lines
