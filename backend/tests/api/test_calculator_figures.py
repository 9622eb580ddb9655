"""The Models page's MVA calculator as a server figure (POST /analysis/figures/mva-calculator):
the curves are the analysis module's MVA of the body's network, files are vector at the
printed width, and a bad body is a 422 naming its field."""

import re
import struct
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.analysis.mva.bounds import bounds
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.network import Station, StationKind
from backend.tests.utils.pdf import assert_vector_report_pdf

URL = "/api/v1/analysis/figures/mva-calculator"
SVG = "{http://www.w3.org/2000/svg}"

# The calculator's defaults: one middleware serving gets (DOMAIN.md's Octave check).
STATIONS: list[dict[str, Any]] = [
    {"name": "network (to)", "kind": "delay", "service_time_s": 300e-6},
    {"name": "net thread", "kind": "queue", "service_time_s": 86.61008e-6},
    {"name": "worker pool", "kind": "multi", "service_time_s": 1094.205e-6, "servers": 64},
    {"name": "memcached", "kind": "queue", "service_time_s": 1 / 2940},
    {"name": "network (back)", "kind": "delay", "service_time_s": 300e-6},
]
BODY: dict[str, Any] = {
    "stations": STATIONS,
    "population": 24,
    "think_time_s": 50e-6,
    "include_bounds": True,
}


pytestmark = pytest.mark.usefixtures("closes_renderer")


def _post(client: TestClient, fmt: str, body: dict[str, Any]) -> Any:
    r = client.post(f"{URL}.{fmt}", json=body)
    assert r.status_code == 200, f"{fmt}: {r.text[:500]}"
    return r


def _engine_stations() -> tuple[Station, ...]:
    return tuple(
        Station(s["name"], StationKind(s["kind"]), s["service_time_s"], 1.0, s.get("servers", 1))
        for s in STATIONS
    )


def test_json_traces_are_the_analysis_modules_mva(client: TestClient) -> None:
    fig = _post(client, "json", {**BODY, "style": "screen"}).json()
    res = solve_mva(_engine_stations(), 24, 50e-6)
    aba = bounds(_engine_stations(), 24, 50e-6)
    traces = {t["name"]: t for t in fig["data"]}
    assert list(traces) == ["X(N)", "R(N)", "Bound"]
    x, r, bound = traces.values()
    assert x["x"] == r["x"] == bound["x"] == list(range(1, 25))
    assert x["y"] == pytest.approx(list(res.throughput_per_s), rel=1e-12)
    assert r["y"] == pytest.approx([v * 1e6 for v in res.response_time_s], rel=1e-12)
    assert r["yaxis"] == "y2"
    assert bound["y"] == pytest.approx(list(aba.aba_throughput_upper), rel=1e-12)
    assert bound["line"]["dash"] == "dot"
    assert round(x["y"][-1], 2) == 2940.00  # the published check at N = 24
    layout = fig["layout"]
    assert layout["xaxis"]["title"]["text"] == "Virtual clients N"
    assert layout["yaxis"]["title"]["text"] == "Throughput X (ops/s)"
    assert layout["yaxis2"]["title"]["text"] == "Response time R (µs)"
    assert "bottleneck: memcached" in layout["meta"]["caption"]
    assert "Z = 50 µs" in layout["meta"]["caption"]
    assert "width" not in layout  # responsive on screen


def test_json_without_bounds_draws_no_bound(client: TestClient) -> None:
    fig = _post(client, "json", {**BODY, "include_bounds": False}).json()
    assert [t["name"] for t in fig["data"]] == ["X(N)", "R(N)"]


def test_pdf_is_vector_at_column_width(client: TestClient, tmp_path: Path) -> None:
    r = _post(client, "pdf", BODY)
    assert r.headers["content-type"] == "application/pdf"
    assert 'filename="mva-calculator.pdf"' in r.headers["content-disposition"]
    path = tmp_path / "mva.pdf"
    path.write_bytes(r.content)
    assert_vector_report_pdf(path, 3.5)
    text = subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    assert "Throughput X (ops/s)" in text and "Response time R (µs)" in text


def test_svg_at_page_width_and_png_size(client: TestClient) -> None:
    root = ET.fromstring(_post(client, "svg", {**BODY, "width": "page"}).content)
    assert float(root.attrib["width"]) == pytest.approx(7.16 * 96)
    texts = {(t.text or "").strip() for t in root.iter(f"{SVG}text")}
    assert {"Virtual clients N", "Throughput X (ops/s)", "Response time R (µs)"} <= texts
    assert not list(root.iter(f"{SVG}image"))
    png = _post(client, "png", {**BODY, "width": "column", "height": 2.5, "dpi": 200}).content
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (700, 500)


def _translate(element: ET.Element) -> tuple[float, float]:
    found = re.search(r"translate\(([-\d.]+),\s*([-\d.]+)\)", element.attrib.get("transform", ""))
    assert found, element.attrib
    return float(found[1]), float(found[2])


@pytest.mark.parametrize("style", ["report", "screen"])
@pytest.mark.parametrize("population", [3, 24, 200])
def test_column_width_legend_is_one_row(client: TestClient, style: str, population: int) -> None:
    """At column width the legend is one row above the plot, which keeps 65% or more of
    the figure's height (the full names took three rows: the plot kept 55%)."""
    body = {**BODY, "population": population, "style": style}
    root = ET.fromstring(_post(client, "svg", body).content)
    (legend,) = (g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "legend")
    entries = [g for g in legend.iter(f"{SVG}g") if g.attrib.get("class") == "traces"]
    assert len(entries) == 3
    assert len({_translate(g)[1] for g in entries}) == 1, "one row"
    clip = next(c for c in root.iter(f"{SVG}clipPath") if c.attrib["id"].endswith("xyplot"))
    plot_height = float(clip[0].attrib["height"])
    assert plot_height / float(root.attrib["height"]) >= 0.65


@pytest.mark.parametrize(
    ("patch", "loc", "msg"),
    [
        ({"population": 0}, ["body", "population"], "greater than or equal to 1"),
        ({"width": "wide"}, ["body", "width"], "column, page"),
        ({"dpi": 10}, ["body", "dpi"], "greater than or equal to 50"),
        (
            {"stations": [{**STATIONS[1], "service_time_s": -1}]},
            ["body", "stations", 0, "service_time_s"],
            "greater than or equal to 0",
        ),
        (
            {"stations": [{"name": "d", "kind": "delay", "service_time_s": 1e-3}]},
            ["body", "stations"],
            "no queueing station",
        ),
        ({"colour": "red"}, ["body", "colour"], "Extra inputs"),
    ],
)
def test_bad_body_is_422_naming_the_field(
    client: TestClient, patch: dict[str, Any], loc: list[Any], msg: str
) -> None:
    r = client.post(f"{URL}.json", json={**BODY, **patch})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["loc"][: len(loc)] == loc
    assert msg in detail["msg"]


def test_unknown_format_is_422_on_the_path(client: TestClient) -> None:
    r = client.post(f"{URL}.gif", json=BODY)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "fmt"]
