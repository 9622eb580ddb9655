"""The command-line tool over the engine, against the fake ARM: up, status, stop/start, down;
and register, which posts the hosts with the keys mcscope generated to the REAL API (TestClient
on PostgreSQL), so they are pinned as given, never scanned."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.azure.arm import Arm, connect
from backend.azure.cloud_init import new_host_key
from backend.azure.lab_spec import LabSpec, Role
from backend.azure.provisioning import Lab, LabHost
from backend.azure.resource_plan import planned_vms
from infra.azure.__main__ import main
from infra.azure.register import (
    build_testbed_payload,
    host_key_lines,
    load_hosts,
    register,
    save_lab,
)
from infra.tests.conftest import fake_options
from infra.tests.fake_arm import SUBSCRIPTION, FakeArm, FakeCredential

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = pytest.mark.hosts_without_load


@pytest.fixture(autouse=True)
def key_folder(keys: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    # The API accepts key paths under its key folder only: make it the test keys' folder.
    from backend.core.config import settings

    monkeypatch.setattr(settings, "SSH_KEY_DIR", keys[0].parent)


@pytest.fixture(autouse=True)
def no_key_reads(monkeypatch: pytest.MonkeyPatch, database: str) -> Iterator[None]:
    """Hosts registered here carry their keys; should one not, the fake VMs' addresses
    (10.42.1.x) exist nowhere, so no key read may start (no traffic leaves this machine)."""
    from sqlalchemy import update

    from backend.core.db import SessionLocal
    from backend.core.host_scans import UNDER_WAY, scanner
    from backend.models import Host

    monkeypatch.setattr(scanner, "submit", lambda hosts, owner=None: None)
    yield
    with SessionLocal() as session:
        session.execute(
            update(Host).where(Host.scan_status.in_(UNDER_WAY)).values(scan_status=None)
        )
        session.commit()


@pytest.fixture()
def lab_name() -> str:
    return "azcli"


def _hosts(spec: LabSpec) -> list[LabHost]:
    """Hosts as `up` records them, without creating anything."""
    return [
        LabHost(vm.name, vm.role, vm.size, f"10.42.1.{i + 4}", None, new_host_key().public_line)
        for i, vm in enumerate(planned_vms(spec))
    ]


@pytest.mark.integration
def test_cli_up_status_stop_start_register_down(
    client: TestClient,
    fake_arm: FakeArm,
    small_lab: LabSpec,
    write_spec: Callable[[dict[str, Any]], Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from backend.core.config import settings

    monkeypatch.setattr(settings, "SSH_KEY_DIR", Path(small_lab.ssh_private_key_path).parent)
    path = str(write_spec(small_lab.model_dump(mode="json")))
    work = tmp_path / "work"

    def to_fake(sub: str) -> Arm:
        assert sub == SUBSCRIPTION
        return connect(sub, FakeCredential(), fake_options(fake_arm))

    def run(*args: str) -> tuple[int, str, str]:
        code = main([*args, "--spec", path, "--subscription", SUBSCRIPTION], connect_to=to_fake)
        out = capsys.readouterr()
        return code, out.out, out.err

    code, out, _ = run("plan")
    assert code == 0
    assert "quota standardAv2Family        needs   5, 0 of 100 used: ok" in out

    code, out, _ = run("up", "--workdir", str(work))
    assert code == 0, out
    assert out.count("created  ") == 9
    hosts = load_hosts(work)
    assert [h.name for h in hosts] == ["azcli-server-1", "azcli-middleware-1", "azcli-client-1"]
    assert all(h.host_key in out for h in hosts)

    code, out, _ = run("status")
    assert [ln.split()[:2] for ln in out.splitlines()] == [
        ["azcli-client-1", "running"],
        ["azcli-middleware-1", "running"],
        ["azcli-server-1", "running"],
    ]
    assert run("stop")[0] == 0
    assert {ln.split()[1] for ln in run("status")[1].splitlines()} == {"deallocated"}
    assert run("start")[0] == 0

    # Registered with the generated keys: the API pins them as given.
    body = register(small_lab, hosts, client=client)
    assert body["kind"] == "azure"
    for h, registered in zip(hosts, body["hosts"], strict=True):
        assert registered["address"] == h.private_ip
        assert registered["host_key"] == h.host_key
        assert registered["host_key_source"] == "supplied"  # pinned as given, not scanned
        assert registered["ssh_user"] == "mcscope"
    assert "PRIVATE KEY" not in json.dumps(body)

    code, out, err = run("down")
    assert code == 2 and "re-run with --yes" in err
    assert fake_arm.resource_ids() != []
    code, out, _ = run("down", "--yes")
    assert (code, out.strip()) == (0, "deleted resource group mcscope-az")
    assert fake_arm.resource_ids() == []
    code, out, err = run("status")
    assert code == 1 and "ResourceGroupNotFound" in err


def test_cli_up_reports_not_enough_quota(
    fake_arm: FakeArm,
    small_lab: LabSpec,
    write_spec: Callable[[dict[str, Any]], Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    fake_arm.set_quota("cores", 3)
    path = str(write_spec(small_lab.model_dump(mode="json")))
    code = main(
        ["up", "--spec", path, "--subscription", SUBSCRIPTION],
        connect_to=lambda s: connect(s, FakeCredential(), fake_options(fake_arm)),
    )
    assert code == 1
    assert capsys.readouterr().err == (
        "error: not enough vCPU quota in westeurope: cores: needs 5 vCPUs, 0 of 3 in use (3 free)\n"
    )


def test_register_twice_is_refused_by_the_api(
    client: TestClient, example_data: dict[str, Any]
) -> None:
    spec = LabSpec.model_validate({**example_data, "name": "azlab-twice"})
    register(spec, _hosts(spec), client=client)
    with pytest.raises(RuntimeError, match="422.*already exists"):
        register(spec, _hosts(spec), client=client)
    names = [t["name"] for t in client.get("/api/v1/testbeds").json()["data"]]
    assert names.count("azlab-twice") == 1


def test_register_before_up_names_the_missing_vms(
    client: TestClient, example_data: dict[str, Any], tmp_path: Path
) -> None:
    spec = LabSpec.model_validate({**example_data, "name": "azlab-empty"})
    with pytest.raises(LookupError, match="run `up` first"):
        load_hosts(tmp_path)
    with pytest.raises(LookupError, match="no recorded host for azlab-empty-server-1, .*up"):
        register(spec, [], client=client)
    names = [t["name"] for t in client.get("/api/v1/testbeds").json()["data"]]
    assert "azlab-empty" not in names


def test_payload_without_middleware(example_data: dict[str, Any]) -> None:
    # The no-middleware baseline: servers and clients only; the jump host is not a host.
    data = {
        **example_data,
        "description": "",
        "roles": {**example_data["roles"], "middleware": {"count": 0, "size": "Standard_A8_v2"}},
    }
    spec = LabSpec.model_validate(data)
    payload = build_testbed_payload(spec, _hosts(spec))
    assert {h["role"] for h in payload["hosts"]} == {"server", "client"}
    assert all(h["host_key"].startswith("ssh-ed25519 ") for h in payload["hosts"])
    # Each host says what its price is looked up by.
    assert {(h["role"], h["size"], h["region"]) for h in payload["hosts"]} == {
        ("server", spec.roles[Role.SERVER].size, "westeurope"),
        ("client", spec.roles[Role.CLIENT].size, "westeurope"),
    }
    assert payload["description"] == (
        "Azure lab mcscope-lab in westeurope: 3 server, 0 middleware, 3 client"
    )
    assert Role.SERVER.value == payload["hosts"][0]["role"]


def test_cli_register_reports_an_unreachable_api(
    example_data: dict[str, Any],
    write_spec: Callable[[dict[str, Any]], Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = LabSpec.model_validate(example_data)
    hosts = _hosts(spec)
    save_lab(Lab(spec.resource_group, spec.region, {}, [], hosts), tmp_path)
    assert load_hosts(tmp_path) == hosts  # what `up` recorded is what `register` reads
    path = str(write_spec(example_data))
    # Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    code = main(
        ["register", "--spec", path, "--workdir", str(tmp_path), "--api-url", "http://127.0.0.1:9"]
    )
    assert code == 1
    assert capsys.readouterr().err.startswith("error: ")


def test_register_prints_each_pinned_key_or_why_not() -> None:
    body = {
        "hosts": [
            {"name": "lab-server-1", "address": "10.42.1.4",
             "host_key_fingerprint": "ssh-ed25519 SHA256:abc", "scan_status": "read"},
            {"name": "lab-client-1", "address": "10.42.1.5", "host_key_fingerprint": None,
             "scan_status": "failed",
             "scan_error": "no SSH host key could be read from 10.42.1.5:22"},
            {"name": "lab-client-2", "address": "10.42.1.6", "host_key_fingerprint": None,
             "scan_status": "scanning", "scan_error": None},
        ]
    }  # fmt: skip
    server, client, reading = host_key_lines(body)
    assert "lab-server-1" in server and server.endswith("ssh-ed25519 SHA256:abc")
    assert "NOT PINNED: no SSH host key could be read from 10.42.1.5:22" in client
    assert reading.endswith("being read: see the Testbeds page")
