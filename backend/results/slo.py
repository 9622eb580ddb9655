"""A latency-SLO search as it stands, read from its stored probes: each rate's runs pooled
(client histograms merged over runs and instances, never percentiles averaged; the same for
the middleware), its verdict, and the search's next step or answer.

Everything is derived from the runs table and the stored results, so the search task and the
API read the same state, and a worker that dies between probes loses nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from backend.analysis.slo import (
    Estimate,
    Inversion,
    Point,
    Step,
    Verdict,
    estimate,
    inversion,
    next_step,
    verdict,
)
from backend.crud import slo as crud_slo
from backend.domain.grid import effective_parameters
from backend.domain.parameters import virtual_clients
from backend.domain.rate_limiting import ADVICE, sending_pattern
from backend.domain.slo_design import RATE
from backend.models import Experiment, HistogramMetric, RequestType, RunStatus
from backend.results.histograms import configuration_histograms
from backend.results.selection import ResultsSelection
from backend.results.table import results_table
from backend.schemas.slo import (
    SloEstimatePublic,
    SloNonMonotonicPublic,
    SloProbePublic,
    SloRatePublic,
    SloSearchPublic,
    SloSearchSpec,
    SloSendingPatternPublic,
)

ACTIVE = (RunStatus.QUEUED, RunStatus.RUNNING)
HALTED = (RunStatus.FAILED, RunStatus.CANCELLED)


@dataclass(frozen=True)
class SearchState:
    """The served view, and what the search task does next: `step` (None while a probe is
    queued or running, or when a failed or cancelled probe stopped the search)."""

    public: SloSearchPublic
    step: Step | None


def spec_of(experiment: Experiment) -> SloSearchSpec:
    assert experiment.slo_search is not None
    return SloSearchSpec.model_validate(experiment.slo_search)


def connections(experiment: Experiment) -> int:
    """Connections that each carry the rate: the design's virtual clients."""
    return virtual_clients(effective_parameters({}, experiment.fixed))


def _pattern(experiment: Experiment, rate: int) -> SloSendingPatternPublic:
    params = effective_parameters({}, experiment.fixed)
    per_process = int(params["threads_per_instance"]) * int(params["clients_per_thread"])
    p = sending_pattern(rate, per_process)
    return SloSendingPatternPublic(
        rate_per_connection=p.rate,
        per_tick=p.per_tick,
        tick_ms=p.tick_ms,
        burst=p.burst,
        description=p.description,
        advice=ADVICE,
    )


def _rate_public(p: Point) -> SloRatePublic:
    est = _public(p.estimate)
    assert est is not None
    return SloRatePublic(rate_per_connection=p.rate, client=est, verdict=p.verdict.value)


def _non_monotonic(
    found: Inversion | None, points: list[Point], label: str
) -> SloNonMonotonicPublic | None:
    if found is None:
        return None
    lo, hi = found.lower, found.higher
    assert lo.estimate is not None and hi.estimate is not None
    what = label.split(" ")[0]
    summary = (
        f"Latency is not monotonic in offered load: {what} is {_ms(lo.estimate)} at "
        f"{lo.rate} requests/s per connection ({lo.verdict.value}) but {_ms(hi.estimate)} at "
        f"{hi.rate} ({hi.verdict.value}), beyond noise (the intervals do not overlap)."
    )
    if lo.verdict is Verdict.MISSES and hi.verdict is Verdict.MEETS:
        summary += " The objective holds at a higher rate where a lower one missed."
    evidence = sorted((p for p in points if p.estimate is not None), key=lambda p: p.rate)
    return SloNonMonotonicPublic(
        summary=summary,
        lower=_rate_public(lo),
        higher=_rate_public(hi),
        evidence=[_rate_public(p) for p in evidence],
    )


def _ms(e: Estimate) -> str:
    high = "inf" if math.isinf(e.high_us) else f"{e.high_us / 1000:.3g}"
    return f"{e.value_us / 1000:.3g} ms [{e.low_us / 1000:.3g}, {high}]"


