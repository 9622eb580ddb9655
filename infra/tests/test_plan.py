"""The plan for the example topology (ARM bodies in creation order), and the cloud-init data
each VM boots with: its generated host key, and for a role VM the set-up script."""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from backend.azure.cloud_init import SETUP_SCRIPT, HostKey, new_host_key, render
from backend.azure.lab_spec import LabSpec, Role, load_spec
from backend.azure.resource_plan import Kind, Resource, build_plan, lab_tags, planned_vms
from infra.azure.__main__ import main

MEMTIER_RECIPE = SETUP_SCRIPT.with_name("install-memtier.sh")

SUB = "11111111-2222-4333-8444-555555555555"
KEY = new_host_key()
CREATED = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


@pytest.fixture()
def spec(example_data: dict[str, Any]) -> LabSpec:
    return LabSpec.model_validate(example_data)


def _plan(spec: LabSpec) -> list[Resource]:
    keys = {vm.name: KEY for vm in planned_vms(spec)}
    return build_plan(spec, SUB, lab_tags(spec, CREATED), keys)


def _vms(spec: LabSpec) -> dict[str, dict[str, Any]]:
    return {r.name: r.body for r in _plan(spec) if r.kind is Kind.VM}


def _cloud_config(body: dict[str, Any]) -> dict[str, Any]:
    text = base64.b64decode(body["properties"]["osProfile"]["customData"]).decode()
    assert text.startswith("#cloud-config\n")
    doc: dict[str, Any] = yaml.safe_load(text)
    return doc


def test_plan_creates_network_then_nics_then_one_vm_per_role_instance(spec: LabSpec) -> None:
    plan = _plan(spec)
    assert [(r.kind, r.name) for r in plan[:4]] == [
        (Kind.GROUP, "mcscope-lab"),
        (Kind.NSG, "mcscope-nsg"),
        (Kind.VNET, "mcscope-vnet"),
        (Kind.PUBLIC_IP, "lab-jump-ip"),
    ]
    names = [
        "lab-jump",
        *(f"lab-server-{i}" for i in (1, 2, 3)),
        "lab-middleware-1",
        "lab-middleware-2",
        *(f"lab-client-{i}" for i in (1, 2, 3)),
    ]
    assert [r.name for r in plan if r.kind is Kind.NIC] == [f"{n}-nic" for n in names]
    vms = _vms(spec)
    assert list(vms) == names
    assert [r.kind for r in plan][-9:] == [Kind.VM] * 9  # VMs last: their NICs exist by then
    size = {n: b["properties"]["hardwareProfile"]["vmSize"] for n, b in vms.items()}
    assert size["lab-server-2"] == "Standard_A1_v2"
    assert size["lab-middleware-1"] == "Standard_A8_v2"
    assert size["lab-client-3"] == "Standard_A2_v2"
    assert size["lab-jump"] == "Standard_B2s"
    login = Path(spec.ssh_public_key_path).read_text().strip()
    for name, body in vms.items():
        props = body["properties"]
        nic = props["networkProfile"]["networkInterfaces"][0]["id"]
        assert nic == (
            f"/subscriptions/{SUB}/resourceGroups/mcscope-lab/providers/"
            f"Microsoft.Network/networkInterfaces/{name}-nic"
        )
        os_profile = props["osProfile"]
        assert os_profile["adminUsername"] == "mcscope"
        assert os_profile["linuxConfiguration"]["disablePasswordAuthentication"] is True
        assert os_profile["linuxConfiguration"]["ssh"]["publicKeys"] == [
            {"path": "/home/mcscope/.ssh/authorized_keys", "keyData": login}
        ]
        assert props["storageProfile"]["imageReference"] == {
            "publisher": "Canonical",
            "offer": "ubuntu-24_04-lts",
            "sku": "server",
            "version": "latest",
        }
        # Disks and NICs go with the VM, so deleting a VM leaves nothing billed.
        assert props["storageProfile"]["osDisk"]["deleteOption"] == "Delete"


def test_every_resource_is_tagged_with_owner_and_expiry(spec: LabSpec) -> None:
    expected = {
        "mcscope-testbed": "lab",
        "mcscope-owner": "mcscope",
        "mcscope-created": "2026-11-26T09:00:00+00:00",
        "mcscope-expires": "2026-11-26T13:00:00+00:00",
    }
    for res in _plan(spec):
        tags = res.body["tags"]
        if res.kind is Kind.VM:
            assert tags.pop("mcscope-role") in ("jump", "server", "middleware", "client")
        assert tags == expected, res.name


def test_nsg_allows_ssh_only_from_the_configured_source(spec: LabSpec) -> None:
    plan = _plan(spec)
    (rule,) = next(r for r in plan if r.kind is Kind.NSG).body["properties"]["securityRules"]
    assert rule["properties"]["sourceAddressPrefix"] == "203.0.113.0/24"
    assert rule["properties"]["destinationPortRange"] == "22"
    assert rule["properties"]["access"] == "Allow"
    assert rule["properties"]["direction"] == "Inbound"
    (subnet,) = next(r for r in plan if r.kind is Kind.VNET).body["properties"]["subnets"]
    assert subnet["properties"]["networkSecurityGroup"]["id"].endswith(
        "/networkSecurityGroups/mcscope-nsg"
    )


def test_only_the_jump_host_gets_a_public_ip(spec: LabSpec) -> None:
    plan = _plan(spec)
    assert [r.name for r in plan if r.kind is Kind.PUBLIC_IP] == ["lab-jump-ip"]
    nics = {r.name: r.body for r in plan if r.kind is Kind.NIC}
    with_ip = {
        n
        for n, b in nics.items()
        if "publicIPAddress" in b["properties"]["ipConfigurations"][0]["properties"]
    }
    assert with_ip == {"lab-jump-nic"}


