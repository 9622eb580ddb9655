"""up/down/status through the runner against the fake az: idempotence, order, failures."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from infra.azure.__main__ import main
from infra.azure.lab import down, status, up
from infra.azure.runner import AzError, AzRunner
from infra.azure.spec import LabSpec


@pytest.fixture()
def spec(example_data: dict[str, Any]) -> LabSpec:
    return LabSpec.model_validate(example_data)


def _verbs(calls: list[list[str]]) -> list[str]:
    return [
        next(a for a in c if a in ("show", "create", "delete", "list", "list-ip-addresses"))
        for c in calls
    ]


def test_up_creates_everything_in_order(spec: LabSpec, fake_az: Any, tmp_path: Path) -> None:
    result = up(spec, AzRunner(), tmp_path / "work")
    assert result.skipped == []
    assert result.created == [
        "group mcscope-lab",
        "nsg mcscope-nsg",
        "nsg-rule allow-ssh",
        "vnet mcscope-vnet",
        "subnet experiments",
        "vm lab-jump",
        "vm lab-server-1",
        "vm lab-server-2",
        "vm lab-server-3",
        "vm lab-middleware-1",
        "vm lab-middleware-2",
        "vm lab-client-1",
        "vm lab-client-2",
        "vm lab-client-3",
    ]
    calls = fake_az.calls()
    # Each resource is looked up, then created; every call asks for JSON.
    assert _verbs(calls) == ["show", "create"] * 14
    assert all(c[-2:] == ["--output", "json"] for c in calls)
    vms = {v["name"]: v for v in fake_az.vms()}
    assert vms["lab-server-1"]["ip"] == "10.42.1.5"  # after the jump host's .4
    assert vms["lab-client-3"]["size"] == "Standard_A2_v2"
    # The custom data az uploaded is the file up wrote for that role.
    cd = Path(vms["lab-middleware-2"]["custom_data"])
    assert cd == tmp_path / "work" / "cloud-init-middleware.yaml"
    runcmd = json.loads(cd.read_text().split("\n", 1)[1])["runcmd"]
    assert runcmd[0][-2:] == ["/opt/mcscope/setup-host.sh", "middleware"]


def test_second_up_creates_nothing(spec: LabSpec, fake_az: Any, tmp_path: Path) -> None:
    up(spec, AzRunner(), tmp_path)
    fake_az.clear_log()
    again = up(spec, AzRunner(), tmp_path)
    assert again.created == []
    assert len(again.skipped) == 14
    assert set(_verbs(fake_az.calls())) == {"show"}
    assert len(fake_az.vms()) == 9


def test_up_resumes_after_a_partial_lab(
    example_data: dict[str, Any], fake_az: Any, tmp_path: Path
) -> None:
    small = {
        **example_data,
        "roles": {**example_data["roles"], "client": {"count": 1, "size": "Standard_A2_v2"}},
    }
    up(LabSpec.model_validate(small), AzRunner(), tmp_path)
    grown = up(LabSpec.model_validate(example_data), AzRunner(), tmp_path)
    assert grown.created == ["vm lab-client-2", "vm lab-client-3"]


def test_up_stops_when_az_is_not_logged_in(
    spec: LabSpec, fake_az: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A failing `show` must not be mistaken for "missing" and lead to creates.
    monkeypatch.setenv("FAKE_AZ_LOGGED_OUT", "1")
    with pytest.raises(AzError, match="az login"):
        up(spec, AzRunner(), tmp_path)
    assert _verbs(fake_az.calls()) == ["show"]


def test_az_call_times_out(fake_az: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_AZ_SLEEP", "5")
    with pytest.raises(AzError, match="timed out"):
        AzRunner(timeout_s=0.5).run(["group", "show", "--name", "rg"])


def test_missing_az_cli_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="az CLI not found"):
        AzRunner()


def test_status_lists_vms_and_power_state(spec: LabSpec, fake_az: Any, tmp_path: Path) -> None:
    assert status(spec, AzRunner()) == []
    up(spec, AzRunner(), tmp_path)
    rows = status(spec, AzRunner())
    assert len(rows) == 9
    assert {r.power_state for r in rows} == {"VM running"}
    jump = next(r for r in rows if r.name == "lab-jump")
    assert jump.public_ip == "198.51.100.7"
    assert next(r for r in rows if r.name == "lab-server-1").public_ip == ""


def test_down_needs_yes(
    example_data: dict[str, Any],
    write_spec: Callable[..., Path],
    fake_az: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["down", "--spec", str(write_spec(example_data))]) == 2
    out = capsys.readouterr()
    assert "az group delete --name mcscope-lab --yes --no-wait" in out.out
    assert "re-run with --yes" in out.err
    assert fake_az.calls() == []


def test_down_deletes_the_resource_group(
    spec: LabSpec,
    example_data: dict[str, Any],
    write_spec: Callable[..., Path],
    fake_az: Any,
    tmp_path: Path,
) -> None:
    up(spec, AzRunner(), tmp_path)
    fake_az.clear_log()
    assert main(["down", "--spec", str(write_spec(example_data)), "--yes"]) == 0
    assert fake_az.calls()[-1][:5] == ["group", "delete", "--name", "mcscope-lab", "--yes"]
    assert fake_az.vms() == []
    assert down(spec, AzRunner()) is False  # already gone


def test_cli_up_then_status(
    example_data: dict[str, Any],
    write_spec: Callable[..., Path],
    fake_az: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(write_spec(example_data))
    assert main(["up", "--spec", path, "--workdir", str(tmp_path / "w")]) == 0
    assert main(["up", "--spec", path, "--workdir", str(tmp_path / "w")]) == 0
    out = capsys.readouterr().out
    assert out.count("created  ") == 14
    assert out.count("exists   ") == 14
    assert main(["status", "--spec", path]) == 0
    assert "lab-middleware-2" in capsys.readouterr().out
