"""`fuzz.search.rounds.in_order`, the scheduler every runner shares: outcomes in round order, each
played with the muted rules the rounds before it left, whatever order they finish in."""

from __future__ import annotations

from gamecert.fuzz.search.rounds import RoundJob, RoundOutcome, in_order
from gamecert.fuzz.step.lockstep import Coverage


class Shuffled:
    """Plays the rounds it was given, the newest first (out of order on purpose), and
    remembers every job it played."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.prefetch = 0
        self.label = "test"
        self.queue: list[RoundJob] = []
        self.played: list[RoundJob] = []

    def submit(self, job: RoundJob) -> None:
        self.queue.append(job)

    def next_outcome(self) -> RoundOutcome:
        job = self.queue.pop()  # the last submitted first
        self.played.append(job)
        return RoundOutcome(job.round_no, job.muted, Coverage(steps=job.round_no))

    def live(self) -> Coverage | None:
        return None

    def close(self) -> None:
        pass


def _campaign(slots: int, rounds: int, finds: dict[int, str]) -> tuple[list[int], Shuffled,
                                                                        list[frozenset[str]]]:
    runner = Shuffled(slots)
    muted: set[str] = set()
    order, used = [], []
    for outcome in in_order(runner, 0, lambda k: k < rounds, lambda: True,
                            lambda: frozenset(muted)):
        order.append(outcome.round_no)
        used.append(outcome.muted)
        if outcome.round_no in finds:  # this round found a rule broken: muted from now on
            muted.add(finds[outcome.round_no])
    return order, runner, used


def test_outcomes_come_in_round_order_with_the_serial_muted_sets() -> None:
    finds = {1: "A", 4: "B"}
    serial_order, serial, serial_used = _campaign(1, 8, finds)
    order, runner, used = _campaign(3, 8, finds)
    assert order == serial_order == list(range(8))
    assert used == serial_used  # each round as a serial campaign would have played it
    assert used[2] == frozenset({"A"}) and used[5] == frozenset({"A", "B"})
    # rounds that ran while an earlier one found something were played again
    assert len(runner.played) > 8 and len(serial.played) == 8


def test_nothing_is_scheduled_past_the_budget() -> None:
    runner = Shuffled(4)
    got = [o.round_no for o in in_order(runner, 5, lambda k: k < 7, lambda: True,
                                        lambda: frozenset())]
    assert got == [5, 6] and sorted(j.round_no for j in runner.played) == [5, 6]


def test_enough_findings_stop_the_campaign() -> None:
    runner = Shuffled(2)
    taken: list[int] = []
    for outcome in in_order(runner, 0, lambda k: True, lambda: len(taken) < 3,
                            lambda: frozenset()):
        taken.append(outcome.round_no)
    assert taken == [0, 1, 2]


class SlowFirst(Shuffled):
    """Round 0 ends last of all the rounds it holds; the others end in the order given."""

    def next_outcome(self) -> RoundOutcome:
        later = [job for job in self.queue if job.round_no != 0]
        job = later[0] if later else self.queue[0]
        self.queue.remove(job)
        self.played.append(job)
        return RoundOutcome(job.round_no, job.muted, Coverage(steps=job.round_no))


def test_a_long_round_leaves_no_worker_idle() -> None:
    """While the round to hand back next is still running, a worker that finished a later
    one is given the next round at once (up to the look-ahead), not once the long round
    ends; the outcomes still come in round order."""
    runner = SlowFirst(2)
    got = [o.round_no for o in in_order(runner, 0, lambda k: k < 12, lambda: True,
                                        lambda: frozenset())]
    assert got == list(range(12))
    done_first = [job.round_no for job in runner.played]
    assert done_first.index(0) == 7  # rounds 1 to 7 ended while round 0 ran (4 x 2 ahead)
    assert done_first[:7] == list(range(1, 8)) and sorted(done_first) == list(range(12))
