"""Triage: one departure per cause, the reading of an open rule an engine follows.

A campaign raises many failures; several are the same cause met again (another round,
another seed, another position). A `Departure` is one cause: its primary rule, its kind and
the shape of its violation (`signature`), never the step or the position. Repeats are
counted; the trace kept is the first one, shrunk and confirmed on fresh engines.

`fingerprint` replays a departure's trace with the reference switched to each variant of
the open rules involved, and names the reading under which the engine runs clean.

This module decides what is the same and what an engine follows; it must not run campaigns,
open engines or write files (the caller passes a `replay` function).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from gamecert.fuzz.step.blame import tag
from gamecert.fuzz.step.lockstep import HARNESS_RULES, Finding
from gamecert.oracles.base import aliases_of, alternatives, cause_of
from gamecert.spec import Catalogue, Profile, derived

# The lockstep's own kinds that mean the same cause seen from two sides of one call.
_KIND_CLASS = {"refused": "refused", "refused-legal": "refused", "refused-new-game": "refused",
               "refused-load": "refused-load", "violation": "violation",
               "divergence": "divergence", "accepted-illegal": "accepted-illegal"}


def shape(text: str) -> str:
    """The words of a message without its particulars: bracketed data, quoted literals and
    numbers removed, so two failures of one cause at different positions read the same."""
    out: list[str] = []
    depth = 0
    quote = ""
    prev = " "
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
                out.append(ch)
            prev = ch
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth = max(0, depth - 1)
            if depth == 0:
                out.append("…")
        elif depth:
            pass
        elif ch in "'\"" and not prev.isalnum():  # a literal, not an apostrophe in a word
            quote = ch
            out.append(ch)
        elif ch.isdigit():
            if not out or out[-1] != "#":
                out.append("#")
        else:
            out.append(ch)
        prev = ch
    return " ".join("".join(out).split())


def primary_rule(finding: Finding, catalogue: Catalogue) -> str:
    """The rule a finding is charged to: the earliest of its rules in the game's phase order
    (`Catalogue.phase_order`: within a step, a later phase's oracle judged an input the
    earlier departure had already made wrong); a harness check only when no game rule is
    named."""
    order = {rid: i for i, rid in enumerate(catalogue.phase_order)}
    for i, rid in enumerate(HARNESS_RULES, len(order)):
        order.setdefault(rid, i)
    return min(finding.rules, key=lambda r: order.get(r, len(order) + 99))


def first_violation(finding: Finding, rule: str) -> tuple[str, int]:
    """The primary rule's first violation message, and how many other violations the
    finding carries."""
    for r, message in finding.violations:
        if r == rule:
            return message, len(finding.violations) - 1
    return finding.message, max(0, len(finding.violations) - 1)


@dataclass
class Reading:
    """The reading of one open rule that a departure's trace runs clean under."""

    rule: str
    variant: str | None  # None: none of the catalogue's readings explains it

    def text(self) -> str:
        if self.variant is None:
            return f"none of the known readings of {self.rule}"
        return f"follows {self.rule}={self.variant}"


