"""The machines per configuration, over each run's window: every host's whole CPU (user,
system, iowait, steal; summed over the run's hosts, means over repetitions) against its cores,
the share of mcscope's own processes per role, the traffic of the interfaces and each capped
host's link against its cap (backend.results.links), with the saturated resource named in
words. What the run page shows per second, per configuration.

Two utilizations, both shown: the hosts' (every process on them, another tenant's included)
and mcscope's processes'. A host near its cores is saturated whatever its processes say; the
demand model's utilization counts the processes only, which is why they can disagree.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from backend.domain.metrics import MetricName, SourceKind
from backend.domain.saturation import SATURATED_SHARE
from backend.models import Experiment, HostRole, RequestType
from backend.results.aggregate import Window, by_configuration, summarize
from backend.results.links import LinkUse, link_uses
from backend.results.read import configurations, run_values
from backend.schemas.machines import ConfigurationMachinesPublic, LinkPublic, MachinesPublic

HOST_METRICS: tuple[MetricName, ...] = (
    "host_cpu_busy_pct",
    "host_cpu_user_pct",
    "host_cpu_system_pct",
    "host_cpu_iowait_pct",
    "host_cpu_steal_pct",
    "host_cpus",
)
NET_METRICS: tuple[MetricName, ...] = ("net_rx_bytes_per_s", "net_tx_bytes_per_s")


def _means(
    session: Session,
    experiment: Experiment,
    source: SourceKind,
    metrics: tuple[MetricName, ...],
    window: Window | None,
    role: str | None = None,
) -> dict[int, dict[str, float]]:
    runs = run_values(
        session=session,
        experiment_id=experiment.id,
        source=source,
        request_type=RequestType.ALL,
        metrics=list(metrics),
        window=window,
        role=role,
    )
    out: dict[int, dict[str, float]] = {}
    for m in metrics:
        for config_id, values in by_configuration(runs, m).items():
            out.setdefault(config_id, {})[m] = summarize(values).mean
    return out


def verdict(
    host_busy_pct: float | None,
    cores: float | None,
    ours_pct: float | None,
    links: list[LinkUse] | None = None,
) -> str:
    """The configuration's machines in words: which resource saturated, or none; a saturated
    link first (it is the bottleneck a shaped testbed is built to show), then the CPU."""
    if host_busy_pct is None or not cores:
        return "no machine monitoring stored"
    share = host_busy_pct / (100 * cores)
    ours = "" if ours_pct is None else f"; mcscope's processes {ours_pct / 100:.2f} cores of it"
    state = "saturated" if share >= SATURATED_SHARE else "not saturated"
    cpu = f"hosts' CPU {state}: {host_busy_pct / 100:.2f} of {cores:g} cores busy{ours}"
    ordered = sorted(links or [], key=lambda u: -u.utilization)
    return "; ".join([*(u.words for u in ordered if u.saturated), cpu])


def machines_public(
    *, session: Session, experiment: Experiment, window: Window | None = None
) -> MachinesPublic:
    """Per configuration, its machines over the stored stable window (or the re-cut one)."""
    hosts = _means(session, experiment, "host", HOST_METRICS, window)
    net = _means(session, experiment, "net", NET_METRICS, window)
    processes = _means(session, experiment, "process", ("process_cpu_pct",), window)
    roles = {
        r.value: _means(session, experiment, "process", ("process_cpu_pct",), window, r.value)
        for r in HostRole
    }
    links = link_uses(session=session, experiment=experiment, window=window)
    rows = []
    for c in configurations(session=session, experiment=experiment):
        h = hosts.get(c.id, {})
        busy, cores = h.get("host_cpu_busy_pct"), h.get("host_cpus")
        ours = processes.get(c.id, {}).get("process_cpu_pct")
        traffic = net.get(c.id, {})
        used = links.get(c.id, [])
        cpu_saturated = (
            busy is not None and bool(cores) and busy / (100 * (cores or 1)) >= SATURATED_SHARE
        )
        rows.append(
            ConfigurationMachinesPublic(
                configuration_id=c.id,
                index=c.index,
                values=c.values,
                host_cpus=cores,
                host_cpu_busy_pct=busy,
                host_cpu_user_pct=h.get("host_cpu_user_pct"),
                host_cpu_system_pct=h.get("host_cpu_system_pct"),
                host_cpu_iowait_pct=h.get("host_cpu_iowait_pct"),
                host_cpu_steal_pct=h.get("host_cpu_steal_pct"),
                host_utilization=busy / (100 * cores) if busy is not None and cores else None,
                process_cpu_pct=ours,
                process_utilization=ours / (100 * cores) if ours is not None and cores else None,
                process_cpu_pct_by_role={
                    role: v
                    for role, per in roles.items()
                    if (v := per.get(c.id, {}).get("process_cpu_pct")) is not None
                },
                net_bytes_per_s=(sum(traffic.values()) if traffic else None),
                links=[
                    LinkPublic(
                        host=u.host,
                        role=u.role,
                        cap_mbit_s=u.cap_mbit_s,
                        cap_basis=u.cap_basis,
                        tx_bytes_per_s=u.tx_bytes_per_s,
                        utilization=u.utilization,
                        saturated=u.saturated,
                    )
                    for u in used
                ],
                saturated=cpu_saturated or any(u.saturated for u in used),
                summary=verdict(busy, cores, ours, used),
            )
        )
    return MachinesPublic(
        window_start_s=window.start_s if window else None,
        window_end_s=window.end_s if window else None,
        saturated_share=SATURATED_SHARE,
        data=rows,
    )
