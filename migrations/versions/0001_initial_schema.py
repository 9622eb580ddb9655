"""Initial schema: testbeds, experiments, configurations, runs and result storage.

Revision ID: 0001
Revises:
Create Date: 2026-11-22 02:04:57.976272
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# Prefix sums behind run_series' generated columns. IMMUTABLE so PostgreSQL accepts them in
# GENERATED ... STORED; element 1 is 0, so sum(a[lo:hi]) = c[hi + 1] - c[lo].
CUMSUM_SQL = """
CREATE FUNCTION mcscope_cumsum(a float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_prepend(0::float8, coalesce(array_agg(s ORDER BY i), '{}'::float8[]))
  FROM (SELECT i, sum(x) OVER (ORDER BY i) AS s FROM unnest(a) WITH ORDINALITY AS t(x, i)) q
$$
"""
WEIGHTED_CUMSUM_SQL = """
CREATE FUNCTION mcscope_weighted_cumsum(w float8[], v float8[]) RETURNS float8[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_prepend(0::float8, coalesce(array_agg(s ORDER BY i), '{}'::float8[]))
  FROM (SELECT i, sum(x * y) OVER (ORDER BY i) AS s
        FROM unnest(w, v) WITH ORDINALITY AS t(x, y, i)) q
$$
"""


def upgrade() -> None:
    op.execute(CUMSUM_SQL)
    op.execute(WEIGHTED_CUMSUM_SQL)
    op.create_table(
        "testbeds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.Enum("local", "remote", "azure", name="testbed_kind"), nullable=False),
        sa.Column("description", sa.String(length=2000), nullable=False),
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
        sa.PrimaryKeyConstraint("id", name=op.f("pk_testbeds")),
        sa.UniqueConstraint("name", name=op.f("uq_testbeds_name")),
    )
    op.create_table(
        "experiments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("description", sa.String(length=10000), nullable=False),
        sa.Column(
            "template",
            sa.Enum(
                "custom",
                "baseline_no_middleware",
                "baseline_middleware",
                "write_throughput",
                "gets_multigets",
                "max_throughput",
                "replication",
                "writes_effect",
                "stability",
                "factorial",
                name="experiment_template",
            ),
            nullable=False,
        ),
        sa.Column("factors", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("fixed", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("repetitions", sa.Integer(), nullable=False),
        sa.Column("run_time_s", sa.Integer(), nullable=False),
        sa.Column("warmup_s", sa.Integer(), nullable=False),
        sa.Column("cooldown_s", sa.Integer(), nullable=False),
        sa.Column("testbed_id", sa.Integer(), nullable=True),
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
            name=op.f("fk_experiments_testbed_id_testbeds"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_experiments")),
        sa.UniqueConstraint("name", name=op.f("uq_experiments_name")),
    )
    op.create_index(op.f("ix_experiments_template"), "experiments", ["template"], unique=False)
    op.create_index(op.f("ix_experiments_testbed_id"), "experiments", ["testbed_id"], unique=False)
    op.create_table(
        "hosts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("testbed_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column(
            "role", sa.Enum("client", "middleware", "server", name="host_role"), nullable=False
        ),
        sa.Column("address", sa.String(length=255), nullable=False),
        sa.Column("ssh_user", sa.String(length=64), nullable=False),
        sa.Column("ssh_port", sa.Integer(), nullable=False),
        sa.Column("key_path", sa.String(length=1024), nullable=False),
        sa.ForeignKeyConstraint(
            ["testbed_id"],
            ["testbeds.id"],
            name=op.f("fk_hosts_testbed_id_testbeds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hosts")),
        sa.UniqueConstraint("testbed_id", "name", name=op.f("uq_hosts_testbed_id_name")),
    )
    op.create_index(op.f("ix_hosts_testbed_id"), "hosts", ["testbed_id"], unique=False)
    op.create_table(
        "configurations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("experiment_id", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("values", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.ForeignKeyConstraint(
            ["experiment_id"],
            ["experiments.id"],
            name=op.f("fk_configurations_experiment_id_experiments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_configurations")),
        sa.UniqueConstraint(
            "experiment_id", "index", name=op.f("uq_configurations_experiment_id_index")
        ),
        sa.UniqueConstraint(
            "experiment_id", "values", name=op.f("uq_configurations_experiment_id_values")
        ),
    )
    op.create_index(
        op.f("ix_configurations_experiment_id"), "configurations", ["experiment_id"], unique=False
    )
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("experiment_id", sa.Integer(), nullable=False),
        sa.Column("configuration_id", sa.Integer(), nullable=False),
        sa.Column("repetition", sa.Integer(), nullable=False),
        sa.Column(
            "status",
            sa.Enum("queued", "running", "succeeded", "failed", "cancelled", name="run_status"),
            nullable=False,
        ),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("cancel_requested", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("worker", sa.String(length=255), nullable=True),
        sa.Column("hosts", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("tool_versions", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("commands", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("artifact_dir", sa.String(length=1024), nullable=True),
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
            ["configuration_id"],
            ["configurations.id"],
            name=op.f("fk_runs_configuration_id_configurations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["experiment_id"],
            ["experiments.id"],
            name=op.f("fk_runs_experiment_id_experiments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_runs")),
        sa.UniqueConstraint(
            "configuration_id", "repetition", name=op.f("uq_runs_configuration_id_repetition")
        ),
    )
    op.create_index(op.f("ix_runs_configuration_id"), "runs", ["configuration_id"], unique=False)
    op.create_index(
        "ix_runs_experiment_id_status", "runs", ["experiment_id", "status"], unique=False
    )
    op.create_table(
        "run_histograms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column(
            "request_type",
            sa.Enum("all", "get", "multiget", "set", "other", name="request_type"),
            nullable=False,
        ),
        sa.Column(
            "metric",
            sa.Enum("client", "total", "queue", "server", name="histogram_metric"),
            nullable=False,
        ),
        sa.Column(
            "upper_bounds_us",
            postgresql.ARRAY(sa.Float(precision=53), dimensions=1),
            nullable=False,
        ),
        sa.Column("counts", postgresql.ARRAY(sa.BigInteger(), dimensions=1), nullable=False),
        sa.Column("overflow", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_run_histograms_run_id_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_histograms")),
        sa.UniqueConstraint(
            "run_id",
            "source",
            "request_type",
            "metric",
            name=op.f("uq_run_histograms_run_id_source_request_type_metric"),
        ),
    )
    op.create_index(op.f("ix_run_histograms_run_id"), "run_histograms", ["run_id"], unique=False)
    op.create_table(
        "run_series",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column(
            "request_type",
            sa.Enum("all", "get", "multiget", "set", "other", name="request_type"),
            nullable=False,
        ),
        sa.Column("start_unix", sa.Float(precision=53), nullable=False),
        sa.Column(
            "throughput", postgresql.ARRAY(sa.Float(precision=53), dimensions=1), nullable=False
        ),
        sa.Column(
            "response_time_us",
            postgresql.ARRAY(sa.Float(precision=53), dimensions=1),
            nullable=False,
        ),
        sa.Column(
            "keys_per_s", postgresql.ARRAY(sa.Float(precision=53), dimensions=1), nullable=True
        ),
        sa.Column(
            "misses_per_s", postgresql.ARRAY(sa.Float(precision=53), dimensions=1), nullable=True
        ),
        sa.Column(
            "queue_time_us", postgresql.ARRAY(sa.Float(precision=53), dimensions=1), nullable=True
        ),
        sa.Column(
            "server_time_us", postgresql.ARRAY(sa.Float(precision=53), dimensions=1), nullable=True
        ),
        sa.Column(
            "queue_length", postgresql.ARRAY(sa.Float(precision=53), dimensions=1), nullable=True
        ),
        sa.Column(
            "throughput_cumsum",
            postgresql.ARRAY(sa.Float(precision=53), dimensions=1),
            sa.Computed("mcscope_cumsum(throughput)", persisted=True),
            nullable=False,
        ),
        sa.Column(
            "weighted_latency_cumsum",
            postgresql.ARRAY(sa.Float(precision=53), dimensions=1),
            sa.Computed("mcscope_weighted_cumsum(throughput, response_time_us)", persisted=True),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_run_series_run_id_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_series")),
        sa.UniqueConstraint(
            "run_id",
            "source",
            "request_type",
            name=op.f("uq_run_series_run_id_source_request_type"),
        ),
    )
    op.create_index(op.f("ix_run_series_run_id"), "run_series", ["run_id"], unique=False)
    # Keep the prefix sums in the row (MAIN) so re-windowing reads no TOAST; the raw per-second
    # arrays go out of line uncompressed (EXTERNAL): measured noise does not compress.
    for column in ("throughput_cumsum", "weighted_latency_cumsum"):
        op.execute(f"ALTER TABLE run_series ALTER COLUMN {column} SET STORAGE MAIN")
    for column in (
        "throughput",
        "response_time_us",
        "keys_per_s",
        "misses_per_s",
        "queue_time_us",
        "server_time_us",
        "queue_length",
    ):
        op.execute(f"ALTER TABLE run_series ALTER COLUMN {column} SET STORAGE EXTERNAL")
    op.create_table(
        "run_summaries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column(
            "request_type",
            sa.Enum("all", "get", "multiget", "set", "other", name="request_type"),
            nullable=False,
        ),
        sa.Column("window_start_s", sa.Integer(), nullable=False),
        sa.Column("window_end_s", sa.Integer(), nullable=False),
        sa.Column("count", sa.BigInteger(), nullable=False),
        sa.Column("throughput", sa.Float(precision=53), nullable=False),
        sa.Column("keys_per_s", sa.Float(precision=53), nullable=True),
        sa.Column("misses_per_s", sa.Float(precision=53), nullable=True),
        sa.Column("response_time_us", sa.Float(precision=53), nullable=False),
        sa.Column("response_time_std_us", sa.Float(precision=53), nullable=True),
        sa.Column("p50_us", sa.Float(precision=53), nullable=True),
        sa.Column("p90_us", sa.Float(precision=53), nullable=True),
        sa.Column("p99_us", sa.Float(precision=53), nullable=True),
        sa.Column("queue_time_us", sa.Float(precision=53), nullable=True),
        sa.Column("server_time_us", sa.Float(precision=53), nullable=True),
        sa.Column("processing_time_us", sa.Float(precision=53), nullable=True),
        sa.Column("queue_length", sa.Float(precision=53), nullable=True),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_run_summaries_run_id_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_summaries")),
        sa.UniqueConstraint(
            "run_id",
            "source",
            "request_type",
            name=op.f("uq_run_summaries_run_id_source_request_type"),
        ),
    )
    op.create_index(op.f("ix_run_summaries_run_id"), "run_summaries", ["run_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_run_summaries_run_id"), table_name="run_summaries")
    op.drop_table("run_summaries")
    op.drop_index(op.f("ix_run_series_run_id"), table_name="run_series")
    op.drop_table("run_series")
    op.drop_index(op.f("ix_run_histograms_run_id"), table_name="run_histograms")
    op.drop_table("run_histograms")
    op.drop_index("ix_runs_experiment_id_status", table_name="runs")
    op.drop_index(op.f("ix_runs_configuration_id"), table_name="runs")
    op.drop_table("runs")
    op.drop_index(op.f("ix_configurations_experiment_id"), table_name="configurations")
    op.drop_table("configurations")
    op.drop_index(op.f("ix_hosts_testbed_id"), table_name="hosts")
    op.drop_table("hosts")
    op.drop_index(op.f("ix_experiments_testbed_id"), table_name="experiments")
    op.drop_index(op.f("ix_experiments_template"), table_name="experiments")
    op.drop_table("experiments")
    op.drop_table("testbeds")
    for enum_name in (
        "experiment_template",
        "run_status",
        "host_role",
        "testbed_kind",
        "request_type",
        "histogram_metric",
    ):
        sa.Enum(name=enum_name).drop(op.get_bind(), checkfirst=True)
    op.execute("DROP FUNCTION mcscope_weighted_cumsum(float8[], float8[])")
    op.execute("DROP FUNCTION mcscope_cumsum(float8[])")
