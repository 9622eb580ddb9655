"""Benchmark: the compare endpoints on two experiments of 2,000 runs each.

Seeds a throw-away database (migrated with Alembic) with two experiments that differ in one
fixed parameter, each 1,000 configurations x 2 repetitions (2,000 succeeded runs, 2,000
configurations in the parallel coordinates), then times every endpoint the Compare page calls
through the real app in-process. The reference, measured in the same run, is the results
endpoint of one experiment (what the results page already loads); ratios are printed
against it. Never fails on timing.

Run: make bench-compare   (or: .venv/bin/python -m backend.scripts.bench_compare)
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

ADMIN_URL = os.environ.get("MCSCOPE_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def _seed(
    conn: psycopg.Connection,
    name: str,
    fixed: dict[str, Any],
    scale: float,
    workers: int,
    clients: int,
    reps: int,
    seconds: int,
) -> int:
    """One experiment: workers x clients configurations, reps succeeded runs each, with
    client and middleware summaries and per-second series (for re-cut windows)."""
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    factors = {
        "workers": list(range(1, workers + 1)),
        "clients_per_thread": list(range(1, clients + 1)),
    }
    with conn.cursor() as cur:
        cur.execute(
            "INSERT INTO experiments (name, description, template, factors, fixed, repetitions,"
            " run_time_s, warmup_s, cooldown_s) VALUES (%s, '', 'custom', %s, %s, %s, %s, 10, 10)"
            " RETURNING id",
            (name, json.dumps(factors), json.dumps(fixed), reps, seconds),
        )
        (exp_id,) = cur.fetchone()  # type: ignore[misc]
        with cur.copy('COPY configurations (experiment_id, index, "values") FROM STDIN') as cp:
            i = 0
            for w in factors["workers"]:
                for c in factors["clients_per_thread"]:
                    cp.write_row((exp_id, i, json.dumps({"workers": w, "clients_per_thread": c})))
                    i += 1
        cur.execute(
            'SELECT id, "values" FROM configurations WHERE experiment_id = %s ORDER BY index',
            (exp_id,),
        )
        configs = cur.fetchall()
        with cur.copy(
            "COPY runs (experiment_id, configuration_id, repetition, status, attempt,"
            " cancel_requested, hosts, tool_versions, commands) FROM STDIN"
        ) as cp:
            for rep in range(reps):
                for cid, _ in configs:
                    cp.write_row(
                        (
                            exp_id,
                            cid,
                            rep,
                            "succeeded",
                            1,
                            False,
                            "{}",
                            '{"memtier_benchmark": "2.3.0"}',
                            "[]",
                        )
                    )
        cur.execute(
            'SELECT r.id, c."values" FROM runs r JOIN configurations c'
            " ON c.id = r.configuration_id WHERE r.experiment_id = %s",
            (exp_id,),
        )
        runs = cur.fetchall()
        # One COPY at a time per connection: build the rows, then copy each table.
        summaries: list[tuple[Any, ...]] = []
        series: list[tuple[Any, ...]] = []
        for run_id, values in runs:
            x = scale * min(values["clients_per_thread"] * 400, 3000 + 40 * values["workers"])
            for source in ("client:0", "middleware:0"):
                tp = rng.normal(x, 0.01 * x, seconds)
                rt = values["clients_per_thread"] * 6 / tp * 1e6
                summaries.append(
                    (
                        run_id,
                        source,
                        "all",
                        10,
                        seconds - 10,
                        int(tp.sum()),
                        float(tp[10:-10].mean()),
                        float(rt[10:-10].mean()),
                    )
                )
                series.append((run_id, source, "all", 1.7e9, tp.tolist(), rt.tolist()))
        with cur.copy(
            "COPY run_summaries (run_id, source, request_type, window_start_s, window_end_s,"
            " count, throughput, response_time_us) FROM STDIN"
        ) as cp:
            for summary in summaries:
                cp.write_row(summary)
        with cur.copy(
            "COPY run_series (run_id, source, request_type, start_unix, throughput,"
            " response_time_us) FROM STDIN"
        ) as cp:
            for row in series:
                cp.write_row(row)
    conn.commit()
    return int(exp_id)


def _timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    fn()  # warm caches: we measure the endpoint, not first disk reads
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=40, help="levels of the first factor")
    parser.add_argument("--clients", type=int, default=25, help="levels of the second factor")
    parser.add_argument("--repetitions", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=60, help="per-second series length")
    parser.add_argument("--repeat", type=int, default=7, help="timed calls per endpoint")
    args = parser.parse_args()

    db = f"mcscope_bench_compare_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db)))
    url = ADMIN_URL.rsplit("/", 1)[0] + f"/{db}"
    os.environ["MCSCOPE_DATABASE_URL"] = url.replace("postgresql://", "postgresql+psycopg://")
    # A fresh database has no tokens: without an admin token the API is open to the in-process
    # client, whose "testserver" host must pass the trusted-host check (as in conftest.py).
    os.environ.pop("MCSCOPE_ADMIN_TOKEN", None)
    os.environ["MCSCOPE_ALLOWED_HOSTS"] = '["127.0.0.1", "localhost", "testserver"]'
    try:
        subprocess.run(
            [sys.executable, "-m", "alembic", "upgrade", "head"], check=True, capture_output=True
        )
        start = time.perf_counter()
        with psycopg.connect(url) as conn:
            a = _seed(
                conn,
                "one middleware",
                {"middlewares": 1},
                1.0,
                args.workers,
                args.clients,
                args.repetitions,
                args.seconds,
            )
            b = _seed(
                conn,
                "two middlewares",
                {"middlewares": 2},
                1.3,
                args.workers,
                args.clients,
                args.repetitions,
                args.seconds,
            )
        configs = args.workers * args.clients
        print(
            f"seeded 2 experiments x {configs} configurations x {args.repetitions} "
            f"repetitions = {2 * configs * args.repetitions} runs "
            f"in {time.perf_counter() - start:.1f} s"
        )
        _bench(a, b, args.repeat)
    finally:
        from backend.core.db import engine

        engine.dispose()
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db))
            )


def _bench(a: int, b: int, repeat: int) -> None:
    from fastapi.testclient import TestClient

    from backend.main import app

    sel = {"experiment_ids": [a, b]}
    window = {**sel, "window_start_s": 10, "window_end_s": 50}
    calls: list[tuple[str, Callable[[TestClient], Any]]] = [
        (
            "results of one experiment (reference)",
            lambda c: c.get(f"/api/v1/experiments/{a}/results"),
        ),
        ("compare/parameters", lambda c: c.post("/api/v1/compare/parameters", json=sel)),
        (
            "compare/differences, throughput",
            lambda c: c.post(
                "/api/v1/compare/differences", json={**sel, "metrics": ["throughput_per_s"]}
            ),
        ),
        (
            "compare/differences, both metrics",
            lambda c: c.post("/api/v1/compare/differences", json=sel),
        ),
        (
            "compare/differences, re-cut window",
            lambda c: c.post(
                "/api/v1/compare/differences", json={**window, "metrics": ["throughput_per_s"]}
            ),
        ),
        (
            "compare/groups by workers, t CI",
            lambda c: c.post(
                "/api/v1/compare/groups",
                json={**sel, "x": "clients_per_thread", "group_by": "workers", "band": "ci"},
            ),
        ),
        (
            "compare/configurations (parallel coordinates)",
            lambda c: c.post("/api/v1/compare/configurations", json=sel),
        ),
    ]
    # The parallel coordinates as JSON and as files (a vector polyline per configuration).
    brushed = {**sel, "brush": {"workers": [[1, 20]]}}

    def parcoords(fmt: str, size: dict[str, str]) -> Callable[[TestClient], Any]:
        url = f"/api/v1/compare/figures/compare-parcoords.{fmt}"
        return lambda c: c.post(url, json={**brushed, **size})

    calls += [
        ("compare-parcoords.json", parcoords("json", {})),
        ("compare-parcoords.pdf, column width", parcoords("pdf", {"width": "column"})),
        ("compare-parcoords.pdf, page width", parcoords("pdf", {"width": "page"})),
        ("compare-parcoords.svg, column width", parcoords("svg", {"width": "column"})),
        ("compare-parcoords.png, column width", parcoords("png", {"width": "column"})),
    ]
    with TestClient(app) as client:
        reference = None
        print(f"{'endpoint':50} {'median':>9} {'ratio':>6} {'rows':>6} {'KiB':>7}")
        for label, call in calls:
            t, r = _timed(lambda call=call: call(client), repeat)  # type: ignore[misc]
            assert r.status_code == 200, r.text
            is_json = r.headers["content-type"].startswith("application/json")
            body = r.json() if is_json else {}
            rows = body.get("count", len(body.get("data", []))) if is_json else 0
            reference = reference or t
            print(
                f"{label:50} {t * 1000:7.1f}ms {t / reference:6.2f} {rows:6} "
                f"{len(r.content) / 1024:7.0f}"
            )


if __name__ == "__main__":
    main()
