"""The machines of a run: CPU of every host and process and network per interface over the
run, the stable window shaded; and each station's utilization against load (the monitor's
series, worker/drivers/monitor_probe.py)."""

from dataclasses import dataclass, field

import plotly.graph_objects as go
from fastapi import HTTPException, status
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.analysis.demands import DEFAULT_TIMER_TOLERANCE
from backend.analysis.model_fit import flagged
from backend.crud.network import experiment_testbed
from backend.domain.saturation import LOOPBACK, SATURATED_SHARE, link_words
from backend.domain.window import window_of
from backend.figures.params import FigureQuery
from backend.figures.registry import register, set_caption
from backend.figures.style import right_axis
from backend.modelfit.demands import DemandGroup, demand_groups
from backend.models import Run, RunSeries, RunStatus, RunSummary
from backend.results.aggregate import offset_s
from backend.results.selection import stored_experiment


@dataclass(frozen=True)
class SourceLine:
    source: str
    offset_s: int  # from the run's second 0 (its load generators' start)
    values: list[float]


@dataclass(frozen=True)
class RunResources:
    run_id: int
    window_start_s: int
    window_end_s: int
    cpu: list[SourceLine]  # hosts' busy CPU and processes' CPU, % of a core
    network: list[SourceLine]  # bytes/s received + sent per interface
    cores: dict[str, float]  # host source -> its CPU cores (host_cpus)
    sent: list[SourceLine] = field(default_factory=list)  # bytes/s sent per interface
    # Testbed host -> (role, egress cap in Mbit/s) of the hosts that record a cap.
    caps: dict[str, tuple[str, float]] = field(default_factory=dict)


def _window_mean(line: SourceLine, lo: int, hi: int) -> float | None:
    """Mean of a line's seconds inside [lo, hi) (its seconds counted from the run's 0)."""
    inside = [v for i, v in enumerate(line.values) if lo <= line.offset_s + i < hi and v == v]
    return sum(inside) / len(inside) if inside else None


def machines_in_words(data: RunResources) -> list[str]:
    """Each host's CPU over the stable window in words: the host's whole CPU (every process on
    it) beside the share of mcscope's own processes, and 'saturated' past SATURATED_SHARE of
    its cores; the busiest interface. A host's whole CPU is what limits throughput: another
    tenant's work counts there and not in mcscope's processes."""
    lo, hi = data.window_start_s, data.window_end_s
    processes = [
        m
        for line in data.cpu
        if line.source.startswith("process:")
        if (m := _window_mean(line, lo, hi)) is not None
    ]
    ours = sum(processes)
    out = []
    for line in data.cpu:
        if not line.source.startswith("host:"):
            continue
        busy = _window_mean(line, lo, hi)
        cores = data.cores.get(line.source)
        if busy is None or not cores:
            continue
        share = busy / (100 * cores)
        verdict = "saturated" if share >= SATURATED_SHARE else "not saturated"
        out.append(
            f"{line.source}: {busy / 100:.2f} of {cores:g} cores busy ({100 * share:.0f} %), "
            f"{verdict}; mcscope's processes {ours / 100:.2f} cores of it"
        )
    busiest = max(
        ((m, line.source) for line in data.network if (m := _window_mean(line, lo, hi))),
        default=None,
    )
    if busiest is not None:
        out.append(f"busiest interface {busiest[1]}: {busiest[0] / 1e6:.3g} MB/s in + out")
    return out + links_in_words(data)


def links_in_words(data: RunResources) -> list[str]:
    """Each capped host's link over the stable window: what it sent (every interface but
    loopback) against its cap, 'saturated' past SATURATED_SHARE as a CPU is."""
    lo, hi = data.window_start_s, data.window_end_s
    sent: dict[str, float] = {}
    for line in data.sent:
        _, host, iface = line.source.split(":", 2)  # "net:<host>:<interface>"
        mean = _window_mean(line, lo, hi)
        if host in data.caps and iface != LOOPBACK and mean is not None:
            sent[host] = sent.get(host, 0.0) + mean
    return [link_words(h, data.caps[h][0], b, data.caps[h][1]) for h, b in sorted(sent.items())]


