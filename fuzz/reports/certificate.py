"""Certificates: a verdict per rule, as a terminal table, JSON (schema'd), JUnit XML and HTML
(fuzz.reports.html).

Reads a finished `CampaignResult`; it must not run or change anything. Text an engine
sent is shown through `visible` (fuzz.reports.visible_text): never raw on a terminal or in XML.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from gamecert.fuzz.atomic_write import write_json, write_text
from gamecert.fuzz.findings.chance_stats import ALPHA, MIN_SAMPLES
from gamecert.fuzz.findings.trace import trace_document
from gamecert.fuzz.findings.triage import Reading
from gamecert.fuzz.reports.html import write_html
from gamecert.fuzz.reports.visible_text import visible
from gamecert.fuzz.search.campaign import STEPS_PER_EXAMPLE, CampaignResult, round_seed
from gamecert.fuzz.step.lockstep import HARNESS_RULES, Finding
from gamecert.schemas import first_error
from gamecert.spec import load_catalogue
from gamecert.spec.profile_file import profile_option, record_of

VIOLATED, ACCEPTED, PASSED = "violated", "accepted", "passed"
UNEXERCISED, NOT_APPLICABLE = "not exercised", "not applicable"
# the engine lacks a capability the rule's check needs (fuzz.engines.capabilities): not passed, and
# not counted against completeness either (no budget would exercise it)
NOT_CHECKABLE = "not checkable"

HEADLINES = {"certified": "CERTIFIED", "certified-with-departures":
             "CERTIFIED WITH DOCUMENTED DEPARTURES", "violations": "RULES VIOLATED",
             "incomplete": "INCOMPLETE", "unusable": "ENGINE UNUSABLE"}


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
    findings: tuple[int, ...]  # numbers of the departures charged to this rule
    harness: bool
    dragged: tuple[int, ...] = ()  # departures that broke it as a consequence of another
    probes: int = 0  # probes offered that break this rule and no other


def rule_rows(result: CampaignResult) -> list[RuleRow]:
    catalogue = load_catalogue(result.game)
    applicable = set(result.applicable)
    titles = [(r.id, r.title, False) for r in catalogue.rules]
    titles += [(rid, text, True) for rid, text in HARNESS_RULES.items()]
    deps = list(enumerate(result.departures, 1))
    rows = []
    for rid, title, harness in titles:
        charged = tuple(i for i, d in deps if d.primary == rid)
        dragged = tuple(i for i, d in deps if rid in d.also)
        exercised = result.coverage.applied.get(rid, 0)
        if harness and rid in ("ENGINE-ALIVE", "ENGINE-AGREES"):
            exercised = result.coverage.steps
        if any(deps[i - 1][1].accepted is None for i in charged):
            verdict = VIOLATED
        elif charged:
            verdict = ACCEPTED
        elif rid in result.not_checkable:
            verdict = NOT_CHECKABLE
        elif not harness and rid not in applicable:
            verdict = NOT_APPLICABLE
        elif exercised >= (1 if harness else result.min_exercised):
            verdict = PASSED
        else:
            verdict = UNEXERCISED
        rows.append(RuleRow(rid, title, verdict, exercised, charged, harness, dragged,
                            result.coverage.probes.get(rid, 0)))
    return rows


def render_table(result: CampaignResult, rows: list[RuleRow]) -> str:
    width = max(len(r.rule) for r in rows)
    mark = {VIOLATED: "FAIL", ACCEPTED: "known", PASSED: "pass", UNEXERCISED: "----",
            NOT_APPLICABLE: "n/a", NOT_CHECKABLE: "no-cap"}
    lines = [f"{'rule':<{width}}  verdict  exercised  title", "-" * (width + 48)]
    for r in rows:
        title = r.title if len(r.title) <= 52 else r.title[:49] + "..."
        extra = f"  findings {', '.join(map(str, r.findings))}" if r.findings else ""
        if r.probes:
            extra += f"  ({r.probes} one-rule probes)"
        if r.dragged:
            extra += f"  (also broken by {', '.join(map(str, r.dragged))})"
        if r.verdict == NOT_CHECKABLE:
            extra += f"  (needs {result.not_checkable[r.rule]})"
        elif r.rule in result.in_part and r.verdict in (PASSED, UNEXERCISED):
            extra += f"  (checked in part: the rest needs {result.in_part[r.rule]})"
        lines.append(f"{r.rule:<{width}}  {mark[r.verdict]:<7}  {r.exercised:>9}  {title}{extra}")
    return "\n".join(lines)


def render_capabilities(result: CampaignResult) -> str:
    """What the engine declared, what that left unchecked, and the chance statistics."""
    from gamecert.fuzz.engines.capabilities import CHANCE, KNOWN

    caps = sorted(result.capabilities)
    lines = [f"capabilities: {', '.join(caps) if caps else 'the minimum'}"
             + (f" (missing: {', '.join(c for c in KNOWN if c not in result.capabilities)})"
                if set(KNOWN) - result.capabilities else "")]
    if result.not_checkable:
        lines.append("  not checkable without a capability (neither passed nor required): "
                     + ", ".join(f"{r} (needs {c})" for r, c in
                                 sorted(result.not_checkable.items())))
    if result.in_part:
        lines.append("  checked in part (a pass says nothing of the part that needs the "
                     "capability): " + ", ".join(f"{r} (the rest needs {c})" for r, c in
                                                  sorted(result.in_part.items())))
    if CHANCE not in result.capabilities:
        lines.append("  follow mode: the engine drew for itself; chance rules tested by "
                     f"chi-square over its draws, alpha {ALPHA} per campaign split over "
                     f"the rules (Bonferroni), at least {MIN_SAMPLES} draws per rule")
        for t in result.chance_tests:
            if t.p_value is None:
                what = f"not enough samples (n = {t.n} < {MIN_SAMPLES}, or too few categories)"
            else:
                what = (f"{t.verdict}: p = {t.p_value:.3g} (alpha {t.alpha:.3g}), "
                        f"chi-square {t.statistic:.1f} on {t.df} df, n = {t.n}")
            lines.append(f"  {t.rule}: {what}")
        if not result.chance_tests:
            lines.append("  no draw was followed")
    return "\n".join(lines)


def render_findings(result: CampaignResult) -> str:
    """One paragraph per departure: its rule, what broke, how often, what it follows."""
    out = []
    for i, d in enumerate(result.departures, 1):
        seen = f", seen {d.count} times" if d.count > 1 else ""
        how = f", {d.finding.confirmation}" if d.finding.confirmation else ""
        head = (f"finding {i} [{d.primary}] {d.finding.kind} ({d.ops} operations{seen}{how}; "
                f"cause {d.id})")
        lines = [head, f"  {d.message}"]
        if d.also:
            lines.append(f"  also broke, as a consequence: {', '.join(d.also)}")
        if d.reading is not None:
            lines.append(f"  reading: {reading_text(d.reading)}")
        if d.accepted is not None:
            lines.append(f"  accepted by the baseline: {d.accepted}")
        out.append("\n".join(lines))
    return visible("\n\n".join(out))


def reading_text(reading: Reading) -> str:
    """The reading a departure follows, as a sentence about the engine."""
    if reading.variant is None:
        return f"the engine follows none of the known readings of {reading.rule}"
    return f"the engine follows {reading.rule}={reading.variant}"


def fingerprint_rows(result: CampaignResult) -> list[dict[str, Any]]:
    """For every rule with variants: the reading the engine was seen to follow, how often."""
    catalogue = load_catalogue(result.game)
    rows: list[dict[str, Any]] = []
    for rule in catalogue.rules:
        if rule.interpretation is None:
            continue
        chosen = result.profile.variant(rule.id)
        seen: dict[str | None, int] = {}
        for d in result.departures:
            if d.reading is not None and d.reading.rule == rule.id:
                seen[d.reading.variant] = seen.get(d.reading.variant, 0) + d.count
        departed = any(rule.id == d.primary for d in result.departures)
        checks = result.coverage.applied.get(rule.id, 0)
        for variant, count in seen.items():
            rows.append({"rule": rule.id, "reading": variant, "count": count,
                         "evidence": "departures"})
        if not seen and not departed and checks:
            rows.append({"rule": rule.id, "reading": chosen, "count": checks,
                         "evidence": "checks"})
        if not seen and not checks and not departed:
            rows.append({"rule": rule.id, "reading": None, "count": 0, "evidence": "none"})
    return rows


def render_fingerprint(result: CampaignResult) -> str:
    lines = ["readings of the open rules:"]
    for row in fingerprint_rows(result):
        if row["evidence"] == "checks":
            text = f"{row['reading']} (the profile's; {row['count']} checks, no departure)"
        elif row["evidence"] == "departures":
            what = row["reading"] or "none of the known readings"
            text = f"{what} ({row['count']} departures)"
        else:
            text = "not seen (never exercised)"
        lines.append(f"  {row['rule']}: {text}")
    return "\n".join(lines)


def render_load(result: CampaignResult) -> str:
    """A word on the machine's load, when it slowed the rounds down notably ('' else)."""
    load = result.load
    if load is None or not load.notable:
        return ""
    text = (f"busy machine: while the rounds were played, the campaign's processes waited "
            f"{load.wait_s:.1f} s for a CPU and ran {load.cpu_s:.1f} s: the rounds ran "
            f"{load.slowdown:.1f} times slower than the engine allows")
    if result.budget is not None and result.rounds:
        text += (f" (about {result.budget * load.share:.0f} s of the {result.budget:g} s "
                 f"budget went to the machine's other work)")
    return text


