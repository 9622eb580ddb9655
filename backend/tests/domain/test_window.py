"""The stable window rule and where its users place it."""

import pytest

from backend.domain.window import DesignWindow, WindowError, design_window
from worker.runs.summarize import StableWindow


def test_window_cuts_warmup_and_cooldown() -> None:
    w = design_window(run_time_s=90, warmup_s=10, cooldown_s=5)
    assert w == DesignWindow(10, 85)
    assert w.length_s == 75


def test_window_without_cuts_is_the_whole_run() -> None:
    assert design_window(run_time_s=30, warmup_s=0, cooldown_s=0) == DesignWindow(0, 30)


@pytest.mark.parametrize(("warmup", "cooldown"), [(10, 10), (304, 0), (0, 20), (15, 30)])
def test_window_that_leaves_nothing_is_refused(warmup: int, cooldown: int) -> None:
    with pytest.raises(WindowError, match=r"must be shorter than the run time \(20 s\)"):
        design_window(run_time_s=20, warmup_s=warmup, cooldown_s=cooldown)


def test_ingest_window_is_the_design_window_after_the_load_start() -> None:
    stable = StableWindow.after(1_000.5, design_window(60, 10, 5))
    assert (stable.start_unix, stable.end_unix) == (1_010.5, 1_055.5)
