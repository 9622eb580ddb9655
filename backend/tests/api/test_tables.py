"""Table endpoints: every table as CSV (units in headers) and as LaTeX that compiles."""

import csv
import io
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.tables.catalog import TABLES
from backend.tables.latex_text import escape_latex
from backend.tables.table import Column, Table, format_number, to_csv, to_latex
from backend.tests.utils.stored import stored_experiment

API = "/api/v1/experiments"
MINIMAL = r"""\documentclass{article}
\usepackage{booktabs}
\usepackage{graphicx}
\begin{document}
\input{table}
\end{document}
"""


def compile_latex(directory: Path, main: str = "main.tex") -> subprocess.CompletedProcess[str]:
    """pdflatex as a user runs it; a missing pdflatex is an error, not a skip."""
    return subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", main],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def exp(client: TestClient, database: str) -> dict[str, Any]:
    from backend.core.db import SessionLocal

    with SessionLocal() as db:
        return stored_experiment(client, db, name="Workers & clients_2x2")


@pytest.mark.parametrize("name", sorted(TABLES))
def test_read_table_latex_compiles(
    client: TestClient, exp: dict[str, Any], name: str, tmp_path: Path
) -> None:
    r = client.get(f"{API}/{exp['id']}/tables/{name}.tex")
    assert r.status_code == 200, r.text
    tex = r.text
    assert r"\toprule" in tex and r"\bottomrule" in tex
    assert rf"\label{{tab:workers-clients-2x2:{name}" in tex
    assert r"Workers \& clients\_2x2" in tex  # the caption names the experiment, escaped
    (tmp_path / "table.tex").write_text(tex)
    (tmp_path / "main.tex").write_text(MINIMAL)
    done = compile_latex(tmp_path)
    assert done.returncode == 0, done.stdout[-3000:]
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "main.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    # OT1 draws \_ as a rule, which pdftotext reads as a space.
    assert "Workers & clients 2x2" in " ".join(text.split())


def test_read_table_summary_numbers_and_units(client: TestClient, exp: dict[str, Any]) -> None:
    r = client.get(f"{API}/{exp['id']}/tables/summary.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0] == [
        # Factors in the order the design gave them (not JSONB's, which puts workers first).
        "Clients per thread",
        "Worker threads",
        "Reps",
        "Throughput mean (ops/s)",
        "Throughput std (ops/s)",
        "Response time mean (µs)",
        "Response time std (µs)",
    ]
    first = dict(zip(rows[0], rows[1], strict=True))
    assert first["Clients per thread"] == "1" and first["Worker threads"] == "8"
    assert float(first["Throughput mean (ops/s)"]) == pytest.approx(10_050.0)
    tex = client.get(f"{API}/{exp['id']}/tables/summary.tex").text
    assert r"10\,050" in tex and r"$\mu$s" in tex
    assert r"\multicolumn{2}{c}{Throughput}" in tex and r"\cmidrule(lr){4-5}" in tex
    assert "clients per thread (1, 4) and worker threads (8, 16)" in tex


def test_read_table_configuration_and_factorial(client: TestClient, exp: dict[str, Any]) -> None:
    rows = list(
        csv.reader(io.StringIO(client.get(f"{API}/{exp['id']}/tables/configuration.csv").text))
    )
    values = dict(rows[1:])
    assert values["Worker threads"] == "8, 16"
    assert values["Memcached servers"] == "2"
    assert values["Repetitions"] == "2"
    fac = list(csv.reader(io.StringIO(client.get(f"{API}/{exp['id']}/tables/factorial.csv").text)))
    effects = {row[0]: row for row in fac[1:]}
    # Each effect named with its levels, from the first entered (-1) to the second.
    assert float(effects["Clients per thread 1 → 4"][1]) == pytest.approx(1500.0)
    assert float(effects["Worker threads 8 → 16"][1]) == pytest.approx(500.0)
    diff = client.get(
        f"{API}/{exp['id']}/tables/differences.csv", params={"factor": "workers", "base": "8"}
    )
    assert diff.status_code == 200, diff.text


def test_read_tables_lists_every_table_in_bundle_order(
    client: TestClient, exp: dict[str, Any]
) -> None:
    r = client.get(f"{API}/{exp['id']}/tables")
    assert r.status_code == 200, r.text
    body = r.json()
    assert [t["name"] for t in body["data"]] == list(TABLES)
    assert body["count"] == len(TABLES)
    by_name = {t["name"]: t for t in body["data"]}
    assert by_name["summary"]["title"] == TABLES["summary"].title
    assert by_name["factorial"]["formats"] == ["csv", "tex"]
    # Every listed table is served in every listed format.
    for t in body["data"]:
        for fmt in t["formats"]:
            got = client.get(f"{API}/{exp['id']}/tables/{t['name']}.{fmt}")
            assert got.status_code == 200, f"{t['name']}.{fmt}: {got.text[:300]}"
    missing = client.get(f"{API}/999999999/tables")
    assert missing.status_code == 404 and missing.json()["detail"] == "Experiment not found"


def test_read_table_errors(client: TestClient, exp: dict[str, Any]) -> None:
    r = client.get(f"{API}/{exp['id']}/tables/nope.csv")
    assert r.status_code == 404 and r.json()["detail"] == "Table not found"
    r = client.get(f"{API}/999999999/tables/summary.csv")
    assert r.status_code == 404 and r.json()["detail"] == "Experiment not found"
    r = client.get(f"{API}/{exp['id']}/tables/summary.xls")
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "fmt"]
    r = client.get(f"{API}/{exp['id']}/tables/differences.tex", params={"factor": "ratio"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "factor"]
    r = client.get(f"{API}/{exp['id']}/tables/summary.csv", params={"confidence": 2})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "confidence"]


