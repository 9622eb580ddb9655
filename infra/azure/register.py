"""What `up` leaves for `register`: the lab's hosts with the host keys mcscope generated (a
JSON file in the work folder), and the POST of those hosts to the mcscope API as an azure
testbed, each with its key given, so it is pinned without ever being scanned."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

import httpx

from backend.azure.lab_spec import LabSpec, Role
from backend.azure.provisioning import Lab, LabHost
from backend.azure.resource_plan import planned_vms

DEFAULT_API_URL = "http://127.0.0.1:8000"
ADMIN_TOKEN_FILE = Path(__file__).resolve().parents[2] / "var" / "admin-token"
API_TIMEOUT_S = 30.0


def _local_admin_token() -> str | None:
    try:
        return ADMIN_TOKEN_FILE.read_text().strip() or None
    except OSError:
        return None


def lab_file(workdir: Path) -> Path:
    return workdir / "lab.json"


def save_lab(lab: Lab, workdir: Path) -> Path:
    """Write the created lab's hosts (public host keys only: no secret is in it)."""
    workdir.mkdir(parents=True, exist_ok=True)
    path = lab_file(workdir)
    path.write_text(json.dumps(asdict(lab), indent=1, default=str))
    return path


def load_hosts(workdir: Path) -> list[LabHost]:
    path = lab_file(workdir)
    if not path.is_file():
        raise LookupError(f"no lab recorded at {path}: run `up` first")
    data = json.loads(path.read_text())
    return [LabHost(**{**h, "role": Role(h["role"]) if h["role"] else None}) for h in data["hosts"]]


def build_testbed_payload(spec: LabSpec, hosts: list[LabHost]) -> dict[str, Any]:
    """The POST /api/v1/testbeds body: one host per role VM (the jump host is not one), each
    with the host key mcscope put in its cloud-init data."""
    by_name = {h.name: h for h in hosts}
    missing = [vm.name for vm in planned_vms(spec) if vm.role and vm.name not in by_name]
    if missing:
        raise LookupError(f"no recorded host for {', '.join(missing)}: run `up` first")
    payload_hosts = [
        {
            "name": vm.name,
            "role": vm.role.value,
            "address": by_name[vm.name].private_ip,
            "ssh_user": spec.admin_user,
            "ssh_port": 22,
            # The path only; the worker reads the key itself when it connects.
            "key_path": spec.ssh_private_key_path,
            "host_key": by_name[vm.name].host_key,
            # What the host's price is looked up by (vm_prices).
            "size": vm.size,
            "region": spec.region,
            "zone": by_name[vm.name].zone,
        }
        for vm in planned_vms(spec)
        if vm.role is not None
    ]
    counts = ", ".join(f"{rs.count} {role.value}" for role, rs in spec.roles.items())
    description = spec.description or (
        f"Azure lab {spec.resource_group} in {spec.region}: {counts}"
    )
    return {"name": spec.name, "kind": "azure", "description": description, "hosts": payload_hosts}


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
    hosts: list[LabHost],
    api_url: str = DEFAULT_API_URL,
    client: httpx.Client | None = None,
) -> dict[str, Any]:
    """POST the lab as a testbed; `client` lets tests pass the app's TestClient."""
    payload = build_testbed_payload(spec, hosts)
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
