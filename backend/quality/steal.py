"""CPU steal above a setting, where machine monitoring stores it (`host_cpu_steal_pct` per
host and second): a noisy neighbour on a cloud VM shows as steal (DOMAIN.md section 8)."""

from collections.abc import Mapping

import numpy as np

from backend.domain.quality import Flag, FlagCode
from backend.quality.model import Thresholds


def steal_flag(steal_pct: Mapping[str, list[float]], th: Thresholds) -> Flag | None:
    """Hosts whose mean steal over the window exceeds the setting."""
    means = {host: float(np.mean(v)) for host, v in sorted(steal_pct.items()) if v}
    over = {host: m for host, m in means.items() if m > th.steal_pct}
    if not over:
        return None
    listed = ", ".join(f"{host} {m:.1f} %" for host, m in over.items())
    return Flag(
        FlagCode.CPU_STEAL,
        f"mean CPU steal over the window > {th.steal_pct:g} %",
        f"CPU steal on {listed}",
        over,
    )
