"""Reading an experiment's measured demands: per configuration, the clients' X and R, the
middleware timers' demand, and the monitor's CPU of each host and process (stored
stable-window means through the metric table, repetitions averaged); grouped like the
timer-based model (configurations differing only in client counts) and handed to
backend.analysis.demands."""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.orm import Session

from backend.analysis.demands import (
    DemandModel,
    DemandPoint,
    Resource,
    demand_model,
    link_resource,
)
from backend.analysis.errors import AnalysisError, require
from backend.analysis.network_bound import configuration_bounds
from backend.crud import results as crud
from backend.crud.network import experiment_testbed, round_trips_us, testbed_bandwidths
from backend.domain.metrics import SourceKind
from backend.domain.parameters import CLIENT_COUNT_PARAMETERS
from backend.modelfit.fit import MeasuredConfig, group_key, measured_utilization
from backend.modelfit.measured import measured_configs
from backend.modelfit.network import group_round_trip_us
from backend.models import Experiment, RequestType

# How many threads each role's process can keep busy (its CPU capacity in cores).
_SERVER_THREADS = 1  # memcached runs `-t 1` (worker/drivers/memcached.py)
# Busy host CPU beyond the run's processes worth a warning, in cores.
OTHER_LOAD_CORES = 0.25


@dataclass(frozen=True)
class DemandGroup:
    """One group's demand model and the configurations (by N) it was built from."""

    group: dict[str, Any]
    configuration_ids: tuple[int, ...]
    model: DemandModel
    timer_tolerance: float


def _means(
    session: Session, experiment_id: int, kind: SourceKind, column: str
) -> dict[int, dict[str, float]]:
    """configuration id -> source -> mean over its repetitions of one monitor column."""
    per: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for ref, row in crud.read_summaries(
        session=session,
        experiment_id=experiment_id,
        source=kind,
        request_type=RequestType.ALL,
    ):
        value = getattr(row, column)
        if value is not None:
            per[ref.configuration_id][row.source].append(float(value))
    return {c: {s: statistics.fmean(v) for s, v in by.items()} for c, by in per.items()}


def _capacity(role: str, params: dict[str, Any]) -> int:
    if role == "server":
        return _SERVER_THREADS
    if role == "middleware":
        return int(params.get("workers", 1)) + 1  # the workers and the network thread
    return int(params.get("threads_per_instance", 1))


def _label(source: str) -> str:
    role_index = source.removeprefix("process:")
    role = role_index.split(":")[0]
    return {"server": "memcached", "client": "load generator"}.get(role, role) + " " + role_index


def demand_groups(
    *, session: Session, experiment: Experiment, timer_tolerance: float
) -> list[DemandGroup]:
    """Per group with monitor data, the demand model (AnalysisError when none has any)."""
    configs = [
        c
        for c in measured_configs(
            session=session, experiment=experiment, request_type=RequestType.ALL
        )
        if "throughput_per_s" in c.client
    ]
    busy = _means(session, experiment.id, "host", "host_cpu_busy_pct")
    cores = _means(session, experiment.id, "host", "host_cpus")
    procs = _means(session, experiment.id, "process", "process_cpu_pct")
    hosts_of = crud.read_process_hosts(session=session, experiment_id=experiment.id)
    rtts = round_trips_us(session=session, experiment_id=experiment.id)
    testbed = experiment_testbed(session=session, experiment=experiment)
    bandwidth = testbed_bandwidths(testbed).mbit_s
    role_hosts = {
        r: sum(1 for h in testbed.hosts if h.role.value == r) for r in bandwidth if testbed
    }
    groups: dict[tuple[tuple[str, str], ...], list[MeasuredConfig]] = {}
    for c in configs:
        if c.configuration_id in busy:
            groups.setdefault(group_key(c.values), []).append(c)
    require(len(groups) > 0, "experiment", "no succeeded run with monitor data (CPU of its hosts)")
    out = []
    for members in groups.values():
        members.sort(key=lambda c: c.clients)
        links, why = _links(members, bandwidth, role_hosts)
        out.append(
            _group(
                members,
                busy,
                cores,
                procs,
                hosts_of,
                timer_tolerance,
                group_round_trip_us(members, rtts),
                links,
                why,
            )
        )
    return out


