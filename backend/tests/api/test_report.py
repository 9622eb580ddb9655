"""The report builder: hypothesis timestamped against the runs, chosen items, bundle and PDF."""

import io
import re
import subprocess
import zipfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from backend.api.routes.reports import TEX_FAILED
from backend.figures.catalog import FIGURES
from backend.models import Run
from backend.models.base import utcnow
from backend.tables.catalog import TABLES
from backend.tables.table import MAX_PARTS, ROWS_PER_PART
from backend.tests.api.test_tables import compile_latex
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.stored import stored_experiment

API = "/api/v1/experiments"
REPORT_FIGURES = list(FIGURES)  # the default report: every figure


pytestmark = pytest.mark.usefixtures("closes_renderer")


def test_read_report_defaults_to_every_item(client: TestClient) -> None:
    exp = create_random_experiment(client)
    body = client.get(f"{API}/{exp['id']}/report").json()
    assert body["hypothesis"] == "" and body["hypothesis_before_runs"] is False
    names = {(i["kind"], i["name"]) for i in body["items"]}
    assert names == {("figure", n) for n in REPORT_FIGURES} | {("table", n) for n in TABLES}


def test_hypothesis_counts_as_before_the_runs_only_if_it_was(
    client: TestClient, db: Session
) -> None:
    exp = create_random_experiment(client)
    r = client.put(f"{API}/{exp['id']}/report", json={"hypothesis": "X saturates at 16 workers"})
    assert r.status_code == 200, r.text
    assert r.json()["hypothesis_before_runs"] is True and r.json()["hypothesis_at"]
    client.post(f"{API}/{exp['id']}/start")
    client.post(f"{API}/{exp['id']}/cancel")
    db.execute(
        update(Run)
        .where(Run.experiment_id == exp["id"])
        .values(started_at=utcnow() + timedelta(seconds=1))
    )
    db.commit()
    # Notes do not touch the hypothesis' timestamp.
    r = client.put(f"{API}/{exp['id']}/report", json={"notes": "ran on Tuesday"})
    assert r.json()["hypothesis_before_runs"] is True
    db.execute(
        update(Run)
        .where(Run.experiment_id == exp["id"])
        .values(started_at=utcnow() - timedelta(hours=1))
    )
    db.commit()
    r = client.put(f"{API}/{exp['id']}/report", json={"hypothesis": "X saturates at 32 workers"})
    assert r.json()["hypothesis_before_runs"] is False


