"""report.html: the certificate as one self-contained page (inline CSS and SVG, no script,
nothing fetched from the network).

It is built only from the report document (what report.json holds) and the trace files
that document names, so a report folder can be rendered again at any time
(`gamecert report DIR`). Engine output is untrusted: every text taken from the document or
a trace is escaped, and the finished page goes through `visible` (fuzz.reports.visible_text): a
lone surrogate or a bidirectional override an engine sent is shown as its escape, never
obeyed and never a reason the page cannot be written. This module draws nothing itself
(fuzz.reports.pictures does) and judges nothing (the verdicts are the document's).
"""

from __future__ import annotations

import math
from html import escape
from pathlib import Path
from typing import Any

from gamecert.fuzz.atomic_write import write_text
from gamecert.fuzz.reports.pictures import action_cells, changed_cells, short, state_diff, svg_for
from gamecert.fuzz.reports.visible_text import visible
from gamecert.schemas import read_json_file

JSON = Any
HEADS = {"certified": "CERTIFIED", "certified-with-departures":
         "CERTIFIED WITH DOCUMENTED DEPARTURES", "violations": "RULES VIOLATED",
         "incomplete": "INCOMPLETE", "unusable": "ENGINE UNUSABLE"}
# the finding fields laid out on their own; any other field is listed as it is
FINDING_FIELDS = {"number", "rules", "kind", "message", "ops", "trace", "picture"}
TOP_FIELDS = {"format", "game", "profile", "engine", "seed", "rounds", "budget_s",
              "duration_s", "status", "unusable", "totals", "rules", "findings", "replay",
              "fingerprint"}
MAX_OPS_SHOWN = 200
OP_NAMES = {"legal": "legal: compare the legal actions",
            "observe": "observe: compare the states",
            "reload": "reload: save the state and load it back"}

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;
 color:#1d1d1f;background:#fafaf7}
main{max-width:1220px;margin:0 auto;padding:20px 28px 60px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 10px;
 border-bottom:1px solid #ddd;padding-bottom:4px}h3{font-size:16px;margin:0 0 8px}
code,pre,.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;
 font-size:12.5px}
pre{white-space:pre-wrap;word-break:break-word;background:#f0efe9;padding:8px 10px;
 border-radius:4px;margin:6px 0}
.verdict{display:inline-block;padding:6px 14px;border-radius:4px;color:#fff;
 font-weight:700;font-size:18px;letter-spacing:.03em}
