"""Hosts: their egress cap when the network is shaped or known (hosts.link_cap_mbit_s, Mbit/s)
and the figure it follows (hosts.link_cap_basis: published, measured or custom); null: unknown.

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-29 01:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("hosts", sa.Column("link_cap_mbit_s", sa.Float(), nullable=True))
    op.add_column("hosts", sa.Column("link_cap_basis", sa.String(length=16), nullable=True))


def downgrade() -> None:
    op.drop_column("hosts", "link_cap_basis")
    op.drop_column("hosts", "link_cap_mbit_s")
