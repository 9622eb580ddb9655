"""Latency distributions of a stored experiment: one configuration's histogram, or the
percentiles of every configuration (for plots against a factor), through the results service
(backend/results/histograms.py).
"""

from fastapi import APIRouter

from backend.api.deps import SessionDep
from backend.api.routes.analysis.experiments import EXP
from backend.api.window import ExperimentDep, WindowDep
from backend.domain.metrics import SourceKind
from backend.models import HistogramMetric, RequestType
from backend.results import histograms
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
    return histograms.histogram_public(
        session=session,
        experiment=experiment,
        window=window,
        configuration_id=configuration_id,
        metric=metric,
        source=source,
        request_type=request_type,
        percentiles=percentiles,
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
    return histograms.percentiles_public(
        session=session,
        experiment=experiment,
        window=window,
        metric=metric,
        source=source,
        request_type=request_type,
        percentiles=percentiles,
    )
