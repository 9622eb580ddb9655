"""Creating and dropping the throw-away test database, migrated by Alembic."""

import psycopg
from alembic import command
from alembic.config import Config

from backend.core.config import REPO_ROOT


def create_database(admin_url: str, name: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    # The real migration, not create_all: the tests then also prove the migration.
    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    command.upgrade(cfg, "head")


def drop_database(admin_url: str, name: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def empty_tables(url: str) -> None:
    """Every row of every table gone (the schema and Alembic's version stay). Ids go on from
    where they were: a run's raw files (var/runs/<id>) and live keys stay its own. A lock held
    by a connection left in a transaction fails this at once instead of hanging the suite."""
    with psycopg.connect(url, autocommit=True) as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT quote_ident(tablename) FROM pg_tables"
                " WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
            )
        ]
        if tables:
            conn.execute("SET lock_timeout = '10s'")
            conn.execute(f"TRUNCATE {', '.join(tables)} CASCADE")
