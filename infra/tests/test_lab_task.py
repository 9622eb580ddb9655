"""The worker's lab creation (backend.azure.lab_creation, the body of the mcscope.azure.create_lab
task) against the fake ARM and the real database: a queued lab becomes a registered azure
testbed whose hosts carry their roles and the keys their sshd serve; a failed one leaves
nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.azure import provisioning
from backend.azure.arm import Arm, connect
from backend.azure.lab_creation import create_lab
from backend.azure.lab_spec import LabSpec, Role
from backend.core.host_keys import scan_host_key
from backend.models import AzureLabStatus, Testbed, TestbedKind
from infra.tests.conftest import fake_options
from infra.tests.fake_arm import SUBSCRIPTION, FakeArm, FakeCredential
from infra.tests.labs import queue_lab

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = [pytest.mark.integration, pytest.mark.hosts_without_load]


@pytest.fixture()
def lab_name() -> str:
    return "aztask"


def _to(fake: FakeArm) -> Arm:
    return connect(SUBSCRIPTION, FakeCredential(), fake_options(fake))


def test_a_queued_lab_becomes_a_registered_testbed(
    db: Session, arm: Arm, fake_arm: FakeArm, small_lab: LabSpec
) -> None:
    row = queue_lab(db, small_lab)
    create_lab(row.id, arm_for=lambda: _to(fake_arm))
    db.refresh(row)
    assert (row.status, row.error) == (AzureLabStatus.READY.value, None)
    assert row.progress == [
        "resource group mcscope-az",
        "network security group mcscope-nsg",
        "virtual network mcscope-vnet",
        "network interface aztask-server-1-nic",
        "network interface aztask-middleware-1-nic",
        "network interface aztask-client-1-nic",
        "virtual machine aztask-server-1",
        "virtual machine aztask-middleware-1",
        "virtual machine aztask-client-1",
    ]
    assert row.expires_at is not None
    assert row.expires_at - row.created_at < timedelta(hours=4, minutes=1)
    testbed = db.get(Testbed, row.testbed_id)
    assert testbed is not None and testbed.kind == TestbedKind.AZURE
    assert [(h.name, h.role.value) for h in testbed.hosts] == [
        ("aztask-server-1", "server"),
        ("aztask-middleware-1", "middleware"),
        ("aztask-client-1", "client"),
    ]
    # Each host records the size and region its price is looked up by; a regional lab's
    # VMs are in no zone.
    assert [(h.size, h.region, h.zone) for h in testbed.hosts] == [
        (small_lab.roles[r].size, small_lab.region, None)
        for r in (Role.SERVER, Role.MIDDLEWARE, Role.CLIENT)
    ]
    # ... and its link cap, the size's published bandwidth, as the fake's VMs are shaped.
    caps = fake_arm.hosts.link_caps()
    assert [h.link_cap_basis for h in testbed.hosts] == ["published"] * 3
    assert [h.link_cap_mbit_s for h in testbed.hosts] == [250.0, 500.0, 500.0]
    assert [caps[h.address] for h in testbed.hosts] == pytest.approx(
        [250.0, 500.0, 500.0], rel=1e-3
    )
    for h in testbed.hosts:
        assert h.ssh_user == "mcscope" and h.host_key_source == "supplied"
        # The key pinned is the one the host serves (read here by a bare key exchange).
        assert h.host_key == scan_host_key(h.address, 22)

    # Redelivered: the lab is not queued any more, nothing is created twice.
    puts = len(fake_arm.requests("PUT"))
    create_lab(row.id, arm_for=lambda: _to(fake_arm))
    assert len(fake_arm.requests("PUT")) == puts
    provisioning.delete(arm, "mcscope-az")


def test_a_failed_lab_says_why_and_leaves_nothing(
    db: Session, fake_arm: FakeArm, small_lab: LabSpec
) -> None:
    fake_arm.inject("PUT", r"/virtualMachines/aztask-client-1$", 409, "SkuNotAvailable")
    row = queue_lab(db, small_lab)
    testbeds = db.scalar(select(func.count()).select_from(Testbed))
    create_lab(row.id, arm_for=lambda: _to(fake_arm))
    db.refresh(row)
    assert row.status == AzureLabStatus.FAILED.value
    assert row.error is not None
    assert row.error.startswith("creating virtual machine aztask-client-1 failed: SkuNotAvailable")
    assert row.error.endswith("resource group mcscope-az was deleted")
    assert row.progress[-1] == "virtual machine aztask-middleware-1"
    assert row.testbed_id is None
    assert db.scalar(select(func.count()).select_from(Testbed)) == testbeds  # none registered
    assert fake_arm.resource_ids() == []