def summary(result: CampaignResult, rows: list[RuleRow]) -> str:
    game_rows = [r for r in rows if not r.harness]
    n = {v: sum(1 for r in game_rows if r.verdict == v)
         for v in (PASSED, VIOLATED, ACCEPTED, UNEXERCISED, NOT_APPLICABLE, NOT_CHECKABLE)}
    c = result.coverage
    head = HEADLINES[result.status]
    if result.status == "unusable":
        return f"{head}: {result.unusable}"
    known = f", {n[ACCEPTED]} with accepted departures" if n[ACCEPTED] else ""
    repeats = sum(d.count for d in result.departures)
    text = (f"{head}: {n[PASSED]} rules passed, {violated_text(rows)}{known}, "
            f"{n[UNEXERCISED]} not exercised, {n[NOT_APPLICABLE]} not applicable"
            + (f", {n[NOT_CHECKABLE]} not checkable without a capability"
               if n[NOT_CHECKABLE] else "") + "; "
            f"{len(result.departures)} findings ({repeats} failures counted); {result.rounds} "
            f"rounds, {c.examples} examples, {c.steps} steps in {result.duration:.1f} s")
    if result.status == "incomplete":
        missing = result.unexercised
        why = ("no step was executed" if c.steps == 0 else
               f"exercised fewer than {result.min_exercised} times: {', '.join(missing)}")
        text += f"\nnot certified: {why}" + _load_note(result)
    return text


