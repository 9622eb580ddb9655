"""Rehearsal testbeds: the testbed kind `rehearsal` and the rehearsals table (an Azure plan's
hosts built as namespace hosts on this machine, backend.rehearsal).

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-29 01:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # PostgreSQL adds an enum value inside a transaction (12+) as long as this transaction
    # does not use it.
    op.execute("ALTER TYPE testbed_kind ADD VALUE IF NOT EXISTS 'rehearsal'")
    op.create_table(
        "rehearsals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("hosts", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("tag", sa.String(length=8), nullable=False),
        sa.Column("network", sa.String(length=32), nullable=True),
        sa.Column(
            "made",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
        sa.Column("error", sa.String(length=4000), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("testbed_id", sa.Integer(), nullable=True),
        sa.Column("worker", sa.String(length=255), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["testbed_id"],
            ["testbeds.id"],
            name=op.f("fk_rehearsals_testbed_id_testbeds"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rehearsals")),
    )


def downgrade() -> None:
    op.drop_table("rehearsals")
    # PostgreSQL cannot drop one value of an enum: the type is rebuilt without it, and a
    # rehearsal testbed (its runs kept) becomes a remote one.
    op.execute("ALTER TYPE testbed_kind RENAME TO testbed_kind_old")
    op.execute("CREATE TYPE testbed_kind AS ENUM ('local', 'remote', 'azure')")
    op.execute(
        "ALTER TABLE testbeds ALTER COLUMN kind TYPE testbed_kind USING "
        "(CASE WHEN kind::text = 'rehearsal' THEN 'remote' ELSE kind::text END)::testbed_kind"
    )
    op.execute("DROP TYPE testbed_kind_old")