def test_update_report_rejects_unknown_items(client: TestClient) -> None:
    exp = create_random_experiment(client)
    r = client.put(
        f"{API}/{exp['id']}/report",
        json={
            "items": [{"kind": "figure", "name": "throughput"}, {"kind": "table", "name": "pie"}]
        },
    )
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "items", 1, "name"]
    r = client.put(f"{API}/{exp['id']}/report", json={"title": "x"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "title"]
    assert client.put(f"{API}/999999999/report", json={}).status_code == 404


def test_report_bundle_and_pdf_follow_the_users_plan(
    client: TestClient, db: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exp = stored_experiment(client, db, name="Report plan")
    plan = {
        "hypothesis": "Throughput grows with clients per thread.",
        "notes": "Seeded results.",
        "items": [
            {"kind": "table", "name": "summary", "explanation": "Means first."},
            {"kind": "figure", "name": "throughput", "caption": "Throughput of our grid."},
        ],
    }
    assert client.put(f"{API}/{exp['id']}/report", json=plan).status_code == 200
    r = client.get(f"{API}/{exp['id']}/report/bundle.zip")
    assert r.status_code == 200, r.text
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        names = set(zf.namelist())
        zf.extractall(tmp_path)
    assert {n for n in names if n.startswith("figures/")} == {"figures/throughput.pdf"}
    main = (tmp_path / "main.tex").read_text()
    # Stored runs were seeded without a start time: the hypothesis predates them all.
    assert "Throughput grows with clients per thread. (written before the runs" in main
    assert main.index("tables/summary") < main.index("figures/throughput.pdf")
    assert "Throughput of our grid." in main and "Means first." in main
    assert compile_latex(tmp_path).returncode == 0
    pdf = client.get(f"{API}/{exp['id']}/report.pdf")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    (tmp_path / "r.pdf").write_bytes(pdf.content)
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "r.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Hypothesis" in text and "Seeded results." in text
    # Without a TeX engine the answer says so and what to do instead.
    monkeypatch.setattr("backend.report.builder.shutil.which", lambda _: None)
    r = client.get(f"{API}/{exp['id']}/report.pdf")
    assert r.status_code == 503 and "No TeX engine (pdflatex)" in r.json()["detail"]


def _csv_rows(text: str) -> list[dict[str, str]]:
    import csv

    return list(csv.DictReader(io.StringIO(text)))


def test_default_report_of_a_3x2_design_holds_what_it_can(client: TestClient, db: Session) -> None:
    exp = stored_experiment(
        client, db, factors={"clients_per_thread": [1, 2, 4], "workers": [8, 16]}
    )
    items = client.get(f"{API}/{exp['id']}/report").json()["items"]
    names = {i["name"] for i in items}
    assert {"throughput", "summary", "differences"} <= names
    factorial = {"factorial", "factorial-effects", "allocation-of-variation", "residuals"}
    assert not names & (factorial | {"qq", "half-normal", "main-effects", "interactions"})
    # The differences table compares each configuration with its base twin, never with itself.
    r = client.get(f"{API}/{exp['id']}/tables/differences.csv")
    assert r.status_code == 200, r.text
    rows = _csv_rows(r.text)
    assert len(rows) == 4  # clients per thread 2 and 4, at 8 and 16 workers
    assert all(row["Clients per thread"] != "1" for row in rows)


def test_default_report_without_a_middleware_has_no_middleware_items(client: TestClient) -> None:
    exp = create_random_experiment(
        client, fixed={"servers": 1, "middlewares": 0, "ratio": "0:1", "value_size": 128}
    )
    names = {i["name"] for i in client.get(f"{API}/{exp['id']}/report").json()["items"]}
    assert "throughput" in names
    assert not names & {"breakdown", "queue-models", "model-throughput", "model-comparison"}


def test_report_items_keep_the_view_they_were_added_from(
    client: TestClient, db: Session, tmp_path: Path
) -> None:
    exp = stored_experiment(client, db, name="Report views")
    view = {
        "x": "workers",
        "series": "clients_per_thread",
        "source": "middleware",
        "band": "band",
        "width": "page",  # the bundle's size, not the item's: dropped
    }
    items = [
        {"kind": "figure", "name": "throughput", "selection": view},
        {"kind": "figure", "name": "throughput"},  # an old item: today's defaults
        {"kind": "table", "name": "summary", "selection": {"source": "middleware"}},
        {
            "kind": "figure",
            "name": "compare-groups",
            "origin": "compare",
            "selection": {"experiment_ids": [exp["id"]], "x": "workers", "group_by": "workers"},
        },
        {
            "kind": "table",
            "name": "differences",
            "origin": "compare",
            "selection": {"experiment_ids": [exp["id"]]},
        },
    ]
    r = client.put(f"{API}/{exp['id']}/report", json={"items": items})
    assert r.status_code == 200, r.text
    stored = client.get(f"{API}/{exp['id']}/report").json()["items"]
    assert stored[0]["selection"] == {
        "x": "workers",
        "series": "clients_per_thread",
        "source": "middleware",
        "band": "band",
    }
    assert stored[1]["selection"] is None and stored[3]["origin"] == "compare"
    r = client.get(f"{API}/{exp['id']}/report/bundle.zip")
    assert r.status_code == 200, r.text
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        names = set(zf.namelist())
        zf.extractall(tmp_path)
    assert {"figures/throughput.pdf", "figures/throughput-2.pdf"} <= names
    assert {"figures/compare-groups.pdf", "tables/differences.tex"} <= names
    main = (tmp_path / "main.tex").read_text()
    assert "Not included" not in main
    # Each caption is built from its item's own selection: it says what the axes are.
    first, second = main.index("figures/throughput.pdf"), main.index("figures/throughput-2.pdf")
    assert main.index(
        "Throughput against worker threads, one line per clients per thread (middleware side"
    ) in range(first, second)
    assert (
        "Throughput against clients per thread, one line per worker threads (client side"
        in main[second:]
    )
    assert "(middleware side" in (tmp_path / "tables/summary.tex").read_text()
    assert compile_latex(tmp_path).returncode == 0


def test_report_item_selection_is_checked_against_its_query(client: TestClient) -> None:
    exp = create_random_experiment(client)
    cases = [
        ({"kind": "figure", "name": "throughput", "selection": {"band": "wavy"}}, "band"),
        ({"kind": "figure", "name": "throughput", "selection": {"colour": "red"}}, "colour"),
        ({"kind": "table", "name": "summary", "selection": {"x": "workers"}}, "x"),
        (
            {"kind": "figure", "name": "compare-groups", "origin": "compare", "selection": {}},
            "experiment_ids",
        ),
    ]
    for item, field in cases:
        r = client.put(f"{API}/{exp['id']}/report", json={"items": [item]})
        assert r.status_code == 422, r.text
        assert r.json()["detail"][0]["loc"] == ["body", "items", 0, "selection", field]
    r = client.put(
        f"{API}/{exp['id']}/report",
        json={"items": [{"kind": "figure", "name": "throughput", "origin": "compare"}]},
    )
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "items", 0, "name"]


def test_report_with_emoji_cjk_and_control_characters_compiles(
    client: TestClient, db: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 30: pdflatex stopped at the first character no T1/TS1 font has; issue 41/37: CJK
    # and emoji then printed as "[U+...]" placeholders. Now they print (LuaLaTeX with fallback
    # fonts), and a character no font has is refused naming its field. Real TeX, no engine
    # mocked.
    exp = stored_experiment(client, db, name="Lasttest 实验 ü")
    plan = {
        "hypothesis": "Durchsatz wächst — 仮説 🚀",
        "notes": "Notes: 中文 and 😀\r\nsecond line\n\nα β γ\tend {50%} $x_1$",
        "items": [
            {"kind": "figure", "name": "throughput", "caption": "Caption 图\n\n✓"},
            {"kind": "table", "name": "summary", "explanation": "表 und ß ❤\ufe0f"},
        ],
    }
    assert client.put(f"{API}/{exp['id']}/report", json=plan).status_code == 200
    # A character no font has (a control character, an emoji newer than the emoji font, an
    # unassigned code point) is refused where the user typed it, naming it.
    bad_item = {"kind": "table", "name": "summary", "explanation": "表\x0c"}
    refused: list[tuple[list[Any], dict[str, Any], str]] = [
        (["hypothesis"], {"hypothesis": "bell\x07"}, "U+0007"),
        (["notes"], {"notes": "smile \U0001f972"}, "'\U0001f972' (U+1F972)"),
        (
            ["items", 1, "explanation"],
            {"items": [{"kind": "figure", "name": "qq"}, bad_item]},
            "U+000C",
        ),
        (
            ["items", 0, "caption"],
            {"items": [{"kind": "figure", "name": "qq", "caption": "x \u0378"}]},
            "U+0378",
        ),
    ]
    for field, body, named in refused:
        r = client.put(f"{API}/{exp['id']}/report", json=body)
        assert r.status_code == 422, r.text
        (item,) = r.json()["detail"]
        assert item["loc"] == ["body", *field] and "cannot be printed" in item["msg"], item
        assert named in item["msg"], item
    pdf = client.get(f"{API}/{exp['id']}/report.pdf")
    assert pdf.status_code == 200, pdf.text[:2000]
    assert pdf.content[:5] == b"%PDF-"
    bundle = client.get(f"{API}/{exp['id']}/report/bundle.zip")
    main = zipfile.ZipFile(io.BytesIO(bundle.content)).read("main.tex").decode()
    assert main.startswith("% !TEX program = lualatex\n"), main[:200]
    text = _pdf_text(pdf.content, tmp_path)
    # Every character prints as written (CJK, emoji, Greek, symbols); none as a placeholder.
    for shown in (
        "Lasttest 实验 ü",
        "Durchsatz wächst — 仮説 🚀",
        "Notes: 中文 and 😀",
        "α β γ end {50%} $x_1$",
        "Caption 图 ✓",
        "表 und ß ❤",
    ):
        assert shown in text, (shown, text[:3000])
    assert "[U+" not in text, text[:3000]
    # An experiment named before names were checked: the PDF names the field to change.
    unnamed = create_random_experiment(client, name="Lasttest \x07 ü")
    r = client.get(f"{API}/{unnamed['id']}/report.pdf")
    assert r.status_code == 422, r.text
    (item,) = r.json()["detail"]
    assert item["loc"] == ["body", "name"] and "U+0007" in item["msg"], item
    # A failed compile is logged, and answered without the engine's log (server paths).
    failed = subprocess.CompletedProcess([], 1, stdout="! Emergency stop /usr/share/texlive")
    monkeypatch.setattr("backend.report.builder.subprocess.run", lambda *a, **k: failed)
    r = client.get(f"{API}/{exp['id']}/report.pdf")
    assert r.status_code == 500 and "/usr/share" not in r.text and "Emergency" not in r.text
    assert r.json()["detail"] == TEX_FAILED


def test_latin_reports_stay_with_pdflatex(client: TestClient, db: Session) -> None:
    # LuaLaTeX only where the text needs it: a Latin report keeps the faster pdflatex.
    exp = stored_experiment(client, db, name="Lasttest Größe — 50% ± µs")
    plan = {"hypothesis": "Durchsatz wächst", "items": [{"kind": "table", "name": "summary"}]}
    assert client.put(f"{API}/{exp['id']}/report", json=plan).status_code == 200
    bundle = client.get(f"{API}/{exp['id']}/report/bundle.zip")
    main = zipfile.ZipFile(io.BytesIO(bundle.content)).read("main.tex").decode()
    assert main.startswith("% !TEX program = pdflatex\n"), main[:200]


def _pdf_text(pdf: bytes, tmp_path: Path) -> str:
    (tmp_path / "r.pdf").write_bytes(pdf)
    out = subprocess.run(
        ["pdftotext", str(tmp_path / "r.pdf"), "-"], capture_output=True, text=True, check=True
    )
    return " ".join(out.stdout.split())


# Issue 41: pdflatex's log cut the overfull line's "ä" in half, and reading it as strict UTF-8
# was a 500; the word also ran off the page.
LONG_WORD = "Donaudampfschifffahrtsgesellschaftskapitänsmützenüberzugsänderungsgenehmigung"


def test_long_accented_words_break_across_lines(
    client: TestClient, db: Session, tmp_path: Path
) -> None:
    exp = stored_experiment(client, db, name=f"Lasttest {LONG_WORD}")
    plan = {
        "hypothesis": f"{LONG_WORD} {LONG_WORD} {LONG_WORD}",
        "items": [{"kind": "table", "name": "summary", "caption": LONG_WORD}],
    }
    assert client.put(f"{API}/{exp['id']}/report", json=plan).status_code == 200
    pdf = client.get(f"{API}/{exp['id']}/report.pdf")
    assert pdf.status_code == 200, pdf.text[:2000]
    text = _pdf_text(pdf.content, tmp_path)
    # Broken at its discretionary hyphens: joined again, the word is all there, 5 times.
    joined = text.replace("- ", "").replace("-", "")
    assert joined.count(LONG_WORD) == 5, text[:3000]
    # No line runs into the margin: every word's box ends within the text width (1 in margins).
    (tmp_path / "r.pdf").write_bytes(pdf.content)
    boxes = subprocess.run(
        ["pdftotext", "-bbox", str(tmp_path / "r.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    right_edges = [float(x) for x in re.findall(r'xMax="([0-9.]+)"', boxes)]
    assert right_edges and max(right_edges) <= 612 - 72 + 1, max(right_edges)


def test_a_grid_of_a_thousand_configurations_is_reported_in_parts(
    client: TestClient, db: Session, tmp_path: Path
) -> None:
    # Issue 41: 1,000 configurations answered 500. A table longer than a page is set in parts,
    # the rows past MAX_PARTS pages are named as left out; the breakdown's bars go unlabelled.
    factors = {"clients_per_thread": [1, 2, 4, 8], "workers": list(range(1, 251))}
    exp = stored_experiment(client, db, name="Thousand", repetitions=1, factors=factors)
    plan = {
        "items": [{"kind": "table", "name": "summary"}, {"kind": "figure", "name": "breakdown"}]
    }
    assert client.put(f"{API}/{exp['id']}/report", json=plan).status_code == 200
    pdf = client.get(f"{API}/{exp['id']}/report.pdf")
    assert pdf.status_code == 200, pdf.text[:2000]
    text = _pdf_text(pdf.content, tmp_path)
    shown = ROWS_PER_PART * MAX_PARTS
    for part in range(1, MAX_PARTS + 1):
        rows = f"rows {(part - 1) * ROWS_PER_PART + 1}–{part * ROWS_PER_PART} of 1,000"
        assert f"(part {part} of {MAX_PARTS}: {rows})" in text, (part, text[:3000])
    assert f"Rows {shown + 1}–1,000 of 1,000 are left out here" in text
    assert "1,000 configurations: the bars are unlabelled" in text