def _links(
    members: list[MeasuredConfig], bandwidth: dict[str, float], role_hosts: dict[str, int]
) -> tuple[list[Resource], list[str]]:
    """Each role's link station from the testbed's iperf3 bandwidths (none measured: none)."""
    if not bandwidth:
        return [], []
    p = members[0].params
    try:
        roles = configuration_bounds(p, bandwidth, role_hosts)
    except AnalysisError as err:
        return [], [f"no network bound in the model: {err.reason}"]
    xs = [c.client["throughput_per_s"].mean for c in members]
    return [
        link_resource(r.role, r.hosts, r.bound_per_s, r.bandwidth_mbit_s, xs) for r in roles
    ], []


def _group(
    members: list[MeasuredConfig],
    busy: dict[int, dict[str, float]],
    cores: dict[int, dict[str, float]],
    procs: dict[int, dict[str, float]],
    hosts_of: dict[str, str],
    timer_tolerance: float,
    round_trip_us: float | None = None,
    links: list[Resource] | None = None,
    link_notes: list[str] | None = None,
) -> DemandGroup:
    """The group's model. A host's CPU station is busy with the run's own processes on it
    (the monitor's included): another user's load on a shared machine is no demand of the
    system measured; the host's whole busy CPU is compared with it and a gap is warned of."""
    ids = [c.configuration_id for c in members]
    hosts = sorted(set.intersection(*(set(busy[i]) for i in ids)))
    stations, notes = [], []
    for h in hosts:
        name = h.removeprefix("host:")
        mine = [s for s, host in hosts_of.items() if host == name]
        own = tuple(sum(procs.get(i, {}).get(s, 0.0) for s in mine) / 100.0 for i in ids)
        whole = tuple(busy[i][h] / 100.0 for i in ids)
        used = own if any(own) else whole
        stations.append(Resource(f"CPU of {name}", max(1, round(cores[ids[0]][h])), used))
        gap = max(w - o for w, o in zip(whole, own, strict=True)) if any(own) else 0.0
        if gap > OTHER_LOAD_CORES:
            notes.append(
                f"{name}: up to {gap:.2f} cores busy beyond the run's own processes (other "
                "load on the host, or kernel work no process was charged for); the model "
                "uses the processes' CPU"
            )
    sources = sorted(set.intersection(*(set(procs.get(i, {})) for i in ids)))
    sources = [s for s in sources if s.split(":")[1] in ("server", "middleware", "client")]
    first = members[0].params
    processes = [
        Resource(
            _label(s),
            _capacity(s.split(":")[1], first),
            tuple(procs[i][s] / 100.0 for i in ids),
            "process",
        )
        for s in sources
    ]
    points = []
    for c, i in zip(members, ids, strict=True):
        timer = measured_utilization(c)
        mw = [procs[i][s] / 100.0 for s in sources if s.startswith("process:middleware:")]
        r = c.client.get("response_time_us")
        points.append(
            DemandPoint(
                c.clients,
                c.client["throughput_per_s"].mean,
                r.mean / 1e6 if r is not None else None,
                timer.demand_s if timer is not None else None,
                sum(mw) if mw else None,
            )
        )
    model = demand_model(
        points,
        [*stations, *(links or [])],
        processes,
        timer_tolerance,
        None if round_trip_us is None else round_trip_us / 1e6,
    )
    model = replace(model, warnings=(*model.warnings, *notes, *(link_notes or [])))
    group = {k: v for k, v in members[0].values.items() if k not in CLIENT_COUNT_PARAMETERS}
    return DemandGroup(group, tuple(ids), model, timer_tolerance)
