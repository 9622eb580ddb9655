"""A latency-SLO search's preview: its bound (the search decides each probe after the last one,
so a design can only say how many rates and runs it may take at most)."""

from backend.analysis.slo import SearchLimits, probe_bound
from backend.domain.grid import GridPreview


def search_preview(limits: SearchLimits, run_time_s: int, overhead_s: float) -> GridPreview:
    """A search's preview is its bound: at most `rates` configurations and `runs` runs, each
    its run time plus the overhead (a grid's rule, backend.domain.grid.preview)."""
    bound = probe_bound(limits)
    return GridPreview(bound.rates, bound.runs, round(bound.runs * (run_time_s + overhead_s)))