@dataclass
class Departure:
    """One cause: the finding first seen for it (shrunk and confirmed by the campaign), and
    how often it was seen."""

    finding: Finding
    signature: str
    primary: str
    count: int = 1
    reading: Reading | None = None
    accepted: str | None = None  # the baseline's reason, when the departure is accepted
    consequences: set[str] = field(default_factory=set)  # rules broken later because of it
    # the rules one step could not tell apart (`oracles.base.ambiguous`): charged to the
    # phase order's first until another finding shows one of them broken alone
    alternatives: frozenset[str] = frozenset()
    # every RULE|cause name the departure was seen under (a model's, its oracle's own)
    names: set[str] = field(default_factory=set)

    @property
    def id(self) -> str:
        """A short stable name for the cause: the same in every run that meets it."""
        return hashlib.sha256(self.signature.encode()).hexdigest()[:8]

    @property
    def also(self) -> list[str]:
        """The rules this cause drags along: broken in the same step, or later in a position
        it had already made wrong."""
        return sorted((set(self.finding.rules) | self.consequences) - {self.primary})

    @property
    def key(self) -> str:
        """What a campaign mutes for this cause: its rule, or `RULE|cause` for one named
        departure of its rule (see `signature`; an unexplained difference is named by the
        fields that differ)."""
        if self.primary in HARNESS_RULES:
            named = cause_of(first_violation(self.finding, self.primary)[0])
            return f"{self.primary}|{named}" if named else self.primary
        named = self.signature.partition("|")[2]
        return self.signature if named != "rule" else self.primary

    @property
    def message(self) -> str:
        text, more = first_violation(self.finding, self.primary)
        if self.finding.violations and not text.startswith(self.primary):
            text = f"{self.primary}: {text}"
        return text + (f" (and {more} more like it)" if more else "")

    @property
    def ops(self) -> int:
        return len(self.finding.trace["ops"]) if self.finding.trace else 0


def signature(finding: Finding, catalogue: Catalogue) -> tuple[str, str]:
    """(signature, primary rule) of a finding.

    A game rule's oracle speaks for its whole rule: every failure it names is one cause,
    whatever the position, the step or the wording, unless the oracle names which of the
    rule's distinct departures it is (`oracles.base.cause`): then each is its own. A harness
    check (`ENGINE-*`) is split by what failed: the kind of failure and the shape of its
    first clause (which field or event differs, which request failed).
    """
    primary = primary_rule(finding, catalogue)
    text, _ = first_violation(finding, primary)
    named = cause_of(text)
    if primary not in HARNESS_RULES:
        return f"{primary}|{named or 'rule'}", primary
    kind = _KIND_CLASS.get(finding.kind, finding.kind)
    if named:  # a difference no rule explains, named by the fields that differ
        return f"{primary}|{kind}|{named}", primary
    return f"{primary}|{kind}|{shape(text.split('; ')[0])}", primary


