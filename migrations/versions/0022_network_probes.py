"""The network between roles measured on a testbed (testbeds.network: round trips and iperf3
bandwidths, backend.domain.round_trip); each run keeps its own in runs.hosts["network"].

Revision ID: 0022
Revises: 0018
Create Date: 2026-11-26 15:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "testbeds",
        sa.Column(
            "network",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
    )


def downgrade() -> None:
    op.drop_column("testbeds", "network")
