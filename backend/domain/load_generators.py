"""The load-generator registry: one declarative entry per tool, read by the API (parameter
choices) and by the worker (driver, preflight, plan, watch, parse, populate).

Adding a tool is its driver module (worker/drivers/), its parser module (worker/parsers/: its
outputs to a ClientResult, its live progress) and one entry here, which also says how to
install it (infra/install_plan.py); see "Adding a load generator" in the README. This module
imports only the standard library, so the API reads the names without loading the worker's SSH
code and the set-up's system python3 reads the install plan before any virtualenv exists.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class LoadGeneratorSpec:
    """What is known about a tool without running it.

    name: the value of the `load_generator` parameter and of ClientResult.tool.
    program: the tool's binary as users know it (messages, tool_versions).
    driver: "module:Class" of its worker driver (a subclass of LoadGenerator), imported by
        the worker only; the driver builds argv, names outputs, parses them and parses progress.
    candidates: binary names looked up on a client host, in order.
    version_args: arguments that make the binary print its version on the first line.
    populates: it can write the whole key space before a run (the populate step uses the
        first registered tool that can).
    writes_own_keys: it sets the keys it reads by itself, so no populate step is needed.
    debian_packages: the Debian packages that provide it.
    install_recipe: the script under infra/hosts/ that installs it where missing (a tool Debian
        does not package). Both are what infra/local/install-deps.sh and the hosts' set-up
        install for the tool: `python3 -m infra.install_plan` derives them from here.
    rate_limits: it can hold each connection to a set request rate (the `rate_limit`
        parameter: open-loop load, as the latency-SLO search sets it).
    """

    name: str
    program: str
    driver: str
    candidates: tuple[str, ...]
    version_args: tuple[str, ...] = ("--version",)
    populates: bool = False
    writes_own_keys: bool = False
    debian_packages: tuple[str, ...] = ()
    install_recipe: str | None = None
    rate_limits: bool = False


# In order of preference: `auto` picks the first one installed on every client host.
LOAD_GENERATORS: tuple[LoadGeneratorSpec, ...] = (
    LoadGeneratorSpec(
        name="memtier",
        program="memtier_benchmark",
        driver="worker.drivers.memtier:MemtierDriver",
        candidates=("memtier_benchmark",),
        populates=True,
        install_recipe="infra/hosts/install-memtier.sh",
        rate_limits=True,
    ),
    LoadGeneratorSpec(
        name="memaslap",
        program="memaslap",
        driver="worker.drivers.memaslap:MemaslapDriver",
        candidates=("memaslap", "memcaslap"),
        debian_packages=("libmemcached-tools",),
        # memaslap writes the keys of its own windows before reading (it cannot use a key range).
        writes_own_keys=True,
    ),
)
AUTO = "auto"
# memtier's keys are MEMTIER_KEY_PREFIX + 1 .. key_maximum, set with this expiry (3 days:
# nothing expires during an experiment); the worker's driver and the network bound's
# message sizes read them here.
MEMTIER_KEY_PREFIX = "memtier-"
MEMTIER_EXPIRY_S = 259200


def load_generator_names() -> tuple[str, ...]:
    return tuple(g.name for g in LOAD_GENERATORS)


def load_generator_spec(name: str) -> LoadGeneratorSpec:
    for g in LOAD_GENERATORS:
        if g.name == name:
            return g
    known = ", ".join(load_generator_names())
    raise LookupError(f"unknown load generator {name!r} (known: {known})")


def install_recipes(tools: tuple[LoadGeneratorSpec, ...] = LOAD_GENERATORS) -> list[str]:
    """The install recipes (repository paths) of every registered tool, in registry order: the
    local set-up runs them (infra/install_plan.py) and cloud-init ships them to every role VM
    (backend/azure/cloud_init.py)."""
    return list(dict.fromkeys(g.install_recipe for g in tools if g.install_recipe))
