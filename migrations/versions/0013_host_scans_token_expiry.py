"""Background host key reads (scan status on hosts) and token expiry.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("hosts", sa.Column("scan_status", sa.String(length=16), nullable=True))
    op.add_column("hosts", sa.Column("scan_error", sa.String(length=500), nullable=True))
    op.add_column("hosts", sa.Column("scanned_key", sa.String(length=4096), nullable=True))
    op.add_column("hosts", sa.Column("scanned_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("api_tokens", sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("api_tokens", "expires_at")
    for column in ("scanned_at", "scanned_key", "scan_error", "scan_status"):
        op.drop_column("hosts", column)
