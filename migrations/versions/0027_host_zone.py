"""Azure hosts: the availability zone the VM runs in (hosts.zone; null: regional or not Azure).

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-26 16:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("hosts", sa.Column("zone", sa.String(length=8), nullable=True))


def downgrade() -> None:
    op.drop_column("hosts", "zone")
