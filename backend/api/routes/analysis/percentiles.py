"""Latency distributions of a stored experiment: one configuration's histogram, or the
percentiles of every configuration (for plots against a factor), through the results service
(backend/results/histograms.py).
"""

from fastapi import APIRouter

from backend.api.deps import SessionDep
from backend.api.routes.analysis.experiments import EXP
from backend.api.window import SelectionDep
from backend.models import HistogramMetric
from backend.results import histograms
from backend.schemas import analysis as s

router = APIRouter()


@router.get(EXP + "/histogram", response_model=s.ExperimentHistogramPublic)
def read_experiment_histogram(
    session: SessionDep,
    selection: SelectionDep,
    configuration_id: int,
    metric: HistogramMetric = HistogramMetric.CLIENT,
    percentiles: str = "25,50,75,90,99",
) -> s.ExperimentHistogramPublic:
    """Histograms of all repetitions of one configuration merged, with percentiles."""
    return histograms.histogram_public(
        session=session,
        selection=selection,
        configuration_id=configuration_id,
        metric=metric,
        percentiles=percentiles,
    )


@router.get(EXP + "/percentiles", response_model=s.ExperimentPercentilesPublic)
def read_experiment_percentiles(
    session: SessionDep,
    selection: SelectionDep,
    metric: HistogramMetric = HistogramMetric.CLIENT,
    percentiles: str = "50,90,99",
) -> s.ExperimentPercentilesPublic:
    """Percentiles per configuration from its merged histograms; none where none is stored."""
    return histograms.percentiles_public(
        session=session,
        selection=selection,
        metric=metric,
        percentiles=percentiles,
    )