@dataclass
class Triage:
    """The departures of one campaign, in the order their causes were first met."""

    catalogue: Catalogue
    departures: list[Departure] = field(default_factory=list)
    _by_signature: dict[str, Departure] = field(default_factory=dict)

    def known(self, finding: Finding) -> Departure | None:
        sig, primary = signature(finding, self.catalogue)
        return self._explained(finding, primary) or self._same(finding, sig, primary)

    def _same(self, finding: Finding, sig: str, primary: str) -> Departure | None:
        """The departure this finding is another sight of: the same cause under any of the
        names it goes by (`oracles.base.cause` aliases: a model's name and the oracle's own
        for one departure), or, under a game rule, one whose cause is unnamed on either
        side (an oracle that names no cause cannot tell two departures apart)."""
        known = self._by_signature.get(sig)
        if known is not None:
            return known
        names = finding_names(finding, primary)
        unnamed = sig.endswith("|rule")
        for dep in self.departures:
            if dep.primary != primary:
                continue
            if names & dep.names:
                return dep
            if primary not in HARNESS_RULES and (unnamed or dep.signature.endswith("|rule")):
                return dep
        return None

    def _explained(self, finding: Finding, primary: str) -> Departure | None:
        """For a finding one step could not pin on one rule: the departure of one of its
        rules seen broken alone, or None."""
        alts = finding_alternatives(finding, primary)
        return next((d for d in self.departures
                     if alts and d.primary in alts and not d.alternatives), None)

    def add(self, finding: Finding) -> tuple[Departure, bool]:
        """Record a finding; returns its departure and whether the cause is new."""
        sig, primary = signature(finding, self.catalogue)
        alts = finding_alternatives(finding, primary)
        known = self._explained(finding, primary) or self._same(finding, sig, primary)
        if known is not None:  # keep the first: it is the one shrunk and confirmed
            known.names |= finding_names(finding, primary)
            known.count += 1 + finding.repeats
            known.consequences.update(set(finding.rules) - {known.primary})
            if not alts and known.alternatives:  # now seen broken alone
                known.alternatives = frozenset()
                self._fold(known)
            return known, False
        dep = Departure(finding, sig, primary, count=1 + finding.repeats, alternatives=alts,
                        names={sig, *finding_names(finding, primary)})
        self._by_signature[sig] = dep
        self.departures.append(dep)
        if not alts:
            self._fold(dep)
        return dep, True

    def _fold(self, dep: Departure) -> None:
        """Charge to `dep` (a rule seen broken alone) the ambiguous departures it explains."""
        for other in list(self.departures):
            if other is not dep and dep.primary in other.alternatives:
                self.departures.remove(other)
                del self._by_signature[other.signature]
                dep.count += other.count
                dep.consequences.update(
                    (set(other.finding.rules) | other.consequences | {other.primary})
                    - {dep.primary})


    def restore(self, dep: Departure) -> None:
        """Take back a departure from a checkpoint."""
        dep.names |= {dep.signature, *finding_names(dep.finding, dep.primary)}
        self._by_signature[dep.signature] = dep
        self.departures.append(dep)

    def confirm(self, dep: Departure) -> Departure:
        """`dep`'s charge stands, no longer ambiguous (its rule was seen broken alone): the
        ambiguous departures it explains are charged to it."""
        dep.alternatives = frozenset()
        self._fold(dep)
        return dep

    def reattribute(self, dep: Departure, rule: str, named: str = "rule") -> Departure:
        """Charge `dep` to `rule`, as its cause `named` (a reading of that rule explains it:
        `reading-<variant>`; "rule" when the rule is all that is known); merges it into the
        departure of that cause when there is one. Returns the departure that now holds it."""
        sig = f"{rule}|{named}"
        if sig == dep.signature:
            return dep
        self.departures.remove(dep)
        del self._by_signature[dep.signature]
        old_rules = set(dep.finding.rules) | dep.consequences | {dep.primary}
        known = self._by_signature.get(sig)
        if known is not None:
            known.count += dep.count
            known.names |= dep.names
            known.consequences.update(old_rules - {known.primary})
            if known.reading is None:
                known.reading = dep.reading
            return known
        dep.signature, dep.primary = sig, rule
        dep.names.add(sig)
        dep.consequences.update(old_rules - {rule})
        dep.alternatives = frozenset()
        self._by_signature[sig] = dep
        self.departures.append(dep)
        self._fold(dep)
        return dep


# where `settle_by_play` cuts a trace (fractions of the steps before the failing one), and
# how many seeded games it plays on from each cut
SETTLE_CUTS = (0.25, 0.5, 0.75, 0.9)
SETTLE_SEEDS = 4


def _shown_plainly(found: Finding, dep: Departure) -> list[tuple[str, str]]:
    """The violations of `found` that name one of `dep`'s alternative rules plainly (not
    themselves ambiguous): what settles which of them the engine breaks."""
    return [(r, message) for r, message in found.violations
            if r in dep.alternatives and not alternatives(message)]


def disambiguated(dep: Departure, probe: Callable[[dict[str, Any]], Finding | None]
                  ) -> tuple[str, Finding] | None:
    """Which of an ambiguous departure's rules the engine breaks, asked of the engine itself:
    its legal listing in the position before the failing step (`probe` replays a trace and
    returns its finding). The one rule among the alternatives that the listing breaks
    plainly (not ambiguously), with the listing's finding (which shows it), or None."""
    trace = dep.finding.trace
    if not dep.alternatives or not trace or dep.finding.op_index < 0:
        return None
    ops = [*trace["ops"][: dep.finding.op_index], {"op": "legal"}]
    found = probe({**trace, "ops": ops})
    if found is None:
        return None
    plain = {r for r, _ in _shown_plainly(found, dep)}
    return (plain.pop(), found) if len(plain) == 1 else None


