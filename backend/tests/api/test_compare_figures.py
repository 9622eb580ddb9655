"""The compare page's figures for a POST body (POST /compare/figures/{figure}.{fmt}): grouped
curves and parallel coordinates as Plotly JSON and as files, and brushing as intervals per
axis, resolved by the server for the figures, the configuration table and the differences."""

import csv
import io
import re
import struct
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.tests.utils.pdf import (
    assert_vector_report_pdf,
    assert_words_on_page,
    poppler_lines,
)
from backend.tests.utils.stored import stored_experiment
from backend.tests.utils.svg import (
    annotation_boxes,
    colourbar_box,
    crosses,
    overlap,
    polyline_segments,
)

URL = "/api/v1/compare/figures"
SVG = "{http://www.w3.org/2000/svg}"


pytestmark = pytest.mark.usefixtures("closes_renderer")


@pytest.fixture(scope="module")
def pair(client: TestClient, database: str) -> list[int]:
    """Two stored 2 x 2 experiments (clients per thread 1, 4 x workers 8, 16; 2 repetitions)."""
    from backend.core.db import SessionLocal

    with SessionLocal() as db:
        return [stored_experiment(client, db)["id"], stored_experiment(client, db)["id"]]


def _post(client: TestClient, name: str, fmt: str, body: dict[str, Any]) -> Any:
    r = client.post(f"{URL}/{name}.{fmt}", json=body)
    assert r.status_code == 200, f"{name}.{fmt}: {r.text[:500]}"
    return r


def test_compare_groups_json_is_the_groups_endpoint(client: TestClient, pair: list[int]) -> None:
    body = {"experiment_ids": pair, "x": "clients_per_thread", "band": "ci", "level": 0.9}
    groups = client.post("/api/v1/compare/groups", json=body).json()["data"]
    fig = _post(client, "compare-groups", "json", {**body, "style": "screen"}).json()
    lines = [t for t in fig["data"] if t.get("fill") != "toself"]
    # Grouped by experiment, each line averages over both worker counts, and says so.
    assert [g["pooled"] for g in groups] == [{"workers": [8, 16]}] * 2
    assert [t["name"] for t in lines] == [
        f"{g['label']} ({g['runs']} runs, pooled)" for g in groups
    ]
    caption = fig["layout"]["meta"]["caption"]
    assert "each point pools the repetitions of worker threads 8, 16" in caption
    for line, g in zip(lines, groups, strict=True):
        assert line["y"] == pytest.approx([p["mean"] for p in g["points"]])
        # Run counts travel nested, so a table of the figure does not take them for a spread.
        assert line["customdata"] == [[p["n"]] for p in g["points"]]
    assert fig["layout"]["xaxis"]["title"]["text"] == "Clients per thread"
    assert fig["layout"]["xaxis"]["tickvals"] == [1, 4]  # ticks at the levels only
    assert fig["layout"]["yaxis"]["title"]["text"] == "Throughput (ops/s)"
    assert "90% t interval" in fig["layout"]["meta"]["caption"]
    assert "width" not in fig["layout"]


def test_brush_narrows_the_grouped_curves(client: TestClient, pair: list[int]) -> None:
    body = {"experiment_ids": pair, "x": "clients_per_thread", "group_by": "workers"}
    every = _post(client, "compare-groups", "json", body).json()
    names = [t["name"] for t in every["data"] if t.get("fill") != "toself"]
    assert names == ["8 worker threads (8 runs)", "16 worker threads (8 runs)"]
    assert (
        "each point is the repetitions of one configuration" in every["layout"]["meta"]["caption"]
    )
    # Workers in [12, 20] and the second experiment only (its position on the axis is 1).
    brush = {"workers": [[12, 20]], "experiment": [[0.5, 1.5]]}
    cut = _post(client, "compare-groups", "json", {**body, "brush": brush}).json()
    assert [t["name"] for t in cut["data"] if t.get("fill") != "toself"] == [
        "16 worker threads (4 runs)"
    ]


