"""The engine end to end: the real Azure SDK clients against the fake ARM, whose VMs are real
namespace hosts reached over SSH with the host key mcscope generated and pinned."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import paramiko
import pytest

from backend.azure import provisioning
from backend.azure.arm import Arm
from backend.azure.cloud_init import new_host_key
from backend.azure.lab_spec import LabSpec, Role
from backend.azure.provisioning import Lab, LabHost, ProvisionError
from backend.azure.resource_plan import TAG_CREATED, TAG_EXPIRES, TAG_OWNER, TAG_ROLE, TAG_TESTBED
from backend.azure.vcpu_quota import QuotaError
from infra.tests.fake_arm import FakeArm, iter_namespaces
from worker.drivers.host_keys import pin_host_keys

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = [pytest.mark.integration, pytest.mark.hosts_without_load]

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


def ssh_run(host: LabHost, pinned: str, login_key: Path, command: str) -> str:
    """Run `command` on the host as the lab's admin user, the way the worker connects: only
    the pinned key accepted."""
    client = paramiko.SSHClient()
    pin_host_keys(client, host.private_ip, host.name, pinned)
    try:
        client.connect(
            host.private_ip,
            22,
            username="mcscope",  # the spec's admin_user
            key_filename=str(login_key),
            timeout=10,
            banner_timeout=10,
            auth_timeout=10,
            allow_agent=False,
            look_for_keys=False,
        )
        _, out, _ = client.exec_command(command, timeout=10)
        return str(out.read().decode())
    finally:
        client.close()


def _vm_ids(fake: FakeArm) -> list[str]:
    return [r for r in fake.resource_ids() if "/virtualmachines/" in r]


def test_create_then_delete_a_small_lab(
    arm: Arm, fake_arm: FakeArm, small_lab: LabSpec, login_keys: tuple[Path, Path]
) -> None:
    seen: list[str] = []
    lab = provisioning.create(arm, small_lab, now=NOW, progress=lambda r: seen.append(r.name))
    assert seen == [
        "mcscope-az",
        "mcscope-nsg",
        "mcscope-vnet",
        "az-server-1-nic",
        "az-middleware-1-nic",
        "az-client-1-nic",
        "az-server-1",
        "az-middleware-1",
        "az-client-1",
    ]
    assert [(h.name, h.role) for h in lab.hosts] == [
        ("az-server-1", Role.SERVER),
        ("az-middleware-1", Role.MIDDLEWARE),
        ("az-client-1", Role.CLIENT),
    ]
    # Quota was read before anything was made: 1 + 2 + 2 vCPUs of the Av2 family.
    assert {q.family: (q.needed, q.used) for q in lab.quota} == {
        "standardAv2Family": (5, 0),
        "cores": (5, 0),
    }
    first_put = fake_arm.requests("PUT")[0].at
    assert all(r.at < first_put for r in fake_arm.requests("GET", "/usages$"))

    # Every resource carries the lab's tags: whose, since when, until when.
    tags = {
        TAG_TESTBED: "az",
        TAG_OWNER: "alice",
        TAG_CREATED: "2026-11-26T09:00:00+00:00",
        TAG_EXPIRES: (NOW + timedelta(hours=4)).isoformat(),
    }
    assert lab.tags == tags
    assert provisioning.group_tags(arm, "mcscope-az") == tags
    for vnet in arm.network.virtual_networks.list("mcscope-az"):
        assert vnet.tags == tags
    for vm in arm.compute.virtual_machines.list("mcscope-az"):
        assert vm.tags == {**tags, TAG_ROLE: str(vm.name).split("-")[1]}

    # Each VM is a host at its NIC's address, serving the key mcscope generated for it.
    net = fake_arm.hosts.allowed
    addresses = [h.private_ip for h in lab.hosts]
    assert addresses == [str(net[4]), str(net[5]), str(net[6])]
    for h in lab.hosts:
        assert h.host_key.startswith("ssh-ed25519 ")
        out = ssh_run(h, h.host_key, login_keys[0], "echo $USER; ip -4 -o addr show")
        assert out.startswith("mcscope\n")  # logged in as the admin user
        assert f"inet {h.private_ip}/24" in out
    assert len({h.host_key for h in lab.hosts}) == 3
    # Each VM's link is capped at its size's published bandwidth (A1_v2 250, A2_v2 500 Mbit/s).
    caps = fake_arm.hosts.link_caps()
    assert caps == pytest.approx(dict(zip(addresses, [250.0, 500.0, 500.0], strict=True)), rel=1e-3)
    # Another key than the generated one is refused before any login.
    with pytest.raises(paramiko.BadHostKeyException):
        ssh_run(lab.hosts[0], new_host_key().public_line, login_keys[0], "true")
    assert [s.power_state for s in provisioning.status(arm, "mcscope-az")] == ["running"] * 3

    names = fake_arm.hosts.namespaces()
    assert provisioning.delete(arm, "mcscope-az") is True
    assert fake_arm.resource_ids() == []
    assert not set(names) & set(iter_namespaces())
    assert provisioning.delete(arm, "mcscope-az") is False


def test_stop_and_start_keep_the_pinned_host(
    arm: Arm, fake_arm: FakeArm, small_lab: LabSpec, login_keys: tuple[Path, Path]
) -> None:
    lab: Lab = provisioning.create(arm, small_lab)
    assert len(provisioning.deallocate(arm, "mcscope-az")) == 3
    assert {s.power_state for s in provisioning.status(arm, "mcscope-az")} == {"deallocated"}
    server = lab.hosts[0]
    with pytest.raises(OSError):  # sshd is down: connection refused
        ssh_run(server, server.host_key, login_keys[0], "true")
    provisioning.start(arm, "mcscope-az")
    assert {s.power_state for s in provisioning.status(arm, "mcscope-az")} == {"running"}
    assert "inet " in ssh_run(server, server.host_key, login_keys[0], "ip -4 -o addr show")
    provisioning.delete(arm, "mcscope-az")


@pytest.mark.parametrize(
    ("status", "code", "times"),
    [
        (409, "SkuNotAvailable", 1),
        (409, "QuotaExceeded", 1),
        (500, "InternalServerError", None),  # a 500 that does not clear
    ],
)
def test_failure_at_a_vm_deletes_everything(
    arm: Arm,
    fake_arm: FakeArm,
    small_lab: LabSpec,
    status: int,
    code: str,
    times: int | None,
) -> None:
    # The third VM fails; the first two exist as hosts by then.
    fake_arm.inject("PUT", r"/virtualMachines/az-client-1$", status, code, times=times)
    made: list[str] = []
    fake_arm_hosts = fake_arm.hosts
    with pytest.raises(ProvisionError) as exc:
        provisioning.create(
            arm, small_lab, progress=lambda r: made.extend(fake_arm_hosts.namespaces())
        )
    msg = str(exc.value)
    assert msg.startswith("creating virtual machine az-client-1 failed: ")
    assert code in msg
    assert msg.endswith("resource group mcscope-az was deleted")
    assert set(made), "two VMs were hosts before the failure"
    assert fake_arm.resource_ids() == []
    assert not set(made) & set(iter_namespaces())
    puts = fake_arm.requests("PUT", r"/virtualMachines/az-client-1$")
    # A 409 is final; a 5xx is retried by azure-core's policy (retry_total 3) before giving up.
    assert [r.status for r in puts] == ([status] if times == 1 else [500] * 4)


def test_throttling_and_a_transient_500_are_retried(
    arm: Arm, fake_arm: FakeArm, small_lab: LabSpec
) -> None:
    fake_arm.inject("PUT", r"/virtualNetworks/mcscope-vnet$", 429, "TooManyRequests", retry_after=1)
    fake_arm.inject("PUT", r"/networkInterfaces/az-client-1-nic$", 500)
    fake_arm.inject("GET", r"/virtualMachines/az-server-1$", 503, "ServiceUnavailable")
    lab = provisioning.create(arm, small_lab)
    assert len(lab.hosts) == 3
    vnet = fake_arm.requests("PUT", r"/virtualNetworks/mcscope-vnet$")
    assert [r.status for r in vnet] == [429, 201]
    # The retry waited for the Retry-After the 429 asked for.
    assert vnet[1].at - vnet[0].at >= 1.0
    nic = fake_arm.requests("PUT", r"/networkInterfaces/az-client-1-nic$")
    assert [r.status for r in nic] == [500, 201]
    # A poller's final GET is retried like any other request.
    final = fake_arm.requests("GET", r"/virtualMachines/az-server-1$")
    assert [r.status for r in final][:2] == [503, 200]
    provisioning.delete(arm, "mcscope-az")
    assert fake_arm.resource_ids() == []


def test_not_enough_quota_names_the_family_and_numbers(
    arm: Arm, fake_arm: FakeArm, small_lab: LabSpec
) -> None:
    fake_arm.set_quota("standardAv2Family", 4)
    with pytest.raises(QuotaError) as exc:
        provisioning.create(arm, small_lab)
    assert str(exc.value) == (
        "not enough vCPU quota in westeurope: "
        "standardAv2Family: needs 5 vCPUs, 0 of 4 in use (4 free)"
    )
    assert fake_arm.requests("PUT") == []
    assert fake_arm.resource_ids() == []


def test_a_size_the_region_does_not_offer_is_refused_before_creating(
    arm: Arm, fake_arm: FakeArm, small_lab: LabSpec
) -> None:
    spec = small_lab.model_copy(
        update={
            "roles": {
                **small_lab.roles,
                Role.SERVER: small_lab.roles[Role.SERVER].model_copy(
                    update={"size": "Standard_E2s_v5"}
                ),
            }
        }
    )
    with pytest.raises(QuotaError, match=r"Standard_E2s_v5 \(not offered\)"):
        provisioning.create(arm, spec)
    assert fake_arm.requests("PUT") == []


def test_an_existing_group_is_not_reused(arm: Arm, fake_arm: FakeArm, small_lab: LabSpec) -> None:
    fake_arm.add_group("mcscope-az")
    with pytest.raises(ProvisionError, match="already exists"):
        provisioning.create(arm, small_lab)
    assert fake_arm.requests("DELETE") == []


def test_a_group_without_the_mcscope_tag_is_never_deleted(arm: Arm, fake_arm: FakeArm) -> None:
    fake_arm.add_group("someone-elses", {"team": "db"})
    with pytest.raises(ProvisionError, match="no mcscope-testbed tag"):
        provisioning.delete(arm, "someone-elses")
    assert fake_arm.resource_ids() == ["someone-elses"]
    assert fake_arm.requests("DELETE") == []
