"""Progress: shown during long rounds too, plain lines off a terminal, a live panel on one."""

from __future__ import annotations

import io

import pytest

from gamecert.fuzz.cli.progress import LiveProgress, PlainProgress, progress_display
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.search import campaign
from gamecert.fuzz.search.campaign import Progress, run_campaign
from gamecert.reference_engine import reference_session


def test_progress_comes_during_a_round(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(campaign, "TICK_SECONDS", 0.0)
    seen: list[Progress] = []
    run_campaign("flit", InProcessEngine(reference_session("flit")), rounds=1, seed=0,
                 progress=seen.append)
    during = [p for p in seen if p.rounds == 0]
    assert len(during) > 10  # one per step, before the round ended
    assert during[-1].steps > during[0].steps
    assert seen[-1].rounds == 1 and seen[-1].unexercised != during[0].unexercised


def test_plain_lines_off_a_terminal() -> None:
    out = io.StringIO()
    display = progress_display(quiet=False, stream=out)
    assert isinstance(display, PlainProgress)
    display.every = 0.0
    display(Progress(3.0, 20.0, 2, 40, 300, 1, ("FLIT-WINNER-TIE",)))
    display.close()
    text = out.getvalue()
    assert "3.0 s of 20 s (17 s left)" in text and "(100/s)" in text
    assert "findings 1, 1 rules not yet exercised" in text and text.endswith("(done)\n")


def test_live_panel_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Tty()
    display = progress_display(quiet=False, stream=out)
    assert isinstance(display, LiveProgress)
    display(Progress(3.0, 20.0, 2, 40, 300, 1, ("FLIT-WINNER-TIE",)))
    display.close()
    assert "not yet exercised: FLIT-WINNER-TIE" in out.getvalue()
    assert isinstance(progress_display(quiet=True, stream=out), PlainProgress)
