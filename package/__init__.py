"""gamecert: a specification-driven rules verifier and fuzz-testing harness for bot games.

This module is the public Python surface; everything under `gamecert.*` that is not named
here is internal and may change between releases.

    import gamecert
    result = gamecert.certify("flit", engine="mypkg.engine:Flit", budget=30, seed=7)
    print(result.status, [f.rules for f in result.findings])
    gamecert.replay("out/traces/01-flit-end-catchup.json", engine="mypkg.engine:Flit")

To write an engine in Python, follow `Game` (pure, typed) or `Session` (stateful, JSON);
to add a rule check, write an `Oracle`.

In the repository this file lives in `package/`; pyproject.toml's package-dir maps it and the
top-level folders (`spec/`, `fuzz/`, ...) under the one import name `gamecert`.
It must not import anything heavy at module level beyond the names it re-exports.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version
from pathlib import Path

from gamecert.fuzz.engines.engine import Engine
from gamecert.fuzz.engines.recipes import EngineRecipe, engine_recipe, open_engine
from gamecert.fuzz.findings.trace import ReplayResult, load_trace
from gamecert.fuzz.findings.trace import replay as _replay_doc
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign
from gamecert.fuzz.step.lockstep import Finding
from gamecert.oracles.base import NA, OK, Oracle, Transition, Verdict, Violation
from gamecert.reference_engine.contract import CHANCE, TERMINAL, Game, Outcome, Session

try:
    __version__ = _version("gamecert")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"


def _engine(game: str, engine: str | Engine | None, engine_cmd: str | list[str] | None,
            timeout: float) -> tuple[Engine, bool]:
    """The engine to drive, and whether we opened it (and so must close it)."""
    if engine is not None and not isinstance(engine, str):
        return engine, False
    if engine_cmd is not None:
        return open_engine(game, command=engine_cmd, timeout=timeout), True
    return open_engine(game, engine=engine), True


def certify(game: str, *, engine: str | Engine | None = None,
            engine_cmd: str | list[str] | None = None, profile: str | None = None,
            budget: float | None = 20.0, rounds: int | None = None, seed: int = 0,
            timeout: float = 5.0, profile_file: str | Path | None = None) -> CampaignResult:
    """Fuzz an engine against the reference and every rule oracle of `game`.

    `engine` is 'reference', 'package.module:attr' or an open `Engine`; `engine_cmd` is a
    wire-protocol command instead. `profile` names a shipped rule profile; `profile_file`
    is a season's instead (TOML or JSON, extending a shipped one; a bad file raises
    `gamecert.spec.CatalogueError` naming the file and line). The result carries the
    status, findings and coverage.
    """
    season = None
    if profile_file is not None:
        from gamecert.spec.profile_file import read_profile_file

        if profile is not None:
            raise ValueError("give profile or profile_file, not both")
        season = read_profile_file(profile_file, game)
    # a recipe, so findings are shrunk and confirmed on fresh engines; an Engine handed
    # over open is shared (its findings say so)
    target: Engine | EngineRecipe = (
        engine if engine is not None and not isinstance(engine, str)
        else engine_recipe(game, command=engine_cmd, timeout=timeout) if engine_cmd is not None
        else engine_recipe(game, engine=engine))
    return run_campaign(game, target, profile_id=profile, budget=None if rounds else budget,
                        rounds=rounds, seed=seed, profile=season)


def replay(trace: str | Path, *, engine: str | Engine | None = None,
           engine_cmd: str | list[str] | None = None, timeout: float = 5.0,
           profile_file: str | Path | None = None) -> ReplayResult:
    """Re-run a trace file on an engine beside the reference; the first finding stops it.
    The trace plays under the profile it recorded (a season's too, whatever its file says
    now), or under `profile_file`'s rules when given."""
    doc = load_trace(trace)
    if profile_file is not None:
        from gamecert.spec.profile_file import profile_record, read_profile_file

        season = read_profile_file(profile_file, doc["game"])
        doc = {**doc, "profile": season.id, "profile_doc": profile_record(season)}
    eng, owned = _engine(doc["game"], engine, engine_cmd, timeout)
    try:
        return _replay_doc(doc, eng, path=str(trace))
    finally:
        if owned:
            eng.close()


__all__ = ["CHANCE", "NA", "OK", "TERMINAL", "CampaignResult", "Engine", "Finding", "Game",
           "Oracle", "Outcome", "ReplayResult", "Session", "Transition", "Verdict", "Violation",
           "__version__", "certify", "replay"]

