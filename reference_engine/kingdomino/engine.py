"""Coders of the Realm (Kingdomino on CodinGame), played exactly as `spec/kingdomino.json` says.

A turn is: a line of new tiles is drawn (one chance step per tile, uniform over the tiles
not yet drawn), then each king, in order, places the tile it picked last turn and picks a
tile of the new line. One player action is one king's whole PUT + PICK sequence. The first
turn's order is a chance step (one outcome under the statement's seat order). Each rule
decision is a small method, so a mutant changes one rule by overriding one method; those
methods are `rules.py`'s (`KingdomRules`), this module plays the game with them.

Grids are kept as the protocol writes them: 81 cells of two characters, row-major, cell
(x, y) at characters 2 * (9 * y + x) and the next one. This module never reads the seeds.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from typing import Any

from gamecert.reference_engine.contract import (
    CHANCE,
    TERMINAL,
    BadState,
    IllegalAction,
    Outcome,
    outcomes_json,
)
from gamecert.reference_engine.kingdomino.bitboard import count, has_put, nth_put
from gamecert.reference_engine.kingdomino.load import load_state
from gamecert.reference_engine.kingdomino.protocol import referee
from gamecert.reference_engine.kingdomino.rules import KingdomRules, _fast_masks
from gamecert.reference_engine.kingdomino.state import DEAL as DEAL
from gamecert.reference_engine.kingdomino.state import ORDER as ORDER
from gamecert.reference_engine.kingdomino.state import OVER as OVER
from gamecert.reference_engine.kingdomino.state import PLAY as PLAY
from gamecert.reference_engine.kingdomino.state import Action as Action
from gamecert.reference_engine.kingdomino.state import KdConfig as KdConfig
from gamecert.reference_engine.kingdomino.state import KdState as KdState
from gamecert.reference_engine.kingdomino.state import N as N
from gamecert.reference_engine.kingdomino.state import Put as Put
from gamecert.spec import Profile

CASTLE = (4, 4)
EMPTY_GRID = "_0" * (N * N // 2) + "*0" + "_0" * (N * N // 2)
STOP_CAUSES = ("format", "pick", "put", "timeout")


RULE_HOOKS = ("extent_ok", "connects", "second_cell", "placement_error")


class Kingdomino(KingdomRules):
    """The Coders of the Realm reference engine (`reference_engine.contract.Game`)."""

    name = "kingdomino"

    def __init__(self) -> None:
        # the fast placement listing restates the reference's placement hooks; a subclass
        # that overrides one of them (a mutant) gets the listing built from its hooks
        self._fast = all(getattr(type(self), h) is getattr(Kingdomino, h) for h in RULE_HOOKS)
        # likewise zones from bitboards while zones are orthogonal (the reference's reading)
        self._fast_zones = type(self).zone_neighbours is Kingdomino.zone_neighbours
        # and the discard test read off the listing's masks while it is the reference's
        self._fast_discard = self._fast and all(
            getattr(type(self), h) is getattr(Kingdomino, h)
            for h in ("can_discard", "fits_somewhere"))

    # --- contract ------------------------------------------------------------------------
    def initial(self, profile: Profile, seed: int | None = None) -> KdState:
        cfg = self.config(profile)
        check_consistent(cfg)
        n = cfg.players
        return KdState(cfg, ORDER, 1, (self.kings_per_player(cfg),) * n,
                       tuple(sorted(cfg.tiles)), (), (), 0, (EMPTY_GRID,) * n,
                       (False,) * n, ())

    def current(self, state: KdState) -> int:
        if state.phase == PLAY:
            return state.placing[state.nxt][1]
        if state.phase == OVER:
            return TERMINAL
        return CHANCE

    def chance(self, state: KdState) -> list[Outcome[Action]]:
        if state.phase == ORDER:
            orders = self.first_orders(state)
            p = Fraction(1, len(orders))
            return [Outcome(("order", o), p) for o in orders]
        if state.phase == DEAL:
            p = Fraction(1, len(state.bag))
            return [Outcome(("deal", t), p) for t in state.bag]
        return []

    def chance_json(self, state: KdState) -> list[Any]:
        """The chance listing as wire JSON (`contract.legal_json` asks it when a game has
        it): a deal's outcomes written straight from the bag, each 1/len(bag) as
        `outcomes_json` writes `chance`'s fractions; anything else, and a subclass that
        lists or writes actions otherwise, by `outcomes_json`. A test compares the two."""
        if state.phase != DEAL or not state.bag or type(self).chance is not Kingdomino.chance \
                or type(self).action_to_json is not Kingdomino.action_to_json:
            return outcomes_json(self, state)
        return list(_deals_json(state.bag))

    def legal(self, state: KdState) -> list[Action]:
        if state.phase != PLAY:
            return []
        puts, picks = self.legal_parts(state)
        return [("play", put, pick) for put in puts for pick in picks]

    def legal_parts(self, state: KdState) -> tuple[list[Put | None], list[int | None]]:
        """A king's legal actions as their PUTs and their PICKs (phase PLAY): `legal` is
        every PUT with every PICK, PUT by PUT, so its k-th action is the PUT k // len(picks)
        with the PICK k % len(picks), read without listing the others."""
        tile, owner = state.placing[state.nxt]
        if state.turn == 1 or tile == 0:
            puts: list[Put | None] = [None]
        else:
            grid = state.grids[owner - 1]
            found = self.placements(state, grid, tile)
            puts = list(found) if found else []
            if self.can_discard(state, grid, tile):
                puts.append(None)
        picks: list[int | None] = [None] if self.last_turn(state) else [
            t for t, o in state.line if o == 0]
        return puts, picks

    def random_action(self, state: KdState, rng: random.Random) -> Action:
        """A uniformly random legal action, for fast random play: the legal actions are every
        PUT with every PICK, so a PUT and a PICK drawn apart are uniform over them."""
        tile, owner = state.placing[state.nxt]
        put: Put | None = None
        if state.turn > 1 and tile:
            grid = state.grids[owner - 1]
            if self._fast:  # rng.choice over the listing, without listing it
                masks = _fast_masks(grid, state.cfg.tiles[tile], state.cfg.extent)
                n = count(masks)
                total = n + (not n if self._fast_discard
                             else self.can_discard(state, grid, tile))
                k = rng.randrange(total) if total else rng.choice(())
                put = nth_put(masks, k) if k < n else None
            else:
                puts: list[Put | None] = list(self.placements(state, grid, tile))
                if self.can_discard(state, grid, tile):
                    puts.append(None)
                put = rng.choice(puts)
        if self.last_turn(state):
            return ("play", put, None)
        return ("play", put, rng.choice([t for t, o in state.line if o == 0]))

    def random_chance(self, state: KdState, rng: random.Random) -> Action:
        if state.phase == ORDER:
            return ("order", rng.choice(self.first_orders(state)))
        return ("deal", rng.choice(state.bag))

    # --- transitions ---------------------------------------------------------------------
    def apply(self, state: KdState, action: Action) -> tuple[KdState, list[Any]]:
        kind = action[0] if isinstance(action, tuple) and action else None
        if state.phase == OVER:
            raise IllegalAction("the game is over")
        if state.phase == ORDER:
            if kind != "order":
                raise IllegalAction(f"the first turn's order is due, not {kind!r}")
            return self._order(state, action[1])
        if state.phase == DEAL:
            if kind != "deal":
                raise IllegalAction(f"a tile of the new line is due, not {kind!r}")
            return self._deal(state, action[1])
        if kind == "play":
            return self._play(state, action[1], action[2], invalid_put=False)
        if kind == "invalid-put":
            return self._play(state, None, action[1], invalid_put=True)
        if kind == "stop":
            return self._stop(state, action[1])
        raise IllegalAction(f"player {self.current(state)} must play, not {kind!r}")

    def _order(self, state: KdState, order: tuple[int, ...]) -> tuple[KdState, list[Any]]:
        if tuple(order) not in self.first_orders(state):
            raise IllegalAction(f"{list(order)} is not a first-turn order")
        placing = tuple((0, p) for p in order)
        events = [{"type": "order", "rule": "KD-ORDER-FIRST", "order": list(order)}]
        return state._replace(phase=DEAL, placing=placing, nxt=0), events

    def _deal(self, state: KdState, tile: Any) -> tuple[KdState, list[Any]]:
        try:
            k = state.bag.index(tile)
        except ValueError:
            raise IllegalAction(f"tile {tile!r} is not among the tiles not yet drawn") from None
        bag = state.bag[:k] + state.bag[k + 1:]
        line = tuple(sorted((*state.line, (tile, 0))))
        events = [{"type": "dealt", "rule": "KD-DEAL", "tile": tile}]
        full = len(line) >= self.line_size(state.cfg) or not bag
        state = KdState(state.cfg, PLAY if full else DEAL, state.turn, state.kings, bag, line,
                        state.placing, state.nxt, state.grids, state.stopped, state.discarded,
                        state.result)
        if full:
            state = self._skip_stopped(state, 0, events)
        return state, events

    def _play(self, state: KdState, put: Put | None, pick: Any,
              invalid_put: bool) -> tuple[KdState, list[Any]]:
        tile, p = state.placing[state.nxt]
        grid = state.grids[p - 1]
        events: list[Any] = []
        grids, discarded = state.grids, state.discarded
        if state.turn == 1 or tile == 0:
            if put is not None or invalid_put:
                raise IllegalAction("no PUT on the first turn")
        elif invalid_put:
            if not state.cfg.put_discards:
                raise IllegalAction("an invalid PUT does not discard in this league")
            if not self.fits_somewhere(state, grid, tile):
                raise IllegalAction(f"tile {tile} fits nowhere: its PUT is ignored, not invalid")
            discarded = (*discarded, tile)
            events.append({"type": "discarded", "rule": "KD-PUT-INVALID", "player": p,
                           "tile": tile})
        elif put is None:
            if not self.can_discard(state, grid, tile):
                raise IllegalAction(f"tile {tile} fits somewhere: it must be placed")
            discarded = (*discarded, tile)
            events.append({"type": "discarded", "rule": "KD-DISCARD", "player": p,
                           "tile": tile})
        else:
            fast_ok = self._fast and has_put(
                _fast_masks(grid, state.cfg.tiles[tile], state.cfg.extent), put)
            problem = None if fast_ok else self.placement_error(state, grid, tile, put)
            if problem:
                raise IllegalAction(f"PUT {put[0]} {put[1]} {put[2]}: {problem}")
            grid = self.place(state, grid, tile, put)
            grids = (*grids[:p - 1], grid, *grids[p:])
            events.append({"type": "placed", "rule": "KD-PLACE-CONNECT", "player": p,
                           "tile": tile, "put": list(put)})
        problem = self.pick_error(state, pick)
        if problem:
            raise IllegalAction(f"PICK {pick!r}: {problem}")
        line = state.line
        if pick is not None:
            line = tuple([(t, p if t == pick else o) for t, o in line])
            events.append({"type": "picked", "rule": "KD-PICK", "player": p, "tile": pick})
        # the next king of this turn whose player is still in (as _skip_stopped, built in one
        # step: this is the commonest transition of a game), else the next turn
        placing, stopped = state.placing, state.stopped
        i = state.nxt + 1
        while i < len(placing) and stopped[placing[i][1] - 1]:
            i += 1
        if i < len(placing):
            return KdState(state.cfg, PLAY, state.turn, state.kings, state.bag, line, placing, i,
                           grids, stopped, discarded, state.result), events
        state = state._replace(grids=grids, discarded=discarded, line=line)
        return self._next_turn(state, events), events

    def _stop(self, state: KdState, cause: Any) -> tuple[KdState, list[Any]]:
        if cause not in STOP_CAUSES:
            raise IllegalAction(f"stop cause {cause!r} is not one of {', '.join(STOP_CAUSES)}")
        if cause == "put" and state.cfg.put_discards:
            raise IllegalAction("an invalid PUT discards the tile in this league")
        p = state.placing[state.nxt][1]
        stopped = tuple(s or i == p - 1 for i, s in enumerate(state.stopped))
        rule = "KD-PUT-INVALID" if cause == "put" else \
            "KD-PROTO-LIMITS" if cause == "timeout" else "KD-STOP"
        events: list[Any] = [{"type": "stopped", "rule": rule, "player": p, "cause": cause}]
        state = state._replace(stopped=stopped)
        if stopped.count(False) <= (1 if state.cfg.end_when_alone else 0):
            return self._finish(state, events), events
        return self._skip_stopped(state, state.nxt + 1, events), events

    def _skip_stopped(self, state: KdState, i: int, events: list[Any]) -> KdState:
        """The next king of this turn whose player is still in, or the next turn."""
        while i < len(state.placing) and state.stopped[state.placing[i][1] - 1]:
            i += 1
        if i < len(state.placing):
            return state._replace(nxt=i, phase=PLAY)
        return self._next_turn(state, events)

    def _next_turn(self, state: KdState, events: list[Any]) -> KdState:
        if self.last_turn(state):
            return self._finish(state, events)
        placing = tuple(k for k in self.turn_order(state.line) if not state.stopped[k[1] - 1])
        if not placing:
            return self._finish(state, events)
        turn = state.turn + 1
        state = state._replace(turn=turn, placing=placing, nxt=0, line=())
        if self.last_turn(state):
            return self._skip_stopped(state._replace(phase=PLAY), 0, events)
        return state._replace(phase=DEAL)

    def _finish(self, state: KdState, events: list[Any]) -> KdState:
        cfg = state.cfg
        scores = [self.score_grid(g) for g in state.grids]
        territory = [self.territory(cfg, g) for g in state.grids]
        crowns = [self.crowns(g) for g in state.grids]
        final = self.tie_break(scores, territory, crowns)
        best = max(final)
        result = {"scores": scores, "territory": territory, "crowns": crowns, "final": final,
                  "winners": [i + 1 for i, s in enumerate(final) if s == best]}
        events.append({"type": "game-ended", "rule": "KD-GAME-LENGTH", **result})
        return state._replace(phase=OVER, placing=(), nxt=0, line=(), result=result)

    def scores(self, state: KdState) -> list[int]:
        if state.result is not None:
            return list(state.result["final"])
        return [self.score_grid(g) for g in state.grids]

    # --- canonical JSON ------------------------------------------------------------------
    def observe(self, state: KdState) -> dict[str, Any]:
        return {
            "game": "kingdomino", "profile": state.profile.id, "players": state.cfg.players,
            "phase": state.phase, "turn": state.turn,
            "to_move": state.placing[state.nxt][1] if state.phase == PLAY else None,
            "kings": list(state.kings), "bag": list(state.bag),
            "line": _line_json(state.line), "placing": _placing_json(state.placing),
            "next": state.nxt,
            "grids": [list(_rows(g)) for g in state.grids],
            "stopped": list(state.stopped), "discarded": list(state.discarded),
            "result": state.result,
        }

    def observe_next(self, before: KdState, seen: dict[str, Any],
                     after: KdState) -> dict[str, Any]:
        """`observe(after)`, for a state `after` that `apply` reached from `before` (one step
        or more) where `seen` is `observe(before)`: a part of `after` that is the very object
        `before` had (states are immutable) is `seen`'s part, shared, not rebuilt, and so is
        each grid equal to the one before. Only the harness calls it, on its own reference's
        states (fuzz.step.lockstep): the JSON it returns shares lists with `seen`, so neither may
        be changed afterwards."""
        # each state's fields at once (one unpacking, not an attribute read per field)
        cfg, _, _, kings0, bag0, line0, placing0, _, grids0, stopped0, discarded0, _ = before
        cfg1, phase, turn, kings, bag, line, placing, nxt, grids, stopped, discarded, \
            result = after
        if cfg1 is not cfg:
            return self.observe(after)
        out = seen.copy()  # the parts this state shares with `before`'s stay `seen`'s
        out["phase"] = phase
        out["turn"] = turn
        out["to_move"] = placing[nxt][1] if phase == PLAY else None
        out["next"] = nxt
        out["result"] = result
        if grids is not grids0:
            rows = seen["grids"]
            out["grids"] = [rows[i] if i < len(grids0) and g == grids0[i] else list(_rows(g))
                            for i, g in enumerate(grids)]
        if kings is not kings0:
            out["kings"] = list(kings)
        if bag is not bag0:
            out["bag"] = list(bag)
        if line is not line0:
            out["line"] = _line_json(line)
        if placing is not placing0:
            out["placing"] = _placing_json(placing)
        if stopped is not stopped0:
            out["stopped"] = list(stopped)
        if discarded is not discarded0:
            out["discarded"] = list(discarded)
        return out

    def load(self, profile: Profile, observed: Any) -> KdState:
        return load_state(self, profile, observed)

    def adopt(self, profile: Profile, observed: Any) -> KdState:
        """An engine's state as it is, for the harness to go on from after a departure:
        any well-formed state of the profile's players, whether or not the rules could have
        reached it (a castle off centre, a line of the wrong length, a turn past the last)."""
        return load_state(self, profile, observed, strict=False)

    def action_to_json(self, state: KdState, action: Action) -> dict[str, Any]:
        kind = action[0]
        if kind == "deal":
            return {"type": "deal", "tile": action[1]}
        if kind == "order":
            return {"type": "order", "order": list(action[1])}
        if kind == "play":
            put = None if action[1] is None else list(action[1])
            return {"type": "play", "put": put, "pick": action[2]}
        if kind == "invalid-put":
            return {"type": "invalid-put", "pick": action[1]}
        return {"type": "stop", "cause": action[1]}

    def action_from_json(self, state: KdState, data: Any) -> Action:
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise IllegalAction(f"not a Kingdomino action (an object with a 'type'): "
                                f"{data!r:.200}")
        kind = data["type"]
        fields = _ACTION_FIELDS.get(kind)
        if fields is None:
            raise IllegalAction(f"unknown Kingdomino action type {kind!r}")
        if set(data) != fields:
            raise IllegalAction(f"a {kind} action has exactly the fields {sorted(fields)}")

        def whole(v: Any, what: str, none_ok: bool = False) -> Any:
            if v is None and none_ok:
                return None
            if type(v) is not int:
                raise IllegalAction(f"{what} must be a whole number, not {v!r:.60}")
            return v

        if kind == "deal":
            return ("deal", whole(data["tile"], "tile"))
        if kind == "order":
            order = data["order"]
            if not isinstance(order, list):
                raise IllegalAction("order must be a list of players")
            return ("order", tuple(whole(p, "player") for p in order))
        if kind == "play":
            put = data["put"]
            if put is not None:
                if not isinstance(put, list) or len(put) != 3:
                    raise IllegalAction("put must be [x, y, rotation] or null")
                put = tuple(whole(v, "put value") for v in put)
            return ("play", put, whole(data["pick"], "pick", none_ok=True))
        if kind == "invalid-put":
            return ("invalid-put", whole(data["pick"], "pick", none_ok=True))
        if not isinstance(data["cause"], str):
            raise IllegalAction("stop cause must be a string")
        return ("stop", data["cause"])

    def referee(self, state: KdState, text: str) -> Action:
        """KD-PROTO-OUTPUT, KD-STOP, KD-PUT-INVALID: what a bot's two output lines amount to."""

        return referee(self, state, text)


