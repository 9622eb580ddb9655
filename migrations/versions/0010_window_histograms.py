"""Per-window middleware histograms (cumulative log-linear counts, read by slices).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23 16:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "run_window_histograms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column(
            "request_type",
            postgresql.ENUM(name="request_type", create_type=False),
            nullable=False,
        ),
        sa.Column(
            "metric",
            postgresql.ENUM(name="histogram_metric", create_type=False),
            nullable=False,
        ),
        sa.Column("start_unix", sa.Float(precision=53), nullable=False),
        sa.Column("sub_buckets", sa.Integer(), nullable=False),
        sa.Column("bucket_count", sa.Integer(), nullable=False),
        sa.Column("first_bucket", sa.Integer(), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("windows", sa.Integer(), nullable=False),
        sa.Column("cum", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
            name=op.f("fk_run_window_histograms_run_id_runs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_window_histograms")),
        sa.UniqueConstraint(
            "run_id",
            "source",
            "request_type",
            "metric",
            name=op.f("uq_run_window_histograms_run_id_source_request_type_metric"),
        ),
    )
    op.create_index(
        op.f("ix_run_window_histograms_run_id"), "run_window_histograms", ["run_id"], unique=False
    )
    # Uncompressed out-of-line storage: substring() then fetches only the TOAST chunks of the
    # two cumulative rows a window re-cut needs.
    op.execute("ALTER TABLE run_window_histograms ALTER COLUMN cum SET STORAGE EXTERNAL")


def downgrade() -> None:
    op.drop_index(op.f("ix_run_window_histograms_run_id"), table_name="run_window_histograms")
    op.drop_table("run_window_histograms")