def test_table_writer_formats() -> None:
    assert escape_latex("a_b & 50% µs ± x") == r"a\_b \& 50\% $\mu$s $\pm$ x"
    assert format_number(1234567.891, 1) == r"1\,234\,567.9"
    assert format_number(-2.5, 1) == "$-$2.5"
    assert format_number(-0.01, 1) == "0.0"
    t = Table([Column("A"), Column("v", "ms", 2)], [["x", 1.0], ["y", None]], "Cap", "tab:t")
    assert to_csv(t) == "A,v (ms)\r\nx,1.0\r\ny,\r\n"
    tex = to_latex(t)
    assert r"\begin{tabular}{@{}lr@{}}" in tex and "y & -- \\\\" in tex
    with pytest.raises(ValueError):
        Table([Column("A")], [["x", 1]], "Cap", "tab:t")


def test_table_writer_narrow_and_wide() -> None:
    """Narrow: headers stacked over lines of up to 11 characters, the unit on its own line,
    columns set closer; wide: a table* over both columns of a two-column paper."""
    columns = [Column("Clients per thread"), Column("Base", "ops/s", 0), Column("Sig.")]
    rows: list[list[Any]] = [["1", 10050.0, True]]
    narrow = to_latex(Table(columns, rows, "Cap", "tab:t", narrow=True))
    header = r"\shortstack[l]{Clients per\\thread} & \shortstack[r]{Base\\(ops/s)} & Sig. \\"
    assert header in narrow and r"\setlength{\tabcolsep}{4pt}" in narrow
    # Not wide: LaTeX picks table (fits the column) or table* (does not) when it has measured.
    assert r"\ifdim\wd\mcscopetablestacked>\columnwidth" in narrow
    assert r"\sbox{\mcscopetable}" not in narrow  # narrow: stacked only
    assert r"\begin{table}[htbp]" in narrow and r"\begin{table*}[htbp]" in narrow
    wide = to_latex(Table(columns, rows, "Cap", "tab:t", wide=True))
    assert r"\begin{table*}[htbp]" in wide and r"\begin{table}" not in wide
    assert wide.count(r"\begin{table*}[htbp]") == wide.count(r"\end{table*}") == 3
    assert r"Clients per thread & Base (ops/s) & Sig. \\" in wide
    # Stacked too, for a page too narrow for it as given.
    assert r"\sbox{\mcscopetablestacked}" in wide and header in wide


LAYOUTS = {
    "one-column": r"\documentclass{article}",
    "two-column": r"\documentclass[twocolumn]{article}",
}
FITTING = r"""%(documentclass)s
\usepackage{booktabs}
\usepackage{graphicx}
\pagestyle{empty}
\begin{document}
\input{table}
\ifdefined\mcscopetable\else\newsavebox{\mcscopetable}\fi
\ifdefined\mcscopetablestacked\else\newsavebox{\mcscopetablestacked}\fi
\typeout{MEASURED table=\the\wd\mcscopetable\space stacked=\the\wd\mcscopetablestacked%%
\space column=\the\columnwidth\space text=\the\textwidth}
\end{document}
"""


def _points(text: str) -> float:
    return float(text.removesuffix("pt"))


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_table_fits_its_page(
    client: TestClient, exp: dict[str, Any], name: str, layout: str, tmp_path: Path
) -> None:
    """Compiled in a one-column and a two-column paper, a table lies inside the column when it
    fits one, else inside the text width (a table* in two columns), and never overflows."""
    tex = client.get(f"{API}/{exp['id']}/tables/{name}.tex").text
    (tmp_path / "table.tex").write_text(tex)
    (tmp_path / "main.tex").write_text(FITTING % {"documentclass": LAYOUTS[layout]})
    done = compile_latex(tmp_path)
    assert done.returncode == 0, done.stdout[-3000:]
    log = (tmp_path / "main.log").read_text(errors="replace")
    assert "Overfull \\hbox" not in log, log[-3000:]
    measured = re.search(r"MEASURED table=(\S+) stacked=(\S+) column=(\S+) text=(\S+)", log)
    assert measured is not None
    given, stacked, column, text = (_points(g) for g in measured.groups())
    table = min(given, stacked) if stacked else given
    # The printed words: their extent is what a reader sees on the page.
    printed = _printed_extent_pt(tmp_path / "main.pdf")
    if table <= column:
        assert printed <= column + 0.5, (name, layout, printed, column)
    else:
        assert printed <= text + 0.5, (name, layout, printed, text)
        if layout == "two-column":
            assert printed > column  # across both columns, not squeezed into one


def _printed_extent_pt(pdf: Path) -> float:
    """Width (pt) from the leftmost to the rightmost word of the table's body, below its caption."""
    bbox = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    page = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", bbox))
    words = list(page.iter("{http://www.w3.org/1999/xhtml}word"))
    caption = next(w for w in words if w.text and w.text.startswith("Table"))
    below = [w for w in words if float(w.attrib["yMin"]) > float(caption.attrib["yMax"]) + 12]
    assert below, [w.text for w in words]
    return max(float(w.attrib["xMax"]) for w in below) - min(float(w.attrib["xMin"]) for w in below)
