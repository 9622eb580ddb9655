"""Factor order: experiments.factor_order keeps the order the user gave the factors in
(PostgreSQL sorts the keys of the JSONB `factors`, which flipped the default x axis).

Existing rows get the order their grid was expanded in: configurations are numbered in
row-major order of the factors as given, so the factor that changes least often between
consecutive configurations came first.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-26 12:10:00
"""

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def expansion_order(factors: list[str], points: list[dict[str, Any]]) -> list[str]:
    """Factors from the one changing least often along the configurations to the most."""
    changes = {
        f: sum(a.get(f) != b.get(f) for a, b in zip(points, points[1:], strict=False))
        for f in factors
    }
    return sorted(factors, key=lambda f: changes[f])  # stable: ties keep the stored order


def upgrade() -> None:
    op.add_column(
        "experiments",
        sa.Column(
            "factor_order",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
    )
    bind = op.get_bind()
    experiments = bind.execute(sa.text("SELECT id, factors FROM experiments")).all()
    for exp_id, factors in experiments:
        if not factors:
            continue
        points = bind.execute(
            sa.text('SELECT "values" FROM configurations WHERE experiment_id = :id ORDER BY index'),
            {"id": exp_id},
        ).scalars()
        order = expansion_order(list(factors), list(points))
        bind.execute(
            sa.text("UPDATE experiments SET factor_order = CAST(:o AS jsonb) WHERE id = :id"),
            {"o": json.dumps(order), "id": exp_id},
        )


def downgrade() -> None:
    op.drop_column("experiments", "factor_order")
