"""Each capped host's link per configuration, over each run's window: what it sent (every
interface but its loopback, from the host monitor's "net:<host>:<interface>" sources) against
its cap (Host.link_cap_mbit_s, on shaped or sized testbeds), so a saturated link is named as a
saturated CPU is (backend.domain.saturation). Hosts without a cap have no link row: without a
cap there is nothing to be a share of (the network bound then reads iperf3's uploads)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from backend.crud import results as crud
from backend.crud.network import experiment_testbed
from backend.domain.metrics import MetricName
from backend.domain.saturation import LOOPBACK, SATURATED_SHARE, link_utilization, link_words
from backend.models import Experiment, RequestType
from backend.results.aggregate import Window, summarize
from backend.results.read import run_values

METRIC: MetricName = "net_tx_bytes_per_s"


@dataclass(frozen=True)
class LinkUse:
    host: str
    role: str
    cap_mbit_s: float
    cap_basis: str | None
    tx_bytes_per_s: float

    @property
    def utilization(self) -> float:
        return link_utilization(self.tx_bytes_per_s, self.cap_mbit_s)

    @property
    def saturated(self) -> bool:
        return self.utilization >= SATURATED_SHARE

    @property
    def words(self) -> str:
        return link_words(self.host, self.role, self.tx_bytes_per_s, self.cap_mbit_s)


def link_uses(
    *, session: Session, experiment: Experiment, window: Window | None
) -> dict[int, list[LinkUse]]:
    """Per configuration, each capped host's link (mean over repetitions of the runs' window
    means; a run sums the host's interfaces)."""
    testbed = experiment_testbed(session=session, experiment=experiment)
    if testbed is None:
        return {}
    capped = {h.name: h for h in testbed.hosts if h.link_cap_mbit_s}
    if not capped:
        return {}
    names = crud.read_source_names(session=session, experiment_id=experiment.id, source="net")
    out: dict[int, list[LinkUse]] = {}
    for host_name, host in capped.items():
        per_run: dict[tuple[int, int], float] = {}  # (run, configuration) -> bytes/s
        for name in names:
            _, host_part, iface = name.split(":", 2)
            if host_part != host_name or iface == LOOPBACK:
                continue
            for rv in run_values(
                session=session,
                experiment_id=experiment.id,
                source="net",
                request_type=RequestType.ALL,
                metrics=[METRIC],
                window=window,
                source_name=name,
            ):
                value = rv.values.get(METRIC)
                if value is not None:
                    key = (rv.run_id, rv.configuration_id)
                    per_run[key] = per_run.get(key, 0.0) + value
        by_config: dict[int, list[float]] = {}
        for (_run, config_id), value in per_run.items():
            by_config.setdefault(config_id, []).append(value)
        for config_id, values in by_config.items():
            out.setdefault(config_id, []).append(
                LinkUse(
                    host_name,
                    host.role.value,
                    float(host.link_cap_mbit_s or 0.0),
                    host.link_cap_basis,
                    summarize(values).mean,
                )
            )
    return out