def _load_note(result: CampaignResult) -> str:
    """For an incomplete run on a busy machine: that the machine, not the engine, may be
    why, and the budget that makes up for it."""
    load = result.load
    if load is None or not load.notable or result.budget is None:
        return ""
    return (f" (on a busy machine: the rounds ran {load.slowdown:.1f} times slower than the "
            f"engine allows; --budget {math.ceil(result.budget * load.slowdown)} gives them "
            f"the time an idle machine gives in {result.budget:g} s)")


def violated_text(rows: list[RuleRow]) -> str:
    """"N violated", with the harness checks among them named: a run whose only finding
    is the engine's own failure (ENGINE-ALIVE) is not "0 violated"."""
    game = sum(1 for r in rows if not r.harness and r.verdict == VIOLATED)
    harness = [r.rule for r in rows if r.harness and r.verdict == VIOLATED]
    if not harness:
        return f"{game} violated"
    checks = "a harness check" if len(harness) == 1 else "harness checks"
    rules = f"{game} game rule{'' if game == 1 else 's'}; " if game else ""
    return f"{game + len(harness)} violated ({rules}{', '.join(harness)}: {checks})"


def report_document(result: CampaignResult, rows: list[RuleRow],
                    traces: list[str | None]) -> dict[str, Any]:
    c = result.coverage
    return {
        "format": "gamecert-report/1",
        "game": result.game, "profile": result.profile.id, "engine": result.engine,
        "engine_spec": result.engine_spec, "engine_hello": result.hello,
        "gamecert_version": gamecert_version(),
        "seed": result.seed, "rounds": result.rounds, "budget_s": result.budget,
        "shrink_allowance_s": result.shrink_allowance,
        "duration_s": round(result.duration, 3), "status": result.status,
        "interrupted": result.interrupted,
        "unusable": result.unusable, "min_exercised": result.min_exercised,
        "baseline": result.baseline.path if result.baseline else None,
        "totals": {"examples": c.examples, "steps": c.steps,
                   "past_departure": {"steps": c.past_steps, "checks": dict(c.past)}},
        "rules": [{"id": r.rule, "title": r.title, "verdict": r.verdict,
                   "exercised": r.exercised, "findings": list(r.findings),
                   "dragged": list(r.dragged), "harness_check": r.harness,
                   "probes": r.probes} for r in rows],
        "fingerprint": fingerprint_rows(result),
        "capabilities": sorted(result.capabilities),
        "not_checkable": [{"rule": r, "needs": c} for r, c in sorted(result.not_checkable.items())],
        "checked_in_part": [{"rule": r, "needs": c} for r, c in sorted(result.in_part.items())],
        "chance_statistics": {"alpha": ALPHA, "min_samples": MIN_SAMPLES,
                              "tests": [t.as_json() for t in result.chance_tests]},
        "findings": [{"number": i, "id": d.id, "primary": d.primary, "also": d.also,
                      "rules": d.finding.rules, "kind": d.finding.kind, "message": d.message,
                      "count": d.count, "signature": d.signature,
                      "reading": None if d.reading is None else
                      {"rule": d.reading.rule, "variant": d.reading.variant},
                      "accepted": d.accepted, "confirmation": d.finding.confirmation or None,
                      "ops": d.ops, "trace": t, **_picture(d.finding)}
                     for i, (d, t) in enumerate(zip(result.departures, traces, strict=True), 1)],
        "replay": f"gamecert certify {result.game} {profile_option(result.profile)} "
                  f"--seed {result.seed} --rounds {result.rounds}{steps_option(result)}",
        # who played the rounds, what they started from, and each round's seed: with a
        # time budget, `--rounds K --seed S` (and the same database) replays these rounds
        "runner": result.runner, "database": result.database,
        "load": None if result.load is None else result.load.as_json(),
        "round_seeds": [round_seed(result.seed, k) for k in range(result.rounds)],
        # a season's whole profile (spec.profile_file): what the certificate was given under
        **({"profile_doc": record} if (record := record_of(result.profile)) else {}),
    }


