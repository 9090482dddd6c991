"""One step, played and judged: two engines driven in lockstep, every oracle asked, the
reference's own verdict and the counterfactual blame of a departure.

In: engines (fuzz/engines), oracles, spec. Out: `Finding`s and `Coverage`. Knows nothing of
Hypothesis, campaigns or reports.
"""
