"""Run attempts: where each attempt's processes live, so the next run proves them gone.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26 11:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "run_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("testbed_key", sa.Integer(), nullable=False),
        sa.Column("workdir", sa.String(length=1024), nullable=False),
        sa.Column("hosts", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("worker", sa.String(length=255), nullable=False),
        sa.Column(
            "started_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("clock_timestamp()"),
            nullable=False,
        ),
        sa.Column(
            "heartbeat_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("clock_timestamp()"),
            nullable=False,
        ),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cleared_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
            name=op.f("fk_run_attempts_run_id_runs"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_attempts")),
    )
    op.create_index(op.f("ix_run_attempts_run_id"), "run_attempts", ["run_id"])
    op.create_index(
        "ix_run_attempts_uncleared",
        "run_attempts",
        ["testbed_key"],
        postgresql_where=sa.text("cleared_at IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_run_attempts_uncleared", table_name="run_attempts")
    op.drop_index(op.f("ix_run_attempts_run_id"), table_name="run_attempts")
    op.drop_table("run_attempts")
