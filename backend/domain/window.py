"""The stable window of a design: the seconds of each run that are measured.

The one home of this rule: ingest, the results service, the live figure, seeding, the
design's validation and the public schema all ask here, and the UI shows what is served.
"""

from dataclasses import dataclass
from typing import Protocol


class WindowError(ValueError):
    """A design whose warm-up and cool-down leave nothing of its run time to measure."""


@dataclass(frozen=True)
class DesignWindow:
    """[start_s, end_s) in seconds after the load generators start."""

    start_s: int
    end_s: int

    @property
    def length_s(self) -> int:
        return self.end_s - self.start_s


def design_window(run_time_s: int, warmup_s: int, cooldown_s: int) -> DesignWindow:
    """The measured seconds of each run: warm-up cut at the start, cool-down at the end."""
    if warmup_s + cooldown_s >= run_time_s:
        raise WindowError(
            f"warm-up plus cool-down ({warmup_s + cooldown_s} s) must be shorter than the run "
            f"time ({run_time_s} s), or nothing is left to measure"
        )
    return DesignWindow(warmup_s, run_time_s - cooldown_s)


class HasDesignTimes(Protocol):
    """What `window_of` reads: an experiment row, schema or template."""

    run_time_s: int
    warmup_s: int
    cooldown_s: int


def window_of(design: HasDesignTimes) -> DesignWindow:
    """The stable window of a stored or proposed design."""
    return design_window(design.run_time_s, design.warmup_s, design.cooldown_s)
