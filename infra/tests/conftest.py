"""Fixtures for the infra suite: the fake Azure Resource Manager (the only fake: Azure's API
cannot be reached from here) with the SDK clients pointed at it, SSH key files, and the example
topology pointed at those keys."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from backend.azure.arm import Arm, ArmOptions, connect
from backend.azure.lab_spec import LabSpec
from infra.tests.fake_arm import SUBSCRIPTION, FakeArm, FakeCredential
from infra.tests.fake_azure_app import options
from worker.tests.drivers.netns import free_network, netns_supported

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "infra" / "azure" / "examples" / "lab.json"


@pytest.fixture()
def fake_arm(tmp_path: Path) -> Iterator[FakeArm]:
    """The fake Azure Resource Manager, its VMs namespace hosts; stopped (every host and
    bridge removed) at the end."""
    reason = netns_supported()
    if reason:
        pytest.fail(f"the fake Azure needs network namespaces: {reason}")
    fake = FakeArm(tmp_path / "arm", free_network())
    fake.start()
    try:
        yield fake
    finally:
        fake.stop()


def fake_options(fake: FakeArm) -> ArmOptions:
    """The production clients pointed at the fake: short backoff and polling for the tests."""
    return options(fake.base_url, str(fake.cert))


@pytest.fixture()
def arm(fake_arm: FakeArm) -> Iterator[Arm]:
    clients = connect(SUBSCRIPTION, FakeCredential(), fake_options(fake_arm))
    try:
        yield clients
    finally:
        clients.close()


@pytest.fixture()
def login_keys(tmp_path: Path) -> tuple[Path, Path]:
    """A real client key pair (the fake's VM hosts let its public half in)."""
    private = tmp_path / "login" / "id_ed25519"
    private.parent.mkdir()
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(private)],
        check=True,
        timeout=30,
    )
    return private, private.with_suffix(".pub")


@pytest.fixture()
def lab_name() -> str:
    """The small lab's testbed name; modules that register it override this, since testbed
    names are unique in the database a test session shares."""
    return "az"


@pytest.fixture()
def small_lab(
    example_data: dict[str, Any], fake_arm: FakeArm, login_keys: tuple[Path, Path], lab_name: str
) -> LabSpec:
    """One server, one middleware, one client, no jump host, on the fake's network."""
    net = str(fake_arm.hosts.allowed)
    data = {
        **example_data,
        "name": lab_name,
        "resource_group": "mcscope-az",
        "owner": "alice",
        "ssh_private_key_path": str(login_keys[0]),
        "ssh_public_key_path": str(login_keys[1]),
        "network": {**example_data["network"], "address_prefix": net, "subnet_prefix": net},
        "roles": {
            "server": {"count": 1, "size": "Standard_A1_v2"},
            "middleware": {"count": 1, "size": "Standard_A2_v2"},
            "client": {"count": 1, "size": "Standard_A2_v2"},
        },
        "jump_host": {"enabled": False},
    }
    return LabSpec.model_validate(data)


@pytest.fixture()
def keys(tmp_path: Path) -> tuple[Path, Path]:
    """A private/public key pair on disk (contents are placeholders; only paths matter)."""
    private = tmp_path / "keys" / "lab_key"
    private.parent.mkdir()
    private.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nplaceholder\n")
    private.chmod(0o600)
    public = private.with_suffix(".pub")
    public.write_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPlaceholder test@mcscope\n")
    return private, public


@pytest.fixture()
def example_data(keys: tuple[Path, Path]) -> dict[str, Any]:
    """The shipped example with its key paths pointed at the test keys."""
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    data["ssh_private_key_path"] = str(keys[0])
    data["ssh_public_key_path"] = str(keys[1])
    return data


@pytest.fixture()
def write_spec(tmp_path: Path) -> Callable[[dict[str, Any]], Path]:
    def write(data: dict[str, Any]) -> Path:
        path = tmp_path / "spec.json"
        path.write_text(json.dumps(data))
        return path

    return write
