"""Starting a run's processes: servers (then populated), middlewares, load generators. Each
process is recorded on the run as soon as it is known, so cleanup and recovery can stop it."""

from dataclasses import replace

from worker.drivers.host import Host, RemoteProcess
from worker.drivers.loadgen import POPULATE_TIMEOUT_S, LoadGenerator
from worker.drivers.memcached import MemcachedDriver, flush_server, server_stats
from worker.drivers.middleware import MiddlewareDriver
from worker.drivers.pool import on_each
from worker.drivers.registry import populator
from worker.live import publish
from worker.runs.context import RunContext
from worker.runs.launch import Launch, launch_on_hosts, wait_listening
from worker.runs.network import measure_legs, run_legs
from worker.runs.plan import ClientPlan, MiddlewarePlan, RunPlan, ServerPlan


def _start(ctx: RunContext, role: str, launches: list[Launch]) -> list[RemoteProcess]:
    """Start a role's processes, hosts in parallel; each is recorded as it is known."""
    return launch_on_hosts(
        launches,
        ctx.host,
        lambda item, proc: ctx.launched(role, item.source, proc, item.wake),
    )


def start_servers(ctx: RunContext, plan: RunPlan) -> None:
    """Launch every server not kept from the previous run, flush the kept ones, then wait
    until each new one listens (they start meanwhile)."""

    def launch(s: ServerPlan) -> Launch:
        def start(host: Host) -> RemoteProcess:
            driver = MemcachedDriver(host)
            as_root = ctx.roots[s.host]
            argv = driver.argv(
                listen=s.host.address, port=s.port, memory=s.memory_mb, as_root=as_root
            )
            return driver.launch(argv, ctx.workdir, s.name)

        return Launch(s.host, f"server:{s.index}", start, wake=(s.host.address, s.port))

    new = [s for s in plan.servers if s.index not in ctx.adopted]
    procs = _start(ctx, "server", [launch(s) for s in new])
    # Kept servers (already listening) start empty like new ones (see worker.runs.kept).
    kept = [s for s in plan.servers if s.index in ctx.adopted]
    on_each(kept, lambda s: flush_server(ctx.host(s.host), s.host.address, s.port))
    wait_listening([(p, s.port) for p, s in zip(procs, new, strict=True)])
    ctx.check()


def record_server_state(ctx: RunContext, plan: RunPlan) -> None:
    """Record what each server holds as the load starts (Run.hosts["server_state"]): kept or
    new, items and bytes; every repetition of a configuration starts from the same."""
    stats = on_each(
        list(plan.servers), lambda s: server_stats(ctx.host(s.host), s.host.address, s.port)
    )
    ctx.hosts_info["server_state"] = {
        s.name: {
            "kept": s.index in ctx.adopted,
            "curr_items": st["curr_items"],
            "bytes": st["bytes"],
        }
        for s, st in zip(plan.servers, stats, strict=True)
    }
    ctx.record(hosts=ctx.hosts_info)


def populate(ctx: RunContext, plan: RunPlan) -> None:
    """Write the key space into every server, all servers at once, from the first client host."""
    if not plan.populate:
        return
    client = plan.clients[0]
    driver = populator()(ctx.host(client.host))
    procs = []
    for s in plan.servers:
        spec = replace(client.spec, targets=((s.host.address, s.port),))
        proc = driver.populate(spec, ctx.workdir, f"populate-{s.index}")
        ctx.launched("populate", f"populate:{s.index}", proc)
        procs.append((s, proc))
    for s, proc in procs:
        ctx.wait_exit(proc, POPULATE_TIMEOUT_S, f"populating server:{s.index}")


def start_middlewares(ctx: RunContext, plan: RunPlan) -> None:
    """Launch every middleware, then wait until each accepts connections."""

    def launch(m: MiddlewarePlan) -> Launch:
        def start(host: Host) -> RemoteProcess:
            driver = MiddlewareDriver(host, binary=ctx.layout.middleware_binary)
            argv = driver.argv(
                listen=m.host.address,
                port=m.port,
                workers=m.workers,
                sharded=m.sharded,
                servers=[(s.host.address, s.port) for s in m.servers],
                replication=m.replication,
                queue_capacity=m.queue_capacity,
                max_buffered_bytes=m.max_buffered_bytes,
                stats_dir=f"{ctx.workdir}/{m.name}.stats",
            )
            return driver.launch(argv, ctx.workdir, m.name)

        return Launch(m.host, f"middleware:{m.index}", start)

    procs = _start(ctx, "middleware", [launch(m) for m in plan.middlewares])
    wait_listening([(p, m.port) for p, m in zip(procs, plan.middlewares, strict=True)])
    ctx.check()


def start_clients(ctx: RunContext, plan: RunPlan, loadgen: type[LoadGenerator]) -> None:
    """Launch every load generator (the run's second 0 is placed after: outputs.parse_outputs)."""

    def launch(c: ClientPlan) -> Launch:
        def start(host: Host) -> RemoteProcess:
            return loadgen(host).start(c.spec, ctx.workdir, c.name)

        return Launch(c.host, f"client:{c.index}", start)

    _start(ctx, "client", [launch(c) for c in plan.clients])
    publish.run_state(ctx.experiment.id, ctx.run_id, "load_started")


def record_network(ctx: RunContext, plan: RunPlan) -> None:
    """Round trips of the paths the run's requests take, on the service ports, before the
    load starts (Run.hosts["network"]); what the breakdown and the model's delay read."""
    ctx.hosts_info["network"] = measure_legs(run_legs(plan), ctx.host)
    ctx.record(hosts=ctx.hosts_info)
