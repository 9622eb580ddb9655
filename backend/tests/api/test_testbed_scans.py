"""Registering hosts reads no keys in the request and probes nothing it should not.

Addresses outside the host networks (link-local, cloud metadata, unspecified, multicast, or
outside MCSCOPE_HOST_NETWORKS) are a 422 naming the field before any connection; keys are read
in the background, bounded, and a failed read says the same whatever the port did. Every
connection goes to 127.0.0.1, to sockets the test opens.
"""

import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import delete, update
from sqlalchemy.orm import Session

from backend.core import addresses
from backend.core.config import settings
from backend.core.host_scans import UNDER_WAY
from backend.models import ApiToken, Host
from backend.tests.utils.experiment import random_name
from backend.tests.utils.server import ApiServer
from backend.tests.utils.testbeds import (
    chatty_listener,
    closed_port,
    counting_listeners,
    silent_listeners,
    ssh_key_listener,
    wait_for_scans,
)

API = "/api/v1/testbeds"


@pytest.fixture()
def key_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "keys"
    folder.mkdir()
    (folder / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nplaceholder\n")
    monkeypatch.setattr(settings, "SSH_KEY_DIR", folder)
    return folder


@pytest.fixture()
def connections(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """Every connection or name look-up this process attempts, refused before any packet."""
    seen: list[object] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        seen.append(args[0] if args else kwargs)
        raise OSError("no traffic in this test")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    yield seen


def _host(name: str, address: str, port: int = 22, **over: object) -> dict[str, object]:
    return {
        "name": name,
        "role": "server",
        "address": address,
        "ssh_user": "mcscope",
        "ssh_port": port,
        "key_path": "id_ed25519",
        **over,
    }


REFUSED = {
    "169.254.169.254": "link-local",
    "::ffff:169.254.169.254": "link-local",
    "fe80::1": "link-local",
    "metadata.google.internal": "metadata",
    "0.0.0.0": "unspecified",
    "::": "unspecified",
    "224.0.0.1": "multicast",
    "ff02::1": "multicast",
    "255.255.255.255": "broadcast",
    "8.8.8.8": "outside the networks",
}


def test_refused_addresses_are_422_naming_the_field_without_any_connection(
    client: TestClient, key_dir: Path, connections: list[object]
) -> None:
    for address, why in REFUSED.items():
        hosts = [_host("ok", "127.0.0.1", host_key=None), _host("bad", address)]
        r = client.post(API, json={"name": random_name("tb"), "hosts": hosts})
        assert r.status_code == 422, (address, r.text)
        (detail,) = r.json()["detail"]
        assert detail["loc"] == ["body", "hosts", 1, "address"], address
        assert why in detail["msg"], (address, detail["msg"])
    assert connections == []


def test_a_name_resolving_to_link_local_is_422(
    client: TestClient, key_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A DNS answer made up here (no resolver is asked): the name points at the metadata service.
    answers = {"lab-meta": ["169.254.169.254"], "lab-ok": ["10.1.2.3"]}
    monkeypatch.setattr(
        addresses,
        "resolve",
        lambda name, port: [ipaddress.ip_address(a) for a in answers[name]],
    )
    hosts = [_host("ok", "lab-ok", host_key=None), _host("meta", "lab-meta")]
    r = client.post(API, json={"name": random_name("tb"), "hosts": hosts})
    assert r.status_code == 422, r.text
    (detail,) = r.json()["detail"]
    assert detail["loc"] == ["body", "hosts", 1, "address"]
    assert "lab-meta resolves to 169.254.169.254" in detail["msg"]


def test_the_host_networks_are_a_setting(
    client: TestClient, key_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
    body = {"name": random_name("tb"), "hosts": [_host("a", "10.9.8.7", host_key=given)]}
    assert client.post(API, json=body).status_code == 201
    monkeypatch.setattr(settings, "HOST_NETWORKS", [ipaddress.ip_network("10.42.0.0/16")])
    r = client.post(API, json={**body, "name": random_name("tb")})
    assert r.status_code == 422 and "MCSCOPE_HOST_NETWORKS" in r.json()["detail"][0]["msg"]


def test_a_failed_read_says_the_same_for_refused_silent_and_non_ssh_ports(
    client: TestClient, key_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "SSH_KEYSCAN_TIMEOUT_S", 1.0)
    refused = closed_port()
    with silent_listeners(1) as (silent,), chatty_listener() as chatty:
        ports = {"refused": refused, "silent": silent, "chatty": chatty}
        hosts = [_host(kind, "127.0.0.1", port) for kind, port in ports.items()]
        r = client.post(API, json={"name": random_name("tb"), "hosts": hosts})
        assert r.status_code == 201, r.text
        assert {h["scan_status"] for h in r.json()["hosts"]} == {"pinning"}
        found = wait_for_scans(client, r.json()["id"])
    for host in found:
        port = ports[host["name"]]
        assert host["scan_status"] == "failed" and host["host_key"] is None, host
        assert host["scan_error"] == f"no SSH host key could be read from 127.0.0.1:{port}"


SILENT_HOSTS = 48
REGISTRATIONS = 4


def test_many_silent_hosts_do_not_block_the_api(
    tmp_path: Path, key_dir: Path, database: str
) -> None:
    """The reviewer's stall, scaled down: registrations of hosts whose ports never answer
    return at once, /health answers while their reads are under way, and every read ends
    with the one message."""
    env = {"MCSCOPE_SSH_KEY_DIR": str(key_dir), "MCSCOPE_SSH_KEYSCAN_TIMEOUT_S": "1"}
    server = ApiServer(tmp_path, **env).start()
    try:
        with (
            silent_listeners(SILENT_HOSTS * REGISTRATIONS) as ports,
            httpx.Client(base_url=server.url, timeout=30) as http,
        ):
            ids = []
            for i in range(REGISTRATIONS):
                mine = ports[i * SILENT_HOSTS : (i + 1) * SILENT_HOSTS]
                hosts = [_host(f"h{p}", "127.0.0.1", p) for p in mine]
                r = http.post(API, json={"name": random_name("silent"), "hosts": hosts})
                assert r.status_code == 201, r.text
                ids.append(r.json()["id"])
            health = http.get("/api/v1/health")
            assert health.status_code == 200, health.text
            # ... while reads were still under way (the last registration's, at least).
            last = http.get(f"{API}/{ids[-1]}").json()["hosts"]
            assert any(h["scan_status"] == "pinning" for h in last), last
            for testbed_id in ids:
                for host in wait_for_scans(http, testbed_id, timeout_s=120):
                    assert host["scan_status"] == "failed", host
                    assert host["scan_error"] == (
                        f"no SSH host key could be read from 127.0.0.1:{host['ssh_port']}"
                    )
    finally:
        server.stop()


def test_an_unfinished_read_is_resumed_when_the_api_starts(
    client: TestClient, key_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backend.core.host_scans import scanner

    monkeypatch.setattr(settings, "SSH_KEYSCAN_TIMEOUT_S", 1.0)
    submitted: list[object] = []
    with monkeypatch.context() as m:
        m.setattr(scanner, "submit", lambda hosts, owner: submitted.extend(hosts))  # API "stops"
        body = {"name": random_name("tb"), "hosts": [_host("ghost", "127.0.0.1", closed_port())]}
        r = client.post(API, json=body)
    assert r.status_code == 201 and len(submitted) == 1
    # Nothing reads it until the API starts again.
    assert client.get(f"{API}/{r.json()['id']}").json()["hosts"][0]["scan_status"] == "pinning"
    scanner.resume()
    (host,) = wait_for_scans(client, r.json()["id"])
    assert host["scan_status"] == "failed"


def test_reads_in_flight_are_bounded(
    client: TestClient, key_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten silent hosts, at most two reads at a time (MCSCOPE_SSH_KEYSCAN_CONCURRENCY): the
    listeners never see more than two connections open at once, and every host gets its read."""
    from backend.core.host_scans import scanner

    scanner.close()  # a new pool, sized by the setting below
    monkeypatch.setattr(settings, "SSH_KEYSCAN_CONCURRENCY", 2)
    monkeypatch.setattr(settings, "SSH_KEYSCAN_TIMEOUT_S", 0.5)
    try:
        with counting_listeners(10) as (ports, open_count):
            hosts = [_host(f"h{p}", "127.0.0.1", p) for p in ports]
            r = client.post(API, json={"name": random_name("tb"), "hosts": hosts})
            assert r.status_code == 201, r.text
            found = wait_for_scans(client, r.json()["id"])
        assert {h["scan_status"] for h in found} == {"failed"}
        assert open_count.total == 10 and open_count.most <= 2, vars(open_count)
    finally:
        scanner.close()


AHEAD = 6  # registrations of silent hosts before the good one
SILENT_EACH = 4


def test_a_good_host_is_read_before_other_registrations_silent_backlog(
    client: TestClient, db: Session, key_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41 item 7, scaled down: registrations of silent hosts, then one good host; its
    read is taken after at most one read of each registration ahead of it, not after their
    whole backlog (2 slots: 12 slot turns deep)."""
    from backend.core.host_scans import scanner

    scanner.close()  # a new pool, sized by the setting below
    monkeypatch.setattr(settings, "SSH_KEYSCAN_CONCURRENCY", 2)
    # Ample for a key exchange on a loaded machine; the silent backlog is never waited out.
    monkeypatch.setattr(settings, "SSH_KEYSCAN_TIMEOUT_S", 3.0)
    taken: list[tuple[str, int]] = []  # the slot bookkeeping: targets in the order read
    read = scanner._read

    def spy(target: tuple[str, int]) -> None:
        taken.append(target)
        read(target)

    monkeypatch.setattr(scanner, "_read", spy)
    ids = []
    try:
        with silent_listeners(AHEAD * SILENT_EACH) as ports, ssh_key_listener() as (port, key):
            for i in range(AHEAD):
                mine = ports[i * SILENT_EACH : (i + 1) * SILENT_EACH]
                hosts = [_host(f"h{p}", "127.0.0.1", p) for p in mine]
                r = client.post(API, json={"name": random_name("silent"), "hosts": hosts})
                assert r.status_code == 201, r.text
                ids.append(r.json()["id"])
            body = {"name": random_name("good"), "hosts": [_host("good", "127.0.0.1", port)]}
            r = client.post(API, json=body)
            assert r.status_code == 201, r.text
            before = len(taken)  # reads taken by the time the good host was queued, or more
            (good,) = wait_for_scans(client, r.json()["id"])
            assert good["scan_status"] == "read" and good["host_key"] == key, good
            at = taken.index(("127.0.0.1", port))
            # After at most one host of each registration ahead of it; first in first out
            # would have taken the whole silent backlog (24) first.
            assert at - before <= AHEAD, (before, taken)
            assert at < AHEAD * SILENT_EACH
    finally:
        scanner.close()  # drops the backlog; the reads under way end within their timeout
        db.execute(
            update(Host)
            .where(Host.testbed_id.in_(ids), Host.scan_status.in_(UNDER_WAY))
            .values(scan_status="failed")
        )
        db.commit()


def test_reads_are_queued_in_the_turn_of_the_token_that_registered_them(
    client: TestClient, db: Session, key_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner the scanner takes turns by is the caller's token name."""
    from backend.core import tokens
    from backend.core.host_scans import scanner

    monkeypatch.setattr(settings, "ADMIN_TOKEN", SecretStr("admin-" + "x" * 40))
    submitted: list[tuple[list[str], str | None]] = []
    monkeypatch.setattr(
        scanner, "submit", lambda hosts, owner: submitted.append(([h.name for h in hosts], owner))
    )
    alice = tokens.create(db, "alice")
    db.commit()
    try:
        for token, name in (("admin-" + "x" * 40, "a"), (alice, "b")):
            body = {"name": random_name("tb"), "hosts": [_host(name, "127.0.0.1", closed_port())]}
            r = client.post(API, json=body, headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 201, r.text
            host = r.json()["hosts"][0]
            path = f"{API}/{r.json()['id']}/hosts/{host['id']}/host-key/scan"
            db.execute(update(Host).where(Host.id == host["id"]).values(scan_status="failed"))
            db.commit()
            r = client.post(path, headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 202, r.text
    finally:
        db.execute(delete(ApiToken))
        db.execute(update(Host).where(Host.scan_status.in_(UNDER_WAY)).values(scan_status=None))
        db.commit()
    admin = tokens.ADMIN_NAME
    assert submitted == [(["a"], admin), (["a"], admin), (["b"], "alice"), (["b"], "alice")]