def _line_json(line: tuple[tuple[int, int], ...]) -> list[dict[str, Any]]:
    """The new line as the canonical JSON writes it (no owner: null)."""
    return [{"tile": t, "player": o or None} for t, o in line]


def _placing_json(placing: tuple[tuple[int, int], ...]) -> list[dict[str, Any]]:
    """This turn's kings in order as the canonical JSON writes them (no tile: null)."""
    return [{"tile": t or None, "player": o} for t, o in placing]


@lru_cache(maxsize=64)
def _deals_json(bag: tuple[int, ...]) -> tuple[dict[str, Any], ...]:
    """A deal's chance listing as wire JSON (`Kingdomino.chance_json`). Cached (bounded): the
    harness lists the same bag for the engine and the reference, and replays revisit it;
    the listing is read, never changed (as `Flit.chance_json`'s)."""
    p = f"1/{len(bag)}"
    return tuple({"action": {"type": "deal", "tile": t}, "p": p} for t in bag)


@lru_cache(maxsize=4096)
def _rows(grid: str) -> tuple[str, ...]:
    """A grid's 9 row strings, as the canonical JSON writes them. Cached (bounded): a grid is
    observed at every step until its owner places again."""
    return tuple(grid[2 * N * r:2 * N * (r + 1)] for r in range(N))


_ACTION_FIELDS = {
    "deal": {"type", "tile"}, "order": {"type", "order"}, "play": {"type", "put", "pick"},
    "invalid-put": {"type", "pick"}, "stop": {"type", "cause"},
}


def check_consistent(cfg: KdConfig) -> None:
    """KD-TILES-IN-PLAY: the lines drawn over the game use exactly the tiles in play."""
    if cfg.line * (cfg.turns - 1) != cfg.in_play:
        raise BadState(f"profile {cfg.profile.id!r}: {cfg.turns - 1} lines of {cfg.line} "
                       f"tiles do not make the {cfg.in_play} tiles in play")