def load_run_resources(session: Session, experiment_id: int, q: FigureQuery) -> RunResources:
    """The monitor's series of one run (default: the experiment's first succeeded run)."""
    exp = stored_experiment(session, experiment_id)
    run_id = q.run_id or session.scalar(
        select(Run.id)
        .where(Run.experiment_id == experiment_id, Run.status == RunStatus.SUCCEEDED)
        .order_by(Run.id)
        .limit(1)
    )
    run = session.get(Run, run_id) if run_id is not None else None
    if run is None or run.experiment_id != experiment_id:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No succeeded run")
    rows = session.scalars(
        select(RunSeries).where(RunSeries.run_id == run.id).order_by(RunSeries.source)
    ).all()
    clients = [r.start_unix for r in rows if r.source.startswith("client:")]
    if not clients or not any(r.source.startswith("host:") for r in rows):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "The run has no monitor series")
    t0 = min(clients)
    stored = session.scalars(
        select(RunSummary).where(RunSummary.run_id == run.id).order_by(RunSummary.id).limit(1)
    ).first()
    design = window_of(exp)
    lo, hi = (
        (stored.window_start_s, stored.window_end_s) if stored else (design.start_s, design.end_s)
    )
    cpu, network, sent = [], [], []
    cores: dict[str, float] = {}
    for r in rows:
        known = [c for c in (r.host_cpus or []) if c == c]  # NaN: a second not measured
        if r.source.startswith("host:") and known:
            cores[r.source] = max(known)
        off = offset_s(r.start_unix, t0)
        if r.source.startswith("host:") and r.host_cpu_busy_pct is not None:
            cpu.append(SourceLine(r.source, off, list(r.host_cpu_busy_pct)))
        elif r.source.startswith("process:") and r.process_cpu_pct is not None:
            cpu.append(SourceLine(r.source, off, list(r.process_cpu_pct)))
        elif r.source.startswith("net:") and r.net_rx_bytes_per_s is not None:
            tx = r.net_tx_bytes_per_s or [0.0] * len(r.net_rx_bytes_per_s)
            both = [a + b for a, b in zip(r.net_rx_bytes_per_s, tx, strict=False)]
            if any(both):  # idle interfaces only crowd the legend
                network.append(SourceLine(r.source, off, both))
            sent.append(SourceLine(r.source, off, list(tx)))
    testbed = experiment_testbed(session=session, experiment=exp)
    caps = {
        h.name: (h.role.value, h.link_cap_mbit_s)
        for h in (testbed.hosts if testbed is not None else [])
        if h.link_cap_mbit_s
    }
    return RunResources(run.id, lo, hi, cpu, network, cores, sent, caps)


@register("resources", "CPU and network of every host and process", load_run_resources)
def resources(data: RunResources, q: FigureQuery) -> go.Figure:
    """CPU (left axis, % of a core: 200 % is two busy cores) of each host and process, and
    each interface's bytes per second (right axis), per second of the run."""
    fig = go.Figure()
    for line in data.cpu:
        fig.add_trace(
            go.Scatter(
                x=[line.offset_s + i for i in range(len(line.values))],
                y=line.values,
                name=f"CPU {line.source}",
                mode="lines",
                hovertemplate="%{x} s: %{y:.3~g} % of a core<extra>%{fullData.name}</extra>",
            )
        )
    for line in data.network:
        fig.add_trace(
            go.Scatter(
                x=[line.offset_s + i for i in range(len(line.values))],
                y=line.values,
                name=f"bytes/s {line.source}",
                mode="lines",
                yaxis="y2",
                line={"dash": "dot"},
                hovertemplate="%{x} s: %{y:.4~g} bytes/s<extra>%{fullData.name}</extra>",
            )
        )
    fig.add_vrect(
        x0=data.window_start_s,
        x1=data.window_end_s,
        fillcolor="#000000",
        opacity=0.07,
        line={"width": 0},
        layer="below",
    )
    fig.update_layout(
        xaxis={"title": {"text": "Time since load start (s)"}},
        yaxis={"title": {"text": "CPU (% of a core)"}, "rangemode": "tozero"},
        yaxis2=right_axis("Network (bytes/s, received + sent)"),
    )
    caption = (
        f"CPU of every host (busy: user + system) and process, and each interface's traffic, "
        f"per second of run {data.run_id}; shaded: the stable window "
        f"[{data.window_start_s} s, {data.window_end_s} s)."
    )
    return set_caption(fig, caption, machines=machines_in_words(data))


def load_demand_groups(session: Session, experiment_id: int, q: FigureQuery) -> DemandGroup:
    """The demand model of the chosen group (q.group)."""
    groups = demand_groups(
        session=session,
        experiment=stored_experiment(session, experiment_id),
        timer_tolerance=DEFAULT_TIMER_TOLERANCE,
    )
    if not 0 <= q.group < len(groups):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No such group of configurations")
    return groups[q.group]


@register("resource-utilization", "Utilization against load per station", load_demand_groups)
def resource_utilization(data: DemandGroup, q: FigureQuery) -> go.Figure:
    """Each host CPU's and process's utilization (busy servers / servers) against clients."""
    fig = go.Figure()
    clients = [p.clients for p in data.model.points]
    for s in [*data.model.stations, *data.model.processes]:
        fig.add_trace(
            go.Scatter(
                x=clients,
                y=list(s.utilization_by_point),
                name=f"{s.name} ({s.servers} server{'s' if s.servers > 1 else ''})",
                mode="lines+markers",
            )
        )
    fig.add_hline(y=1.0, line={"dash": "dash", "width": 1, "color": "#555555"})
    fig.update_layout(
        xaxis={"title": {"text": "Clients (N)"}},
        yaxis={"title": {"text": "Utilization (busy / servers)"}, "rangemode": "tozero"},
    )
    b = data.model.bottleneck
    neck = f" Bottleneck at N = {b.clients}: {b.resource}, U = {b.utilization:.2f}." if b else ""
    flags = flagged([f for p in data.model.points for f in (p.throughput_fit, p.response_time_fit)])
    warned = (
        " The demand model does not fit: " + "; ".join(f.message or "" for f in flags) + "."
        if flags
        else ""
    )
    caption = (
        "Utilization law per station: a host's CPU over its cores, a process's CPU over the "
        f"threads it runs; stable-window means over repetitions.{neck}{warned}"
    )
    return set_caption(fig, caption)
