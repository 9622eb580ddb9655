"""The measured network between roles (backend.domain.round_trip): reading an experiment's
runs' probes per configuration and its testbed's probe and kind; asking for a measurement."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.core.queue import BrokerUnavailable, check_broker, enqueue_network
from backend.domain.round_trip import RoleBandwidths, leg_rtt_us, rest_label, role_bandwidths
from backend.models import Experiment, HostRole, Run, RunStatus, Testbed

logger = logging.getLogger(__name__)


def run_probes(*, session: Session, experiment_id: int) -> dict[int, list[dict[str, Any]]]:
    """Per configuration, the network probes its succeeded runs recorded."""
    rows = session.execute(
        select(Run.configuration_id, Run.hosts["network"]).where(
            Run.experiment_id == experiment_id, Run.status == RunStatus.SUCCEEDED
        )
    ).all()
    out: dict[int, list[dict[str, Any]]] = {}
    for config_id, probe in rows:
        if probe:
            out.setdefault(config_id, []).append(probe)
    return out


def round_trips_us(
    *, session: Session, experiment_id: int, src: str = "client", dst: str = "middleware"
) -> dict[int, float]:
    """Per configuration, the median `src` -> `dst` round trip over its runs (us)."""
    out = {}
    for config_id, probes in run_probes(session=session, experiment_id=experiment_id).items():
        rtt = leg_rtt_us(list(probes), src, dst)
        if rtt is not None:
            out[config_id] = rtt
    return out


def experiment_testbed(*, session: Session, experiment: Experiment) -> Testbed | None:
    return None if experiment.testbed_id is None else session.get(Testbed, experiment.testbed_id)


def testbed_bandwidths(testbed: Testbed | None) -> RoleBandwidths:
    """Per role, the testbed's link caps when its hosts record them, iperf3's uploads
    otherwise (backend.domain.round_trip.role_bandwidths): what every network bound reads."""
    if testbed is None:
        return RoleBandwidths()
    caps: dict[str, list[tuple[float | None, str | None]]] = {}
    for h in testbed.hosts:
        caps.setdefault(h.role.value, []).append((h.link_cap_mbit_s, h.link_cap_basis))
    return role_bandwidths(caps, testbed.network)


def breakdown_rest_label(*, session: Session, experiment: Experiment) -> str:
    """The name of the breakdown's network time beyond one round trip on this testbed."""
    testbed = experiment_testbed(session=session, experiment=experiment)
    if testbed is None:
        return rest_label(None, True)
    clients = {h.address for h in testbed.hosts if h.role == HostRole.CLIENT}
    middlewares = {h.address for h in testbed.hosts if h.role == HostRole.MIDDLEWARE}
    return rest_label(testbed.kind.value, bool(clients & middlewares))


def request_measurement(*, session: Session, testbed: Testbed, bandwidth: bool) -> bool:
    """Mark the testbed's network as being measured, commit, then ask the maintenance worker
    to measure it; False (nothing marked) when the broker does not answer."""
    try:
        check_broker()
    except BrokerUnavailable:
        logger.warning("testbed.network.not_enqueued", extra={"testbed_id": testbed.id})
        return False
    testbed.network = {**(testbed.network or {}), "status": "measuring", "error": None}
    session.commit()
    try:
        enqueue_network(testbed.id, bandwidth)
    except BrokerUnavailable:
        testbed.network = {**testbed.network, "status": None}
        session.commit()
        return False
    return True
