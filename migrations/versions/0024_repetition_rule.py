"""An experiment's repetition rule (experiments.repetition_rule, JSONB, null: fixed
repetitions).

Revision ID: 0024
Revises: 0018
Create Date: 2026-11-26 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "experiments",
        sa.Column("repetition_rule", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    )


def downgrade() -> None:
    op.drop_column("experiments", "repetition_rule")
