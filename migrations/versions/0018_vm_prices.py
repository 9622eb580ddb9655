"""VM prices (vm_prices: region, size, hourly price, currency, source, fetched_at); each
Azure host's size and region; an Azure lab's budget and deletion time.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-26 12:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "vm_prices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("region", sa.String(length=40), nullable=False),
        sa.Column("size", sa.String(length=64), nullable=False),
        sa.Column("price_per_hour", sa.Float(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vm_prices")),
        sa.UniqueConstraint("region", "size", name=op.f("uq_vm_prices_region_size")),
    )
    op.add_column("hosts", sa.Column("size", sa.String(length=64), nullable=True))
    op.add_column("hosts", sa.Column("region", sa.String(length=40), nullable=True))
    op.add_column("azure_labs", sa.Column("budget", sa.Float(), nullable=True))
    op.add_column("azure_labs", sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("azure_labs", "deleted_at")
    op.drop_column("azure_labs", "budget")
    op.drop_column("hosts", "region")
    op.drop_column("hosts", "size")
    op.drop_table("vm_prices")
