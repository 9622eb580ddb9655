"""The monitor's per-second series: host CPU and memory, network per interface, process CPU.

Every host of a run runs a monitor (worker/drivers/monitor_probe.py); its series are stored
as run_series rows of sources "host:<host>", "net:<host>:<iface>" and "process:<role>:<N>"
(request type "all", throughput NaN), with prefix sums like 0003/0008/0011, and their
stable-window means in run_summaries (backend/domain/metrics.py lists them).

Revision ID: 0021
Revises: 0018
Create Date: 2026-11-26 15:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FLOATS = postgresql.ARRAY(sa.Float(precision=53), dimensions=1)

COLUMNS = (
    "host_cpu_user_pct",
    "host_cpu_system_pct",
    "host_cpu_iowait_pct",
    "host_cpu_steal_pct",
    "host_cpu_busy_pct",
    "host_cpus",
    "host_mem_used_bytes",
    "net_rx_bytes_per_s",
    "net_tx_bytes_per_s",
    "net_rx_packets_per_s",
    "net_tx_packets_per_s",
    "process_cpu_pct",
)


def upgrade() -> None:
    for c in COLUMNS:
        op.add_column("run_series", sa.Column(c, FLOATS, nullable=True))
    for c in COLUMNS:
        name = f"{c}_cumsum"
        op.add_column(
            "run_series",
            sa.Column(
                name, FLOATS, sa.Computed(f"mcscope_cumsum({c})", persisted=True), nullable=True
            ),
        )
        op.execute(f"ALTER TABLE run_series ALTER COLUMN {name} SET STORAGE MAIN")
    for c in COLUMNS:
        op.add_column("run_summaries", sa.Column(c, sa.Float(precision=53), nullable=True))


def downgrade() -> None:
    for c in COLUMNS:
        op.drop_column("run_summaries", c)
        op.drop_column("run_series", f"{c}_cumsum")
        op.drop_column("run_series", c)
