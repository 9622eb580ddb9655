"""Benchmark: how soon a good host's SSH key is read when other registrations queued many
hosts whose ports are closed (issue 41 item 7: 20 registrations of 50 closed ports, then one
good host; first in first out read it 312 s after its registration).

In a throw-away database, with the API in this process and its key reads at the settings'
defaults (16 at a time, 5 s each): registers the bad hosts (closed ports on 127.0.0.1), then a
host on 127.0.0.1 that speaks SSH's key exchange, and prints the time from the good host's
registration to its key read, with how many bad hosts were still waiting then.

Run: make bench-key-reads   (or: .venv/bin/python -m backend.scripts.bench_key_reads)
"""

import argparse
import tempfile
import time
from pathlib import Path

from worker.scripts.local_bench import ADMIN_URL, in_process_api, isolate

DB = isolate("keyreads")
in_process_api()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--registrations", type=int, default=20, help="registrations of bad hosts")
    ap.add_argument("--hosts", type=int, default=50, help="closed ports per registration")
    args = ap.parse_args()

    from backend.tests.utils.database import create_database, drop_database

    create_database(ADMIN_URL, DB)
    try:
        _bench(args.registrations, args.hosts)
    finally:
        from backend.core.db import engine
        from backend.core.host_scans import scanner

        scanner.close()
        engine.dispose()
        drop_database(ADMIN_URL, DB)


def _host(name: str, port: int) -> dict[str, object]:
    return {
        "name": name,
        "role": "server",
        "address": "127.0.0.1",
        "ssh_user": "mcscope",
        "ssh_port": port,
        "key_path": "id_ed25519",
    }


def _bench(registrations: int, per_registration: int) -> None:
    from fastapi.testclient import TestClient

    from backend.core.config import settings
    from backend.main import app
    from backend.tests.utils.testbeds import closed_port, ssh_key_listener

    keys = Path(tempfile.mkdtemp(prefix="bench-keys-"))
    (keys / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nplaceholder\n")
    settings.SSH_KEY_DIR = keys
    api = "/api/v1/testbeds"
    bad_ids = []
    with TestClient(app) as client, ssh_key_listener() as (port, key):
        for i in range(registrations):
            hosts = [_host(f"bad{j}", closed_port()) for j in range(per_registration)]
            r = client.post(api, json={"name": f"bad-{i}", "hosts": hosts})
            assert r.status_code == 201, r.text
            bad_ids.append(r.json()["id"])
        registered = time.monotonic()
        r = client.post(api, json={"name": "good", "hosts": [_host("good", port)]})
        assert r.status_code == 201, r.text
        good_id = r.json()["id"]
        while True:
            (good,) = client.get(f"{api}/{good_id}").json()["hosts"]
            if good["scan_status"] not in ("pinning", "scanning"):
                break
            time.sleep(0.05)
        waited = time.monotonic() - registered
        waiting = sum(
            h["scan_status"] == "pinning"
            for i in bad_ids
            for h in client.get(f"{api}/{i}").json()["hosts"]
        )
    bad = registrations * per_registration
    fifo = bad * settings.SSH_KEYSCAN_TIMEOUT_S / settings.SSH_KEYSCAN_CONCURRENCY
    print(
        f"{registrations} registrations x {per_registration} closed ports, then a good host; "
        f"{settings.SSH_KEYSCAN_CONCURRENCY} reads at a time, {settings.SSH_KEYSCAN_TIMEOUT_S} s"
    )
    print(
        f"good host: {good['scan_status']} (key {'as served' if good['host_key'] == key else '?'})"
    )
    print(f"read {waited:.2f} s after its registration; {waiting} of {bad} bad hosts still waiting")
    print(f"first in first out would have read it after about {fifo:.0f} s")


if __name__ == "__main__":
    main()