.certified{background:#237a3b}.violations{background:#b3261e}.unusable{background:#6d4c00}
.certified-with-departures{background:#3d6b2f}.incomplete{background:#8a6d00}
.meta{color:#555;margin:8px 0}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #e6e4dc;vertical-align:top}
th{background:#f0efe9;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;
 font-weight:600;white-space:nowrap}
.b-passed{background:#d9f0df;color:#1b5e2c}.b-violated{background:#f8d7d4;color:#8c1d16}
.b-not-exercised{background:#eee;color:#666}
.bar{width:160px;height:10px;background:#eee;border-radius:2px;display:inline-block;
 vertical-align:middle}
.bar span{display:block;height:100%;border-radius:2px}
.bar .passed{background:#3d9a55}.bar .violated{background:#c9372c}
.bar .not-exercised{background:#bbb}
tr.harness td{color:#555}
table.rules td:first-child,table.fingerprint td:first-child{white-space:nowrap}
.finding{background:#fff;border:1px solid #e0ded6;border-left:5px solid #c9372c;
 border-radius:4px;padding:14px 18px;margin:16px 0}
dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0}
dl.fields dt{color:#555}dl.fields dd{margin:0}
ol.trace{margin:6px 0;padding-left:44px}
ol.trace li{padding:1px 4px}
ol.trace li.failing{background:#fde2df;font-weight:600;border-radius:3px}
.boards{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start;margin:10px 0}
figure{margin:0;background:#fff;border:1px solid #e6e4dc;padding:8px;border-radius:4px}
figcaption{font-weight:600;margin-bottom:6px}
.legend{color:#555;font-size:12.5px}
.legend .red{color:#e00000;font-weight:700}
table.diff{width:auto;max-width:100%}
table.diff td code{word-break:break-all}
table.diff td:first-child code{word-break:normal;white-space:nowrap}
pre.message{max-height:14em;overflow:auto}
.note{color:#666;font-style:italic}
"""


def e(value: object) -> str:
    return escape(str(value), quote=True)


def render_html(doc: dict[str, Any], folder: Path | None = None) -> str:
    """The page for report document `doc`; trace paths are read relative to `folder`."""
    game = str(doc.get("game", "?"))
    # what is broken first, then the whole certificate
    parts = [_head(doc)]
    if doc.get("fingerprint"):
        parts.append(_fingerprint(doc["fingerprint"]))
    findings = doc.get("findings") or []
    if findings:
        parts.append(f"<h2 id=\"findings\">Findings ({len(findings)})</h2>")
        parts += [_finding(game, f, folder, doc) for f in findings]
    parts.append(_rules(doc.get("rules") or []))
    extra = {k: v for k, v in doc.items() if k not in TOP_FIELDS}
    if extra:
        parts.append("<h2>Other fields</h2>" + _fields(extra))
    title = f"gamecert {game}: {HEADS.get(str(doc.get('status')), doc.get('status'))}"
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{e(title)}</title><style>{CSS}</style></head>\n<body><main>\n"
            + "\n".join(parts) + "\n</main></body></html>\n")
    return visible(page)  # the page's own text has none: only an engine's is rewritten


def write_html(doc: dict[str, Any], directory: Path) -> Path:
    path = directory / "report.html"
    write_text(path, render_html(doc, directory))  # whole or nothing, even if killed
    return path


def _head(doc: dict[str, Any]) -> str:
    status = str(doc.get("status"))
    rules = [r for r in doc.get("rules") or [] if not r.get("harness_check")]
    count = {v: sum(1 for r in rules if r.get("verdict") == v)
             for v in ("passed", "violated", "accepted", "not exercised", "not applicable",
                       "not checkable")}
    totals = doc.get("totals") or {}
    lines = [
        f"<h1>gamecert certificate: {e(doc.get('game'))}</h1>",
        f"<p><span class=\"verdict {e(status)}\" id=\"verdict\">"
        f"{e(HEADS.get(status, status))}</span></p>",
        f"<p class=\"meta\">{count['passed']} rules passed, {count['violated']} violated, "
        f"{count['accepted']} accepted, {count['not exercised']} not exercised, "
        f"{count['not applicable']} not applicable"
        + (f", {count['not checkable']} not checkable (a capability the engine lacks)"
           if count["not checkable"] else "")
        + f"; {len(doc.get('findings') or [])} findings; "
        f"{e(doc.get('rounds'))} rounds, {e(totals.get('examples'))} examples, "
        f"{e(totals.get('steps'))} steps in {e(doc.get('duration_s'))} s</p>",
        "<dl class=\"fields\">",
        f"<dt>engine</dt><dd><code>{e(doc.get('engine'))}</code></dd>",
        f"<dt>profile</dt><dd>{e(doc.get('profile'))}</dd>",
        f"<dt>seed</dt><dd>{e(doc.get('seed'))}</dd>",
        f"<dt>replay this run</dt><dd><code>{e(doc.get('replay'))}</code></dd>",
        "<dt>contents</dt><dd>" + ", ".join(
            f"<a href=\"#{a}\">{t}</a>" for a, t, on in (
                ("findings", "findings", bool(doc.get("findings"))),
                ("fingerprint", "fingerprint", bool(doc.get("fingerprint"))),
                ("rules", "rule table", True)) if on) + "</dd>",
    ]
    if doc.get("unusable"):
        lines.append(f"<dt>engine unusable</dt><dd>{e(doc['unusable'])}</dd>")
    if "capabilities" in doc:
        caps = doc.get("capabilities") or []
        lines.append(f"<dt>capabilities</dt><dd>{e(', '.join(caps) or 'the minimum')}</dd>")
    for t in (doc.get("chance_statistics") or {}).get("tests") or []:
        p = t.get("p_value")
        said = (f"{t.get('verdict')}: p = {p:.3g}, n = {t.get('samples')}" if p is not None
                else f"not enough samples (n = {t.get('samples')})")
        lines.append(f"<dt>draws {e(t.get('rule'))}</dt><dd>{e(said)}</dd>")
    lines.append("</dl>")
    return "\n".join(lines)


def _rules(rows: list[dict[str, Any]]) -> str:
    top = max((int(r.get("exercised") or 0) for r in rows), default=0)
    out = ["<h2 id=\"rules\">Rules</h2>",
           "<table class=\"rules\"><thead><tr><th>rule</th><th>title</th><th>verdict</th>"
           "<th class=\"num\">exercised</th><th>coverage</th><th>findings</th></tr></thead>"
           "<tbody>"]
    for r in rows:
        verdict = str(r.get("verdict"))
        slug = verdict.replace(" ", "-")
        n = int(r.get("exercised") or 0)
        # log scale: counts run from 1 to many thousands, and 1 matters as much as 1000
        share = math.log1p(n) / math.log1p(top) if top else 0.0
        links = ", ".join(f"<a href=\"#finding-{int(i)}\">{int(i)}</a>"
                          for i in r.get("findings") or [])
        harness = " class=\"harness\"" if r.get("harness_check") else ""
        out.append(
            f"<tr{harness} data-rule=\"{e(r.get('id'))}\"><td><code>{e(r.get('id'))}</code></td>"
            f"<td>{e(r.get('title'))}</td>"
            f"<td><span class=\"badge b-{e(slug)}\">{e(verdict)}</span></td>"
            f"<td class=\"num\">{n}</td>"
            f"<td><span class=\"bar\" title=\"{n} applicable cases\"><span class=\"{e(slug)}\" "
            f"style=\"width:{share * 100:.1f}%\"></span></span></td><td>{links}</td></tr>")
    out.append("</tbody></table>")
    out.append("<p class=\"legend\">Coverage: how many applicable cases each rule's oracle "
               "judged, on a log scale (the longest bar is the most exercised rule). Greyed "
               "rows are checks of the engine as a program.</p>")
    return "\n".join(out)


def _fingerprint(items: list[Any]) -> str:
    out = ["<h2 id=\"fingerprint\">Fingerprint</h2>",
           "<p class=\"legend\">The reading of each open rule the engine follows.</p>",
           "<table class=\"fingerprint\"><thead><tr><th>rule</th><th>reading</th>"
           "<th class=\"num\">count</th></tr></thead><tbody>"]
    for item in items:
        if not isinstance(item, dict):
            out.append(f"<tr><td colspan=\"3\">{e(short(item))}</td></tr>")
            continue
        out.append(f"<tr><td><code>{e(item.get('rule', ''))}</code></td>"
                   f"<td>{_value(item.get('reading', ''))}</td>"
                   f"<td class=\"num\">{_value(item.get('count', ''))}</td></tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _value(value: JSON) -> str:
    if isinstance(value, str):
        return e(value)
    return f"<code>{e(short(value, 400))}</code>"


def _fields(values: dict[str, Any]) -> str:
    rows = "".join(f"<dt>{e(k)}</dt><dd>{_value(v)}</dd>" for k, v in values.items())
    return f"<dl class=\"fields\">{rows}</dl>"


def _load_trace(folder: Path | None, name: JSON) -> tuple[dict[str, Any] | None, str]:
    """The trace document and '' or None and why it could not be read."""
    if not isinstance(name, str) or not name:
        return None, "this finding has no trace file"
    if folder is None:
        return None, "no report folder to read the trace from"
    path = folder / name
    try:
        doc = read_json_file(path, ValueError)
    except ValueError as exc:
        return None, f"trace not readable: {exc}"
    if not isinstance(doc, dict) or not isinstance(doc.get("ops"), list):
        return None, f"{name}: not a gamecert trace"
    return doc, ""


def _op_text(op: JSON) -> str:
    if not isinstance(op, dict):
        return e(short(op))
    kind = op.get("op")
    if kind in ("apply", "probe"):
        verb = "apply" if kind == "apply" else "probe (the reference refuses)"
        return f"{verb} <code>{e(short(op.get('action'), 300))}</code>"
    if kind == "bot_output":
        return f"bot output <code>{e(repr(op.get('text')))}</code>"
    return e(OP_NAMES.get(str(kind), kind))


def _finding(game: str, f: dict[str, Any], folder: Path | None, doc: dict[str, Any]) -> str:
    number = f.get("number")
    rules = ", ".join(f"<code>{e(r)}</code>" for r in f.get("rules") or [])
    out = [f"<section class=\"finding\" id=\"finding-{e(number)}\">",
           f"<h3>Finding {e(number)}: {rules} <span class=\"badge b-violated\">"
           f"{e(f.get('kind'))}</span></h3>",
           f"<pre class=\"message\">{e(f.get('message'))}</pre>"]
    extra = {k: v for k, v in f.items() if k not in FINDING_FIELDS}
    if extra:
        out.append(_fields(extra))
    trace, why = _load_trace(folder, f.get("trace"))
    picture = f.get("picture") if isinstance(f.get("picture"), dict) else None
    failing = picture.get("op") if picture else None
    if trace is not None:
        if failing is None:
            failing = (trace.get("finding") or {}).get("op_index")
        out.append(_trace(trace, failing, f.get("trace"), doc))
    else:
        out.append(f"<p class=\"note\">{e(why)}</p>")
    if picture:
        action = None
        ops = trace.get("ops") if trace else None
        if isinstance(failing, int) and isinstance(ops, list) and 0 <= failing < len(ops) \
                and isinstance(ops[failing], dict):
            action = ops[failing].get("action")
        out.append(_boards(game, picture, action))
    else:
        out.append("<p class=\"note\">No states were recorded for this finding.</p>")
    out.append("</section>")
    return "\n".join(out)


def _trace(trace: dict[str, Any], failing: JSON, name: JSON, doc: dict[str, Any]) -> str:
    start = trace.get("start") or {}
    begin = ("a new game" if start.get("kind") == "new_game" else "a given state (load_state)")
    ops = trace["ops"]
    items = []
    for i, op in enumerate(ops[:MAX_OPS_SHOWN]):
        here = i == failing
        cls = " class=\"failing\"" if here else ""
        mark = " &larr; the rule broke here" if here else ""
        items.append(f"<li value=\"{i + 1}\"{cls}>{_op_text(op)}{mark}</li>")
    more = len(ops) - MAX_OPS_SHOWN
    tail = f"<p class=\"note\">… {more} more operations in the trace file</p>" if more > 0 \
        else ""
    at_start = " (it broke at the start)" if failing == -1 else ""
    steps = (f"<details open><summary>steps</summary><ol class=\"trace\">{''.join(items)}</ol>"
             f"{tail}</details>" if ops else "")
    return (f"<p>Trace <code>{e(name)}</code>: from {e(begin)}, seed "
            f"{e(trace.get('seed'))}, {len(ops)} operations{e(at_start)}. Replay it with "
            f"<code>gamecert replay {e(name)}</code> and the same <code>--engine</code> or "
            f"<code>--engine-cmd</code> as this run ({e(doc.get('engine'))}).</p>" + steps)


def _boards(game: str, picture: dict[str, Any], action: JSON) -> str:
    reference, engine = picture.get("reference"), picture.get("engine")
    differ = changed_cells(game, reference, engine)
    marks = action_cells(game, reference, action) if action is not None else frozenset()
    figures = [f"<figure class=\"board reference\"><figcaption>Reference (expected)"
               f"</figcaption>{svg_for(game, reference, differ, marks)}</figure>"]
    if engine is not None:
        figures.append(f"<figure class=\"board engine\"><figcaption>Engine under test"
                       f"</figcaption>{svg_for(game, engine, differ, marks)}</figure>")
    op = picture.get("op")
    when = "at the start" if op == -1 else (
        f"at step {op + 1}" if isinstance(op, int) else f"at step {e(op)}")
    out = [f"<p>The states {when}:"
           + (" the engine gave no state here (a refusal, or a check that returns none); the "
              "reference's is drawn." if engine is None else "") + "</p>",
           f"<div class=\"boards\">{''.join(figures)}</div>"]
    keys = ([] if engine is None else ["<span class=\"red\">Red outline</span>: a square "
                                       "that differs between the two states."])
    keys += ["Dashed outline: the squares the failing operation names."] if marks else []
    if keys:
        out.append(f"<p class=\"legend\">{' '.join(keys)}</p>")
    if engine is not None:
        rows = state_diff(game, reference, engine)
        if rows:
            out.append("<table class=\"diff\"><thead><tr><th>field</th><th>reference</th>"
                       "<th>engine</th></tr></thead><tbody>"
                       + "".join(f"<tr><td><code>{e(p)}</code></td><td><code>{e(a)}</code>"
                                 f"</td><td><code>{e(b)}</code></td></tr>"
                                 for p, a, b in rows)
                       + "</tbody></table>")
        else:
            out.append("<p class=\"note\">The two states are equal: the difference lies in "
                       "what the engine replied besides its state (see the message).</p>")
    return "\n".join(out)
