"""bot-check's reports: the terminal summary, report.json, report.xml (JUnit) and one trace
per finding, in the style of certify's reports (fuzz/reports/certificate.py). Reads results only."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from gamecert.fuzz.botcheck.findings import HARNESS_RULES, WARN, Finding
from gamecert.fuzz.botcheck.runner import RunResult
from gamecert.fuzz.botcheck.transcript import render_excerpt
from gamecert.schemas import first_error
from gamecert.spec import load_catalogue

SPEED_NOTE = ("Times are this machine's. The competition's machines may be slower or busier: "
              "keep a margin (a bot at 80 % of a limit here can time out there); "
              "--time-scale F checks against limits F times as long (F < 1: a stricter "
              "check, as on an arena machine 1/F times slower).")


def machine_note() -> str:
    """How loaded this machine was: measured times on a busy machine run long."""
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:
        return f"This machine: {cores} cores."
    busy = " (busy: times here may run long)" if load > cores else ""
    return f"This machine: {cores} cores, load average {load:.1f} over the last minute{busy}."


def protocol_rules(result: RunResult) -> list[tuple[str, str]]:
    """The rules a bot can break: the catalogue's protocol and timing rules, the move rules
    the referee applies, and the harness's own."""
    cat = load_catalogue(result.game)
    rules = [(r.id, r.title) for r in cat.rules
             if r.group in ("protocol", "timing") or r.id in _MOVE_RULES]
    return rules + list(HARNESS_RULES.items())


_MOVE_RULES = {"FLIT-MOVE-VALID", "BOTWARS-MOVE-INVALID", "CARC-PLACE-MATCH"}


def rule_rows(result: RunResult) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for rid, title in protocol_rules(result):
        found = [i for i, f in enumerate(result.findings.items, 1) if f.rule == rid]
        fails = [i for i in found if result.findings.items[i - 1].severity != WARN]
        verdict = "violated" if fails else "warning" if found else "passed"
        rows.append({"id": rid, "title": title, "verdict": verdict, "findings": found})
    by_id = {r["id"]: r for r in rows}
    titles = {r.id: r.title for r in load_catalogue(result.game).rules}
    for i, f in enumerate(result.findings.items, 1):  # rules outside the list above
        row = by_id.get(f.rule)
        if row is None:
            row = by_id[f.rule] = {"id": f.rule, "title": titles.get(f.rule, f.rule),
                                   "verdict": "warning", "findings": list[int]()}
            rows.append(row)
        numbers: list[int] = row["findings"]
        if i not in numbers:
            numbers.append(i)
        if f.severity != WARN:
            row["verdict"] = "violated"
    return rows


def render(result: RunResult) -> str:
    lines = []
    rows = rule_rows(result)
    width = max(len(r["id"]) for r in rows)
    mark = {"violated": "FAIL", "warning": "warn", "passed": "pass"}
    lines.append(f"{'rule':<{width}}  verdict  title")
    lines.append("-" * (width + 60))
    for r in rows:
        extra = f"  findings {', '.join(map(str, r['findings']))}" if r["findings"] else ""
        lines.append(f"{r['id']:<{width}}  {mark[r['verdict']]:<7}  {r['title'][:60]}{extra}")
    lines.append("")
    for seat, t in sorted(result.timings.items()):
        j = t.to_json()
        line = (f"timing, seat {seat}: {j['queries']} replies, p50 {j['p50_ms']:.2f} ms, "
                f"p99 {j['p99_ms']:.2f} ms, max {j['max_ms']:.2f} ms (limit "
                f"{j['limit_ms']:g} ms)")
        if t.game_limit_ms:
            line += (f"; most used in one game {j['max_game_total_ms']:.0f} of "
                     f"{t.game_limit_ms:g} ms")
        if j.get("max_load_ms"):
            line += f"; the machine's load explained up to {j['max_load_ms']:.1f} ms of a reply"
        lines.append(line)
    lines.append(SPEED_NOTE)
    lines.append(machine_note())
    early = [g for g in result.games if g.note]
    for g in early[:5]:
        lines.append(f"game {g.number} ended early ({g.ended}): {g.note}")
    if len(early) > 5:
        lines.append(f"... and {len(early) - 5} more games ended early")
    for i, f in enumerate(result.findings.items, 1):
        lines.append("")
        lines.append(describe(i, f))
    return "\n".join(lines)


