"""The hardware each experiment ran on, per role, from its runs' Run.hosts["hardware"] (the
worker records each host's CPU model, and an Azure VM's size and region): experiments that
ran on different machines differ in this, whatever their parameters say."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

ROLES = ("client", "middleware", "server")
# Fact recorded per host -> how a row names it.
FACTS: dict[str, str] = {
    "size": "VM size",
    "region": "region",
    "zone": "zone",
    "cpu_model": "CPU model",
}

# experiment -> row name ("client.size") -> distinct values.
Hardware = dict[int, dict[str, list[str]]]


def run_hardware(hosts: Mapping[str, Any]) -> dict[str, set[str]]:
    """row name -> values of one run: the facts of the machines each role's instances ran on."""
    facts = hosts.get("hardware") or {}
    out: dict[str, set[str]] = {}
    for role in ROLES:
        for instance in hosts.get(role) or []:
            machine = facts.get(instance.get("host") or instance.get("machine")) or {}
            for fact in FACTS:
                if machine.get(fact):
                    out.setdefault(f"{role}.{fact}", set()).add(str(machine[fact]))
    return out


def experiment_hardware(runs: Iterable[tuple[int, Mapping[str, Any]]]) -> Hardware:
    """(experiment id, Run.hosts) pairs -> each experiment's distinct values per row."""
    acc: dict[int, dict[str, set[str]]] = {}
    for exp_id, hosts in runs:
        for name, values in run_hardware(hosts or {}).items():
            acc.setdefault(exp_id, {}).setdefault(name, set()).update(values)
    return {e: {n: sorted(v) for n, v in rows.items()} for e, rows in acc.items()}


def row_names(hardware: Hardware) -> list[tuple[str, str]]:
    """(row name, label) of every fact some experiment recorded, roles then facts in order."""
    seen = {n for rows in hardware.values() for n in rows}
    return [
        (f"{role}.{fact}", f"{role} {label}")
        for role in ROLES
        for fact, label in FACTS.items()
        if f"{role}.{fact}" in seen
    ]


def describe(label: str, values: list[str | None]) -> str:
    """'different hardware: client VM size Standard_A2_v2 vs Standard_D2s_v3'."""
    return f"different hardware: {label} " + " vs ".join(v or "unknown" for v in values)
