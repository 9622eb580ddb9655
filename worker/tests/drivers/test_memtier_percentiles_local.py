"""A real memtier_benchmark run (the pinned release set-up builds) against a real memcached over
the local sshd, 127.0.0.1 only, with its HDR files written next to its JSON: the p99.9 mcscope
reports (the parsed result, and the stored histogram the percentile endpoints read) is
memtier's own JSON value, never the printed HDR table's 2-decimal tick."""

import json
import tempfile
from pathlib import Path

import pytest

from backend.analysis.percentiles import make_histogram, percentiles_from_histogram
from backend.domain.window import design_window
from backend.tests.utils.ports import free_port
from worker.drivers.host import Host
from worker.drivers.loadgen import LoadSpec
from worker.drivers.memcached import MemcachedDriver
from worker.drivers.memtier import MemtierDriver
from worker.parsers import parse_hdr_txt
from worker.parsers.memtier import HDR_SUFFIX
from worker.runs.summarize import StableWindow, client_rows

pytestmark = pytest.mark.integration


@pytest.mark.timeout(120)
def test_reported_p99_9_is_memtiers_json_value(host: Host) -> None:
    workdir = tempfile.mkdtemp(prefix="mcscope-memtier-pct-")
    port = free_port()
    server = MemcachedDriver(host)
    as_root = host.run("id -u").strip() == "0"
    mc = server.launch(
        server.argv(listen="127.0.0.1", port=port, memory=64, as_root=as_root), workdir, "mc"
    )
    try:
        host.wait_listening(mc, port)
        driver = MemtierDriver(host)
        spec = LoadSpec((("127.0.0.1", port),), 1, 1, "1:0", 1, 128, 1000, 2)
        name = "client-0"
        # The worker's own argv, plus the HDR files (the printed table among them).
        argv = [
            *driver.argv(spec, workdir, name),
            f"--hdr-file-prefix={workdir}/{name}{HDR_SUFFIX}",
        ]
        proc = driver.launch(["stdbuf", "-oL", *argv], workdir, name)
        assert host.wait_exit(proc, 60) == 0, host.tail(proc.path("err"))

        local = Path(workdir)
        totals = json.loads((local / f"{name}.json").read_text())["ALL STATS"]["Totals"]
        json_p999 = round(totals["Percentile Latencies"]["p99.90"] * 1000, 6)
        table = parse_hdr_txt((local / f"{name}{HDR_SUFFIX}_FULL_RUN_1.txt").read_text())
        assert table.total_count == totals["Count"] > 1000

        result = driver.parse(local, name)  # what the pipeline calls on the fetched files
        assert result.types["all"].percentiles[99.9] == json_p999
        rows = client_rows(
            "client:0", result, StableWindow.after(proc.start_unix, design_window(2, 0, 0)), False
        )
        (hist,) = [h for h in rows.histograms if h["request_type"].value == "all"]
        stored = make_histogram(hist["upper_bounds_us"], hist["counts"], hist["overflow"])
        (p999,) = percentiles_from_histogram(stored, (99.9,))
        assert p999.value_us == json_p999
    finally:
        host.stop(mc.pid, grace_s=2)
        host.run(f"rm -rf {workdir}")
