"""Latency distributions of a stored experiment: one configuration's histogram, or the
percentiles of every configuration (for plots against a factor), through the results service.
"""

from fastapi import APIRouter, HTTPException, status

from backend.analysis.errors import AnalysisError
from backend.analysis.plain import plain
from backend.api.deps import SessionDep
from backend.api.routes.analysis.common import analysis_errors, parse_percentiles, respond
from backend.api.routes.analysis.experiments import EXP
from backend.api.window import ExperimentDep, WindowDep
from backend.models import HistogramMetric, RequestType
from backend.results import service
from backend.results.metrics import SourceKind
from backend.schemas import analysis as s

router = APIRouter()


@router.get(EXP + "/histogram", response_model=s.ExperimentHistogramPublic)
def read_experiment_histogram(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    configuration_id: int,
    metric: HistogramMetric = HistogramMetric.CLIENT,
    source: SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
    percentiles: str = "25,50,75,90,99",
) -> s.ExperimentHistogramPublic:
    """Histograms of all repetitions of one configuration merged, with percentiles."""
    configs = service.configurations(session=session, experiment=experiment)
    if configuration_id not in {c.id for c in configs}:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Configuration not found")
    qs = parse_percentiles(percentiles)
    with analysis_errors("query"):
        merged = service.configuration_histograms(
            session=session,
            experiment_id=experiment.id,
            source=source,
            request_type=request_type,
            metric=metric,
            window=window,
            configuration_ids=[configuration_id],
        ).get(configuration_id)
        if merged is None or merged.histogram.total <= 0:
            raise AnalysisError("configuration_id", "no stored histograms for this selection")
        pct = service.histogram_percentiles(merged, qs)
    hist = merged.histogram
    return respond(
        s.ExperimentHistogramPublic,
        hist,
        total=hist.total,
        percentiles=plain(pct),
        span=merged.span,
        span_label=service.span_label(merged.span),
    )


@router.get(EXP + "/percentiles", response_model=s.ExperimentPercentilesPublic)
def read_experiment_percentiles(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    metric: HistogramMetric = HistogramMetric.CLIENT,
    source: SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
    percentiles: str = "50,90,99",
) -> s.ExperimentPercentilesPublic:
    """Percentiles per configuration from its merged histograms; none where none is stored."""
    configs = service.configurations(session=session, experiment=experiment)
    qs = parse_percentiles(percentiles)
    with analysis_errors("query"):
        merged = service.configuration_histograms(
            session=session,
            experiment_id=experiment.id,
            source=source,
            request_type=request_type,
            metric=metric,
            window=window,
        )
        rows = [
            {
                "configuration_id": c.id,
                "index": c.index,
                "values": c.values,
                "total": merged[c.id].histogram.total if c.id in merged else 0.0,
                "percentiles": plain(service.histogram_percentiles(merged.get(c.id), qs)),
            }
            for c in configs
        ]
    span = service.histograms_span(merged.values())
    return respond(
        s.ExperimentPercentilesPublic,
        {
            "metric": metric.value,
            "source": source,
            "percentiles": list(qs),
            "span": span,
            "span_label": service.span_label(span),
            "data": rows,
        },
    )
