"""A pytest plugin for engine repositories: gamecert's verdicts as test items.

Registered through the `pytest11` entry point and off unless `--gamecert-game` is given:

    pytest --gamecert-game carcassonne --gamecert-engine mypkg.engine:Game \\
           [--gamecert-corpus traces/] [--gamecert-baseline accepted.json] \\
           [--gamecert-budget 30] [--gamecert-seed 0]

Each trace of the corpus becomes one item (it must replay clean on the engine), and one
short campaign becomes one item per rule of the catalogue. An item fails where `gamecert
certify` would not certify: the rule is violated by a departure no baseline accepts, or it
applies and was exercised fewer than `--gamecert-min-exercised` times (the campaign is
INCOMPLETE: certify exits 4, so a green run here would claim what certify does not). It is
skipped, with the reason, only when the rule does not apply, cannot be checked without a
capability the engine lacks, or its departure is accepted. A maintainer's own CI then shows
which rule a change broke. This module only adapts campaigns and replays to pytest; it must
not judge anything (the verdicts are the campaign's, fuzz.reports.certificate's rows).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gamecert.fuzz.search.campaign import CampaignResult
from gamecert.spec import CatalogueError

_RESULT = pytest.StashKey[CampaignResult]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gamecert", "gamecert: certify a game engine as test items")
    group.addoption("--gamecert-game", metavar="GAME", help="turn the plugin on for this game")
    group.addoption("--gamecert-engine", metavar="ENGINE",
                    help="the engine: 'package.module:attr' (default: the reference)")
    group.addoption("--gamecert-engine-cmd", metavar="COMMAND",
                    help="or a wire-protocol engine command")
    group.addoption("--gamecert-corpus", metavar="DIR",
                    help="a folder of trace files: one item each, which must replay clean")
    group.addoption("--gamecert-baseline", metavar="FILE", help="accepted departures")
    group.addoption("--gamecert-budget", type=float, default=30.0, metavar="SECONDS",
                    help="the campaign's budget (default 30)")
    group.addoption("--gamecert-seed", type=int, default=0, metavar="N",
                    help="the campaign's seed (default 0)")
    group.addoption("--gamecert-rounds", type=int, metavar="N",
                    help="run exactly N rounds instead of a budget (the same every run)")
    group.addoption("--gamecert-min-exercised", type=int, default=1, metavar="N",
                    help="a rule exercised fewer times fails, as certify's INCOMPLETE "
                         "(default 1)")
    group.addoption("--gamecert-profile", metavar="PROFILE", help="the rule profile")
    group.addoption("--gamecert-profile-file", metavar="FILE",
                    help="the campaign's rules from a season's profile file (TOML or JSON, "
                         "extending a shipped profile); corpus traces replay under the "
                         "profile each recorded")


def _engine(config: pytest.Config, game: str) -> Any:
    from gamecert.fuzz.engines.recipes import open_engine

    command = config.getoption("gamecert_engine_cmd")
    if command:
        return open_engine(game, command=command)
    return open_engine(game, engine=config.getoption("gamecert_engine") or "reference")


class TraceItem(pytest.Item):
    """One corpus trace: replays clean, or fails with the finding it shows."""

    def __init__(self, *, path_: Path, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.trace_path = path_

    def runtest(self) -> None:
        from gamecert.fuzz.findings.trace import load_trace, replay

        doc = load_trace(self.trace_path)
        engine = _engine(self.config, doc["game"])
        try:
            result = replay(doc, engine, path=str(self.trace_path))
        finally:
            engine.close()
        if result.finding is not None:
            f = result.finding
            raise AssertionError(f"[{', '.join(f.rules)}] {f.kind} at operation "
                                 f"{f.op_index + 1}: {f.message}")

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.trace_path, None, f"gamecert trace {self.trace_path.name}"


class RuleItem(pytest.Item):
    """One rule of the catalogue, judged by the session's one campaign."""

    def __init__(self, *, rule: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rule = rule

    def runtest(self) -> None:
        from gamecert.fuzz.reports.certificate import (
            ACCEPTED,
            NOT_APPLICABLE,
            NOT_CHECKABLE,
            UNEXERCISED,
            VIOLATED,
            rule_rows,
        )

        result = _campaign(self.config)
        if result.unusable:
            raise AssertionError(f"engine unusable: {result.unusable}")
        row = next(r for r in rule_rows(result) if r.rule == self.rule)
        if row.verdict == VIOLATED:
            deps = [result.departures[i - 1] for i in row.findings]
            raise AssertionError("\n".join(
                f"{d.message} ({d.ops} operations; cause {d.id}; replay with gamecert "
                f"certify {result.game} --seed {result.seed} --rounds {result.rounds})"
                for d in deps))
        if self.rule in result.unexercised:  # what makes certify say INCOMPLETE, exit 4
            raise AssertionError(
                f"{self.rule}: exercised {row.exercised} times, fewer than "
                f"{result.min_exercised}: the campaign is INCOMPLETE ({result.rounds} rounds, "
                f"{result.coverage.steps} steps), so the rule is not certified; give the "
                f"campaign more time (--gamecert-budget) or rounds (--gamecert-rounds)")
        if row.verdict == ACCEPTED:
            deps = [result.departures[i - 1] for i in row.findings]
            pytest.skip(f"accepted departure: {deps[0].accepted}")
        # not applicable, not checkable, or a harness check certify does not require
        if row.verdict in (NOT_APPLICABLE, NOT_CHECKABLE, UNEXERCISED):
            pytest.skip(f"{self.rule}: {row.verdict} in this campaign")

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "gamecert", None, f"gamecert rule {self.rule}"


def _campaign(config: pytest.Config) -> CampaignResult:
    if _RESULT not in config.stash:
        from gamecert.fuzz.findings.baseline import load_baseline
        from gamecert.fuzz.search.campaign import run_campaign
        from gamecert.spec import load_catalogue

        game = config.getoption("gamecert_game")
        path = config.getoption("gamecert_baseline")
        rounds = config.getoption("gamecert_rounds")
        baseline = load_baseline(path, load_catalogue(game)) if path else None
        season = config.getoption("gamecert_profile_file")
        profile = None
        if season:
            from gamecert.spec.profile_file import read_profile_file

            if config.getoption("gamecert_profile"):
                raise pytest.UsageError("give --gamecert-profile or --gamecert-profile-file, "
                                        "not both")
            try:
                profile = read_profile_file(season, game)
            except CatalogueError as exc:
                raise pytest.UsageError(str(exc)) from None
        engine = _engine(config, game)
        try:
            config.stash[_RESULT] = run_campaign(
                game, engine, profile_id=config.getoption("gamecert_profile"), profile=profile,
                budget=None if rounds else config.getoption("gamecert_budget"),
                rounds=rounds, seed=config.getoption("gamecert_seed"),
                min_exercised=config.getoption("gamecert_min_exercised"),
                baseline=baseline)
        finally:
            engine.close()
    return config.stash[_RESULT]


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    game = config.getoption("gamecert_game")
    if not game:
        return
    from gamecert.fuzz.step.lockstep import HARNESS_RULES
    from gamecert.spec import load_catalogue

    corpus = config.getoption("gamecert_corpus")
    if corpus:
        for path in sorted(Path(corpus).glob("**/*.json")):
            items.append(TraceItem.from_parent(session, name=f"gamecert-trace[{path.name}]",
                                               path_=path))
    rules = [*load_catalogue(game).rule_ids, *HARNESS_RULES]
    for rid in rules:
        items.append(RuleItem.from_parent(session, name=f"gamecert[{rid}]", rule=rid))
