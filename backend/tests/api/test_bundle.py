"""The report bundle: unzips into figures, tables, raw data and a main.tex that compiles."""

import csv
import io
import subprocess
import zipfile
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.figures.catalog import FIGURES
from backend.report.latex import long_date
from backend.tables.catalog import TABLES
from backend.tests.api.test_tables import compile_latex
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.stored import stored_experiment

API = "/api/v1/experiments"
REPORT_FIGURES = list(FIGURES)  # the default report: every figure


pytestmark = pytest.mark.usefixtures("closes_renderer")


def test_read_bundle_compiles_with_pdflatex(
    client: TestClient, db: Session, tmp_path: Path
) -> None:
    exp = stored_experiment(client, db, name="Bundle 2x2 #1")
    before = datetime.now(UTC).date()
    r = client.get(f"{API}/{exp['id']}/bundle.zip")
    after = datetime.now(UTC).date()
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/zip"
    assert 'filename="bundle-2x2-1-report.zip"' in r.headers["content-disposition"]
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        names = set(zf.namelist())
        zf.extractall(tmp_path)
    assert {f"figures/{n}.pdf" for n in REPORT_FIGURES} <= names
    assert {f"tables/{n}.{ext}" for n in TABLES for ext in ("tex", "csv")} <= names
    assert "main.tex" in names and "data/runs.csv" in names
    main = (tmp_path / "main.tex").read_text()
    # Titled by the experiment, dated the day of the export (not "mcscope report").
    assert "\\title{Experiment Bundle 2x2 \\#1}" in main
    assert {f"\\date{{{long_date(d)}}}" for d in (before, after)} & {
        line for line in main.splitlines() if line.startswith("\\date")
    }
    assert "mcscope report" not in main
    for n in REPORT_FIGURES:
        assert f"\\includegraphics{{figures/{n}.pdf}}" in main
    for n in TABLES:
        assert f"\\input{{tables/{n}}}" in main
    done = compile_latex(tmp_path)
    assert done.returncode == 0, done.stdout[-3000:]
    text = " ".join(
        subprocess.run(
            ["pdftotext", str(tmp_path / "main.pdf"), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    )
    assert "Experiment Bundle 2x2 #1" in text
    assert "Figure 1: Throughput" in text and "Table 1: Configuration" in text
    # The figures are vector inside the report too: text, no raster image.
    images = subprocess.run(
        ["pdfimages", "-list", str(tmp_path / "main.pdf")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()[2:]
    assert images == []
    runs = list(csv.reader(io.StringIO((tmp_path / "data/runs.csv").read_text())))
    # Factor columns in the order the design gave them (clients per thread, then workers).
    assert runs[0][:4] == ["Configuration", "Clients per thread", "Worker threads", "Repetition"]
    # configurations x repetitions x (client, middleware and 4 monitor sources)
    assert len(runs) == 1 + 4 * 2 * 6


def test_read_bundle_names_what_it_left_out(
    client: TestClient, db: Session, tmp_path: Path
) -> None:
    # Three worker levels: no 2^k design, so the default bundle plans no factorial item.
    exp = stored_experiment(
        client, db, factors={"clients_per_thread": [1, 4], "workers": [8, 16, 32]}
    )
    r = client.get(f"{API}/{exp['id']}/bundle.zip")
    assert r.status_code == 200, r.text
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        names = set(zf.namelist())
        zf.extractall(tmp_path)
    assert "figures/throughput.pdf" in names and "figures/factorial-effects.pdf" not in names
    main = (tmp_path / "main.tex").read_text()
    assert "factorial" not in main and "Not included" not in main
    assert compile_latex(tmp_path).returncode == 0
    # A factorial the user asks for anyway is left out and named, with the reason.
    items = [{"kind": "figure", "name": "throughput"}, {"kind": "figure", "name": "qq"}]
    assert client.put(f"{API}/{exp['id']}/report", json={"items": items}).status_code == 200
    r = client.get(f"{API}/{exp['id']}/report/bundle.zip")
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        main = zf.read("main.tex").decode()
    assert "Not included" in main and "figure qq" in main and "two-level factors" in main


def test_long_date_is_the_same_in_every_locale() -> None:
    assert long_date(date(2026, 11, 3)) == "3 November 2026"
    assert long_date(date(2027, 1, 31)) == "31 January 2027"


def test_read_bundle_not_found(client: TestClient) -> None:
    r = client.get(f"{API}/999999999/bundle.zip")
    assert r.status_code == 404 and r.json()["detail"] == "Experiment not found"
    exp = create_random_experiment(client)
    r = client.get(f"{API}/{exp['id']}/bundle.zip", params={"source": "server"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "source"]
