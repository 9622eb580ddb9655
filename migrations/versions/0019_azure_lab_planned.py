"""An Azure lab's planned resources (kind and name, in creation order), so its page shows
each resource as pending or created while the worker makes them.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-26 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "azure_labs",
        sa.Column(
            "planned",
            postgresql.JSONB(astext_type=sa.Text()),
            nullable=False,
            server_default=sa.text("'[]'::jsonb"),
        ),
    )


def downgrade() -> None:
    op.drop_column("azure_labs", "planned")
