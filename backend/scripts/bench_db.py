"""Benchmark: aggregation queries over a synthetic experiment of 2,000 runs x 300 s x 10 sources.

Loads the data into a throw-away database (migrated with Alembic, like production), then times
the queries the results view runs. As a reference measured in the same run, the same
per-configuration aggregation is timed over a naive narrow table with one row per second,
so the printed ratio shows what the array-per-run layout buys on this machine.

Run: make bench-db   (or: .venv/bin/python -m backend.scripts.bench_db --runs 2000)
"""

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np
import psycopg
from psycopg import sql

ADMIN_URL = os.environ.get("MCSCOPE_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def _timed(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    fn()  # warm the cache: we measure queries, not first disk reads
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def _load(
    conn: psycopg.Connection, runs: int, seconds: int, clients: int, mws: int, configs: int
) -> None:
    rng = np.random.default_rng(7)
    reps = runs // configs
    with conn.cursor() as cur:
        cur.execute(
            "INSERT INTO experiments (name, description, template, factors, fixed, repetitions,"
            " run_time_s, warmup_s, cooldown_s) VALUES ('bench', '', 'custom', '{}', '{}', %s,"
            " %s, 10, 10) RETURNING id",
            (reps, seconds),
        )
        (exp_id,) = cur.fetchone()  # type: ignore[misc]
        with cur.copy('COPY configurations (experiment_id, index, "values") FROM STDIN') as cp:
            for i in range(configs):
                cp.write_row((exp_id, i, f'{{"clients_per_thread": {i}}}'))
        cur.execute(
            "SELECT id FROM configurations WHERE experiment_id = %s ORDER BY index", (exp_id,)
        )
        config_ids = [r[0] for r in cur.fetchall()]
        with cur.copy(
            "COPY runs (experiment_id, configuration_id, repetition, status, attempt,"
            " cancel_requested, hosts, tool_versions, commands) FROM STDIN"
        ) as cp:
            for rep in range(reps):
                for cid in config_ids:
                    cp.write_row((exp_id, cid, rep, "succeeded", 1, False, "{}", "{}", "[]"))
        cur.execute("SELECT id FROM runs WHERE experiment_id = %s ORDER BY id", (exp_id,))
        run_ids = [r[0] for r in cur.fetchall()]

        sources = [f"client:{i}" for i in range(clients)] + [f"middleware:{i}" for i in range(mws)]
        series_cols = (
            "run_id, source, request_type, start_unix, throughput, response_time_us,"
            " queue_time_us, server_time_us, queue_length"
        )
        summary_cols = (
            "run_id, source, request_type, window_start_s, window_end_s, count,"
            " throughput, response_time_us, p50_us, p90_us, p99_us"
        )
        data: dict[tuple[int, str], tuple[list[float], list[float]]] = {}
        with cur.copy(f"COPY run_series ({series_cols}) FROM STDIN") as cp_series:
            for run_id in run_ids:
                for src in sources:
                    tp = rng.normal(1000, 50, seconds)
                    rt = rng.normal(800, 40, seconds)
                    idle = rng.random(seconds) < 0.01  # seconds without completions
                    tp[idle], rt[idle] = 0.0, np.nan
                    data[(run_id, src)] = (tp.tolist(), rt.tolist())
                    mw = src.startswith("middleware")
                    extra = [
                        rng.normal(300, 20, seconds).tolist() if mw else None for _ in range(3)
                    ]
                    # Middlewares start 0.3 s after the load generators (shifted by 0 s).
                    start = 1.7e9 + (0.3 if mw else 0.0)
                    cp_series.write_row(
                        (run_id, src, "all", start, tp.tolist(), rt.tolist(), *extra)
                    )
        with cur.copy(f"COPY run_summaries ({summary_cols}) FROM STDIN") as cp_sum:
            for run_id in run_ids:
                for src in sources:
                    mean_tp, mean_rt = float(rng.normal(1000, 50)), float(rng.normal(800, 40))
                    cp_sum.write_row(
                        (
                            run_id,
                            src,
                            "all",
                            10,
                            seconds - 10,
                            int(mean_tp * 280),
                            mean_tp,
                            mean_rt,
                            mean_rt * 0.9,
                            mean_rt * 1.5,
                            mean_rt * 3,
                        )
                    )
        # The reference layout: one row per run, source and second.
        cur.execute(
            "CREATE UNLOGGED TABLE narrow (run_id int, source text, second int,"
            " throughput float8, response_time_us float8)"
        )
        with cur.copy("COPY narrow FROM STDIN") as cp_narrow:
            for (run_id, src), (tp_list, rt_list) in data.items():
                for s in range(seconds):
                    cp_narrow.write_row((run_id, src, s, tp_list[s], rt_list[s]))
        cur.execute("CREATE INDEX ON narrow (run_id)")
    conn.commit()
    with conn.cursor() as cur:
        cur.execute("ANALYZE")


def _load_window_histograms(conn: psycopg.Connection, seconds: int, mws: int, width: int) -> None:
    """Per run and middleware source, per-window queue-time histograms of the gets (the rows
    the worker stores: cumulative counts over `width` used log-linear buckets, int32)."""
    from backend.results.log_buckets import MIDDLEWARE_LAYOUT

    rng = np.random.default_rng(11)
    shape = np.exp(-(((np.arange(width) - width / 3) / (width / 6)) ** 2)) + 0.002
    lam = shape * 1000 / shape.sum()  # ~1000 gets per window, a long thin tail
    first = 384  # bucket of ~30 us
    with conn.cursor() as cur:
        cur.execute("SELECT id FROM runs ORDER BY id")
        run_ids = [r[0] for r in cur.fetchall()]
        cols = (
            "run_id, source, request_type, metric, start_unix, sub_buckets, bucket_count,"
            " first_bucket, width, windows, cum"
        )
        with cur.copy(f"COPY run_window_histograms ({cols}) FROM STDIN (FORMAT BINARY)") as cp:
            # enum columns travel as their labels (enum_recv reads text)
            cp.set_types(["int4", "text", "text", "text", "float8"] + ["int4"] * 5 + ["bytea"])
            for run_id in run_ids:
                for m in range(mws):
                    counts = rng.poisson(lam, size=(seconds, width))
                    cum = np.cumsum(counts, axis=0).astype("<i4").tobytes()
                    cp.write_row(
                        (
                            run_id,
                            f"middleware:{m}",
                            "get",
                            "queue",
                            1.7e9 + 0.3,
                            MIDDLEWARE_LAYOUT.sub_buckets,
                            MIDDLEWARE_LAYOUT.bucket_count,
                            first,
                            width,
                            seconds,
                            cum,
                        )
                    )
    conn.commit()
    with conn.cursor() as cur:
        cur.execute("ANALYZE run_window_histograms")


# The straightforward reference for percentiles: read every source's whole stored row and add
# up the window's per-second counts (what a table of one histogram per second would give).
WHOLE_ROWS = """
SELECT r.configuration_id, h.first_bucket, h.width, h.windows,
       floor(h.start_unix - 1.7e9 + 0.5)::int AS off, h.cum
FROM run_window_histograms h JOIN runs r ON r.id = h.run_id
WHERE r.experiment_id = %(e)s AND h.request_type = 'get' AND h.metric = 'queue'
"""


def _reference_percentiles(
    conn: psycopg.Connection, e: int, lo: int, hi: int, qs: tuple[float, ...]
) -> dict[int, list[float]]:
    from backend.analysis.percentiles import percentiles_from_histogram
    from backend.results.log_buckets import MIDDLEWARE_LAYOUT, log_linear_histogram

    sums: dict[int, np.ndarray] = {}
    for cid, first, width, windows, off, cum in conn.execute(WHOLE_ROWS, {"e": e}):
        per_second = np.diff(np.frombuffer(cum, "<i4").reshape(windows, width), axis=0, prepend=0)
        a, b = max(0, min(lo - off, windows)), max(0, min(hi - off, windows))
        total = sums.setdefault(cid, np.zeros(MIDDLEWARE_LAYOUT.bucket_count + 1, np.int64))
        total[first : first + width] += per_second[a:b].sum(axis=0)
    return {
        cid: [
            p.value_us
            for p in percentiles_from_histogram(log_linear_histogram(MIDDLEWARE_LAYOUT, c), qs)
        ]
        for cid, c in sums.items()
    }


# The straightforward reference: the same rules (backend/results/aggregate.py) over one row
# per second, so its numbers must equal the results service's.
NARROW = """
WITH per_source AS (
    SELECT run_id, source, avg(throughput) AS tp,
           sum(throughput * response_time_us) FILTER (WHERE response_time_us <> 'NaN') AS xr,
           sum(throughput) FILTER (WHERE response_time_us <> 'NaN') AS w
    FROM narrow WHERE second >= %(lo)s AND second < %(hi)s AND source LIKE 'client:%%'
    GROUP BY run_id, source
), per_run AS (
    SELECT r.configuration_id, sum(p.tp) AS tp, sum(p.xr) / sum(p.w) AS rt
    FROM per_source p JOIN runs r ON r.id = p.run_id
    WHERE r.experiment_id = %(e)s GROUP BY r.configuration_id, p.run_id
)
SELECT configuration_id, avg(tp), stddev_samp(tp), avg(rt), stddev_samp(rt)
FROM per_run GROUP BY configuration_id ORDER BY configuration_id
"""


def _check_equal(fast: object, reference: object) -> None:
    """The re-cut table must equal the reference's numbers (same rules): print the worst gap."""
    worst = 0.0
    for row, ref in zip(fast, reference, strict=True):  # type: ignore[call-overload]
        tp, rt = row.mean("throughput_per_s"), row.mean("response_time_us")
        for got, want in ((tp, ref[1]), (rt, ref[3])):
            worst = max(worst, abs(got - want) / abs(want))
    print(f"largest relative gap re-cut vs reference:   {worst:.2e}")
    if worst > 1e-9:
        raise SystemExit("the prefix-sum re-cut disagrees with the reference")


def _bench_percentiles(
    session: object, conn: psycopg.Connection, e: int, lo: int, hi: int, repeat: int
) -> None:
    """Window re-cut of middleware percentiles: stored slices vs the whole-row reference."""
    from backend.models import HistogramMetric, RequestType
    from backend.results import histograms
    from backend.results.aggregate import Window

    qs = (50.0, 90.0, 99.0, 99.9)

    def fast() -> dict[int, list[float]]:
        merged = histograms.configuration_histograms(
            session=session,  # type: ignore[arg-type]
            experiment_id=e,
            source="middleware",
            request_type=RequestType.GET,
            metric=HistogramMetric.QUEUE,
            window=Window(lo, hi),
        )
        return {
            cid: [p.value_us for p in histograms.histogram_percentiles(m, qs)]
            for cid, m in merged.items()
        }

    (size,) = conn.execute("SELECT pg_total_relation_size('run_window_histograms')").fetchone()  # type: ignore[misc]
    print(f"\nper-window histograms stored: {size / 2**20:.0f} MiB")
    t_fast, got = _timed(fast, repeat)
    t_ref, want = _timed(lambda: _reference_percentiles(conn, e, lo, hi, qs), repeat)
    name = "window re-cut, middleware p50/p90/p99/p99.9 (2 slices)"
    print(f"{name:58s} {t_fast:9.4f} {len(got):6d}")  # type: ignore[arg-type]
    name = "reference: whole stored rows, per-second counts summed"
    print(f"{name:58s} {t_ref:9.4f} {len(want):6d}")  # type: ignore[arg-type]
    print(f"ratio percentile re-cut / reference:         {t_fast / t_ref:.4f}")
    if got != want:
        raise SystemExit("the sliced percentiles disagree with the reference")
    print("sliced percentiles equal the reference's: yes")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--seconds", type=int, default=300)
    ap.add_argument("--clients", type=int, default=8, help="client sources per run")
    ap.add_argument("--middlewares", type=int, default=2, help="middleware sources per run")
    ap.add_argument("--configurations", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--hist-width",
        type=int,
        default=128,
        help="used log-linear buckets per middleware histogram (3 %% each: 128 spans 16x)",
    )
    args = ap.parse_args()

    db = f"mcscope_bench_{os.getpid()}"
    url = ADMIN_URL.rsplit("/", 1)[0] + f"/{db}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db)))
    os.environ["MCSCOPE_DATABASE_URL"] = url.replace("postgresql://", "postgresql+psycopg://")
    try:
        from alembic import command
        from alembic.config import Config

        from backend.core.config import REPO_ROOT

        command.upgrade(Config(str(REPO_ROOT / "alembic.ini")), "head")
        from backend.core.db import SessionLocal, engine
        from backend.models import Experiment, RequestType
        from backend.results import read
        from backend.results import table as results_table
        from backend.results.aggregate import Window
        from backend.results.selection import ResultsSelection

        sources = args.clients + args.middlewares
        print(
            f"loading {args.runs} runs x {args.seconds} s x {sources} sources "
            f"({args.runs * args.seconds * sources:,} samples) ...",
            flush=True,
        )
        t0 = time.perf_counter()
        with psycopg.connect(url) as conn:
            _load(
                conn, args.runs, args.seconds, args.clients, args.middlewares, args.configurations
            )
            _load_window_histograms(conn, args.seconds, args.middlewares, args.hist_width)
        print(f"loaded in {time.perf_counter() - t0:.1f} s\n")

        with SessionLocal() as session, psycopg.connect(url) as conn:
            exp = session.query(Experiment).filter_by(name="bench").one()
            lo, hi = 30, args.seconds - 30  # a re-cut window other than the stored one

            def table(source: str, window: Window | None) -> Callable[[], object]:
                selection = ResultsSelection(exp, window, source)  # type: ignore[arg-type]
                return lambda: results_table.results_table(session=session, selection=selection)

            def slow_metric() -> object:
                return read.run_values(
                    session=session,
                    experiment_id=exp.id,
                    source="middleware",
                    request_type=RequestType.ALL,
                    metrics=["queue_time_us"],
                    window=Window(lo, hi),
                )

            params = {"e": exp.id, "lo": lo, "hi": hi}
            rows: list[tuple[str, Callable[[], object]]] = [
                ("per-configuration table, client (stored summaries)", table("client", None)),
                ("per-configuration table, middleware (summaries)", table("middleware", None)),
                ("same, client, window re-cut (SQL prefix sums)", table("client", Window(lo, hi))),
                ("window re-cut, middleware queue time (prefix sums)", slow_metric),
                (
                    "reference: narrow one-row-per-second table",
                    lambda: conn.execute(NARROW, params).fetchall(),
                ),
            ]
            results: dict[str, float] = {}
            outputs: dict[str, object] = {}
            print(f"{'query':58s} {'median s':>9s} {'rows':>6s}")
            for name, fn in rows:
                secs, out = _timed(fn, args.repeat)
                results[name], outputs[name] = secs, out
                print(f"{name:58s} {secs:9.4f} {len(out):6d}")  # type: ignore[arg-type]
            ref = results[rows[4][0]]
            print(f"\nratio summaries / reference:               {results[rows[0][0]] / ref:.4f}")
            print(f"ratio prefix-sum re-cut / reference:        {results[rows[2][0]] / ref:.4f}")
            print(f"ratio queue-time re-cut / reference:         {results[rows[3][0]] / ref:.4f}")
            _check_equal(outputs[rows[2][0]], outputs[rows[4][0]])
            _bench_percentiles(session, conn, exp.id, lo, hi, args.repeat)
        engine.dispose()
    finally:
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db))
            )


if __name__ == "__main__":
    main()