def test_parcoords_json_axes_ticks_and_brush(client: TestClient, pair: list[int]) -> None:
    body = {
        "experiment_ids": pair,
        "source": "middleware",
        "metric": "queue_time_us",
        "brush": {"workers": [[12, 20]]},
    }
    fig = _post(client, "compare-parcoords", "json", body).json()
    (trace,) = fig["data"]
    assert trace["type"] == "parcoords"
    dims = {d["label"]: d for d in trace["dimensions"]}
    assert list(dims) == [
        "Experiment",
        "Clients per thread",
        "Worker threads",
        "Throughput (ops/s)",
        "Response time (µs)",
        "Queue time (µs)",
    ]
    meta = fig["layout"]["meta"]
    assert meta["axes"] == [
        "experiment",
        "clients_per_thread",
        "workers",
        "throughput_per_s",
        "response_time_us",
        "queue_time_us",
    ]
    assert meta["lines"] == meta["count"] == 8
    assert all(len(d["values"]) == 8 for d in dims.values())
    assert dims["Experiment"]["tickvals"] == [0, 1]
    assert dims["Worker threads"]["ticktext"] == ["8", "16"]
    assert dims["Worker threads"]["constraintrange"] == [12, 20]
    assert "constraintrange" not in dims["Clients per thread"]
    # No range labels: the axes end on ticked levels or round numbers, which they repeated.
    (styled,) = fig["layout"]["template"]["data"]["parcoords"]
    assert styled["rangefont"]["color"] == "rgba(0,0,0,0)"
    # Six level titles side by side overlap at the page's width: they slant down onto their
    # axes (steep enough that Plotly ends them on the axis, not centred over its range label),
    # and the margins hold the longest one's rise and the first one's reach to the left.
    assert 27 <= trace["labelangle"] < 90
    longest = max(len(label) for label in dims)
    assert fig["layout"]["margin"]["t"] >= 3.5 * longest + 40
    assert fig["layout"]["margin"]["l"] >= 6 * len("Experiment")
    assert trace["line"]["color"] == dims["Queue time (µs)"]["values"]
    assert trace["line"]["colorbar"]["title"]["text"] == "Queue time (µs)"


