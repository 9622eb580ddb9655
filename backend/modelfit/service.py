"""The model service: M/M/1, M/M/m and DOMAIN.md's MVA network filled from a stored experiment,
and the network solved against measurements, as the Models tab's routes serve them and the
model figures draw them.

The measured data come through backend.modelfit.measured (one reading function); the
conventions are backend.modelfit.fit's, the models backend.modelfit.queues' and network's.
"""

from typing import Literal

from sqlalchemy.orm import Session

from backend.analysis.mva.bounds import bounds
from backend.analysis.network_builder import SystemConfig, build_network, model_vs_measurement
from backend.analysis.plain import plain
from backend.analysis.request_mix import design_mix
from backend.crud.network import round_trips_us
from backend.domain.parameters import resolve_replication
from backend.modelfit.bottlenecks import group_bottlenecks
from backend.modelfit.fit import MeasuredConfig
from backend.modelfit.measured import measured_configs
from backend.modelfit.network import NetworkGroup, network_groups
from backend.modelfit.queues import queue_model_rows
from backend.results.selection import ResultsSelection
from backend.schemas import analysis as s
from backend.schemas.problems import analysis_errors
from backend.schemas.respond import mva_public, respond, units_of

ServiceRate = Literal["worker_time", "max_throughput"]


def queue_models_public(
    *,
    session: Session,
    selection: ResultsSelection,
    service_rate: ServiceRate = "worker_time",
) -> s.ExperimentQueueModelsPublic:
    """M/M/1 and M/M/m per configuration (m = workers x middlewares) against measurements."""
    configs = measured_configs(session=session, selection=selection)
    with analysis_errors("query"):
        rows = queue_model_rows(configs, service_rate)
    return respond(s.ExperimentQueueModelsPublic, {"service_rate": service_rate, "data": rows})


def _network_groups(
    session: Session, selection: ResultsSelection, server_utilization: float | None
) -> tuple[list[MeasuredConfig], list[NetworkGroup]]:
    """The measured configurations and, per group, the MVA network's inputs from them."""
    configs = measured_configs(session=session, selection=selection)
    with analysis_errors("query"):
        groups = network_groups(
            configs,
            replication_of=lambda p: resolve_replication(p["replication"], p["servers"]),
            write_fraction_of=lambda p: design_mix(p).write_fraction,  # of requests
            server_utilization=server_utilization,
            round_trips_us=round_trips_us(session=session, experiment_id=selection.experiment.id),
        )
    return configs, groups


def network_inputs_public(
    *,
    session: Session,
    selection: ResultsSelection,
    server_utilization: float | None = None,
) -> s.ExperimentNetworkInputsPublic:
    """Per group of configurations differing only in clients: measured X and R against N,
    and DOMAIN.md's network inputs estimated from the data, each with its source."""
    _, groups = _network_groups(session, selection, server_utilization)
    return respond(s.ExperimentNetworkInputsPublic, {"data": groups})


def bottlenecks_public(
    *,
    session: Session,
    selection: ResultsSelection,
    server_utilization: float | None = None,
) -> s.ExperimentBottlenecksPublic:
    """One bottleneck statement per group, over every model that names one (with bases)."""
    configs, groups = _network_groups(session, selection, server_utilization)
    with analysis_errors("query"):
        found = group_bottlenecks(
            session=session, experiment=selection.experiment, configs=configs, networks=groups
        )
    return respond(s.ExperimentBottlenecksPublic, {"data": found})


def network_model(body: s.NetworkModelRequest) -> s.NetworkModelPublic:
    """Build DOMAIN.md's network from a configuration and compare it with measurements."""
    cfg = SystemConfig(**body.system.model_dump())
    resp = tuple(body.measured_response_time_s) if body.measured_response_time_s else None
    with analysis_errors():
        res, rows = model_vs_measurement(
            cfg, tuple(body.clients), tuple(body.measured_throughput_per_s), resp
        )
        model = mva_public(res)
        if body.include_bounds:
            b = bounds(build_network(cfg), max(body.clients), cfg.think_time_s)
            model.bounds = respond(s.BoundsPublic, b)
    return s.NetworkModelPublic(
        rows=[s.ModelRowPublic.model_validate(plain(r)) for r in rows],
        model=model,
        units=units_of(s.ModelRowPublic),
    )
