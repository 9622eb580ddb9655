"""Benchmark: report.pdf of the largest grid the API accepts.

Seeds a throw-away database (migrated with Alembic) with one experiment of
settings.GRID_MAX_CONFIGURATIONS configurations (workers x clients per thread, client and
middleware summaries and per-second series, as bench_compare seeds them), then asks the real
app in-process for the report's bundle and its PDF, and prints the engine, the build times, the
sizes and the PDF's pages. Never fails on timing. A name beyond Latin (--name '最大のグリッド')
makes the report a LuaLaTeX one (backend/domain/printing.py): run both to compare the engines.

Run: make bench-report   (or: .venv/bin/python -m backend.scripts.bench_report [--name ...])
"""

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time
import uuid
import zipfile
from pathlib import Path

import psycopg
from psycopg import sql

from backend.scripts.bench_compare import ADMIN_URL, _seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=200, help="levels of the first factor")
    parser.add_argument(
        "--clients", type=int, default=0, help="levels of the second (0: up to the grid limit)"
    )
    parser.add_argument("--repetitions", type=int, default=1)
    parser.add_argument("--seconds", type=int, default=30, help="per-second series length")
    parser.add_argument(
        "--name", default="largest grid", help="the experiment's name (CJK: LuaLaTeX)"
    )
    args = parser.parse_args()

    db = f"mcscope_bench_report_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db)))
    url = ADMIN_URL.rsplit("/", 1)[0] + f"/{db}"
    os.environ["MCSCOPE_DATABASE_URL"] = url.replace("postgresql://", "postgresql+psycopg://")
    # As bench_compare: an open API for the in-process client.
    os.environ.pop("MCSCOPE_ADMIN_TOKEN", None)
    os.environ["MCSCOPE_ALLOWED_HOSTS"] = '["127.0.0.1", "localhost", "testserver"]'
    from backend.core.config import settings  # read with the environment above

    clients = args.clients or settings.GRID_MAX_CONFIGURATIONS // args.workers
    try:
        subprocess.run(
            [sys.executable, "-m", "alembic", "upgrade", "head"], check=True, capture_output=True
        )
        with psycopg.connect(url) as conn:
            exp = _seed(
                conn,
                args.name,
                {"middlewares": 1},
                1.0,
                args.workers,
                clients,
                args.repetitions,
                args.seconds,
            )
        print(
            f"grid: {args.workers} x {clients} = {args.workers * clients} configurations "
            f"(limit {settings.GRID_MAX_CONFIGURATIONS}), {args.repetitions} repetition(s)"
        )
        _bench(exp)
    finally:
        from backend.core.db import engine

        engine.dispose()
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db))
            )


def _bench(exp: int) -> None:
    from fastapi.testclient import TestClient

    from backend.figures.render import renderer
    from backend.main import app
    from backend.report.latex import engine_of

    with TestClient(app) as client:
        renderer.open()  # the warm renderer every request after the first uses
        start = time.perf_counter()
        bundle = client.get(f"/api/v1/experiments/{exp}/report/bundle.zip")
        bundle_s = time.perf_counter() - start
        print(f"bundle.zip: HTTP {bundle.status_code}, {len(bundle.content):,} B, {bundle_s:.1f} s")
        if bundle.status_code == 200:
            with zipfile.ZipFile(io.BytesIO(bundle.content)) as zf:
                print(f"engine: {engine_of(zf.read('main.tex').decode())}")
            _compile_alone(bundle.content)
        start = time.perf_counter()
        pdf = client.get(f"/api/v1/experiments/{exp}/report.pdf")
        pdf_s = time.perf_counter() - start
        print(f"report.pdf: HTTP {pdf.status_code}, {len(pdf.content):,} B, {pdf_s:.1f} s")
    if pdf.status_code == 200:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "report.pdf"
            path.write_bytes(pdf.content)
            info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True)
            pages = [line for line in info.stdout.splitlines() if line.startswith("Pages:")]
            print(f"report.pdf: {pages[0] if pages else 'pages unknown'}")
    else:
        print(pdf.text[:2000])


def _compile_alone(bundle: bytes) -> None:
    """The same bundle compiled by each engine, TeX alone (a Latin one compiles with both:
    the preamble switches on the engine)."""
    from backend.report.builder import TexFailed, compile_bundle
    from backend.report.latex import ENGINE_LINE

    for engine in ("pdflatex", "lualatex"):
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(bundle)) as src, zipfile.ZipFile(out, "w") as dst:
            for item in src.infolist():
                data = src.read(item)
                if item.filename == "main.tex":
                    rest = data.decode().split("\n", 1)[1]
                    data = f"{ENGINE_LINE}{engine}\n{rest}".encode()
                dst.writestr(item, data)
        start = time.perf_counter()
        try:
            compile_bundle(out.getvalue())
            print(f"compile alone, {engine}: {time.perf_counter() - start:.1f} s")
        except TexFailed:
            print(f"compile alone, {engine}: fails (text beyond what it prints)")


if __name__ == "__main__":
    main()
