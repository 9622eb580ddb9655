"""memaslap's periodic reports placed on the real clock.

memaslap counts its seconds with `sleep(1); second++` and divides each report's events by that
counted interval, while its final "Run time" is measured with gettimeofday over the same loop
(libmemcached clients/ms_memslap.c, ms_monitor_slap_mode). On a busy machine every turn of the
loop takes longer than a second, so the per-second series overstate the rate: 8 counted seconds
that took 9.1 s made memaslap's series 14% above the middleware's own count. When the loop ran
to the configured run time, its turns are known, and each report's interval is stretched by
real / counted time (evenly: memaslap records nothing finer) and re-binned into real seconds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from worker.parsers.model import SecondSample

# Below this the loop's own cost (one report a second) is immaterial, and the series keep
# memaslap's numbers as printed.
_NEGLIGIBLE_STRETCH = 0.01
_RUN_TIME = re.compile(r"^(\d+)s$")


def loop_stretch(header: Mapping[str, str], last_counted_s: int | None, real_s: float) -> float:
    """Real seconds per counted second, or 1.0 when it is unknown or negligible.

    Known only when the loop ended at the configured run time ("run time: 8s" in the header
    and a last report at second 8); a run whose connections all closed early ended after an
    unknown number of turns.
    """
    match = _RUN_TIME.match(header.get("run time", ""))
    if match is None or last_counted_s is None:
        return 1.0
    counted = int(match.group(1))
    if counted <= 0 or last_counted_s != counted:
        return 1.0
    stretch = real_s / counted
    return stretch if abs(stretch - 1) > _NEGLIGIBLE_STRETCH else 1.0


@dataclass(frozen=True, slots=True)
class _Interval:
    start_s: float
    end_s: float
    sample: SecondSample


def on_real_clock(
    samples: Sequence[tuple[SecondSample, int]], stretch: float
) -> tuple[SecondSample, ...]:
    """Samples (each with its counted interval length) re-binned into real seconds.

    Rates are divided by the stretch and averaged over the part of each real second the
    reports cover; a second is kept when reports cover at least half of it (as whole
    seconds round elsewhere). Latency is averaged weighted by the requests of each part.
    """
    if stretch == 1.0:
        return tuple(s for s, _ in samples)
    intervals = [
        _Interval(s.second * stretch, (s.second + length) * stretch, s) for s, length in samples
    ]
    if not intervals:
        return ()
    last = math.ceil(max(i.end_s for i in intervals))
    out: list[SecondSample] = []
    for second in range(last):
        parts = [
            (i.sample, overlap)
            for i in intervals
            if (overlap := min(i.end_s, second + 1) - max(i.start_s, second)) > 0
        ]
        covered = sum(o for _, o in parts)
        if covered < 0.5:
            continue
        out.append(_merge(second, parts, covered, stretch))
    return tuple(out)


def _merge(
    second: int, parts: list[tuple[SecondSample, float]], covered: float, stretch: float
) -> SecondSample:
    def rate(values: list[float | None]) -> float | None:
        if any(v is None for v in values):
            return None
        return sum(v * o for v, (_, o) in zip(values, parts, strict=True) if v) / covered / stretch

    ops = rate([s.ops_per_sec for s, _ in parts])
    timed = [(s.mean_latency_us, s.ops_per_sec * o) for s, o in parts]
    weight = sum(w for lat, w in timed if lat is not None)
    latency = sum(lat * w for lat, w in timed if lat is not None) / weight if weight > 0 else None
    return SecondSample(
        second=second,
        ops_per_sec=ops or 0.0,
        mean_latency_us=latency,
        keys_per_sec=rate([s.keys_per_sec for s, _ in parts]),
        hits_per_sec=rate([s.hits_per_sec for s, _ in parts]),
        misses_per_sec=rate([s.misses_per_sec for s, _ in parts]),
    )
