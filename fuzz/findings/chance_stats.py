"""Statistical checks of the draws an engine makes for itself (follow mode).

An engine without the `chance` capability draws with its own RNG and reports each outcome;
the lockstep checks every outcome is possible, and hands it here as a sample of its chance
rule, with the reference's distribution at that moment. Over a campaign, each rule's
samples are grouped into categories (a tenth of the listing, placed or not); the
expected count of a category is the sum of its reference probabilities over the samples
(the distribution changes as a bag empties), and Pearson's chi-square test compares the
observed counts with them.

Decisions, stated in every certificate:

* significance: `ALPHA` = 0.001 for the whole campaign, split evenly over the chance rules
  tested (Bonferroni), so a correct engine fails some rule in at most 1 run in 1,000;
* a rule with fewer than `MIN_SAMPLES` informative samples (draws with two outcomes or
  more) is "not enough samples", neither passed nor failed;
* categories whose expected count is under `MIN_EXPECTED` (10) are pooled: the
  chi-square approximation's tail is too light with smaller counts (measured false-alarm
  rate of one test at 0.001: 0.0013 in 3,000 simulated runs of 300 draws; on the
  reference's real draws 0 in 240 runs; docs/capabilities.md);
* samples are keyed by (the example's seed, the draw's index in its game): a seed that
  Hypothesis plays twice gives the same draws again, and they count once.

The survival function of the chi-square distribution is written here (scipy is not a
dependency): the regularized upper incomplete gamma function, by its series or continued
fraction. This module must not drive engines.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamecert.fuzz.engines.minimal import floats

ALPHA = 0.001
MIN_SAMPLES = 50
MIN_EXPECTED = 10.0
BANDS = 10  # positional categories: tenths of the distribution in listing order

JSON = Any


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with `df` degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if x <= 0:
        return 1.0
    return _gamma_q(df / 2.0, x / 2.0)


def _gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x)."""
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1.0:  # the series for P(a, x) converges fast here
        term = total = 1.0 / a
        n = a
        for _ in range(10000):
            n += 1.0
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # continued fraction for Q(a, x), modified Lentz
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def pearson(observed: dict[str, int], expected: dict[str, float],
            min_expected: float = MIN_EXPECTED) -> tuple[float, int, dict[str, tuple[int, float]]]:
    """Chi-square statistic and degrees of freedom after pooling small categories, with the
    (observed, expected) of each category tested. df 0 means nothing to test."""
    keys = sorted(set(expected) | set(observed), key=lambda k: (-expected.get(k, 0.0), k))
    bins: dict[str, list[float]] = {}
    small = [0.0, 0.0]
    for k in keys:
        e, o = expected.get(k, 0.0), float(observed.get(k, 0))
        if e >= min_expected:
            bins[k] = [o, e]
        else:
            small[0] += o
            small[1] += e
    if small[1] > 0 or small[0] > 0:
        if small[1] >= min_expected or not bins:
            bins["(pooled small)"] = small
        else:  # too little even pooled: joined to the smallest tested category
            last = min(bins, key=lambda k: bins[k][1])
            bins[last] = [bins[last][0] + small[0], bins[last][1] + small[1]]
    if len(bins) < 2:
        return 0.0, 0, {k: (int(v[0]), v[1]) for k, v in bins.items()}
    stat = 0.0
    for o, e in bins.values():
        stat += (o - e) ** 2 / e if e > 0 else (math.inf if o else 0.0)
    return stat, len(bins) - 1, {k: (int(v[0]), v[1]) for k, v in bins.items()}


def _by_kind(action: Any) -> str:
    """The category of an outcome that names a thing drawn: a tile kind, an order."""
    return str(action[1]) if isinstance(action, tuple) and len(action) > 1 else str(action)


def _placed(action: Any) -> str:
    """Flit's neutral step: a piece placed or not (its hit rate is the distribution's point)."""
    if action[0] == "neutral-list":
        return "placed" if action[1] >= 0 else "not placed"
    return "placed" if action[2] else "not placed"


# How each chance rule's outcomes are grouped; a rule not named here is grouped by position
# in the reference's listing (tenths of its probability mass at that draw). Draws from a
# pile without replacement (Carcassonne's tiles, Kingdomino's deal) must be grouped by
# position, not by kind: a game that empties the pile deals every kind its fixed number
# of times, so the kind counts carry no information and their expected counts (sums of
# probabilities that depend on when each tile came out) vary far more than a chi-square
# allows (measured: 41% of correct runs under p = 0.05). Tenths of the listing have a
# steady expected share at every draw, and a kind dealt too often still shows, in its
# tenth, while copies of it are left.
CATEGORY: dict[str, Callable[[Any], str]] = {
    "KD-ORDER-FIRST": _by_kind,  # one draw per game: with replacement across games
    "FLIT-NEUTRAL-ADD": _placed,  # a fresh draw every turn
}


