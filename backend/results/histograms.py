"""Latency histograms of a stored experiment: each configuration's merged over repetitions and
instances, its percentiles, and the histogram and percentiles views as served."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError, require
from backend.analysis.percentiles import (
    Histogram,
    HistogramPercentile,
    make_histogram,
    merge,
    percentiles_from_histogram,
)
from backend.analysis.plain import plain
from backend.crud import results as crud
from backend.domain.errors import NotFound
from backend.domain.metrics import SourceKind
from backend.models import HistogramMetric, RequestType
from backend.results.aggregate import Window
from backend.results.log_buckets import LogLinearLayout, log_linear_histogram
from backend.results.read import configurations
from backend.results.selection import ResultsSelection
from backend.schemas import analysis as s
from backend.schemas.problems import analysis_errors, parse_percentiles
from backend.schemas.respond import respond

HistogramSpan = Literal["window", "whole_run"]
WHOLE_RUN_LABEL = "whole run, incl. warm-up"


@dataclass(frozen=True)
class MergedHistogram:
    """One configuration's histograms merged over its repetitions and instances.

    span says what it covers: "window" (exactly the requested window) or "whole_run" (the
    tool only gives a whole-run histogram: warm-up and cool-down included).
    """

    configuration_id: int
    histogram: Histogram
    span: HistogramSpan


def configuration_histograms(
    *,
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    metric: HistogramMetric,
    window: Window | None = None,
    configuration_ids: Sequence[int] | None = None,
) -> dict[int, MergedHistogram]:
    """Per configuration id, its merged latency histogram (configurations without: absent).

    The middleware's are exactly the window's (per-window histograms: the stored stable window,
    or `window`); runs stored before those existed, and load generators, give whole-run ones.
    """
    out = _window_histograms(
        session, experiment_id, source, request_type, metric, window, configuration_ids
    )
    by_config: dict[int, list[Histogram]] = defaultdict(list)
    for ref, h in crud.read_histograms(
        session=session,
        experiment_id=experiment_id,
        source=source,
        request_type=request_type,
        metric=metric,
        configuration_ids=configuration_ids,
    ):
        if ref.configuration_id not in out:
            by_config[ref.configuration_id].append(
                make_histogram(h.upper_bounds_us, h.counts, float(h.overflow))
            )
    out |= {cid: MergedHistogram(cid, merge(hs), "whole_run") for cid, hs in by_config.items()}
    return out


def _window_histograms(
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    metric: HistogramMetric,
    window: Window | None,
    configuration_ids: Sequence[int] | None,
) -> dict[int, MergedHistogram]:
    """Per configuration, the sum of its sources' per-window histograms over the window."""
    if source != "middleware":
        return {}
    sums: dict[int, npt.NDArray[np.int64]] = {}
    layout: LogLinearLayout | None = None
    for ref, sl in crud.read_window_histogram_slices(
        session=session,
        experiment_id=experiment_id,
        source=source,
        request_type=request_type,
        metric=metric,
        window=None if window is None else (window.start_s, window.end_s),
        configuration_ids=configuration_ids,
    ):
        this = LogLinearLayout(sl.sub_buckets, sl.bucket_count)
        if layout is not None and this != layout:
            raise AnalysisError("metric", "stored histograms of different layouts")
        layout = this
        counts = sl.counts()
        total = sums.setdefault(ref.configuration_id, np.zeros(this.bucket_count + 1, np.int64))
        total[sl.first_bucket : sl.first_bucket + counts.size] += counts
    if layout is None:
        return {}
    return {
        cid: MergedHistogram(cid, log_linear_histogram(layout, c), "window")
        for cid, c in sums.items()
    }


def histogram_percentiles(
    merged: MergedHistogram | None, qs: Sequence[float]
) -> list[HistogramPercentile]:
    """Percentiles of a merged histogram; none for a missing or empty one (a gap, not an error)."""
    if merged is None or merged.histogram.total <= 0:
        return []
    return percentiles_from_histogram(merged.histogram, tuple(qs))


def span_label(span: HistogramSpan) -> str:
    """How a view labels what a distribution covers."""
    return WHOLE_RUN_LABEL if span == "whole_run" else "window"


def histograms_span(merged: Iterable[MergedHistogram]) -> HistogramSpan:
    """The span of several merged histograms: whole run as soon as one is."""
    return "whole_run" if any(m.span == "whole_run" for m in merged) else "window"


def histogram_public(
    *,
    session: Session,
    selection: ResultsSelection,
    configuration_id: int,
    metric: HistogramMetric = HistogramMetric.CLIENT,
    percentiles: str = "25,50,75,90,99",
) -> s.ExperimentHistogramPublic:
    """Histograms of all repetitions of one configuration merged, with percentiles."""
    configs = configurations(session=session, experiment=selection.experiment)
    if configuration_id not in {c.id for c in configs}:
        raise NotFound("Configuration not found")
    qs = parse_percentiles(percentiles)
    with analysis_errors("query"):
        merged = configuration_histograms(
            session=session,
            experiment_id=selection.experiment.id,
            source=selection.source,
            request_type=selection.request_type,
            metric=metric,
            window=selection.window,
            configuration_ids=[configuration_id],
        ).get(configuration_id)
        if merged is None or merged.histogram.total <= 0:
            raise AnalysisError("configuration_id", "no stored histograms for this selection")
        pct = histogram_percentiles(merged, qs)
    hist = merged.histogram
    return respond(
        s.ExperimentHistogramPublic,
        hist,
        total=hist.total,
        percentiles=plain(pct),
        span=merged.span,
        span_label=span_label(merged.span),
    )


def percentiles_public(
    *,
    session: Session,
    selection: ResultsSelection,
    metric: HistogramMetric = HistogramMetric.CLIENT,
    percentiles: str = "50,90,99",
) -> s.ExperimentPercentilesPublic:
    """Percentiles per configuration from its merged histograms; none where none is stored."""
    configs = configurations(session=session, experiment=selection.experiment)
    qs = parse_percentiles(percentiles)
    with analysis_errors("query"):
        # An empty table would say nothing: a search has no configuration before its first probe.
        require(len(configs) > 0, "experiment", "the experiment has no configurations yet")
        merged = configuration_histograms(
            session=session,
            experiment_id=selection.experiment.id,
            source=selection.source,
            request_type=selection.request_type,
            metric=metric,
            window=selection.window,
        )
        rows = [
            {
                "configuration_id": c.id,
                "index": c.index,
                "values": c.values,
                "total": merged[c.id].histogram.total if c.id in merged else 0.0,
                "percentiles": plain(histogram_percentiles(merged.get(c.id), qs)),
            }
            for c in configs
        ]
    span = histograms_span(merged.values())
    return respond(
        s.ExperimentPercentilesPublic,
        {
            "metric": metric.value,
            "source": selection.source,
            "percentiles": list(qs),
            "span": span,
            "span_label": span_label(span),
            "data": rows,
        },
    )
