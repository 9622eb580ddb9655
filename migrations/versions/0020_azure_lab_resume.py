"""An Azure lab's creation can be resumed by another worker: the worker creating it (host:pid),
its heartbeat, the attempt, and the public host key of each VM written before the VM is made.

Revision ID: 0020
Revises: 0018
Create Date: 2026-11-26 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("azure_labs", sa.Column("worker", sa.String(length=255), nullable=True))
    op.add_column(
        "azure_labs", sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column(
        "azure_labs", sa.Column("attempt", sa.Integer(), server_default="0", nullable=False)
    )
    op.add_column(
        "azure_labs",
        sa.Column(
            "host_keys",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
    )


def downgrade() -> None:
    op.drop_column("azure_labs", "host_keys")
    op.drop_column("azure_labs", "attempt")
    op.drop_column("azure_labs", "heartbeat_at")
    op.drop_column("azure_labs", "worker")