@dataclass
class RuleSamples:
    n: int = 0
    observed: Counter[str] = field(default_factory=Counter)
    expected: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class ChanceTest:
    """The verdict of one chance rule's test."""

    rule: str
    n: int
    statistic: float | None
    df: int
    p_value: float | None
    alpha: float  # this rule's share of the campaign's significance level
    verdict: str  # "passed", "failed" or "not enough samples"
    categories: dict[str, tuple[int, float]]

    def counts_text(self) -> str:
        parts = [f"{k}: {o} seen, {e:.1f} expected" for k, (o, e) in
                 sorted(self.categories.items(), key=lambda kv: -abs(kv[1][0] - kv[1][1]))]
        return "; ".join(parts[:8]) + ("; ..." if len(parts) > 8 else "")

    def as_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "samples": self.n, "verdict": self.verdict,
                "statistic": None if self.statistic is None else round(self.statistic, 4),
                "df": self.df, "p_value": self.p_value, "alpha": self.alpha,
                "min_samples": MIN_SAMPLES,
                "categories": {k: {"observed": o, "expected": round(e, 3)}
                               for k, (o, e) in sorted(self.categories.items())}}


class ChanceStats:
    """The followed draws of one campaign, per chance rule. Each draw is kept as its own
    sample, keyed by (game, example seed, draw index): rounds played in other processes
    merge into the same set, and a draw seen twice (a seed played again) counts once."""

    def __init__(self) -> None:
        # key -> (rule, expected mass per category, the category drawn or None)
        self.samples: dict[tuple[Any, ...], tuple[str, dict[str, float], str | None]] = {}

    @property
    def rules(self) -> dict[str, RuleSamples]:
        out: dict[str, RuleSamples] = {}
        for rule, expected, observed in self.samples.values():
            s = out.setdefault(rule, RuleSamples())
            s.n += 1
            if observed is not None:
                s.observed[observed] += 1
            for k, e in expected.items():
                s.expected[k] = s.expected.get(k, 0.0) + e
        return out

    def add(self, game: str, rule: str, key: tuple[Any, ...], listing: Sequence[Any],
            drawn: Any) -> None:
        """One draw: the reference's outcomes then (`Outcome`s) and the one drawn."""
        full = (game, *key)
        if len(listing) < 2 or full in self.samples:
            return  # a draw with one outcome says nothing; a repeated seed repeats draws
        grouping = CATEGORY.get(rule)
        expected: dict[str, float] = {}
        observed: str | None = None
        weights = floats([o.probability for o in listing])
        if grouping is not None:
            for o, p in zip(listing, weights, strict=True):
                cat = grouping(o.action)
                expected[cat] = expected.get(cat, 0.0) + p
            observed = grouping(drawn)
        else:
            mass = 0.0
            for o, p in zip(listing, weights, strict=True):
                cat = f"band {min(BANDS - 1, int((mass + p / 2) * BANDS))}"
                expected[cat] = expected.get(cat, 0.0) + p
                if o.action == drawn:
                    observed = cat
                mass += p
        self.samples[full] = (rule, expected, observed)

    def merge(self, other: ChanceStats) -> None:
        for key, sample in other.samples.items():
            self.samples.setdefault(key, sample)

    def portable(self) -> list[Any]:
        """As plain data, for a round played in another process."""
        return [[list(k), r, e, o] for k, (r, e, o) in self.samples.items()]

    @staticmethod
    def from_portable(doc: list[Any]) -> ChanceStats:
        stats = ChanceStats()
        for k, r, e, o in doc:
            stats.samples[tuple(k)] = (r, dict(e), o)
        return stats

    def tests(self, alpha: float = ALPHA, min_samples: int = MIN_SAMPLES) -> list[ChanceTest]:
        """One test per chance rule seen, at `alpha` split over the rules tested."""
        rules = self.rules
        testable = [r for r, s in rules.items() if s.n >= min_samples]
        share = alpha / max(1, len(testable))
        out = []
        for rule in sorted(rules):
            s = rules[rule]
            if s.n < min_samples:
                out.append(ChanceTest(rule, s.n, None, 0, None, share, "not enough samples",
                                      {}))
                continue
            stat, df, cats = pearson(dict(s.observed), s.expected)
            if df == 0:
                out.append(ChanceTest(rule, s.n, None, 0, None, share, "not enough samples",
                                      cats))
                continue
            p = chi2_sf(stat, df)
            out.append(ChanceTest(rule, s.n, stat, df, p, share,
                                  "failed" if p < share else "passed", cats))
        return out
