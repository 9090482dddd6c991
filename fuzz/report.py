"""Certificates: a verdict per rule, as a terminal table, JSON (schema'd) and JUnit XML."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from xml.etree import ElementTree as ET

from gamecert.fuzz.campaign import CampaignResult, Progress
from gamecert.fuzz.lockstep import HARNESS_RULES
from gamecert.fuzz.trace import save_trace
from gamecert.schemas import first_error
from gamecert.spec import load_catalogue

VIOLATED, PASSED, UNEXERCISED = "violated", "passed", "not exercised"


def gamecert_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gamecert")
    except PackageNotFoundError:
        return "0+unknown"


@dataclass(frozen=True)
class RuleRow:
    rule: str
    title: str
    verdict: str
    exercised: int
    findings: tuple[int, ...]
    harness: bool


def rule_rows(result: CampaignResult) -> list[RuleRow]:
    catalogue = load_catalogue(result.game)
    titles = [(r.id, r.title, False) for r in catalogue.rules]
    titles += [(rid, text, True) for rid, text in HARNESS_RULES.items()]
    rows = []
    for rid, title, harness in titles:
        found = tuple(i for i, f in enumerate(result.findings, 1) if rid in f.rules)
        exercised = result.coverage.applied.get(rid, 0)
        if harness and rid in ("ENGINE-ALIVE", "ENGINE-AGREES"):
            exercised = result.coverage.steps
        verdict = VIOLATED if found else PASSED if exercised else UNEXERCISED
        rows.append(RuleRow(rid, title, verdict, exercised, found, harness))
    return rows


def render_table(result: CampaignResult, rows: list[RuleRow]) -> str:
    width = max(len(r.rule) for r in rows)
    mark = {VIOLATED: "FAIL", PASSED: "pass", UNEXERCISED: "----"}
    lines = [f"{'rule':<{width}}  verdict  exercised  title", "-" * (width + 48)]
    for r in rows:
        title = r.title if len(r.title) <= 52 else r.title[:49] + "..."
        extra = f"  findings {', '.join(map(str, r.findings))}" if r.findings else ""
        lines.append(f"{r.rule:<{width}}  {mark[r.verdict]:<7}  {r.exercised:>9}  {title}{extra}")
    return "\n".join(lines)


def summary(result: CampaignResult, rows: list[RuleRow]) -> str:
    game_rows = [r for r in rows if not r.harness]
    n = {v: sum(1 for r in game_rows if r.verdict == v) for v in (PASSED, VIOLATED, UNEXERCISED)}
    c = result.coverage
    head = {"certified": "CERTIFIED", "violations": "RULES VIOLATED",
            "unusable": "ENGINE UNUSABLE"}[result.status]
    return (f"{head}: {n[PASSED]} rules passed, {n[VIOLATED]} violated, {n[UNEXERCISED]} not "
            f"exercised; {len(result.findings)} findings; {result.rounds} rounds, "
            f"{c.examples} examples, {c.steps} steps in {result.duration:.1f} s")


def report_document(result: CampaignResult, rows: list[RuleRow],
                    traces: list[str | None]) -> dict[str, Any]:
    c = result.coverage
    return {
        "format": "gamecert-report/1",
        "game": result.game, "profile": result.profile.id, "engine": result.engine,
        "engine_spec": result.engine_spec, "engine_hello": result.hello,
        "gamecert_version": gamecert_version(),
        "seed": result.seed, "rounds": result.rounds, "budget_s": result.budget,
        "duration_s": round(result.duration, 3), "status": result.status,
        "unusable": result.unusable,
        "totals": {"examples": c.examples, "steps": c.steps},
        "rules": [{"id": r.rule, "title": r.title, "verdict": r.verdict,
                   "exercised": r.exercised, "findings": list(r.findings),
                   "harness_check": r.harness} for r in rows],
        "findings": [{"number": i, "rules": f.rules, "kind": f.kind, "message": f.message,
                      "ops": len(f.trace["ops"]) if f.trace else 0, "trace": t,
                      "confirmation": f.confirmation or None}
                     for i, (f, t) in enumerate(zip(result.findings, traces, strict=True), 1)],
        "replay": f"gamecert certify {result.game} --profile {result.profile.id} "
                  f"--seed {result.seed} --rounds {result.rounds}",
    }


def junit_xml(result: CampaignResult, rows: list[RuleRow]) -> str:
    suite = ET.Element("testsuite", name=f"gamecert {result.game} ({result.profile.id})",
                       tests=str(len(rows)),
                       failures=str(sum(r.verdict == VIOLATED for r in rows)),
                       skipped=str(sum(r.verdict == UNEXERCISED for r in rows)),
                       time=f"{result.duration:.3f}")
    for r in rows:
        case = ET.SubElement(suite, "testcase", classname=f"gamecert.{result.game}", name=r.rule)
        if r.verdict == VIOLATED:
            msgs = [result.findings[i - 1].message for i in r.findings]
            fail = ET.SubElement(case, "failure", message=msgs[0][:300])
            fail.text = "\n".join(msgs)
        elif r.verdict == UNEXERCISED:
            ET.SubElement(case, "skipped", message="no applicable case was reached")
    return ET.tostring(suite, encoding="unicode")


def write_report(result: CampaignResult, directory: Path) -> Path:
    """report.json, report.xml and one trace file per finding; returns report.json's path."""
    directory.mkdir(parents=True, exist_ok=True)
    traces: list[str | None] = []
    for i, finding in enumerate(result.findings, 1):
        if finding.trace is None:
            traces.append(None)
            continue
        name = f"traces/{i:02d}-{finding.rules[0].lower()}.json"
        save_trace(finding, directory / name)
        traces.append(name)
    rows = rule_rows(result)
    doc = report_document(result, rows, traces)
    problem = first_error("report", doc)
    if problem:  # our own bug; say so rather than write a report that lies about its shape
        raise RuntimeError(f"report does not match schemas/report.schema.json: {problem}")
    path = directory / "report.json"
    path.write_text(json.dumps(doc, indent=1) + "\n", "utf-8")
    (directory / "report.xml").write_text(junit_xml(result, rows) + "\n", "utf-8")
    return path


class ProgressBar:
    """A one-line bar on a terminal; an occasional plain line in a log."""

    def __init__(self, stream: IO[str] | None = None, every: float = 5.0) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.every = every
        self.last = 0.0

    def __call__(self, p: Progress) -> None:
        text = (f"{p.elapsed:6.1f} s  rounds {p.rounds}  examples {p.examples}  "
                f"steps {p.steps}  findings {p.findings}")
        if self.tty:
            done = min(1.0, p.elapsed / p.budget) if p.budget else 0.0
            bar = "#" * int(done * 24)
            self.stream.write(f"\r[{bar:<24}] {text}")
            self.stream.flush()
        elif time.monotonic() - self.last >= self.every:
            self.last = time.monotonic()
            self.stream.write(f"progress: {text}\n")
            self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
