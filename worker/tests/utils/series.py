"""A middleware's stored series placed exactly on a client's seconds.

The product places every series to the whole second (backend/results/aggregate.py, rule 1), so a
middleware whose windows began half a second off the clients' is compared with them half a
second off: on a busy machine, where one second's rate can be half the next, that moved a 5 s
mean 6 % (CI, 2026-11-29). Tests that claim both sides counted the same requests compare them
here without that rounding, spreading each stored second's requests evenly over it.
"""

import math

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.domain.window import DesignWindow
from backend.models import RequestType, Run, RunSeries


def _count_until(series: RunSeries, t_unix: float) -> float:
    """Requests the series counted before t_unix (a second's requests spread evenly in it)."""
    rates = [0.0 if math.isnan(x) else x for x in series.throughput]  # as rule 2 counts them
    elapsed = t_unix - series.start_unix
    whole = max(min(math.floor(elapsed), len(rates)), 0)
    counted = sum(rates[:whole])
    if elapsed >= 0 and whole < len(rates):
        counted += rates[whole] * (elapsed - whole)
    return counted


def on_client_seconds(db: Session, run: Run, window: DesignWindow) -> tuple[float, float]:
    """(client:0's mean rate, middleware:0's mean rate) over the same wall-clock seconds: the
    window on client:0's clock (its series begins at the run's second 0)."""
    series = {
        s.source: s
        for s in db.scalars(
            select(RunSeries).where(
                RunSeries.run_id == run.id, RunSeries.request_type == RequestType.ALL
            )
        )
    }
    client, middleware = series["client:0"], series["middleware:0"]
    start, end = client.start_unix + window.start_s, client.start_unix + window.end_s
    client_rate = (_count_until(client, end) - _count_until(client, start)) / window.length_s
    mw_rate = (_count_until(middleware, end) - _count_until(middleware, start)) / window.length_s
    return client_rate, mw_rate
