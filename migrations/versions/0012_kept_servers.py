"""Kept servers: memcached servers left running between runs on one testbed, by PID.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-23 16:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "kept_servers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("testbed_key", sa.Integer(), nullable=False),
        sa.Column("identity", sa.String(length=1024), nullable=False),
        sa.Column("command", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column(
            "kept_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_kept_servers")),
    )
    op.create_index(op.f("ix_kept_servers_testbed_key"), "kept_servers", ["testbed_key"])


def downgrade() -> None:
    op.drop_index(op.f("ix_kept_servers_testbed_key"), table_name="kept_servers")
    op.drop_table("kept_servers")
