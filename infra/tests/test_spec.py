"""Spec validation: errors name the field, and nothing unsafe can reach an Azure request."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from backend.azure.cloud_init import new_host_key
from backend.azure.lab_spec import LabSpec, Role, load_spec
from backend.azure.resource_plan import build_plan, lab_tags, planned_vms
from infra.azure.__main__ import main

EXAMPLE = Path(__file__).resolve().parents[1] / "azure" / "examples" / "lab.json"


def _set(data: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    node = out
    *parents, last = dotted.split(".")
    for p in parents:
        node = node[p]
    node[last] = value
    return out


def _error_locs(data: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ValidationError) as exc:
        LabSpec.model_validate(data)
    return {".".join(str(p) for p in e["loc"]): e["msg"] for e in exc.value.errors()}


def test_load_example_topology(
    example_data: dict[str, Any], write_spec: Callable[..., Path]
) -> None:
    spec = load_spec(write_spec(example_data))
    assert {r: (rs.count, rs.size) for r, rs in spec.roles.items()} == {
        Role.SERVER: (3, "Standard_A1_v2"),
        Role.MIDDLEWARE: (2, "Standard_A8_v2"),
        Role.CLIENT: (3, "Standard_A2_v2"),
    }
    assert spec.vm_names(Role.SERVER) == ["lab-server-1", "lab-server-2", "lab-server-3"]
    assert spec.network.ssh_source_cidr == "203.0.113.0/24"


def test_shipped_example_only_lacks_the_key_files(tmp_path: Path) -> None:
    # Everything else in the example is valid; the keys are the operator's to create.
    data = json.loads(EXAMPLE.read_text())
    data["ssh_public_key_path"] = str(tmp_path / "absent.pub")
    data["ssh_private_key_path"] = str(tmp_path / "absent")
    locs = _error_locs(data)
    assert set(locs) == {"ssh_public_key_path", "ssh_private_key_path"}
    assert "key file not found" in locs["ssh_public_key_path"]


@pytest.mark.parametrize(
    ("field", "value", "loc", "message"),
    [
        ("roles.server.count", 0, "roles", "roles.server.count must be at least 1"),
        ("roles.client.count", 0, "roles", "roles.client.count must be at least 1"),
        ("roles.server.count", -1, "roles.server.count", "greater than or equal to 0"),
        ("roles.middleware.count", 9, "roles.middleware.count", "less than or equal to 8"),
        ("roles.server.count", "three", "roles.server.count", "valid integer"),
    ],
)
def test_bad_counts_name_the_field(
    example_data: dict[str, Any], field: str, value: Any, loc: str, message: str
) -> None:
    locs = _error_locs(_set(example_data, field, value))
    assert loc in locs
    assert message in locs[loc]


def test_too_many_vms_in_total(example_data: dict[str, Any]) -> None:
    data = example_data
    for role in ("server", "middleware", "client"):
        data = _set(data, f"roles.{role}.count", 8)
    locs = _error_locs(data)  # 24 role VMs + the jump host
    assert "25 VMs requested" in " ".join(locs.values())


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("roles.server.size", "A1", "unknown VM size format 'A1'"),
        ("roles.client.size", "standard_a2_v2", "unknown VM size format"),
        ("roles.middleware.size", "Standard_A4; reboot", "unknown VM size format"),
        ("roles.server.size", "Basic_A1", "retired; use 'Standard_A1_v2'"),
        ("roles.middleware.size", "Basic_A4", "retired; use 'Standard_A8_v2'"),
        ("jump_host.size", "tiny", "unknown VM size format"),
    ],
)
def test_bad_sizes_name_the_field(
    example_data: dict[str, Any], field: str, value: str, message: str
) -> None:
    locs = _error_locs(_set(example_data, field, value))
    assert field in locs
    assert message in locs[field]


@pytest.mark.parametrize("cidr", ["0.0.0.0/0", "::/0"])
def test_ssh_open_to_everyone_is_refused(example_data: dict[str, Any], cidr: str) -> None:
    locs = _error_locs(_set(example_data, "network.ssh_source_cidr", cidr))
    assert "whole internet" in locs["network.ssh_source_cidr"]


def test_missing_key_file_names_the_field(example_data: dict[str, Any], tmp_path: Path) -> None:
    locs = _error_locs(_set(example_data, "ssh_public_key_path", str(tmp_path / "nope.pub")))
    assert list(locs) == ["ssh_public_key_path"]
    assert f"key file not found: {tmp_path / 'nope.pub'}" in locs["ssh_public_key_path"]


def test_public_key_must_look_like_one(
    example_data: dict[str, Any], keys: tuple[Path, Path]
) -> None:
    locs = _error_locs(_set(example_data, "ssh_public_key_path", str(keys[0])))
    assert "not an OpenSSH public key" in locs["ssh_public_key_path"]


def test_relative_key_paths_resolve_against_the_spec_folder(
    example_data: dict[str, Any], keys: tuple[Path, Path], tmp_path: Path
) -> None:
    data = _set(example_data, "ssh_private_key_path", "keys/lab_key")
    data = _set(data, "ssh_public_key_path", "keys/lab_key.pub")
    (tmp_path / "spec.json").write_text(json.dumps(data))
    spec = load_spec(tmp_path / "spec.json")
    assert spec.ssh_private_key_path == str(keys[0])


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", "my lab"),
        ("name", "lab;reboot"),
        ("resource_group", "rg; rm -rf /"),
        ("resource_group", "rg $(id)"),
        ("region", "west europe"),
        ("zone", "4"),
        ("zone", "1; id"),
        ("admin_user", "ops;id"),
        ("admin_user", "root"),
        ("image", "Ubuntu 24.04"),
        ("network.vnet", "v net"),
        ("network.subnet", "sub;net"),
        ("network.nsg", "nsg`id`"),
        ("network.ssh_source_cidr", "0.0.0.0/0"),
        ("network.ssh_source_cidr", "10.0.0.0/8; id"),
        ("network.subnet_prefix", "192.168.0.0/24"),
        ("jump_host.name", "Jump Host"),
        ("middleware_source", {"git_url": "https://x.org/r.git;id"}),
        ("middleware_source", {"git_url": "http://x.org/r.git"}),
        ("ssh_private_key_path", "/tmp/key\nid"),
    ],
)
def test_unsafe_values_are_rejected(example_data: dict[str, Any], field: str, value: Any) -> None:
    locs = _error_locs(_set(example_data, field, value))
    # The error is on the field itself or, for cross-field checks, on its parent model.
    top = field.split(".")[0]
    assert any(loc == field or loc.startswith(top) for loc in locs), locs


def test_cli_reports_field_errors(
    example_data: dict[str, Any],
    write_spec: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = write_spec(_set(example_data, "roles.server.size", "A1"))
    assert main(["plan", "--spec", str(path)]) == 2
    err = capsys.readouterr().err
    assert "invalid spec:" in err
    assert "roles.server.size: Value error, unknown VM size format 'A1'" in err


_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
KEY = new_host_key()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=st.text(min_size=1, max_size=20), rg=st.text(min_size=1, max_size=20))
def test_every_resource_name_comes_from_a_validated_value(
    example_data: dict[str, Any], name: str, rg: str
) -> None:
    # Whatever names are tried, either the spec refuses them or every resource name (each
    # becomes a segment of an ARM URL) is a plain word: no slash, space, quote or '?'.
    data = _set(_set(example_data, "name", name), "resource_group", rg)
    try:
        spec = LabSpec.model_validate(data)
    except ValidationError:
        return
    keys = {vm.name: KEY for vm in planned_vms(spec)}
    tags = lab_tags(spec, datetime(2026, 1, 1, tzinfo=UTC))
    for res in build_plan(spec, "sub", tags, keys):
        assert _SAFE_NAME.match(res.name), res.name
