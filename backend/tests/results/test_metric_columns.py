"""The ORM's metric columns are built from the metric table and equal the migrated database."""

from typing import Any

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from backend.domain.metrics import METRICS
from backend.domain.stored_columns import all_stored_columns, stored_columns
from backend.models import Base, RunSeries, RunSummary

TABLES = ("run_series", "run_summaries")


def _database_columns(database: str) -> dict[str, dict[str, dict[str, Any]]]:
    engine = sa.create_engine(database)
    try:
        inspector = sa.inspect(engine)
        return {t: {c["name"]: dict(c) for c in inspector.get_columns(t)} for t in TABLES}
    finally:
        engine.dispose()


def test_every_metric_has_its_orm_columns() -> None:
    for model, table in ((RunSeries, "run_series"), (RunSummary, "run_summaries")):
        mapped = set(model.__table__.columns.keys())
        wanted = {c.name for c in all_stored_columns(table)}  # type: ignore[arg-type]
        assert wanted <= mapped, wanted - mapped
    for m in METRICS.values():
        assert any(c.table == "run_summaries" and c.name == m.column for c in stored_columns(m))


def test_orm_metric_columns_equal_the_database_after_upgrade_head(database: str) -> None:
    """`database` is the session's database, migrated by `alembic upgrade head`."""
    db = _database_columns(database)
    for table in TABLES:
        orm = Base.metadata.tables[table].columns
        assert set(db[table]) == set(orm.keys()), (
            table,
            set(db[table]) ^ set(orm.keys()),
        )
        for c in all_stored_columns(table):  # type: ignore[arg-type]
            got = db[table][c.name]
            assert got["nullable"] == c.nullable == orm[c.name].nullable, (table, c.name)
            assert isinstance(got["type"], sa.ARRAY) == c.array, (table, c.name)
            computed = got.get("computed")
            if c.computed is None:
                assert computed is None, (table, c.name)
            else:
                assert computed is not None and computed["persisted"], (table, c.name)
                # PostgreSQL prints the expression back with its own casts and spacing.
                sqltext = " ".join(str(computed["sqltext"]).split())
                assert sqltext.startswith(c.computed.split("(")[0] + "("), (c.name, sqltext)
                for arg in c.computed.split("(", 1)[1].rstrip(")").split(", "):
                    assert arg in sqltext, (c.name, sqltext)


def test_alembic_finds_no_difference_in_the_metric_tables(database: str) -> None:
    engine = sa.create_engine(database)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()

    def table_of(d: Any) -> str | None:
        op = d[0] if isinstance(d, list) else d
        for item in op[1:] if isinstance(op, tuple) else ():
            if isinstance(item, sa.Table):
                return item.name
            if isinstance(item, sa.Column) and item.table is not None:
                return item.table.name
            if isinstance(item, str) and item in TABLES:
                return item
        return None

    assert [d for d in diff if table_of(d) in TABLES] == []
