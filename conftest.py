"""Fixtures shared by every Python suite: a real PostgreSQL database per pytest process,
migrated with Alembic; the API client; a real Celery worker process on a private queue."""

import atexit
import os
import shutil
import tempfile
import uuid
from collections.abc import Generator, Iterator

import pytest

# Plain standard library: imports no settings.
from backend.tests.utils.ports import free_port

# Settings are read at import time, so point them at this process's own database and queue
# before anything imports backend.core.config.
_SUFFIX = f"{os.getpid()}_{uuid.uuid4().hex[:6]}"
_ADMIN_URL = os.environ.get(
    "MCSCOPE_TEST_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
TEST_DB = f"mcscope_test_{_SUFFIX}"
os.environ["MCSCOPE_DATABASE_URL"] = (
    _ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + f"/{TEST_DB}"
)
os.environ["MCSCOPE_RUNS_QUEUE"] = f"runs-test-{_SUFFIX}"
# The API tests run without authentication (test_auth turns it on for itself) and talk to
# TestClient's "testserver" host, which the trusted-host allowlist must then accept.
os.environ.pop("MCSCOPE_ADMIN_TOKEN", None)
os.environ["MCSCOPE_ALLOWED_HOSTS"] = '["127.0.0.1", "localhost", "testserver"]'
# No browser per test module: figure tests start the renderer when they first render.
os.environ["MCSCOPE_FIGURE_WARM_START"] = "false"


# The local testbed's sshd for this test session: its own port and keys, so tests neither
# depend on nor collide with a `make up` sshd (or another checkout's) on the default port.
os.environ["MCSCOPE_LOCAL_SSH_PORT"] = str(free_port())


def _session_dir(prefix: str) -> str:
    """A directory of this pytest process, removed when it exits (every run of the suite left
    three behind, with the runs' raw files, until /tmp held 64 of them); kept with
    MCSCOPE_KEEP_TEST_LOGS=1 for a look at a failed run's files."""
    path = tempfile.mkdtemp(prefix=prefix)
    if not os.environ.get("MCSCOPE_KEEP_TEST_LOGS"):
        atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


os.environ["MCSCOPE_LOCAL_SSH_DIR"] = _session_dir("mcscope-sshd-")
# Raw run files of this session's runs: run ids restart in every test database, and deleting a
# test experiment removes var/runs/<run>, which must never be a dev instance's run.
os.environ["MCSCOPE_VAR_DIR"] = _session_dir("mcscope-var-")
# Host keys pinned by this session's workers (test sshds get fresh keys every session).
os.environ["MCSCOPE_SSH_KNOWN_HOSTS"] = os.path.join(
    _session_dir("mcscope-known-hosts-"), "known_hosts"
)

from backend.tests.utils.broker import purge_queues, purge_session_keys  # noqa: E402
from backend.tests.utils.database import (  # noqa: E402
    create_database,
    drop_database,
    empty_tables,
)
from backend.tests.utils.processes import CeleryWorkerProcess  # noqa: E402

# Every test phase's wall time, appended to $MCSCOPE_TEST_DURATIONS when set (`make test`'s
# budget and slowest tests); each failed test, a line in $MCSCOPE_TEST_FAILURES (its summary);
# which modules put load on the machine (marked `load`), and the load lane's order.
pytest_plugins = (
    "backend.tests.utils.durations",
    "backend.tests.utils.failures",
    "backend.tests.utils.load_lane",
)


@pytest.fixture(scope="session")
def database() -> Iterator[str]:
    create_database(_ADMIN_URL, TEST_DB)
    try:
        yield os.environ["MCSCOPE_DATABASE_URL"]
    finally:
        from backend.core.db import engine

        engine.dispose()
        drop_database(_ADMIN_URL, TEST_DB)


@pytest.fixture(scope="session", autouse=True)
def broker_state() -> Iterator[None]:
    """Leave the shared Redis as this session found it: its queues, their bindings, its live
    lists and the messages its killed workers left unacked."""
    yield
    from backend.core.config import settings

    purge_session_keys(settings.REDIS_URL, _SUFFIX)


@pytest.fixture(scope="module", autouse=True)
def each_module_starts_empty(database: str) -> None:
    """Each module starts with an empty database and an empty run queue: no test relies on what
    another module left (prices, tokens, testbeds and their unique names), whatever the order
    (pytest-randomly shuffles the modules), and no run an earlier module started (an API test's
    Start without a worker, a sweep or repetition rule adding runs) is run by this module's
    worker, or re-sent by its recovery, holding its testbed for minutes."""
    from backend.core.config import settings

    purge_queues(settings.REDIS_URL, os.environ["MCSCOPE_RUNS_QUEUE"])
    empty_tables(os.environ["MCSCOPE_DATABASE_URL"])


@pytest.fixture()
def db(database: str) -> Generator["Session", None, None]:  # type: ignore[name-defined] # noqa: F821
    from backend.core.db import SessionLocal

    with SessionLocal() as session:
        yield session


@pytest.fixture(scope="module")
def client(database: str) -> Iterator["TestClient"]:  # type: ignore[name-defined] # noqa: F821
    from fastapi.testclient import TestClient

    from backend.main import app

    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="module")
def celery_worker(
    database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[CeleryWorkerProcess]:
    worker = CeleryWorkerProcess(log_dir=tmp_path_factory.mktemp("celery"))
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()