def describe(i: int, f: Finding) -> str:
    again = f" (and {f.repeats - 1} more like it)" if f.repeats > 1 else ""
    head = "warning" if f.severity == WARN else "finding"
    return (f"{head} {i} [{f.rule}] {f.kind}, verdict: {f.verdict}{again}\n"
            f"  game {f.game}, seat {f.seat}, query {f.query}: {f.message}\n"
            f"  the real engine: {f.next_step}\n"
            f"  bytes exchanged (>> to the bot, << from the bot):\n"
            + render_excerpt(f.exchange))


def summary(result: RunResult) -> str:
    if result.unusable:
        return f"BOT UNUSABLE: {result.unusable}"
    fails, warns = result.findings.failures, result.findings.warnings
    head = "PROTOCOL FINDINGS" if fails else "CLEAN"
    queries = sum(g.queries for g in result.games)
    promise = ("" if result.promise_s is None else
               f" (at most {result.promise_s:.1f} s promised)")
    return (f"{head}: {len(fails)} findings, {len(warns)} warnings; {len(result.games)} games, "
            f"{queries} queries to the bot in {result.duration:.1f} s{promise}")


def report_document(result: RunResult, traces: list[str | None]) -> dict[str, Any]:
    return {
        "format": "gamecert-bot-report/1", "game": result.game, "profile": result.profile,
        "seed": result.seed, "seat": result.seat,
        "bots": {str(k): v for k, v in result.commands.items()},
        "status": result.status, "unusable": result.unusable,
        "duration_s": round(result.duration, 3),
        "promise_s": None if result.promise_s is None else round(result.promise_s, 3),
        "replay": result.replay,
        "games": [{"number": g.number, "steps": g.steps, "queries": g.queries,
                   "ended": g.ended, "scores": g.scores, "note": g.note}
                  for g in result.games],
        "timing": {str(k): t.to_json() for k, t in result.timings.items()},
        "speed_note": SPEED_NOTE + " " + machine_note(),
        "rules": rule_rows(result),
        "findings": [dict(f.to_json(), number=i, trace=t)
                     for i, (f, t) in enumerate(zip(result.findings.items, traces,
                                                    strict=True), 1)],
    }


def junit_xml(result: RunResult) -> str:
    rows = rule_rows(result)
    suite = ET.Element("testsuite", name=f"gamecert bot-check {result.game} ({result.profile})",
                       tests=str(len(rows)),
                       failures=str(sum(r["verdict"] == "violated" for r in rows)),
                       time=f"{result.duration:.3f}")
    for r in rows:
        case = ET.SubElement(suite, "testcase", classname=f"gamecert.botcheck.{result.game}",
                             name=r["id"])
        if r["verdict"] == "violated":
            items = [result.findings.items[i - 1] for i in r["findings"]]
            fail = ET.SubElement(case, "failure", message=items[0].message[:300])
            fail.text = "\n\n".join(describe(i, f) for i, f in zip(r["findings"], items,
                                                                   strict=True))
    return ET.tostring(suite, encoding="unicode")


def write_report(result: RunResult, directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    traces: list[str | None] = []
    for i, f in enumerate(result.findings.items, 1):
        if f.trace is None:
            traces.append(None)
            continue
        name = f"traces/{i:02d}-{f.rule.lower()}-{f.kind}.json"
        (directory / "traces").mkdir(exist_ok=True)
        (directory / name).write_text(json.dumps(f.trace, indent=1) + "\n", "utf-8")
        traces.append(name)
    doc = report_document(result, traces)
    problem = first_error("bot-report", doc)
    if problem:  # our own bug; say so rather than write a report that lies about its shape
        raise RuntimeError(f"report does not match schemas/bot-report.schema.json: {problem}")
    path = directory / "report.json"
    path.write_text(json.dumps(doc, indent=1) + "\n", "utf-8")
    (directory / "report.xml").write_text(junit_xml(result) + "\n", "utf-8")
    return path
