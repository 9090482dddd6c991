"""The Kingdomino scoring checks: the zones' scores (KD-SCORE-ZONES) and the tie-break
(KD-TIE-BREAK; `tie_break` is also the z3 model's concrete twin).

On canonical JSON and the oracles' own grid model, never the reference engine. Binds no
rule id to a check: the package's `ORACLES` does.
"""

from __future__ import annotations

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, cause
from gamecert.oracles.kingdomino import board as b
from gamecert.oracles.kingdomino.common import JSON
from gamecert.spec import Profile

# --- scoring -----------------------------------------------------------------------------

def score_check(t: Transition, profile: Profile) -> Verdict:
    res = t.after["result"]
    if t.after["phase"] != "over" or res is None:
        return NA
    want = [b.score(b.grid(t.after, p)) for p in range(1, len(t.after["grids"]) + 1)]
    if res["scores"] == want:
        return OK
    return Violation(f"zone scores are {want}; the result says {res['scores']}")


def tie_break(scores: list[int], territory: list[int], crowns: list[int],
              crowns_first: bool = False) -> list[int]:
    """KD-TIE-BREAK as the oracle reads it (also the z3 model's concrete twin)."""
    final = list(scores)
    for measure in ((crowns, territory) if crowns_first else (territory, crowns)):
        groups: dict[int, list[int]] = {}
        for i, v in enumerate(final):
            groups.setdefault(v, []).append(i)
        for members in groups.values():
            if len(members) > 1:
                best = max(measure[i] for i in members)
                for i in members:
                    final[i] += measure[i] == best
    return final


def tie_state(s: JSON, profile: Profile) -> Verdict:
    """The result's tie-break fields against the grids and the rule. The message names the
    fields that differ, each with what the grids give and what the result says (the final
    scores may agree while a measure does not), and the first of them is the cause: a
    measure read wrongly (`territory`, `crowns`), the points given wrongly (`final`), or
    the winners named wrongly (`winners`)."""
    res = s["result"]
    if res is None:
        return NA
    largest = profile.variant("KD-TIE-BREAK") == "largest-zone"
    n = len(s["grids"])
    terr = [b.territory(b.grid(s, p), largest) for p in range(1, n + 1)]
    crowns = [b.crowns(b.grid(s, p)) for p in range(1, n + 1)]
    final = tie_break(res["scores"], terr, crowns)
    winners = [i + 1 for i, v in enumerate(final) if v == max(final)]
    fields = (("territory", terr), ("crowns", crowns), ("final", final), ("winners", winners))
    wrong = [(name, want) for name, want in fields if res[name] != want]
    if not wrong:
        return OK
    measure = "largest zone" if largest else "total squares"
    said = "; ".join(f"{name}: the rule gives {want}, the result says {res[name]}"
                     for name, want in wrong)
    agree = "" if res["final"] != final else f" (the final scores agree: {final})"
    names = ", ".join(name for name, _ in wrong)
    return cause(wrong[0][0], f"{names} differ{'s' if len(wrong) == 1 else ''}{agree}: "
                 f"{said}; with scores {res['scores']}, territory ({measure}) {terr} and "
                 f"crowns {crowns}")
