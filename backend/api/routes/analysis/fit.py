"""Models over measurements: M/M/1, M/M/m and the MVA network filled from a stored experiment.

The measured data come through backend.modelfit.measured (one reading function); the
conventions and estimates are backend.analysis.model_fit's. The network is solved (and
re-solved for what-if) by POST /analysis/network-model with the inputs these routes return.
"""

from typing import Literal

from fastapi import APIRouter, Query

from backend.analysis.experiment import write_fraction
from backend.analysis.model_fit import network_groups, queue_model_rows
from backend.api.deps import SessionDep
from backend.api.routes.analysis.common import analysis_errors, respond
from backend.api.window import ExperimentDep, WindowDep
from backend.crud.network import round_trips_us
from backend.domain.parameters import resolve_replication
from backend.modelfit.measured import measured_configs
from backend.models import RequestType
from backend.schemas import analysis as s
from backend.schemas.limits import MIN_UTILIZATION

router = APIRouter()
EXP = "/experiments/{experiment_id}"


@router.get(EXP + "/queue-models", response_model=s.ExperimentQueueModelsPublic)
def read_queue_models(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    request_type: RequestType = RequestType.ALL,
    service_rate: Literal["worker_time", "max_throughput"] = Query(
        default="worker_time",
        description="worker_time: mu = 1 / (middleware response - queue time) per worker; "
        "max_throughput: the layer's rate is the group's largest measured throughput",
    ),
) -> s.ExperimentQueueModelsPublic:
    """M/M/1 and M/M/m per configuration (m = workers x middlewares) against measurements."""
    configs = measured_configs(
        session=session, experiment=experiment, request_type=request_type, window=window
    )
    with analysis_errors("query"):
        rows = queue_model_rows(configs, service_rate)
    return respond(s.ExperimentQueueModelsPublic, {"service_rate": service_rate, "data": rows})


@router.get(EXP + "/network-inputs", response_model=s.ExperimentNetworkInputsPublic)
def read_network_inputs(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    request_type: RequestType = RequestType.ALL,
    server_utilization: float | None = Query(
        default=None,
        ge=MIN_UTILIZATION,
        le=1,
        allow_inf_nan=False,
        description="measured utilization of each memcached server (0..1] at the group's "
        "highest load: its service time then follows the utilization law S = U / (X V)",
    ),
) -> s.ExperimentNetworkInputsPublic:
    """Per group of configurations differing only in clients: measured X and R against N,
    and DOMAIN.md's network inputs estimated from the data, each with its source."""
    configs = measured_configs(
        session=session, experiment=experiment, request_type=request_type, window=window
    )
    with analysis_errors("query"):
        groups = network_groups(
            configs,
            replication_of=lambda p: resolve_replication(p["replication"], p["servers"]),
            write_fraction_of=lambda p: write_fraction(p["ratio"]),
            server_utilization=server_utilization,
            round_trips_us=round_trips_us(session=session, experiment_id=experiment.id),
        )
    return respond(s.ExperimentNetworkInputsPublic, {"data": groups})
