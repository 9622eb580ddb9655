"""The plan for the example topology, and the cloud-init data each role VM boots with."""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from infra.azure.__main__ import main
from infra.azure.cloud_init import MEMTIER_RECIPE, SETUP_SCRIPT, render
from infra.azure.plan import build_plan
from infra.azure.runner import command_line
from infra.azure.spec import LabSpec, Role, load_spec


def _opt(args: tuple[str, ...], name: str) -> str:
    return args[args.index(name) + 1]


@pytest.fixture()
def spec(example_data: dict[str, Any]) -> LabSpec:
    return LabSpec.model_validate(example_data)


def test_plan_creates_network_then_one_vm_per_role_instance(spec: LabSpec, tmp_path: Path) -> None:
    steps = build_plan(spec, tmp_path)
    assert [(s.kind, s.name) for s in steps[:5]] == [
        ("group", "mcscope-lab"),
        ("nsg", "mcscope-nsg"),
        ("nsg-rule", "allow-ssh"),
        ("vnet", "mcscope-vnet"),
        ("subnet", "experiments"),
    ]
    vms = {s.name: s.create for s in steps if s.kind == "vm"}
    assert list(vms) == [
        "lab-jump",
        "lab-server-1",
        "lab-server-2",
        "lab-server-3",
        "lab-middleware-1",
        "lab-middleware-2",
        "lab-client-1",
        "lab-client-2",
        "lab-client-3",
    ]
    sizes = {n: _opt(c, "--size") for n, c in vms.items()}
    assert sizes["lab-server-2"] == "Standard_A1_v2"
    assert sizes["lab-middleware-1"] == "Standard_A8_v2"
    assert sizes["lab-client-3"] == "Standard_A2_v2"
    assert sizes["lab-jump"] == "Standard_B2s"
    for _name, create in vms.items():
        assert _opt(create, "--resource-group") == "mcscope-lab"
        assert _opt(create, "--subnet") == "experiments"
        assert _opt(create, "--ssh-key-values") == spec.ssh_public_key_path
        assert _opt(create, "--admin-username") == "mcscope"


def test_nsg_allows_ssh_only_from_the_configured_source(spec: LabSpec, tmp_path: Path) -> None:
    rule = next(s.create for s in build_plan(spec, tmp_path) if s.kind == "nsg-rule")
    assert _opt(rule, "--source-address-prefixes") == "203.0.113.0/24"
    assert _opt(rule, "--destination-port-ranges") == "22"
    assert _opt(rule, "--access") == "Allow"
    assert _opt(rule, "--direction") == "Inbound"
    subnet = next(s.create for s in build_plan(spec, tmp_path) if s.kind == "subnet")
    assert _opt(subnet, "--network-security-group") == "mcscope-nsg"


def test_only_the_jump_host_gets_a_public_ip(spec: LabSpec, tmp_path: Path) -> None:
    vms = {s.name: s.create for s in build_plan(spec, tmp_path) if s.kind == "vm"}
    public = {n for n, c in vms.items() if _opt(c, "--public-ip-address") != ""}
    assert public == {"lab-jump"}
    assert _opt(vms["lab-jump"], "--public-ip-address") == "lab-jump-ip"


def test_public_ip_where_configured_and_no_jump_host(
    example_data: dict[str, Any], tmp_path: Path
) -> None:
    example_data["roles"]["client"]["public_ip"] = True
    example_data["jump_host"]["enabled"] = False
    spec = LabSpec.model_validate(example_data)
    vms = {s.name: s.create for s in build_plan(spec, tmp_path) if s.kind == "vm"}
    assert "lab-jump" not in vms
    public = {n for n, c in vms.items() if _opt(c, "--public-ip-address") != ""}
    assert public == {"lab-client-1", "lab-client-2", "lab-client-3"}


def test_each_role_vm_boots_setup_host_for_its_role(spec: LabSpec, tmp_path: Path) -> None:
    vms = {s.name: s.create for s in build_plan(spec, tmp_path) if s.kind == "vm"}
    assert "--custom-data" not in vms["lab-jump"]
    for name, create in vms.items():
        if name == "lab-jump":
            continue
        role = name.split("-")[1]
        assert _opt(create, "--custom-data") == str(tmp_path / f"cloud-init-{role}.yaml")


@pytest.mark.parametrize("role", list(Role))
def test_cloud_init_carries_the_script_and_runs_it(spec: LabSpec, role: Role) -> None:
    text = render(spec, role)
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
    assert render(spec, role) == text  # reproducible, so re-planning changes nothing


def test_cloud_init_passes_the_middleware_git_source(example_data: dict[str, Any]) -> None:
    example_data["middleware_source"] = {
        "git_url": "https://example.org/mcscope.git",
        "git_ref": "v1",
    }
    spec = LabSpec.model_validate(example_data)
    doc = json.loads(render(spec, Role.MIDDLEWARE).split("\n", 1)[1])
    assert "MIDDLEWARE_GIT_URL=https://example.org/mcscope.git" in doc["runcmd"][0]
    assert "MIDDLEWARE_GIT_REF=v1" in doc["runcmd"][0]
    server = json.loads(render(spec, Role.SERVER).split("\n", 1)[1])
    assert not any("MIDDLEWARE_GIT" in a for a in server["runcmd"][0])


def test_plan_command_prints_the_az_commands(
    example_data: dict[str, Any],
    write_spec: Callable[..., Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    workdir = tmp_path / "work"
    assert main(["plan", "--spec", str(write_spec(example_data)), "--workdir", str(workdir)]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if not ln.startswith("#")]
    spec = LabSpec.model_validate(example_data)
    assert lines == [command_line(s.create) for s in build_plan(spec, workdir)]
    assert len(lines) == 5 + 1 + 3 + 2 + 3
    assert not workdir.exists()  # plan changes nothing, not even local files


def test_cloud_init_is_valid_yaml(spec: LabSpec) -> None:
    # cloud-init parses user data as YAML; the JSON body must read back identically.
    text = render(spec, Role.CLIENT)
    assert yaml.safe_load(text) == json.loads(text.split("\n", 1)[1])


def test_yaml_spec_loads_like_json(
    example_data: dict[str, Any], tmp_path: Path, write_spec: Callable[..., Path]
) -> None:
    path = tmp_path / "lab.yaml"
    path.write_text(yaml.safe_dump(example_data))
    assert load_spec(path) == load_spec(write_spec(example_data))
