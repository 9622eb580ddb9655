"""Per-second latency percentiles (p50/p90/p99) with their prefix sums.

The load generators' stored p50/p90/p99 were memtier's whole-run percentiles, warm-up and
cool-down included, shown next to stable-window means. memtier reports p50/p90/p99/p99.9 for
every second; storing them per second (like every other per-second metric) gives the stable
window's value and any re-cut window's, with the same prefix-sum functions as 0003 and 0008
(backend/domain/metrics.py marks p50_us, p90_us and p99_us `fast`).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23 16:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FLOATS = postgresql.ARRAY(sa.Float(precision=53), dimensions=1)

PERCENTILES = ("p50_us", "p90_us", "p99_us")


def _computed() -> list[tuple[str, str]]:
    out = []
    for c in PERCENTILES:
        out.append((f"{c}_wcumsum", f"mcscope_weighted_cumsum(throughput, {c})"))
        out.append((f"{c}_weight_cumsum", f"mcscope_weight_cumsum(throughput, {c})"))
    return out


def upgrade() -> None:
    for c in PERCENTILES:
        op.add_column("run_series", sa.Column(c, FLOATS, nullable=True))
    for name, expr in _computed():
        op.add_column(
            "run_series", sa.Column(name, FLOATS, sa.Computed(expr, persisted=True), nullable=True)
        )
        op.execute(f"ALTER TABLE run_series ALTER COLUMN {name} SET STORAGE MAIN")


def downgrade() -> None:
    for name, _ in _computed():
        op.drop_column("run_series", name)
    for c in PERCENTILES:
        op.drop_column("run_series", c)
