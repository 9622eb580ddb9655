"""Creating, emptying and dropping the throw-away test database, migrated by Alembic."""

import hashlib

import psycopg
from alembic import command
from alembic.config import Config
from psycopg import sql

from backend.core.config import REPO_ROOT

MIGRATIONS = REPO_ROOT / "migrations"


def create_database(admin_url: str, name: str) -> None:
    """A fresh database `name`, a copy of the migrated template (a file copy: milliseconds,
    where running the migrations takes seconds in every pytest process)."""
    template = migrated_template(admin_url)
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


def migrated_template(admin_url: str) -> str:
    """The database the real Alembic migrations made (not create_all: the tests then also prove
    the migration), named after the migrations' content: made once by the first process that
    needs it (the others wait on an advisory lock), again whenever a migration changes, and
    shared by every checkout with the same migrations."""
    digest = hashlib.sha256()
    for path in sorted(MIGRATIONS.rglob("*.py")):
        digest.update(path.relative_to(MIGRATIONS).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    name = f"mcscope_template_{digest.hexdigest()[:16]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (name,))
        try:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                return name
            # Migrated under another name and renamed when done: a run killed mid-way never
            # leaves a half-migrated template behind.
            building = f"{name}_building"
            conn.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{building}"')
            cfg = Config(str(REPO_ROOT / "alembic.ini"))
            url = admin_url.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
            cfg.set_main_option("sqlalchemy.url", f"{url}/{building}")
            command.upgrade(cfg, "head")
            conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
            return name
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (name,))


def drop_database(admin_url: str, name: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def empty_tables(url: str) -> None:
    """Every row of every table of the database at `url` (SQLAlchemy's form or libpq's) gone;
    the schema and Alembic's version stay. Only the tables that hold rows are truncated
    (truncating all of them takes half a second; most modules leave rows in a few). Ids go on
    from where they were: a run's raw files (var/runs/<id>) and live keys stay its own. A lock
    held by a connection left in a transaction fails this within 10 s, not hanging the suite."""
    with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as conn:
        tables = [
            str(row[0])
            for row in conn.execute(
                "SELECT tablename FROM pg_tables"
                " WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
            )
        ]
        if not tables:
            return
        holding = sql.SQL(" UNION ALL ").join(
            sql.SQL("SELECT {} WHERE EXISTS (SELECT FROM {})").format(
                sql.Literal(t), sql.Identifier(t)
            )
            for t in tables
        )
        full = [sql.Identifier(str(row[0])) for row in conn.execute(holding)]
        if full:
            conn.execute("SET lock_timeout = '10s'")
            conn.execute(sql.SQL("TRUNCATE {} CASCADE").format(sql.SQL(", ").join(full)))
