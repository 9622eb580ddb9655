"""Lab operations behind the CLI: up (idempotent), down, status, and register (POST the
VMs' private addresses to the mcscope API as an azure testbed)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from infra.azure.cloud_init import write_all
from infra.azure.plan import build_plan, planned_vms
from infra.azure.runner import CREATE_TIMEOUT_S, AzRunner
from infra.azure.spec import LabSpec

logger = logging.getLogger(__name__)

DEFAULT_API_URL = "http://127.0.0.1:8000"
ADMIN_TOKEN_FILE = Path(__file__).resolve().parents[2] / "var" / "admin-token"


def _local_admin_token() -> str | None:
    try:
        return ADMIN_TOKEN_FILE.read_text().strip() or None
    except OSError:
        return None


API_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class UpResult:
    created: list[str]
    skipped: list[str]


def up(spec: LabSpec, runner: AzRunner, workdir: Path) -> UpResult:
    """Create what is missing, in order; resources that `show` finds are left alone."""
    write_all(spec, workdir)
    created: list[str] = []
    skipped: list[str] = []
    for step in build_plan(spec, workdir):
        label = f"{step.kind} {step.name}"
        if runner.exists(step.show):
            skipped.append(label)
            continue
        timeout = CREATE_TIMEOUT_S if step.kind == "vm" else None
        runner.run(step.create, timeout_s=timeout)
        created.append(label)
        logger.info("azure.created", extra={"resource": label})
    return UpResult(created, skipped)


def down_args(spec: LabSpec) -> list[str]:
    """Deleting the resource group removes every VM, disk, NIC, IP and network in it."""
    return ["group", "delete", "--name", spec.resource_group, "--yes", "--no-wait"]


def down(spec: LabSpec, runner: AzRunner) -> bool:
    """Delete the lab's resource group; False if it did not exist."""
    if not runner.exists(("group", "show", "--name", spec.resource_group)):
        return False
    runner.run(down_args(spec))
    return True


@dataclass(frozen=True)
class VmStatus:
    name: str
    power_state: str
    size: str
    private_ip: str
    public_ip: str


def status(spec: LabSpec, runner: AzRunner) -> list[VmStatus]:
    """The lab's VMs with their power state (`az vm list -d` adds powerState and IPs)."""
    rows = runner.run(["vm", "list", "--resource-group", spec.resource_group, "--show-details"])
    out = [
        VmStatus(
            name=str(r.get("name", "")),
            power_state=str(r.get("powerState") or "unknown"),
            size=str((r.get("hardwareProfile") or {}).get("vmSize", "")),
            private_ip=str(r.get("privateIps") or ""),
            public_ip=str(r.get("publicIps") or ""),
        )
        for r in rows or []
    ]
    return sorted(out, key=lambda s: s.name)


def private_ips(spec: LabSpec, runner: AzRunner) -> dict[str, str]:
    """VM name -> first private IP, from `az vm list-ip-addresses`."""
    rows = runner.run(["vm", "list-ip-addresses", "--resource-group", spec.resource_group])
    ips: dict[str, str] = {}
    for row in rows or []:
        vm = row.get("virtualMachine") or {}
        addrs = (vm.get("network") or {}).get("privateIpAddresses") or []
        if vm.get("name") and addrs:
            ips[str(vm["name"])] = str(addrs[0])
    return ips


def build_testbed_payload(spec: LabSpec, ips: dict[str, str]) -> dict[str, Any]:
    """The POST /api/v1/testbeds body: one host per role VM (the jump host is not one)."""
    hosts = []
    missing = []
    for vm in planned_vms(spec):
        if vm.role is None:
            continue
        if vm.name not in ips:
            missing.append(vm.name)
            continue
        hosts.append(
            {
                "name": vm.name,
                "role": vm.role.value,
                "address": ips[vm.name],
                "ssh_user": spec.admin_user,
                "ssh_port": 22,
                # The path only; the worker reads the key itself when it connects.
                "key_path": spec.ssh_private_key_path,
            }
        )
    if missing:
        raise LookupError(f"no private IP for {', '.join(missing)}: run `up` first")
    counts = ", ".join(f"{rs.count} {role.value}" for role, rs in spec.roles.items())
    description = spec.description or (
        f"Azure lab {spec.resource_group} in {spec.region}: {counts}"
    )
    return {"name": spec.name, "kind": "azure", "description": description, "hosts": hosts}


def host_key_lines(body: dict[str, Any]) -> list[str]:
    """The SSH host keys the API pinned, one line per host, to compare with each VM's own
    (`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`); a key still being read in the
    background, or that could not be read, says so (pin it on the Testbeds page)."""
    lines = []
    for h in body["hosts"]:
        if h.get("host_key_fingerprint"):
            pinned = h["host_key_fingerprint"]
        elif h.get("scan_status") == "failed":
            pinned = f"NOT PINNED: {h.get('scan_error')}"
        else:
            pinned = "being read: see the Testbeds page"
        lines.append(f"  {h['name']:<28} {h['address']:<15} {pinned}")
    return lines


def register(
    spec: LabSpec,
    runner: AzRunner,
    api_url: str = DEFAULT_API_URL,
    client: httpx.Client | None = None,
) -> dict[str, Any]:
    """POST the lab as a testbed; `client` lets tests pass the app's TestClient."""
    payload = build_testbed_payload(spec, private_ips(spec, runner))
    own = client is None
    # The API token (README: Security): MCSCOPE_TOKEN, or the admin token `make up` wrote.
    token = os.environ.get("MCSCOPE_TOKEN") or _local_admin_token()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    http = client or httpx.Client(base_url=api_url, timeout=API_TIMEOUT_S, headers=headers)
    try:
        resp = http.post("/api/v1/testbeds", json=payload)
    finally:
        if own:
            http.close()
    if resp.status_code != 201:
        raise RuntimeError(f"API refused the testbed ({resp.status_code}): {resp.text[:500]}")
    body: dict[str, Any] = resp.json()
    return body
