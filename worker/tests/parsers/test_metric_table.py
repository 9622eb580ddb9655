"""The metric table's middleware stat names (Metric.middleware) equal the middleware binary's
--describe-stats: every mean the middleware writes becomes a metric, every metric reads a stat
the binary writes, and the stat's kind and unit fit the metric's rules."""

import subprocess

import pytest

from backend.domain.metrics import MIDDLEWARE_STATS
from worker.parsers.middleware import WINDOW_METRIC_NAMES
from worker.runs.testbed import LOCAL_MIDDLEWARE

NOT_METRICS = {"errors": "the tool errors of run quality, read from summary.json's totals"}
"""Stats no metric reads (besides maxima, which a window mean cannot combine)."""


def _describe() -> dict[str, dict[str, tuple[str, str]]]:
    """--describe-stats by section: name -> (kind, unit)."""
    assert LOCAL_MIDDLEWARE.is_file(), f"build the middleware first: {LOCAL_MIDDLEWARE}"
    out = subprocess.run(
        [str(LOCAL_MIDDLEWARE), "--describe-stats"], capture_output=True, text=True, check=True
    ).stdout
    sections: dict[str, dict[str, tuple[str, str]]] = {}
    current: dict[str, tuple[str, str]] = {}
    for line in out.splitlines():
        if not line.startswith("  "):
            current = sections.setdefault(line.split(" (")[0], {})
            continue
        name, kind, unit = line.split()[:3]
        current[name] = (kind, unit)
    return sections


@pytest.fixture(scope="module")
def described() -> dict[str, dict[str, tuple[str, str]]]:
    return _describe()


def test_every_metric_reads_a_stat_the_middleware_writes(
    described: dict[str, dict[str, tuple[str, str]]],
) -> None:
    per_type, per_window = described["per-type window metrics"], described["per-window metrics"]
    assert tuple(per_type) == WINDOW_METRIC_NAMES  # the parser reads them all, by these names
    for stat, m in MIDDLEWARE_STATS.items():
        assert "middleware" in m.sources, m.name
        if stat in per_type:
            kind, unit = per_type[stat]
            if kind == "counter":  # a count per window, stored per second and summed
                assert m.unit.endswith("/s") and m.instances == "sum", m.name
            else:  # a mean per request, combined weighted by completions
                assert (kind, unit, m.instances) == ("mean", m.unit, "weighted"), m.name
        else:
            assert stat in per_window, f"{m.name}: the middleware writes no stat {stat!r}"
            kind, unit = per_window[stat]
            assert (kind, unit, m.instances) == ("mean", m.unit, "sum"), m.name


def test_every_stat_the_middleware_writes_is_a_metric(
    described: dict[str, dict[str, tuple[str, str]]],
) -> None:
    written = described["per-type window metrics"] | described["per-window metrics"]
    unread = {
        name
        for name, (kind, _) in written.items()
        if kind != "max" and name not in NOT_METRICS and name not in MIDDLEWARE_STATS
    }
    assert unread == set(), "add a Metric(..., middleware=<stat>) to backend/domain/metrics.py"
    assert set(MIDDLEWARE_STATS) <= set(written)
