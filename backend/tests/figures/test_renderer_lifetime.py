"""The figure renderer's browser belongs to its process: an app's shutdown leaves it open for
the next app of the same process (each test module's, here), and the process's exit closes
it, leaving no Chromium and no profile folder behind (backend/figures/render.py)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import plotly.graph_objects as go
from fastapi.testclient import TestClient

from backend.core.config import REPO_ROOT
from backend.figures.render import renderer
from backend.tests.utils.processes import descendant_pids, pid_alive

GONE_WITHIN_S = 30  # a deadline for the browser's exit, not a measured time


def _figure() -> go.Figure:
    return go.Figure(go.Scatter(x=[1, 2, 3], y=[3, 1, 2]))


def _pdf() -> bytes:
    return renderer.render(_figure(), "pdf", 3.0, 2.0, 300)


def browser_pids(root: int) -> dict[int, int]:
    """The Chromium processes below `root` (kaleido starts it through a Python wrapper), each
    with its parent's PID."""
    found = {}
    for pid in descendant_pids(root):
        try:
            comm = Path(f"/proc/{pid}/comm").read_text()
            parent = int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])
        except OSError:
            continue  # gone since the listing
        if comm.startswith("chrom"):
            found[pid] = parent
    return found


def browsers(root: int) -> set[int]:
    """The browsers' own processes: Chromium's that no Chromium process started (their tabs'
    renderers come and go)."""
    pids = browser_pids(root)
    return {pid for pid, parent in pids.items() if parent not in pids}


def test_an_apps_shutdown_leaves_the_browser_to_the_next_app(database: str) -> None:
    from backend.main import app

    with TestClient(app):
        assert _pdf().startswith(b"%PDF-")
    browser = browsers(os.getpid())
    assert renderer.is_open and len(browser) == 1, browser
    with TestClient(app):  # another app's whole life in this process
        assert _pdf().startswith(b"%PDF-")
    assert renderer.is_open
    # The same browser drew it: it was not started again.
    assert browsers(os.getpid()) == browser, "the browser was started again"


CHILD = """
import os
from pathlib import Path
from backend.tests.figures.test_renderer_lifetime import _pdf, browser_pids

assert _pdf().startswith(b"%PDF-")
pids = browser_pids(os.getpid())
print(" ".join(map(str, pids)))
args = {a for p in pids for a in Path(f"/proc/{p}/cmdline").read_text().split(chr(0))}
print(" ".join(a.partition("=")[2] for a in args if a.startswith("--user-data-dir=")))
"""


def test_the_browser_ends_with_its_process() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    pids, profiles = done.stdout.splitlines()
    browser = [int(pid) for pid in pids.split()]
    assert browser and profiles, "the child rendered without a browser process"
    deadline = time.monotonic() + GONE_WITHIN_S
    while any(pid_alive(pid) for pid in browser) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in browser if pid_alive(pid)]
    assert not left, f"browser processes outlived their process: {left}"
    # Chromium ends by itself when its pipe closes; its profile goes only with a closed browser.
    kept = [folder for folder in profiles.split() if Path(folder).exists()]
    assert not kept, f"the browser's profile folder outlived its process: {kept}"
