"""A run's outputs: fetched from every host into the archive, the hosts' work directories
removed once archived, and the fetched files parsed into result rows."""

import logging
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path

from backend.domain.window import window_of
from worker.drivers.errors import ArchiveError, DriverError
from worker.drivers.host import LOCAL_DISK_FULL, Host, HostSpec
from worker.drivers.loadgen import LoadGenerator
from worker.drivers.pool import on_each
from worker.parsers import ClientResult, ParseError, parse_middleware_dir
from worker.runs.context import RunContext
from worker.runs.monitoring import monitor_rows
from worker.runs.plan import ClientPlan, RunPlan
from worker.runs.summarize import ResultRows, StableWindow, client_rows, middleware_rows

logger = logging.getLogger(__name__)


def fetch_all(ctx: RunContext) -> None:
    """Copy the run's whole work directory from every host into the archive. Disk full
    here fails the run (ArchiveError) and leaves the raw files on the hosts."""

    def fetch(item: tuple[HostSpec, Host]) -> None:
        spec, host = item
        try:
            host.fetch_tree(ctx.workdir, ctx.archive / spec.name)
        except OSError as exc:
            if exc.errno not in LOCAL_DISK_FULL:
                raise
            ctx.keep_on_hosts = True
            raise ArchiveError(
                f"disk full while archiving to {ctx.archive}: {exc.strerror}; "
                f"raw files kept on {host.label} in {ctx.workdir}"
            ) from exc

    on_each(list(ctx.hosts.items()), fetch)
    ctx.fetched = True


def remove_workdirs(ctx: RunContext) -> None:
    """Archive if not done yet, and remove the hosts' work directory only once its files are
    archived: a failed fetch (disk full) keeps them on the host. Errors are logged."""
    if ctx.keep_on_hosts or ctx.hosts_retired():
        return
    for spec, host in ctx.hosts.items():
        try:
            if not ctx.fetched:
                host.fetch_tree(ctx.workdir, ctx.archive / spec.name)
            host.run(f"rm -rf {shlex.quote(ctx.workdir)}")
        except (DriverError, OSError) as exc:
            logger.warning("run.cleanup_failed", extra={"run_id": ctx.run_id, "error": str(exc)})


def parse_outputs(
    ctx: RunContext, plan: RunPlan, loadgen: type[LoadGenerator]
) -> tuple[ResultRows, StableWindow]:
    """Result rows of every client and middleware from the archived files, and the stable
    window they were cut with; a file that does not parse fails the run naming it (its raw
    files stay in the archive)."""
    exp = ctx.experiment
    multiget = int(ctx.params["multiget_size"]) > 1
    starts: dict[str, float] = {}
    for st in ctx.started:  # a source's first launch, as before
        starts.setdefault(st.source, st.proc.start_unix)
    results: dict[str, ClientResult] = {}
    for c in plan.clients:  # where each client's series begin, as its tool tells
        source, client = f"client:{c.index}", loadgen(ctx.host(c.host))
        results[source] = parse_client(ctx.archive, c, client)
        starts[source] = client.load_start_unix(
            ctx.archive / c.host.name, c.name, results[source], starts[source]
        )
    # The run's second 0: the first load generator's load, not its launch.
    window = StableWindow.after(min(starts[source] for source in results), window_of(exp))
    rows = rows_from_archive(
        ctx.archive, plan, lambda c: loadgen(ctx.host(c.host)), window, multiget, starts, results
    )
    rows.extend(monitor_rows(ctx.archive, ctx.started, window))
    return rows, window


def parse_client(archive: Path, c: ClientPlan, client: LoadGenerator) -> ClientResult:
    """One client's fetched output; a ParseError names the client, its host and the files."""
    local = archive / c.host.name
    try:
        return client.parse(local, c.name)
    except (ParseError, OSError) as exc:
        raise ParseError(
            f"client:{c.index} ({client.tool_name} on {c.host.name}): cannot parse "
            f"output: {exc}; raw files kept in {local}"
        ) from exc


def rows_from_archive(
    archive: Path,
    plan: RunPlan,
    driver: Callable[[ClientPlan], LoadGenerator],
    window: StableWindow,
    multiget: bool,
    starts: Mapping[str, float],
    parsed: Mapping[str, ClientResult] | None = None,
) -> ResultRows:
    """Result rows from a run's archive (one directory per host, as fetch_all leaves it);
    `starts`: each client source's own start (unix s); `parsed`: client outputs already read
    (parse_outputs reads them first to place the run's second 0). The seeder calls this too."""
    rows = ResultRows()
    for c in plan.clients:
        source = f"client:{c.index}"
        result = parsed[source] if parsed else parse_client(archive, c, driver(c))
        rows.extend(client_rows(source, result, window, multiget, starts[source]))
    for m in plan.middlewares:
        local = archive / m.host.name / f"{m.name}.stats"
        try:
            stats = parse_middleware_dir(local)
            rows.extend(middleware_rows(f"middleware:{m.index}", stats, window))
        except (ParseError, ValueError, OSError) as exc:
            raise ParseError(
                f"middleware:{m.index} (on {m.host.name}): cannot parse stats: {exc}; "
                f"raw files kept in {local}"
            ) from exc
    return rows
