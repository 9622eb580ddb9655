"""Quality flags of a run at ingest: the rules of backend/quality over the rows about to be
stored (request type "all", the design's stable window), stored with them (worker.runs.store)."""

from typing import Any

from backend.domain.parameters import virtual_clients
from backend.domain.stored_quality import quality_json
from backend.models import RequestType
from backend.quality.check import run_flags
from backend.quality.evidence import evidence_from_series
from backend.quality.model import Thresholds
from backend.results.aggregate import SourceSeries, Window
from worker.runs.summarize import ResultRows, StableWindow


def ingest_quality(
    rows: ResultRows, window: StableWindow, params: dict[str, Any], *, populated: bool
) -> dict[str, Any]:
    """runs.quality of a run whose servers were `populated` with its key space (or not)."""
    series = [
        SourceSeries(r["source"], r["start_unix"], r)
        for r in rows.series
        if r["request_type"] == RequestType.ALL
    ]
    evidence = evidence_from_series(
        series,
        Window(window.start_s, window.end_s),
        clients=virtual_clients(params),
        expects_no_misses=populated,
        tool_errors=rows.tool_errors,
        memory=rows.memory,
    )
    quality = run_flags(evidence, Thresholds.from_settings())
    return quality_json(quality, expects_no_misses=populated, tool_errors=rows.tool_errors)
