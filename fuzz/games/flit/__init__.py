"""Flit's search: crafted boards near the wrap, z3 catch-up boundaries, near-end states.

The plugin (`PLUGIN`, a `fuzz.games.GamePlugin`) is one call a job, each job a file of its
own, the same files for every game:

* `starts.py`: start positions (new games, played positions, z3's boundary positions);
* `crafted.py`: crafted positions one step from a rule's rare case (`crafted_for`);
* `play.py`: the moves drawn, and the steered run-ahead for an engine without load_state;
* `probes.py`: probes (actions the reference refuses) and the one-rule probes;
* `bot_text.py`: raw bot replies for the referee;
* `targets.py`: what Hypothesis steers toward;
* `proofs.py`: `gamecert prove flit`.

Nothing here judges an engine: the lockstep (fuzz.step) does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.fuzz.games.flit.bot_text import bot_text_strategy
from gamecert.fuzz.games.flit.play import draw_action, run_ahead_policy
from gamecert.fuzz.games.flit.probes import draw_probe, rule_probes
from gamecert.fuzz.games.flit.proofs import prove_flit
from gamecert.fuzz.games.flit.starts import start_strategy
from gamecert.fuzz.games.flit.targets import target_scores
from gamecert.reference_engine.flit import Flit
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.engines.engine import Engine
    from gamecert.fuzz.step.lockstep import Lockstep


JSON = Any


class FlitPlugin:
    game = Flit()
    # The run-ahead for an engine that cannot load states (the crafted starts are how
    # Flit's deep rules are met otherwise) is steered (fuzz.games.flit.play): a leader
    # converts the neutrals it can reach and half the runs end the game with every bot
    # passing, so winners, ties and conversions are met from new games. The longest runs
    # are for the catch-up end under the list reading of FLIT-NEUTRAL-ADD (about 3,300
    # turns); under the square reading a run stops at 1,024 turns, its catch-up being out
    # of reach (see play.py).
    run_ahead: tuple[int, ...] = (32, 128, 512, 4096)
    run_ahead_policy = staticmethod(run_ahead_policy)
    # stretches for engines that load states too (fuzz.search.machine): its mutants are
    # caught as soon or sooner, each with its own rule (docs/speed.md)
    stretch_when_loading = True
    rule_probes = staticmethod(rule_probes)
    # What the crafted starts are for: each kind of start, the rules whose rare cases it
    # puts one step away. An engine that cannot load them gets those rules checked in part.
    crafted_for: dict[str, tuple[str, ...]] = {
        "pieces beside the board's wrap (crafted_state)": ("FLIT-BOARD-TORUS",),
        "neutrals a move away from conversion, and its announcement (crafted_state)": (
            "FLIT-CONVERT", "FLIT-PROTO-UPDATES"),
        "time-out counters at the freeze limit (crafted_state)": ("FLIT-FREEZE",),
        "the turn counter at the cap, the game a step from its end (crafted_state)": (
            "FLIT-END-TURNCAP", "FLIT-WINNER", "FLIT-WINNER-TIE"),
        "the pass counter at the all-pass limit (crafted_state)": ("FLIT-END-ALLPASS",),
        "z3's boundary positions of the catch-up rule": ("FLIT-END-CATCHUP",),
    }

    def starts(self, profile: Profile) -> st.SearchStrategy[JSON]:
        return start_strategy(profile)

    def draw_action(self, data: st.DataObject, ls: Lockstep) -> JSON:
        return draw_action(data, ls)

    def cheap_to_list(self, ls: Lockstep) -> bool:
        """Comparing full legal sets is worth it below ~20,000 actions."""
        s = ls.ref_json
        if s["phase"] != "move":
            return True
        return bool(s["board"].count(str(s["to_move"])) * s["board"].count("0") <= 20_000)

    def draw_probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        return draw_probe(data, ls)

    def bot_texts(self, profile: Profile) -> st.SearchStrategy[str]:
        return bot_text_strategy(profile)

    def targets(self, ls: Lockstep) -> dict[str, float]:
        return target_scores(ls)

    def prove(self, engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
        return prove_flit(engine, profile)


PLUGIN = FlitPlugin()