def test_public_ip_where_configured_and_no_jump_host(example_data: dict[str, Any]) -> None:
    example_data["roles"]["client"]["public_ip"] = True
    example_data["jump_host"]["enabled"] = False
    spec = LabSpec.model_validate(example_data)
    assert "lab-jump" not in _vms(spec)
    ips = [r.name for r in _plan(spec) if r.kind is Kind.PUBLIC_IP]
    assert ips == ["lab-client-1-ip", "lab-client-2-ip", "lab-client-3-ip"]


def test_a_zonal_lab_puts_every_vm_and_public_ip_in_its_zone(
    example_data: dict[str, Any],
) -> None:
    regional = _plan(LabSpec.model_validate(example_data))
    assert all("zones" not in r.body for r in regional)
    zonal = _plan(LabSpec.model_validate({**example_data, "zone": "2"}))
    # A zonal VM needs its (Standard) public IP in the same zone; network and NICs have none.
    assert {r.name for r in zonal if r.body.get("zones") == ["2"]} == {
        r.name for r in zonal if r.kind in (Kind.VM, Kind.PUBLIC_IP)
    }
    assert len([r for r in zonal if "zones" in r.body]) == len(
        [r for r in zonal if r.kind in (Kind.VM, Kind.PUBLIC_IP)]
    )


def test_each_vm_boots_with_its_host_key_and_role_vms_set_up(spec: LabSpec) -> None:
    for name, body in _vms(spec).items():
        doc = _cloud_config(body)
        # cloud-init installs mcscope's key and keeps none of the image's own.
        assert doc["ssh_keys"] == {
            "ed25519_private": KEY.private_openssh,
            "ed25519_public": KEY.public_line,
        }
        assert doc["ssh_deletekeys"] is True and doc["ssh_genkeytypes"] == []
        if name == "lab-jump":
            assert "runcmd" not in doc and "write_files" not in doc
            continue
        role = name.split("-")[1]
        assert doc["runcmd"][0][-2:] == ["/opt/mcscope/setup-host.sh", role]


def test_host_keys_are_fresh_ed25519_pairs() -> None:
    a, b = new_host_key(), new_host_key()
    assert a.public_line != b.public_line
    assert a.public_line.startswith("ssh-ed25519 AAAA")
    assert a.private_openssh.startswith("-----BEGIN OPENSSH PRIVATE KEY-----")


@pytest.mark.parametrize("role", list(Role))
def test_cloud_init_carries_the_script_and_runs_it(spec: LabSpec, role: Role) -> None:
    text = render(spec, role, KEY)
    assert text.startswith("#cloud-config\n")
    doc = json.loads(text.split("\n", 1)[1])
    setup, recipe = doc["write_files"]
    assert setup["path"] == "/opt/mcscope/setup-host.sh"
    assert setup["encoding"] == "gz+b64"
    assert gzip.decompress(base64.b64decode(setup["content"])) == SETUP_SCRIPT.read_bytes()
    # setup-host.sh runs the memtier recipe from its own folder.
    assert recipe["path"] == "/opt/mcscope/install-memtier.sh"
    assert gzip.decompress(base64.b64decode(recipe["content"])) == MEMTIER_RECIPE.read_bytes()
    assert doc["runcmd"] == [
        ["env", "MCSCOPE_SETUP_CONFIRM=yes", "bash", "/opt/mcscope/setup-host.sh", role.value]
    ]
    assert render(spec, role, KEY) == text  # the same key renders the same document


def test_cloud_init_passes_the_middleware_git_source(example_data: dict[str, Any]) -> None:
    example_data["middleware_source"] = {
        "git_url": "https://example.org/mcscope.git",
        "git_ref": "v1",
    }
    spec = LabSpec.model_validate(example_data)
    doc = json.loads(render(spec, Role.MIDDLEWARE, KEY).split("\n", 1)[1])
    assert "MIDDLEWARE_GIT_URL=https://example.org/mcscope.git" in doc["runcmd"][0]
    assert "MIDDLEWARE_GIT_REF=v1" in doc["runcmd"][0]
    server = json.loads(render(spec, Role.SERVER, KEY).split("\n", 1)[1])
    assert not any("MIDDLEWARE_GIT" in a for a in server["runcmd"][0])


def test_cloud_init_is_valid_yaml(spec: LabSpec) -> None:
    # cloud-init parses user data as YAML; the JSON body must read back identically.
    text = render(spec, Role.CLIENT, HostKey("-----BEGIN x-----\nabc\n", "ssh-ed25519 AAAA"))
    assert yaml.safe_load(text) == json.loads(text.split("\n", 1)[1])


def test_plan_command_lists_resources_without_a_subscription(
    example_data: dict[str, Any],
    write_spec: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("AZURE_SUBSCRIPTION_ID", raising=False)

    def no_azure(sub: str) -> Any:
        raise AssertionError("plan without a subscription must not connect")

    assert main(["plan", "--spec", str(write_spec(example_data))], connect_to=no_azure) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["resource", "group", "mcscope-lab"]
    assert sum(1 for ln in lines if ln.startswith("virtual machine ")) == 9
    assert any(ln.startswith("tags: mcscope-testbed=lab, mcscope-owner=mcscope") for ln in lines)
    assert "set $AZURE_SUBSCRIPTION_ID to check the vCPU quota" in lines[-1]


def test_yaml_spec_loads_like_json(
    example_data: dict[str, Any], tmp_path: Path, write_spec: Callable[..., Path]
) -> None:
    path = tmp_path / "lab.yaml"
    path.write_text(yaml.safe_dump(example_data))
    assert load_spec(path) == load_spec(write_spec(example_data))
