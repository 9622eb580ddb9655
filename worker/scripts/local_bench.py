"""The local-testbed benchmarks' set-up (bench_runs, bench_slo): this process's own database,
queue, sshd and archive, set in the environment before the settings are read, and the
database and sshd started for the benchmark and removed after it."""

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from backend.tests.utils.ports import free_port  # plain standard library: reads no settings

ADMIN_URL = os.environ.get("MCSCOPE_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def isolate(name: str) -> str:
    """Point the settings at a throw-away database, queue, sshd and archive of this process;
    the database's name. Call before anything imports backend.core.config."""
    db = f"mcscope_bench_{name}_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    os.environ["MCSCOPE_DATABASE_URL"] = (
        ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + f"/{db}"
    )
    os.environ["MCSCOPE_RUNS_QUEUE"] = f"bench-{db}"
    os.environ["MCSCOPE_LOCAL_SSH_PORT"] = str(free_port())
    os.environ["MCSCOPE_LOCAL_SSH_DIR"] = tempfile.mkdtemp(prefix="mcscope-bench-sshd-")
    os.environ["MCSCOPE_VAR_DIR"] = tempfile.mkdtemp(prefix="mcscope-bench-var-")
    return db


def in_process_api() -> None:
    """Let the benchmark call the API in this process (TestClient) as the tests do: no
    authentication, TestClient's host name allowed. Call before the settings are read."""
    os.environ.pop("MCSCOPE_ADMIN_TOKEN", None)
    os.environ["MCSCOPE_ALLOWED_HOSTS"] = '["testserver"]'


def _sshd(action: str) -> None:
    from backend.core.config import REPO_ROOT, settings

    env = {
        **os.environ,
        "SSHD_PORT": str(settings.LOCAL_SSH_PORT),
        "SSHD_DIR": str(settings.LOCAL_SSH_DIR),
    }
    script = REPO_ROOT / "infra" / "local" / "sshd.sh"
    subprocess.run(["bash", str(script), action], check=True, env=env, capture_output=True)


@contextmanager
def local_testbed(db: str) -> Iterator[None]:
    """The database `db` and the private sshd for the benchmark; both gone afterwards, with
    the sshd's and the archive's directories."""
    from backend.core.config import settings
    from backend.tests.utils.database import create_database, drop_database

    create_database(ADMIN_URL, db)
    _sshd("start")
    try:
        yield
    finally:
        _sshd("stop")
        from backend.core.db import engine

        engine.dispose()
        drop_database(ADMIN_URL, db)
        shutil.rmtree(settings.LOCAL_SSH_DIR, ignore_errors=True)
        shutil.rmtree(settings.VAR_DIR, ignore_errors=True)


def run_once(run_id: int) -> float:
    """Execute one run in this process, again while the testbed is busy; its wall time."""
    from worker.tasks.runs import _execute_run

    t0 = time.monotonic()
    while _execute_run(run_id) is not None:  # testbed busy / transient: try again
        time.sleep(1)
    return time.monotonic() - t0
