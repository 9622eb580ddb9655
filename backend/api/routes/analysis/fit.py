"""Models over measurements: M/M/1, M/M/m and the MVA network filled from a stored experiment.

The answers are backend.modelfit.service's (measured data through backend.modelfit.measured,
conventions and estimates backend.modelfit.fit's). The network is solved (and re-solved for
what-if) by POST /analysis/network-model with the inputs these routes return.
"""

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from backend.api.deps import SessionDep
from backend.api.window import RequestTypeSelectionDep
from backend.modelfit import service
from backend.schemas import analysis as s
from backend.schemas.limits import MIN_UTILIZATION

router = APIRouter()
EXP = "/experiments/{experiment_id}"

# The network-inputs and bottlenecks queries' memcached utilization, declared once.
ServerUtilization = Annotated[
    float | None,
    Query(
        ge=MIN_UTILIZATION,
        le=1,
        allow_inf_nan=False,
        description="measured utilization of each memcached server (0..1] at the group's "
        "highest load: its service time then follows the utilization law S = U / (X V)",
    ),
]


@router.get(EXP + "/queue-models", response_model=s.ExperimentQueueModelsPublic)
def read_queue_models(
    session: SessionDep,
    selection: RequestTypeSelectionDep,
    service_rate: Literal["worker_time", "max_throughput"] = Query(
        default="worker_time",
        description="worker_time: mu = 1 / (middleware response - queue time) per worker; "
        "max_throughput: the layer's rate is the group's largest measured throughput",
    ),
) -> s.ExperimentQueueModelsPublic:
    """M/M/1 and M/M/m per configuration (m = workers x middlewares) against measurements."""
    return service.queue_models_public(
        session=session,
        selection=selection,
        service_rate=service_rate,
    )


@router.get(EXP + "/network-inputs", response_model=s.ExperimentNetworkInputsPublic)
def read_network_inputs(
    session: SessionDep,
    selection: RequestTypeSelectionDep,
    server_utilization: ServerUtilization = None,
) -> s.ExperimentNetworkInputsPublic:
    """Per group of configurations differing only in clients: measured X and R against N,
    and DOMAIN.md's network inputs estimated from the data, each with its source."""
    return service.network_inputs_public(
        session=session,
        selection=selection,
        server_utilization=server_utilization,
    )


@router.get(EXP + "/bottlenecks", response_model=s.ExperimentBottlenecksPublic)
def read_bottlenecks(
    session: SessionDep,
    selection: RequestTypeSelectionDep,
    server_utilization: ServerUtilization = None,
) -> s.ExperimentBottlenecksPublic:
    """One bottleneck statement per group of configurations, with each model's basis."""
    return service.bottlenecks_public(
        session=session,
        selection=selection,
        server_utilization=server_utilization,
    )