def _picture(finding: Finding) -> dict[str, Any]:
    """The states at the failing operation, where the lockstep had them."""
    if finding.expected is None:
        return {}
    # an in-process engine may hand back values JSON cannot hold: keep their text
    return {"picture": json.loads(json.dumps(
        {"op": finding.op_index, "reference": finding.expected, "engine": finding.got},
        default=repr))}


def junit_xml(result: CampaignResult, rows: list[RuleRow]) -> str:
    suite = ET.Element("testsuite", name=f"gamecert {result.game} ({result.profile.id})",
                       tests=str(len(rows) + (1 if result.unusable else 0)),
                       failures=str(sum(r.verdict == VIOLATED for r in rows)
                                    + (1 if result.unusable else 0)),
                       skipped=str(sum(r.verdict in (UNEXERCISED, NOT_APPLICABLE,
                                                     NOT_CHECKABLE) for r in rows)),
                       time=f"{result.duration:.3f}")
    if result.unusable:  # a CI job must see why nothing ran
        case = ET.SubElement(suite, "testcase", classname=f"gamecert.{result.game}",
                             name="engine start-up")
        fail = ET.SubElement(case, "failure", message=result.unusable[:300])
        fail.text = result.unusable
    for r in rows:
        case = ET.SubElement(suite, "testcase", classname=f"gamecert.{result.game}", name=r.rule)
        if r.verdict == VIOLATED:
            msgs = [result.departures[i - 1].message for i in r.findings]
            fail = ET.SubElement(case, "failure", message=msgs[0][:300])
            fail.text = "\n".join(msgs)
        elif r.verdict == UNEXERCISED:
            ET.SubElement(case, "skipped", message="no applicable case was reached")
        elif r.verdict == NOT_APPLICABLE:
            ET.SubElement(case, "skipped", message="not applicable under this profile")
        elif r.verdict == NOT_CHECKABLE:
            ET.SubElement(case, "skipped", message=f"not checkable: the engine lacks "
                                                   f"{result.not_checkable[r.rule]}")
        elif r.verdict == ACCEPTED:
            out = ET.SubElement(case, "system-out")
            out.text = "accepted departure: " + "; ".join(
                str(result.departures[i - 1].accepted) for i in r.findings)
    # XML 1.0 cannot hold control characters or lone surrogates an engine may have sent
    return visible(ET.tostring(suite, encoding="unicode"))


def write_report(result: CampaignResult, directory: Path) -> Path:
    """report.json, report.xml, report.html and one trace file per finding; returns
    report.json's path. Written whatever the outcome, an unusable engine included."""
    directory.mkdir(parents=True, exist_ok=True)
    traces: list[str | None] = []
    for i, dep in enumerate(result.departures, 1):
        if dep.finding.trace is None:
            traces.append(None)
            continue
        name = f"traces/{i:02d}-{dep.primary.lower()}.json"
        write_json(directory / name, trace_document(dep.finding))
        traces.append(name)
    rows = rule_rows(result)
    doc = report_document(result, rows, traces)
    problem = first_error("report", doc)
    if problem:  # our own bug; say so rather than write a report that lies about its shape
        raise RuntimeError(f"report does not match schemas/report.schema.json: {problem}")
    path = directory / "report.json"
    write_json(path, doc)
    write_text(directory / "report.xml", junit_xml(result, rows) + "\n")
    write_html(doc, directory)
    return path


def steps_option(result: CampaignResult) -> str:
    """' --steps N' when the run's examples were not of the default length (for its replay)."""
    n = result.steps_per_example
    return "" if n == STEPS_PER_EXAMPLE else f" --steps {n}"
