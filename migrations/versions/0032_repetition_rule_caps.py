"""Repetition rules stored with a cap below their minimum get the minimum as their cap.

Before d21cb2f the default cap (10) was not checked against the minimum, so a rule with
`min_repetitions` above 10 and no `max_repetitions` was stored with a cap of 10 (or none), and
every read of its experiment then failed on its own rule. The cap becomes the minimum: no
configuration gets more repetitions than the design's own first round, so no run is added that
the user did not ask for. Data only; the downgrade leaves the repaired rules as they are.

Revision ID: 0032
Revises: 0031
Create Date: 2026-11-30 16:20:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DEFAULT_CAP = 10  # RepetitionRuleSpec.max_repetitions' default when the rule was stored


def upgrade() -> None:
    op.execute(
        f"""
        UPDATE experiments
        SET repetition_rule = jsonb_set(
            repetition_rule, '{{max_repetitions}}', repetition_rule -> 'min_repetitions'
        )
        WHERE jsonb_typeof(repetition_rule -> 'min_repetitions') = 'number'
          AND (repetition_rule ->> 'min_repetitions')::numeric > CASE
              WHEN jsonb_typeof(repetition_rule -> 'max_repetitions') = 'number'
              THEN (repetition_rule ->> 'max_repetitions')::numeric
              ELSE {DEFAULT_CAP}
          END
        """
    )


def downgrade() -> None:
    pass  # a repaired rule is valid under every revision
