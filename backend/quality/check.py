"""Every run rule applied to one run's evidence, and what could not be checked (and why)."""

from backend.domain.quality import Flag, FlagCode, RunQuality
from backend.quality import agreement, drift, errors, memory, misses, steal, warmup
from backend.quality.evidence import RunEvidence
from backend.quality.model import Thresholds


def run_flags(ev: RunEvidence, th: Thresholds) -> RunQuality:
    """The run's flags over the evidence's window."""
    found: list[Flag | None] = []
    skipped: dict[str, str] = {}
    series = ev.throughput
    if len(series) >= drift.MIN_SECONDS:
        found += [drift.trend_flag(series, th), drift.step_flag(series, th)]
    else:
        why = f"{len(series)} s in the window; the tests need {drift.MIN_SECONDS}"
        skipped[FlagCode.TREND] = skipped[FlagCode.STEP] = why
    if warmup.warmup_probe_fits(len(series), th):
        found.append(warmup.warmup_flag(series, th))
    else:
        skipped[FlagCode.WARMUP] = (
            f"{len(series)} s in the window; comparing its first {th.warmup_probe_s} s with "
            f"the rest needs {2 * th.warmup_probe_s}"
        )
    if ev.client is None:
        skipped[FlagCode.INTERACTIVE_LAW] = "no load generator series in the window"
    elif ev.clients:
        found.append(agreement.interactive_flag(ev.client, ev.clients, th))
    if ev.client is not None and ev.middleware is not None:
        found.append(agreement.throughput_flag(ev.client, ev.middleware, th))
    else:
        skipped[FlagCode.THROUGHPUT_DISAGREEMENT] = "no middleware in this configuration"
    if ev.expects_no_misses:
        source = ev.client if ev.client and ev.client.get("misses_per_s") is not None else None
        found.append(misses.misses_flag(source or ev.middleware or {}, th))
    if ev.tool_errors is not None:
        found.append(errors.errors_flag(ev.tool_errors))
    if ev.memory is not None:
        found.append(memory.memory_cap_flag(ev.memory))
    if ev.steal_pct is None:
        skipped[FlagCode.CPU_STEAL] = "not measured (no host_cpu_steal_pct series)"
    else:
        found.append(steal.steal_flag(ev.steal_pct, th))
    return RunQuality([f for f in found if f is not None], skipped)
