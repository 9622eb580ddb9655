"""Imported runs: the experiment's kind and provenance, and the files imported runs came
from by content hash (worker/imports).

Revision ID: 0031
Revises: 0030
Create Date: 2026-11-29 01:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "experiments",
        sa.Column("kind", sa.String(20), nullable=False, server_default="designed"),
    )
    op.create_check_constraint(
        op.f("ck_experiments_kind"), "experiments", "kind IN ('designed', 'imported')"
    )
    op.add_column(
        "experiments",
        sa.Column("provenance", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    )
    op.create_table(
        "imported_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("path", sa.String(1024), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column(
            "updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_imported_files")),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
            name=op.f("fk_imported_files_run_id_runs"),
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_imported_files_run_id", "imported_files", ["run_id"])
    op.create_index("ix_imported_files_sha256", "imported_files", ["sha256"])
    op.create_index(
        "uq_imported_files_client_sha256",
        "imported_files",
        ["sha256"],
        unique=True,
        postgresql_where=sa.text("role = 'client'"),
    )


def downgrade() -> None:
    op.drop_table("imported_files")
    op.drop_column("experiments", "provenance")
    op.drop_constraint(op.f("ck_experiments_kind"), "experiments")
    op.drop_column("experiments", "kind")
