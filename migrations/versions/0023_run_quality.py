"""Run quality (issue 28): runs.quality (flags computed at ingest), runs.results_attempt (the
attempt whose results are stored: a re-run that fails keeps the older successful one in use),
run_attempts.outcome (each successful attempt's window means and flags, kept for the run page).

Existing succeeded runs get results_attempt = attempt.

Revision ID: 0023
Revises: 0018
Create Date: 2026-11-26 15:25:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("runs", sa.Column("quality", postgresql.JSONB(astext_type=sa.Text())))
    op.add_column("runs", sa.Column("results_attempt", sa.Integer()))
    op.add_column("run_attempts", sa.Column("outcome", postgresql.JSONB(astext_type=sa.Text())))
    op.execute("UPDATE runs SET results_attempt = attempt WHERE status = 'succeeded'")


def downgrade() -> None:
    op.drop_column("run_attempts", "outcome")
    op.drop_column("runs", "results_attempt")
    op.drop_column("runs", "quality")
