"""Run queue messages: their number, when sent, which worker holds them and until when.

Queued runs at upgrade time count as sent now: recovery checks the broker's queue for them
after RESEND_AFTER_S and re-sends those without a message.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "runs", sa.Column("dispatch", sa.Integer(), server_default=sa.text("0"), nullable=False)
    )
    op.add_column("runs", sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("runs", sa.Column("held_by", sa.String(length=255), nullable=True))
    op.add_column("runs", sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE runs SET sent_at = now() WHERE status = 'queued'")


def downgrade() -> None:
    op.drop_column("runs", "due_at")
    op.drop_column("runs", "held_by")
    op.drop_column("runs", "sent_at")
    op.drop_column("runs", "dispatch")
