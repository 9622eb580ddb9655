"""cloud-init custom data per VM: the SSH host key mcscope generated for it (so the host is
pinned before the first connection, never trusted on first use) and, for a role VM,
setup-host.sh run once at first boot, so it comes up ready for its role without an SSH session."""

from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from backend.azure.lab_spec import LabSpec, Role
from backend.domain.load_generators import install_recipes

# The repository: the host scripts the VMs run are files of infra/hosts/, read here as data.
ROOT = Path(__file__).resolve().parents[2]
SETUP_SCRIPT = ROOT / "infra" / "hosts" / "setup-host.sh"
REMOTE_SCRIPT = "/opt/mcscope/setup-host.sh"
# setup-host.sh runs the load generators' install recipes found next to it: every recipe of
# the registry (backend.domain.load_generators), shipped beside the script.
RECIPES = tuple(ROOT / r for r in install_recipes())
# Azure rejects custom data above 64 KiB once base64-encoded (4/3 growth).
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


@dataclass(frozen=True)
class HostKey:
    """An ed25519 SSH host key made by mcscope for one VM. The private half travels only in
    the VM's custom data; the public line is what mcscope pins for the host."""

    private_openssh: str
    public_line: str  # "ssh-ed25519 AAAA...", the stored form of backend.core.host_keys


def new_host_key() -> HostKey:
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    ).decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    )
    return HostKey(private, public.decode())


def render(spec: LabSpec, role: Role | None, host_key: HostKey, script: Path = SETUP_SCRIPT) -> str:
    """The #cloud-config document for one VM (JSON is valid YAML, so no YAML writer); `role`
    None is the jump host, which gets its host key and no set-up."""
    # cloud-init's ssh module: install this key, delete the image's, generate none of its own.
    doc: dict[str, object] = {
        "ssh_deletekeys": True,
        "ssh_genkeytypes": [],
        "ssh_keys": {
            "ed25519_private": host_key.private_openssh,
            "ed25519_public": host_key.public_line,
        },
    }
    if role is not None:
        env = ["env", "MCSCOPE_SETUP_CONFIRM=yes"]
        if role is Role.MIDDLEWARE and spec.middleware_source is not None:
            env += [
                f"MIDDLEWARE_GIT_URL={spec.middleware_source.git_url}",
                f"MIDDLEWARE_GIT_REF={spec.middleware_source.git_ref}",
            ]
        folder = REMOTE_SCRIPT.rsplit("/", 1)[0]
        doc["write_files"] = [
            _file(REMOTE_SCRIPT, script),
            *(_file(f"{folder}/{recipe.name}", recipe) for recipe in RECIPES),
        ]
        # runcmd lists run without a shell; output lands in /var/log/cloud-init-output.log.
        doc["runcmd"] = [[*env, "bash", REMOTE_SCRIPT, role.value]]
    text = "#cloud-config\n" + json.dumps(doc, indent=1) + "\n"
    if len(text.encode()) > MAX_CUSTOM_DATA:
        what = role.value if role else "the jump host"
        raise ValueError(f"custom data for {what} is {len(text)} bytes, above Azure's limit")
    return text


def custom_data(text: str) -> str:
    """The VM body's osProfile.customData: the document base64-encoded, as ARM wants it."""
    return base64.b64encode(text.encode()).decode("ascii")