def settle_by_play(dep: Departure, play: Callable[[dict[str, Any]], Finding | None],
                   cuts: tuple[float, ...] = SETTLE_CUTS, seeds: int = SETTLE_SEEDS
                   ) -> tuple[str, str, Finding] | None:
    """Which of an ambiguous departure's rules the engine breaks, seen further on: its trace
    cut before the failing step (at each fraction of `cuts`) and played on with the
    reference's seeded random choices (`trace.play_on`), on the engine (`play` replays a
    trace and returns its first finding). Where one example could not tell a departure made
    earlier and seen only at a game's end from one made at the end (a town's banner lost in
    a join, or the banners of open towns not counted), a game played on differently shows
    one of them alone. The first rule among the alternatives that a played-on game shows
    plainly (not ambiguously), with the name of its cause there and that game's finding,
    or None."""
    trace = dep.finding.trace
    if not dep.alternatives or not trace or dep.finding.op_index < 0:
        return None
    ops = trace["ops"]
    # a departure at the first operation is played on from the start itself
    for cut in cuts if dep.finding.op_index > 0 else (0.0,):
        prefix = ops[: max(1, int(dep.finding.op_index * cut))] if cut else []
        for seed in range(seeds):
            found = play({**trace, "ops": [*prefix, {"op": "play_on", "seed": seed}]})
            if found is None:
                continue
            plain = {(r, cause_of(message) or "rule") for r, message in
                     _shown_plainly(found, dep)}
            if len({r for r, _ in plain}) == 1:
                rule, named = min(plain)
                return rule, named, found
    return None


def settle_by_probes(dep: Departure,
                     probes_at: Callable[[dict[str, Any]], list[tuple[str, Any]]],
                     probe: Callable[[dict[str, Any]], Finding | None]
                     ) -> tuple[str, Finding] | None:
    """Which of an ambiguous departure's rules the engine breaks, asked with the game's
    one-rule probes (each breaks one rule and no other) of those rules, offered in the
    position before the failing step (`probes_at` gives them for a trace's end; `probe`
    replays a trace on the engine and returns its finding). A game played on with legal
    moves never shows a rule that only illegal actions break (an overlap accepted): a
    probe built for it does. The first rule an accepted probe shows plainly (not
    ambiguously), with that probe's finding, or None."""
    trace = dep.finding.trace
    if not dep.alternatives or not trace or dep.finding.op_index < 0:
        return None
    prefix = trace["ops"][: dep.finding.op_index]
    built = [(rule, action) for rule, action in probes_at({**trace, "ops": prefix})
             if rule in dep.alternatives]
    for _, action in built[:PROBES_ASKED]:
        found = probe({**trace, "ops": [*prefix, {"op": "probe", "action": action}]})
        if found is None:
            continue
        plain = {r for r, _ in _shown_plainly(found, dep)}
        if len(plain) == 1:
            return plain.pop(), found
    return None


PROBES_ASKED = 12  # one-rule probes `settle_by_probes` offers at most


def finding_names(finding: Finding, primary: str) -> set[str]:
    """The RULE|cause names a finding's primary violation goes by (its cause and aliases;
    "rule" for an unnamed cause)."""
    text, _ = first_violation(finding, primary)
    named = cause_of(text)
    if named is None:
        return {f"{primary}|rule"}
    return {f"{primary}|{named}", *(f"{primary}|{a}" for a in aliases_of(text))}


def finding_alternatives(finding: Finding, primary: str) -> frozenset[str]:
    """The rules among which one step could not tell the finding's cause (its primary's
    violation says so, `oracles.base.ambiguous`), or empty."""
    for rule, message in finding.violations:
        if rule == primary:
            alts = alternatives(message)
            return alts if primary in alts else frozenset()
    return frozenset()


