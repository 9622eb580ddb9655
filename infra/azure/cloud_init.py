"""cloud-init custom data per role: ship setup-host.sh inside the user data and run it once
at first boot, so a VM comes up ready for its role without an SSH session."""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

from infra.azure.spec import LabSpec, Role

SETUP_SCRIPT = Path(__file__).resolve().parents[1] / "hosts" / "setup-host.sh"
REMOTE_SCRIPT = "/opt/mcscope/setup-host.sh"
# setup-host.sh runs the memtier recipe found next to it.
MEMTIER_RECIPE = SETUP_SCRIPT.with_name("install-memtier.sh")
# Azure rejects custom data above 64 KiB after az's base64 encoding (4/3 growth).
MAX_CUSTOM_DATA = 64 * 1024 * 3 // 4


def _file(path: str, source: Path) -> dict[str, str]:
    # mtime=0 keeps the output byte-identical across runs, so plans are reproducible.
    payload = base64.b64encode(gzip.compress(source.read_bytes(), mtime=0)).decode("ascii")
    return {
        "path": path,
        "permissions": "0755",
        "owner": "root:root",
        "encoding": "gz+b64",
        "content": payload,
    }


def render(spec: LabSpec, role: Role, script: Path = SETUP_SCRIPT) -> str:
    """The #cloud-config document for one role (JSON is valid YAML, so no YAML writer)."""
    env = ["env", "MCSCOPE_SETUP_CONFIRM=yes"]
    if role is Role.MIDDLEWARE and spec.middleware_source is not None:
        env += [
            f"MIDDLEWARE_GIT_URL={spec.middleware_source.git_url}",
            f"MIDDLEWARE_GIT_REF={spec.middleware_source.git_ref}",
        ]
    doc = {
        "write_files": [
            _file(REMOTE_SCRIPT, script),
            _file(REMOTE_SCRIPT.rsplit("/", 1)[0] + "/" + MEMTIER_RECIPE.name, MEMTIER_RECIPE),
        ],
        # runcmd lists run without a shell; output lands in /var/log/cloud-init-output.log.
        "runcmd": [[*env, "bash", REMOTE_SCRIPT, role.value]],
    }
    text = "#cloud-config\n" + json.dumps(doc, indent=1) + "\n"
    if len(text.encode()) > MAX_CUSTOM_DATA:
        raise ValueError(f"custom data for {role.value} is {len(text)} bytes, above Azure's limit")
    return text


def custom_data_path(workdir: Path, role: Role) -> Path:
    return workdir / f"cloud-init-{role.value}.yaml"


def write_all(spec: LabSpec, workdir: Path) -> dict[Role, Path]:
    """Write one custom-data file per role that has VMs; returns their paths."""
    workdir.mkdir(parents=True, exist_ok=True)
    out: dict[Role, Path] = {}
    for role, rs in spec.roles.items():
        if rs.count == 0:
            continue
        path = custom_data_path(workdir, role)
        path.write_text(render(spec, role))
        out[role] = path
    return out
