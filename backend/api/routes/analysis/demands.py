"""Models from measured demands: per group of configurations, the utilization law per CPU,
the network of the measured testbed, its fit, warnings and the bottleneck."""

from fastapi import APIRouter, Query

from backend.analysis.demands import DEFAULT_TIMER_TOLERANCE
from backend.api.deps import SessionDep
from backend.api.window import ExperimentDep
from backend.modelfit.demands import demand_groups
from backend.schemas.analysis.demands import ExperimentDemandModelsPublic
from backend.schemas.problems import analysis_errors
from backend.schemas.respond import respond

router = APIRouter()


@router.get(
    "/experiments/{experiment_id}/demand-models", response_model=ExperimentDemandModelsPublic
)
def read_demand_models(
    session: SessionDep,
    experiment: ExperimentDep,
    timer_tolerance: float = Query(
        default=DEFAULT_TIMER_TOLERANCE,
        gt=0,
        le=100,
        allow_inf_nan=False,
        description="warn when the middleware timers' demand and its CPU demand differ by "
        "more than this share of the CPU demand",
    ),
) -> ExperimentDemandModelsPublic:
    """Demands D = CPU seconds / requests per host and process (stable window), the model."""
    with analysis_errors("query"):
        groups = demand_groups(
            session=session, experiment=experiment, timer_tolerance=timer_tolerance
        )
    return respond(ExperimentDemandModelsPublic, {"data": groups})
