"""The preflight step of a run: look at every host it uses (two round trips per host, all hosts
at once), choose the load generator, place the processes, check the tools, record it all."""

import random

from worker.drivers.host import HostSpec
from worker.drivers.loadgen import LoadGenerator
from worker.drivers.pool import on_each
from worker.runs import kept
from worker.runs.context import RunContext
from worker.runs.plan import RunPlan, build_plan
from worker.runs.preflight import (
    HostFacts,
    check_tools,
    choose_load_generator,
    free_port,
    inspect_host,
    probe_host,
)


def prepare(ctx: RunContext) -> tuple[RunPlan, type[LoadGenerator]]:
    """The run's plan and load generator; the hosts, tool versions and clock offsets are
    recorded on the run, and which hosts log in as root in `ctx.roots`. Kept servers of the
    testbed are taken over (their ports planned) or stopped (worker.runs.kept)."""
    ctx.record(artifact_dir=str(ctx.archive_root))
    lay, p = ctx.layout, ctx.params
    roles = {
        "server": set(lay.servers[: p["servers"]]),
        "middleware": set(lay.middlewares[: p["middlewares"]]),
        "client": set(lay.clients[: p["client_machines"]]),
    }

    def look(spec: HostSpec) -> tuple[HostFacts, dict[str, str | None]]:
        host = ctx.host(spec)
        facts = inspect_host(host, ctx.workdir)
        found = probe_host(
            host,
            server=spec in roles["server"],
            middleware=spec in roles["middleware"],
            client=spec in roles["client"],
            middleware_binary=lay.middleware_binary,
        )
        return facts, found

    # Two round trips per host, all hosts at once.
    specs = lay.used(p)
    looked = dict(zip(specs, on_each(specs, look), strict=True))
    facts = {s: f for s, (f, _) in looked.items()}
    found = {ctx.host(s): v for s, (_, v) in looked.items()}
    clients = [ctx.host(s) for s in dict.fromkeys(lay.clients[: p["client_machines"]])]
    loadgen = choose_load_generator(p["load_generator"], clients, found)
    ctx.roots = {s: f.is_root for s, f in facts.items()}
    if lay.servers:
        ctx.server_identity = {
            i: kept.identity(host, p, ctx.roots[host])
            for i in range(int(p["servers"]))
            for host in [lay.servers[i % len(lay.servers)]]
        }
    rng = random.Random()
    plan = build_plan(
        p,
        lay,
        loadgen.tool_name,
        ctx.experiment.run_time_s,
        lambda spec: free_port(facts[spec], rng),
        server_ports=kept.adopt(ctx, ctx.server_identity),
        memory_of=lambda spec: facts[spec].memory_bytes,
    )
    versions = check_tools(plan, ctx.hosts, loadgen, found)
    hosts = plan.hosts_json() | {
        "clock_offset_s": {s.name: round(f.clock_offset_s, 4) for s, f in facts.items()},
        "load_generator": loadgen.tool_name,
        # Shown on the run page: the key each host was pinned to (or checked against).
        "ssh_host_keys": {s.name: ctx.host(s).host_key_fingerprint() for s in specs},
        # What each machine is (backend.domain.hardware reads it): CPU model, VM size, region.
        "hardware": {
            s.name: {"cpu_model": facts[s].cpu_model, **lay.hardware.get(s.name, {})} for s in specs
        },
    }
    ctx.hosts_info = hosts
    ctx.record(hosts=hosts, tool_versions=versions)
    return plan, loadgen