def test_configurations_and_differences_resolve_the_brush(
    client: TestClient, pair: list[int]
) -> None:
    plain = client.post("/api/v1/compare/configurations", json={"experiment_ids": pair}).json()
    assert plain["brushed"] is None and all(r["brushed"] for r in plain["data"])
    # The upper half of the measured throughputs, by the rule: inside [low, high].
    tps = sorted(r["metrics"]["throughput_per_s"] for r in plain["data"])
    low = tps[len(tps) // 2]
    brush = {"throughput_per_s": [[low, tps[-1]]]}
    cut = client.post(
        "/api/v1/compare/configurations", json={"experiment_ids": pair, "brush": brush}
    ).json()
    inside = {
        r["configuration_id"] for r in plain["data"] if r["metrics"]["throughput_per_s"] >= low
    }
    assert {r["configuration_id"] for r in cut["data"] if r["brushed"]} == inside
    assert cut["brushed"] == len(inside) and cut["count"] == plain["count"]
    diffs = client.post(
        "/api/v1/compare/differences", json={"experiment_ids": pair, "brush": brush}
    ).json()
    assert diffs["data"]
    assert {d["configuration_id"] for d in diffs["data"]} <= inside
    # Several intervals on one axis: either one.
    two = {"workers": [[0, 9], [15, 17]]}
    cut = client.post(
        "/api/v1/compare/configurations", json={"experiment_ids": pair, "brush": two}
    ).json()
    assert cut["brushed"] == 8


def _write(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "figure.pdf"
    path.write_bytes(content)
    return path


def test_compare_groups_pdf_is_vector_at_column_width(
    client: TestClient, pair: list[int], tmp_path: Path
) -> None:
    body = {"experiment_ids": pair, "x": "clients_per_thread", "brush": {"workers": [[8, 8]]}}
    r = _post(client, "compare-groups", "pdf", body)
    assert r.headers["content-type"] == "application/pdf"
    assert 'filename="compare-compare-groups.pdf"' in r.headers["content-disposition"]
    path = tmp_path / "groups.pdf"
    path.write_bytes(r.content)
    assert_vector_report_pdf(path, 3.5)


def test_compare_figures_svg_and_png(client: TestClient, pair: list[int], tmp_path: Path) -> None:
    body = {"experiment_ids": pair, "x": "workers", "width": "page"}
    root = ET.fromstring(_post(client, "compare-groups", "svg", body).content)
    assert float(root.attrib["width"]) == pytest.approx(7.16 * 96)
    texts = {(t.text or "").strip() for t in root.iter(f"{SVG}text")}
    assert "Worker threads" in texts and "Throughput (ops/s)" in texts
    assert not list(root.iter(f"{SVG}image"))
    for name in ("compare-groups", "compare-parcoords"):
        png = _post(
            client, name, "png", {**body, "width": "column", "height": 2.5, "dpi": 200}
        ).content
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == (700, 500)
    parcoords = _write(tmp_path, _post(client, "compare-parcoords", "pdf", body).content)
    assert poppler_lines("pdfimages", parcoords) == []


def _line_paths(svg: ET.Element) -> dict[str, int]:
    """Lines per stroke colour: each scatter trace's path, one M (move) per polyline."""
    lines: dict[str, int] = {}
    for g in svg.iter(f"{SVG}g"):
        if "scatter" not in g.attrib.get("class", "").split():
            continue
        for path in g.iter(f"{SVG}path"):
            if "js-line" in path.attrib.get("class", ""):
                stroke = re.search(r"stroke: ?(rgb\([^)]*\))", path.attrib["style"])
                assert stroke, path.attrib["style"]
                lines[stroke[1]] = lines.get(stroke[1], 0) + path.attrib["d"].count("M")
    return lines


@pytest.mark.parametrize("width", ["column", "page"])
def test_parcoords_files_are_vector_lines_and_text(
    client: TestClient, pair: list[int], tmp_path: Path, width: str
) -> None:
    """PDF and SVG draw the parallel coordinates with vector traces (go.Parcoords is WebGL,
    an image in print): a polyline per configuration, tick labels and titles as text, the
    brushed lines coloured over grey ones."""
    body = {
        "experiment_ids": pair,
        "metric": "throughput_per_s",
        "brush": {"workers": [[12, 20]]},
        "width": width,
    }
    pdf = tmp_path / f"parcoords-{width}.pdf"
    pdf.write_bytes(_post(client, "compare-parcoords", "pdf", body).content)
    assert_vector_report_pdf(pdf, 3.5 if width == "column" else 7.16)
    # Every word lies on the page: no tick label or slanted title is cut at an edge.
    words = assert_words_on_page(pdf)
    assert {"8", "16"} <= set(words)  # slanted titles: split, the SVG has them

    r = _post(client, "compare-parcoords", "svg", body)
    (tmp_path / f"parcoords-{width}.svg").write_bytes(r.content)
    svg = ET.fromstring(r.content)
    assert not list(svg.iter(f"{SVG}image"))
    texts = {(t.text or "").strip() for t in svg.iter(f"{SVG}text")}
    assert {"Experiment", "Worker threads", "Throughput (ops/s)", "8", "16"} <= texts
    # The report's type: 8 pt ticks, 9 pt axis titles.
    sizes = {float(px) * 0.75 for px in re.findall(r"font-size: ?([\d.]+)px", r.text)}
    assert {round(pt, 2) for pt in sizes} == {8.0, 9.0}, sorted(sizes)
    meta = _post(client, "compare-parcoords", "json", body).json()["layout"]["meta"]
    lines = _line_paths(svg)
    black = lines.pop("rgb(0, 0, 0)")  # the axes and their tick marks
    assert black >= len(meta["axes"])
    # A polyline per drawn configuration; the 4 outside the brush (8 worker threads) grey.
    assert sum(lines.values()) == meta["lines"] == 8
    assert lines.pop("rgb(200, 200, 200)") == 4
    assert sum(lines.values()) == 4 and len(lines) >= 1  # brushed: coloured by throughput
    # The brushed interval is a box on its axis.
    shapes = [
        p
        for p in svg.iter(f"{SVG}path")
        if "fill: rgb(0, 0, 0); fill-opacity: 0.18" in p.attrib.get("style", "")
    ]
    assert len(shapes) == 1


def _parcoords_text_clashes(svg: ET.Element, style: str) -> list[tuple[str, str]]:
    """Pairs of titles or tick labels (and the colour bar) that overlap; every
    box must also lie inside the figure."""
    boxes = annotation_boxes(svg)
    titles = {"Experiment", "Clients per thread", "Worker threads", "Queue time (µs)"}
    assert titles <= {b.text for b in boxes}
    boxes.append(colourbar_box(svg))
    size = (float(svg.attrib["width"]), float(svg.attrib["height"]))
    for box in boxes:
        for corner in box.corners:
            assert all(-0.5 <= v <= edge + 0.5 for v, edge in zip(corner, size, strict=True)), (
                box.text,
                corner,
            )
    return [(a.text, b.text) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if overlap(a, b)]


PARCOORDS_TEXT_BODY = {"source": "middleware", "metric": "queue_time_us"}


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("style", ["screen", "report"])
def test_parcoords_file_text_does_not_overlap(
    client: TestClient, pair: list[int], style: str, width: str
) -> None:
    """Six axes (experiment, two parameters, three metrics) at column and page width: no two
    titles or tick labels overlap, nor any the screen style's colour bar (the titles slant
    steeper where axes stand closer; at 3.5 in the screen style's titles ran into each other
    and into the colour bar beside them)."""
    body = {"experiment_ids": pair, **PARCOORDS_TEXT_BODY, "style": style, "width": width}
    svg = ET.fromstring(_post(client, "compare-parcoords", "svg", body).content)
    assert _parcoords_text_clashes(svg, style) == []


@pytest.mark.parametrize("style", ["screen", "report"])
def test_parcoords_too_narrow_names_the_least_width_that_fits(
    client: TestClient, pair: list[int], style: str
) -> None:
    """At 2.5 in the screen style's tick labels of neighbouring axes ran together: a width
    too narrow for them is refused, naming the least width that fits, and that width draws
    apart."""
    body = {"experiment_ids": pair, **PARCOORDS_TEXT_BODY, "style": style, "width": "2"}
    r = client.post(f"{URL}/compare-parcoords.svg", json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["loc"] == ["body", "width"]
    pattern = rf"too narrow for the tick labels of 6 axes in the {style} style: at least (\S+) in"
    found = re.search(pattern, detail["msg"])
    assert found, detail["msg"]
    least = float(found.group(1))
    assert 2 < least <= 3.5
    fits = _post(client, "compare-parcoords", "svg", {**body, "width": str(least)})
    assert _parcoords_text_clashes(ET.fromstring(fits.content), style) == []
    below = client.post(f"{URL}/compare-parcoords.svg", json={**body, "width": f"{least - 0.1:g}"})
    assert below.status_code == 422
    if style == "screen":
        narrow = client.post(f"{URL}/compare-parcoords.svg", json={**body, "width": "2.5"})
        assert narrow.status_code == 422


@pytest.mark.parametrize(
    ("name", "patch", "loc"),
    [
        ("compare-groups", {"brush": {"cores": [[1, 2]]}}, ["body", "brush", "cores"]),
        ("compare-groups", {"brush": {"workers": [[9, 2]]}}, ["body", "brush", "workers", 0]),
        ("compare-groups", {"brush": {"workers": []}}, ["body", "brush", "workers"]),
        (
            "compare-groups",
            {"brush": {"queue_time_us": [[0, 9]]}},
            ["body", "brush", "queue_time_us"],
        ),
        ("compare-groups", {"x": None}, ["body", "x"]),
        ("compare-groups", {"x": "nope"}, ["body", "x"]),
        ("compare-parcoords", {"width": "wide"}, ["body", "width"]),
        ("compare-parcoords", {"dpi": 10}, ["body", "dpi"]),
        ("compare-parcoords", {"metric": "queue_time_us"}, ["body", "metrics", 2]),
        ("compare-parcoords", {"experiment_ids": []}, ["body", "experiment_ids"]),
        ("compare-parcoords", {"only": [1]}, ["body", "only"]),
    ],
)
def test_compare_figure_bad_body_names_the_field(
    client: TestClient, pair: list[int], name: str, patch: dict[str, Any], loc: list[Any]
) -> None:
    body = {"experiment_ids": pair, "x": "workers", **patch}
    r = client.post(f"{URL}/{name}.json", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"][: len(loc)] == loc


@pytest.mark.parametrize("name", ["compare-groups", "compare-parcoords"])
def test_an_experiment_figures_bad_compare_is_a_422_naming_it(
    client: TestClient, pair: list[int], name: str
) -> None:
    # Found by the API fuzz: the compare request built from the query failed with a 500.
    url = f"/api/v1/experiments/{pair[0]}/figures/{name}.json"
    for compare, words in [(-5, "greater than or equal to 1"), (pair[0], "appear once")]:
        r = client.get(url, params={"compare": compare, "x": "workers"})
        assert r.status_code == 422, r.text
        (item,) = r.json()["detail"]
        assert item["loc"][:2] == ["query", "compare"], item
        assert words in item["msg"], item
    ok = client.get(url, params={"compare": pair[1], "x": "workers"})
    assert ok.status_code == 200, ok.text


def test_compare_figure_not_found(client: TestClient, pair: list[int]) -> None:
    r = client.post(f"{URL}/throughput.json", json={"experiment_ids": pair})
    assert r.status_code == 404 and r.json()["detail"] == "Figure not found"
    r = client.post(f"{URL}/compare-groups.gif", json={"experiment_ids": pair, "x": "workers"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "fmt"]


def _table_width_in(directory: Path, tex: str) -> float:
    """The printed width of a LaTeX table (inches), compiled with pdflatex in a minimal
    document: from the words under its caption (which ends "... excludes zero.")."""
    from backend.tests.api.test_tables import MINIMAL, compile_latex

    directory.mkdir()
    (directory / "table.tex").write_text(tex)
    (directory / "main.tex").write_text(MINIMAL)
    done = compile_latex(directory)
    assert done.returncode == 0, done.stdout[-3000:]
    bbox = subprocess.run(
        ["pdftotext", "-bbox", str(directory / "main.pdf"), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    page = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", bbox))
    words = list(page.iter("{http://www.w3.org/1999/xhtml}word"))
    caption_end = next(float(w.attrib["yMax"]) for w in words if w.text == "zero.")
    table = [w for w in words if float(w.attrib["yMin"]) > caption_end]
    assert len(table) > 10, [w.text for w in table]
    left = min(float(w.attrib["xMin"]) for w in table)
    return (max(float(w.attrib["xMax"]) for w in table) - left) / 72


def test_compare_differences_table_csv_and_latex(
    client: TestClient, pair: list[int], tmp_path: Path
) -> None:
    body = {
        "experiment_ids": pair,
        "metrics": ["throughput_per_s"],
        "brush": {"workers": [[12, 20]]},
    }
    diffs = client.post("/api/v1/compare/differences", json=body).json()["data"]
    r = client.post("/api/v1/compare/tables/differences.csv", json=body)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert 'filename="compare-differences.csv"' in r.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0][:6] == [
        "Experiment",
        "Configuration",
        "Base n",
        "Base mean (ops/s)",
        "Base std (ops/s)",
        "Compared n",
    ]
    assert rows[0][8:10] == ["Difference, 95% CI value (ops/s)", "Difference, 95% CI low (ops/s)"]
    # The brushed rows of /compare/differences, at full precision, levels in words.
    assert len(rows) == 1 + len(diffs) == 3
    for row, d in zip(rows[1:], diffs, strict=True):
        assert row[1] == ", ".join(
            f"{v} {'worker threads' if k == 'workers' else 'clients per thread'}"
            if v != 1
            else "1 client per thread"
            for k, v in d["values"].items()
        )
        assert float(row[8]) == pytest.approx(d["difference"])
    tex = client.post("/api/v1/compare/tables/differences.tex", json=body).text
    assert r"\label{tab:compare:throughput}" in tex and r"\begin{table}" in tex
    assert "Throughput of" in tex and "compared with experiment" in tex
    # The default fits a column: the base mean, the difference and its interval's half-width.
    assert _table_width_in(tmp_path / "column", tex) <= 3.5
    assert r"\shortstack[l]{Clients per\\thread}" in tex and "Rel." in tex
    # The whole table, both means and the interval's bounds, is a table* over both columns.
    page = client.post(
        "/api/v1/compare/tables/differences.tex", params={"width": "page"}, json=body
    ).text
    assert r"\begin{table*}" in page and r"\end{table*}" in page and r"\cmidrule" in page
    # Parameters in the base design's factor order (clients per thread, then workers).
    assert "Clients per thread & Worker threads & base & compared & value & low & high" in page
    assert 3.5 < _table_width_in(tmp_path / "page", page) <= 7.16
    # Two metrics: each row names its metric and unit.
    two = client.post(
        "/api/v1/compare/tables/differences.csv", json={**body, "metrics": ["p50_us", "p99_us"]}
    )
    header = next(csv.reader(io.StringIO(two.text)))
    assert header[2:5] == ["Metric", "Unit", "Base n"]
    two_tex = client.post(
        "/api/v1/compare/tables/differences.tex",
        json={**body, "metrics": ["throughput_per_s", "response_time_us"]},
    ).text
    # The number headers carry no unit then: the rows come per metric, under a line naming it
    # with its unit, and the table still fits a column.
    span = r"\multicolumn{7}{@{}l@{}}{\textit{%s}} \\"
    through, response = span % "Throughput (ops/s)", span % r"Response time ($\mu$s)"
    assert through in two_tex and response in two_tex, two_tex
    lines = two_tex.splitlines()
    first, second = lines.index(through), lines.index(response)
    assert first < second and lines[second - 1] == r"\addlinespace"
    assert second - first - 1 == len(diffs) + 1  # this metric's rows, then the space
    assert len(lines) - second > len(diffs)
    assert "Metric" not in two_tex
    # Each metric's numbers have its unit's decimals: none for ops/s, one for µs.
    base_through, base_response = (
        lines[first + 1].split(" & ")[2],
        lines[second + 1].split(" & ")[2],
    )
    assert "." not in base_through
    assert "." in base_response, (base_through, base_response)
    assert _table_width_in(tmp_path / "two-metrics", two_tex) <= 3.5
    bad = client.post(
        "/api/v1/compare/tables/differences.tex", json={**body, "brush": {"x": [[0, 1]]}}
    )
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["body", "brush", "x"]


def test_parcoords_screen_file_has_a_colour_bar(client: TestClient, pair: list[int]) -> None:
    """The screen style's file, as the page shows it: the colour bar of the lines, level
    titles; still no image."""
    body = {"experiment_ids": pair, "metric": "response_time_us", "style": "screen"}
    svg = ET.fromstring(_post(client, "compare-parcoords", "svg", body).content)
    assert not list(svg.iter(f"{SVG}image"))
    bars = [g for g in svg.iter(f"{SVG}g") if "colorbar" in g.attrib.get("class", "").split()]
    assert len(bars) == 1
    titles = {(t.text or "").strip() for t in bars[0].iter(f"{SVG}text")}
    assert "Response time (µs)" in titles


# Two experiments whose names a new user gave them: alike at both ends, longer than the
# first axis' margin (they were cut to "Max thro…eavy 1:1", both of them).
LONG_NAMES = ("Max throughput, read-heavy 1:1", "Max throughput, write-heavy 1:1")


@pytest.fixture(scope="module")
def named_pair(client: TestClient, database: str) -> list[int]:
    from sqlalchemy import update

    from backend.core.db import SessionLocal
    from backend.models import Experiment

    with SessionLocal() as db:
        ids = [stored_experiment(client, db)["id"] for _ in LONG_NAMES]
        for i, name in zip(ids, LONG_NAMES, strict=True):
            db.execute(update(Experiment).where(Experiment.id == i).values(name=name))
        db.commit()
    return ids


def _column_svg(client: TestClient, ids: list[int], **extra: Any) -> ET.Element:
    """The default file: report style at column width, as the UI exports and the report has."""
    body = {"experiment_ids": ids, **PARCOORDS_TEXT_BODY, **extra}
    return ET.fromstring(_post(client, "compare-parcoords", "svg", body).content)


def _svg_lines(svg: ET.Element) -> list[str]:
    """Every line of text drawn (a multi-line annotation's lines apart)."""
    lines = []
    for text in svg.iter(f"{SVG}text"):
        spans = [t for t in text.iter(f"{SVG}tspan") if "line" in t.attrib.get("class", "")]
        lines += ["".join(t.itertext()) for t in spans] if spans else ["".join(text.itertext())]
    return [line.strip() for line in lines]


def _tick_labels(svg: ET.Element) -> list[Any]:
    """The unrotated one-line annotations: the tick labels (titles slant, the key is left of
    the plot on several lines)."""
    return [
        b for b in annotation_boxes(svg) if b.corners[0][1] == b.corners[1][1] and b.text.strip()
    ]


def test_parcoords_column_file_names_every_experiment_in_full(
    client: TestClient, named_pair: list[int], tmp_path: Path
) -> None:
    """No name is cut: names too long for the first axis' margin are lettered on it, and a
    key under the figure gives each letter's full name (in the PDF's words too)."""
    svg = _column_svg(client, named_pair)
    lines = _svg_lines(svg)
    assert not [line for line in lines if "…" in line], lines
    assert [line for line in lines if line.startswith(("A: ", "B: "))] == [
        f"A: {LONG_NAMES[0]}",
        f"B: {LONG_NAMES[1]}",
    ]
    ticks = {b.text for b in _tick_labels(svg)}
    assert {"A", "B"} <= ticks
    pdf = tmp_path / "named.pdf"
    body = {"experiment_ids": named_pair, **PARCOORDS_TEXT_BODY}
    pdf.write_bytes(_post(client, "compare-parcoords", "pdf", body).content)
    words = " ".join(assert_words_on_page(pdf))
    assert all(name in words for name in LONG_NAMES), words
    assert _parcoords_text_clashes(svg, "report") == []


def test_parcoords_report_file_has_a_colour_bar(client: TestClient, pair: list[int]) -> None:
    """The report style, too, says what the colours mean: a colour bar titled with the
    colouring metric, ticked as its axis."""
    svg = _column_svg(client, pair)
    (bar,) = (g for g in svg.iter(f"{SVG}g") if "colorbar" in g.attrib.get("class", "").split())
    texts = {(t.text or "").strip() for t in bar.iter(f"{SVG}text")}
    assert "Queue time (µs)" in texts
    assert len(texts) >= 3  # the title and at least two tick labels


def _number_format(label: str) -> str:
    """What format a numeric tick label is in."""
    if re.fullmatch(r"-?\d+(\.\d+)?[kM]", label):
        return "SI"
    if re.fullmatch(r"-?\d{1,3}(,\d{3})*(\.\d+)?", label):
        return "separated"
    if re.fullmatch(r"-?\d{4,}(\.\d+)?", label):
        return "run-together"
    return "other"


@pytest.mark.parametrize("style", ["report", "screen"])
def test_parcoords_ticks_have_one_number_format(
    client: TestClient, pair: list[int], style: str
) -> None:
    """One number format on every axis and the colour bar: thousands separators (throughput
    was "10k" beside response times of "1,200")."""
    svg = _column_svg(client, pair, style=style)
    labels = [b.text for b in _tick_labels(svg) if re.fullmatch(r"[-\d.,kM]+", b.text)]
    bars = [g for g in svg.iter(f"{SVG}g") if "colorbar" in g.attrib.get("class", "").split()]
    bar_labels = [  # a tick label's group is classed "...tick"
        "".join(g.itertext()).strip()
        for bar in bars
        for g in bar.iter(f"{SVG}g")
        if g.attrib.get("class", "").endswith("tick")
    ]
    labels += bar_labels
    assert {_number_format(label) for label in labels} == {"separated"}, labels
    assert len(bars) == 1 and len(bar_labels) >= 2, bar_labels  # the bar's labels checked too
    # Both sizes are there: tens of thousands (throughput) and thousands (response time).
    values = [float(label.replace(",", "")) for label in labels]
    assert any(v >= 10_000 for v in values) and any(1000 <= v < 10_000 for v in values), labels


def test_parcoords_no_line_is_drawn_over_a_tick_label(
    client: TestClient, named_pair: list[int]
) -> None:
    """A tick label that lines run through stands on an opaque box drawn after the lines:
    they pass under it, not over its text (the box was 80% opaque: lines showed through)."""
    svg = _column_svg(client, named_pair)
    segments = polyline_segments(svg)
    assert len(segments) >= 8 * 5  # a line per configuration over six axes
    crossed = [b for b in _tick_labels(svg) if any(crosses(b, s) for s in segments)]
    assert len(crossed) >= 3, "the test needs labels that lines run through"
    for box in crossed:
        fill = re.search(r"fill: ?rgb\(([^)]*)\)", box.style)
        opacity = re.search(r"fill-opacity: ?([\d.]+)", box.style)
        assert fill and fill[1].replace(" ", "") == "255,255,255", (box.text, box.style)
        assert opacity and float(opacity[1]) == 1, (box.text, box.style)
    # The labels are drawn after (over) the lines.
    order = [g.attrib.get("class", "") for g in svg.iter(f"{SVG}g")]
    first_label = order.index("annotation-text-g")
    assert max(i for i, c in enumerate(order) if "scatterlayer" in c) < first_label


def test_parcoords_height_too_low_for_the_key_names_the_least_that_fits(
    client: TestClient, named_pair: list[int]
) -> None:
    """The colour bar and the key take height from the axes when a height is asked: one
    that would leave the axes under an inch is refused, naming the least that fits."""
    body = {"experiment_ids": named_pair, **PARCOORDS_TEXT_BODY, "height": 1.5}
    r = client.post(f"{URL}/compare-parcoords.svg", json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["loc"] == ["body", "height"]
    found = re.search(r"at least (\S+) in", detail["msg"])
    assert found, detail["msg"]
    least = float(found.group(1))
    svg = _column_svg(client, named_pair, height=least)
    assert float(svg.attrib["height"]) == pytest.approx(least * 96)
    assert _parcoords_text_clashes(svg, "report") == []
    # Without a height the figure is the style's default plus the bar's and the key's.
    tall = _column_svg(client, named_pair)
    assert float(tall.attrib["height"]) > 2.52 * 96
