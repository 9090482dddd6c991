"""gamecert's Hypothesis profiles.

* `ci`: small and derandomised, so CI is fast and every run sees the same examples;
* `dev`: the default for local test runs;
* `campaign`: large, for real fuzzing campaigns (`HYPOTHESIS_PROFILE=campaign pytest ...`).

`load()` picks `ci` when the CI variable is set, else HYPOTHESIS_PROFILE, else `dev`.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile("ci", max_examples=25, derandomize=True, database=None, deadline=None,
                          suppress_health_check=SLOW_OK, print_blob=True)
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=SLOW_OK)
settings.register_profile("campaign", max_examples=5000, deadline=None,
                          stateful_step_count=100, suppress_health_check=SLOW_OK)


def load() -> str:
    name = "ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev")
    settings.load_profile(name)
    return name
