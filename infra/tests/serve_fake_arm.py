"""The fake Azure Resource Manager as a process of its own, for the browser tests: the API and
the Celery worker are separate processes, pointed at it by their MCSCOPE_AZURE_* settings.

    python -m infra.tests.serve_fake_arm STATE_DIR

writes STATE_DIR/fake-arm.json (base URL, CA certificate, subscription, token, the network its
VM hosts get addresses in) once it answers, and serves until SIGTERM or SIGINT, then removes
every VM host (namespace, bridge) it made."""

from __future__ import annotations

import json
import signal
import sys
import threading
from pathlib import Path

from infra.tests.fake_arm import SUBSCRIPTION, TOKEN, FakeArm
from worker.tests.drivers.netns import free_network, netns_supported


def main(state_dir: Path) -> int:
    reason = netns_supported()
    if reason:
        print(f"the fake Azure needs network namespaces: {reason}", file=sys.stderr)
        return 2
    network = free_network()
    fake = FakeArm(state_dir, network)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    fake.start()
    try:
        info = {
            "base_url": fake.base_url,
            "cert": str(fake.cert),
            "subscription": SUBSCRIPTION,
            "token": TOKEN,
            "network": str(network),
        }
        ready = state_dir / "fake-arm.json"
        ready.with_suffix(".tmp").write_text(json.dumps(info))
        ready.with_suffix(".tmp").rename(ready)  # whole or absent for the reader
        stop.wait()
    finally:
        fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
