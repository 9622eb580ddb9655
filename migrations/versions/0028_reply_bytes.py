"""The middleware's reply bytes per request: run_series and run_summaries columns.

The columns are read from the metric table (backend/domain/stored_columns.py): the metric's
per-second array, its prefix sums (completion-weighted, like 0003/0008) and its window value.

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-26 20:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from backend.domain.metrics import METRICS
from backend.domain.stored_columns import StoredColumn, stored_columns

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ADDED = ("reply_bytes",)
"""The metrics whose columns this migration adds."""

FLOATS = postgresql.ARRAY(sa.Float(precision=53), dimensions=1)


def _columns() -> list[StoredColumn]:
    return [c for name in ADDED for c in stored_columns(METRICS[name])]  # type: ignore[index]


def upgrade() -> None:
    for c in _columns():
        extra = (sa.Computed(c.computed, persisted=True),) if c.computed else ()
        kind = FLOATS if c.array else sa.Float(precision=53)
        op.add_column(c.table, sa.Column(c.name, kind, *extra, nullable=c.nullable))
        if c.storage:
            op.execute(f"ALTER TABLE {c.table} ALTER COLUMN {c.name} SET STORAGE {c.storage}")


def downgrade() -> None:
    for c in reversed(_columns()):
        op.drop_column(c.table, c.name)