def blamed_reading(dep: Departure, catalogue: Catalogue) -> Reading | None:
    """The reading a departure model charged the departure to, when one did (its cause
    names a reading of its primary rule: `reading-<variant>`, fuzz.step.blame): the reading is
    known from the step itself, with no trace replayed under each variant."""
    named = cause_of(first_violation(dep.finding, dep.primary)[0]) or ""
    if not named.startswith("reading-") or dep.primary not in catalogue.rule_ids:
        return None
    interp = catalogue.rule(dep.primary).interpretation
    for variant in interp.variants if interp else ():
        if named == tag("reading", variant):
            return Reading(dep.primary, variant)
    return None


def variant_profile(profile: Profile, rule: str, variant: str) -> Profile:
    """`profile` with one open rule read another way (same id: the engine under test is not
    told; only the reference and the oracles read it)."""
    return derived(profile, variants={**profile.variants, rule: variant})


def open_rules(catalogue: Catalogue, first: Iterable[str]) -> tuple[list[str], list[str]]:
    """Rules with variants to try: those named by the departure, then every other one."""
    opened = [r.id for r in catalogue.rules if r.interpretation]
    named = [r for r in dict.fromkeys(first) if r in opened]
    return named, [r for r in opened if r not in named]


def earlier_in_phase(catalogue: Catalogue, rule: str) -> list[str]:
    """The open rules of `rule`'s group that a step applies before it (latest first): a
    reading of one of them decides what `rule` is judged on (when the end conditions are
    checked decides whether an end condition held there), so it may explain a departure
    `rule`'s oracle saw. Rules of other groups never do: a reading that only moves a check
    past a short trace's end would run it clean and charge a correct rule."""
    if rule not in catalogue.rule_ids:
        return []
    group = catalogue.rule(rule).group
    order = catalogue.phase_order
    before = order[: order.index(rule)]
    return [r for r in reversed(before)
            if catalogue.rule(r).group == group and catalogue.rule(r).interpretation]


def fingerprint(dep: Departure, catalogue: Catalogue, profile: Profile,
                clean_under: Callable[[Profile], bool | None]) -> Reading | None:
    """The reading the engine follows on this departure's trace.

    `clean_under(p)` replays the trace with the reference and oracles under `p`: True when
    it runs clean to its end (the engine agrees with that reading), False when it still
    fails, None when the trace means nothing under `p`. A departure an oracle charged to its
    own rule is tried under that rule's variants (and its companions') only; a bare
    divergence (`ENGINE-*`) under the variants of the open rules it touches, then every
    other open rule. Returns None when no reading explains it and it names no open rule,
    for program faults (`ENGINE-ALIVE`), and when the trace does not fail again under the
    profile itself (then a clean replay under a variant would prove nothing).
    """
    if dep.primary == "ENGINE-ALIVE":
        return None  # a crash, a hang or garbage is no reading of a rule
    if clean_under(profile) is not False:
        return None  # it does not fail again under the profile's own reading: no evidence
    if dep.primary in HARNESS_RULES:  # a bare divergence: any open rule may explain it
        named, others = open_rules(catalogue, [*dep.also, *dep.finding.related])
        candidates = named + others
    else:
        # An oracle named its own rule: only that rule's (and its companions') readings may
        # explain it. Another rule's variant can run a short trace clean just by moving the
        # check past its end (scoring at the claim instead of the placement), which would
        # charge a correct rule.
        named, _ = open_rules(catalogue, [dep.primary, *dep.also])
        candidates = named + [r for r in earlier_in_phase(catalogue, dep.primary)
                              if r not in named]
    for rid in candidates:
        rule = catalogue.rule(rid)
        assert rule.interpretation is not None
        for variant in rule.interpretation.variants:
            if variant == profile.variant(rid):
                continue
            if clean_under(variant_profile(profile, rid, variant)):
                return Reading(rid, variant)
    own = [r for r in named if r in (dep.primary, *dep.also)]
    return Reading(own[0], None) if own else None
