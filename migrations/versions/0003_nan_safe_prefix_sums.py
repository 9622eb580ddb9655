"""NaN-safe prefix sums from the metric table; processing time per second; summary weights.

A second without completions stores NaN as its response time; the old prefix sums multiplied
it in, so one such second made every later window NaN. The new functions count a NaN as 0 in
sums and leave it out of time means (with its own weight prefix sum), as
backend/results/aggregate.py does. Column names follow backend/domain/metrics.py:
<column>_cumsum for summed metrics, <column>_wcumsum and <column>_weight_cumsum for
weighted ones.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 09:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FLOATS = postgresql.ARRAY(sa.Float(precision=53), dimensions=1)

# STRICT: a series the source does not report (NULL) has NULL prefix sums, not zeros.
# Element 1 is 0, so sum(a[lo:hi]) = c[hi + 1] - c[lo + 1] (1-based arrays).
FUNCTIONS = """
CREATE FUNCTION mcscope_cumsum(a float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array_prepend(0::float8, coalesce(array_agg(s ORDER BY i), '{}'::float8[]))
  FROM (SELECT i, sum(CASE WHEN x IS NULL OR x = 'NaN' THEN 0 ELSE x END)
                  OVER (ORDER BY i) AS s
        FROM unnest(a) WITH ORDINALITY AS t(x, i)) q
$$;
CREATE FUNCTION mcscope_weighted_cumsum(w float8[], v float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array_prepend(0::float8, coalesce(array_agg(s ORDER BY i), '{}'::float8[]))
  FROM (SELECT i, sum(CASE WHEN x IS NULL OR y IS NULL OR x = 'NaN' OR y = 'NaN' THEN 0
                           ELSE x * y END) OVER (ORDER BY i) AS s
        FROM unnest(w, v) WITH ORDINALITY AS t(x, y, i) WHERE x IS NOT NULL) q
$$;
CREATE FUNCTION mcscope_weight_cumsum(w float8[], v float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array_prepend(0::float8, coalesce(array_agg(s ORDER BY i), '{}'::float8[]))
  FROM (SELECT i, sum(CASE WHEN x IS NULL OR y IS NULL OR x = 'NaN' OR y = 'NaN' THEN 0
                           ELSE x END) OVER (ORDER BY i) AS s
        FROM unnest(w, v) WITH ORDINALITY AS t(x, y, i) WHERE x IS NOT NULL) q
$$;
"""

# 0001's functions, restored by downgrade.
OLD_FUNCTIONS = """
CREATE FUNCTION mcscope_cumsum(a float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_prepend(0::float8, coalesce(array_agg(s ORDER BY i), '{}'::float8[]))
  FROM (SELECT i, sum(x) OVER (ORDER BY i) AS s FROM unnest(a) WITH ORDINALITY AS t(x, i)) q
$$;
CREATE FUNCTION mcscope_weighted_cumsum(w float8[], v float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_prepend(0::float8, coalesce(array_agg(s ORDER BY i), '{}'::float8[]))
  FROM (SELECT i, sum(x * y) OVER (ORDER BY i) AS s
        FROM unnest(w, v) WITH ORDINALITY AS t(x, y, i)) q
$$;
"""

NEW_COLUMNS = (
    ("throughput_cumsum", "mcscope_cumsum(throughput)"),
    ("keys_per_s_cumsum", "mcscope_cumsum(keys_per_s)"),
    ("response_time_us_wcumsum", "mcscope_weighted_cumsum(throughput, response_time_us)"),
    ("response_time_us_weight_cumsum", "mcscope_weight_cumsum(throughput, response_time_us)"),
)


def upgrade() -> None:
    op.drop_column("run_series", "weighted_latency_cumsum")
    op.drop_column("run_series", "throughput_cumsum")
    op.execute("DROP FUNCTION mcscope_weighted_cumsum(float8[], float8[])")
    op.execute("DROP FUNCTION mcscope_cumsum(float8[])")
    op.execute(FUNCTIONS)
    op.add_column("run_series", sa.Column("processing_time_us", FLOATS, nullable=True))
    op.execute("ALTER TABLE run_series ALTER COLUMN processing_time_us SET STORAGE EXTERNAL")
    for name, expr in NEW_COLUMNS:
        op.add_column(
            "run_series", sa.Column(name, FLOATS, sa.Computed(expr, persisted=True), nullable=True)
        )
        op.execute(f"ALTER TABLE run_series ALTER COLUMN {name} SET STORAGE MAIN")
    op.add_column("run_summaries", sa.Column("weight", sa.Float(precision=53), nullable=True))


def downgrade() -> None:
    op.drop_column("run_summaries", "weight")
    for name, _ in NEW_COLUMNS:
        op.drop_column("run_series", name)
    op.drop_column("run_series", "processing_time_us")
    op.execute("DROP FUNCTION mcscope_weight_cumsum(float8[], float8[])")
    op.execute("DROP FUNCTION mcscope_weighted_cumsum(float8[], float8[])")
    op.execute("DROP FUNCTION mcscope_cumsum(float8[])")
    op.execute(OLD_FUNCTIONS)
    op.add_column(
        "run_series",
        sa.Column(
            "throughput_cumsum",
            FLOATS,
            sa.Computed("mcscope_cumsum(throughput)", persisted=True),
            nullable=False,
        ),
    )
    op.add_column(
        "run_series",
        sa.Column(
            "weighted_latency_cumsum",
            FLOATS,
            sa.Computed("mcscope_weighted_cumsum(throughput, response_time_us)", persisted=True),
            nullable=False,
        ),
    )
