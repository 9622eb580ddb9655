"""Fixtures for the infra suite: a fake `az` first on PATH (the only fake: Azure's API cannot
be reached from here), SSH key files, and the example topology pointed at those keys."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "infra" / "azure" / "examples" / "lab.json"
FAKE_AZ = Path(__file__).with_name("fake_az.py")


@dataclass
class FakeAz:
    """Handle on the fake az: its invocation log and its resource state."""

    log: Path
    state: Path

    def calls(self) -> list[list[str]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def clear_log(self) -> None:
        self.log.write_text("")

    def vms(self) -> list[dict[str, Any]]:
        if not self.state.exists():
            return []
        vms: list[dict[str, Any]] = json.loads(self.state.read_text())["vms"]
        return vms


@pytest.fixture()
def fake_az(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeAz:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    az = bin_dir / "az"
    # -S skips site-packages: the fake needs only the stdlib and starts faster.
    az.write_text(f"#!{sys.executable} -S\n" + FAKE_AZ.read_text())
    az.chmod(0o755)
    fake = FakeAz(log=tmp_path / "az-calls.jsonl", state=tmp_path / "az-state.json")
    monkeypatch.setenv("PATH", f"{bin_dir}:{Path(sys.executable).parent}:/usr/bin:/bin")
    monkeypatch.setenv("FAKE_AZ_LOG", str(fake.log))
    monkeypatch.setenv("FAKE_AZ_STATE", str(fake.state))
    monkeypatch.delenv("FAKE_AZ_LOGGED_OUT", raising=False)
    monkeypatch.delenv("FAKE_AZ_SLEEP", raising=False)
    return fake


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