def _public(e: Estimate | None) -> SloEstimatePublic | None:
    if e is None:
        return None
    high = None if math.isinf(e.high_us) else e.high_us
    return SloEstimatePublic(value_us=e.value_us, low_us=e.low_us, high_us=high, n=e.n)


def search_state(session: Session, experiment: Experiment) -> SearchState:
    """Every probe with its pooled verdict, the next step, and the answer once done."""
    spec = spec_of(experiment)
    objective = spec.objective()
    n_conn = connections(experiment)
    configs = crud_slo.read_probe_configurations(session=session, experiment_id=experiment.id)
    runs = crud_slo.read_probe_runs(session=session, experiment_id=experiment.id)
    ids = [c.id for c in configs]
    common: dict[str, Any] = {
        "session": session,
        "experiment_id": experiment.id,
        "request_type": RequestType.ALL,
        "configuration_ids": ids,
    }
    client_h = configuration_histograms(source="client", metric=HistogramMetric.CLIENT, **common)
    mw_h = configuration_histograms(source="middleware", metric=HistogramMetric.TOTAL, **common)
    delivered = {
        r.configuration_id: r.mean("throughput_per_s")
        for r in results_table(session=session, selection=ResultsSelection(experiment))
    }
    probes: list[SloProbePublic] = []
    points: list[Point] = []
    estimates: dict[int, tuple[Estimate | None, Estimate | None]] = {}
    for c in configs:
        rate = int(c.values[RATE])
        mine = [r for r in runs if r.configuration_id == c.id]
        done = [r for r in mine if r.status == RunStatus.SUCCEEDED]
        client = estimate(client_h[c.id].histogram, objective) if c.id in client_h else None
        mw = estimate(mw_h[c.id].histogram, objective) if c.id in mw_h else None
        estimates[rate] = (client, mw)
        offered = float(rate * n_conn)
        got = delivered.get(c.id)
        v: Verdict | None = None
        if done:
            # No latency stored (no client histogram): not shown to hold, so a miss.
            share = (got or 0.0) / offered
            v = verdict(client, share, objective) if client else Verdict.MISSES
            points.append(Point(rate, v, len(done), client, share >= objective.min_delivered))
        probes.append(
            SloProbePublic(
                rate_per_connection=rate,
                offered_per_s=offered,
                delivered_per_s=got,
                configuration_id=c.id,
                run_ids=[r.id for r in mine],
                runs_done=len(done),
                client=_public(client),
                middleware=_public(mw),
                verdict=v.value if v else None,
            )
        )
    step: Step | None = None
    halted = [r for r in runs if r.status in HALTED]
    if not runs:
        state, reason = "not_started", "not started"
        step = next_step(points, spec.limits(), 0)
    elif any(r.status in ACTIVE for r in runs):
        state, reason = "searching", "a probe is running"
    elif halted:
        last = halted[-1]
        state, reason = "stopped", f"run {last.id} {last.status.value}: start again to resume"
    else:
        step = next_step(points, spec.limits(), len(runs))
        state, reason = ("done" if step.done else "searching"), step.reason
    answer = step.answer if step is not None and step.done else None
    by_rate = {p.rate_per_connection: p for p in probes}
    return SearchState(
        SloSearchPublic(
            objective=objective.label,
            confidence=objective.confidence,
            connections=n_conn,
            state=state,
            reason=reason,
            probes=probes,
            answer_rate_per_connection=answer,
            answer_offered_per_s=None if answer is None else float(answer * n_conn),
            answer_delivered_per_s=None if answer is None else by_rate[answer].delivered_per_s,
            answer_client=None if answer is None else by_rate[answer].client,
            answer_middleware=None if answer is None else by_rate[answer].middleware,
            runs=len(runs),
            non_monotonic=_non_monotonic(inversion(points), points, objective.label),
            sending_pattern=_pattern(
                experiment, min((p.rate for p in points), default=spec.start_rate)
            ),
        ),
        step,
    )
