"""Figure endpoints: every registered figure as Plotly JSON, vector PDF and SVG, and PNG."""

import json
import re
import struct
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.figures.catalog import FIGURES
from backend.figures.render import renderer
from backend.tests.utils.stored import model_throughput, stored_experiment

API = "/api/v1/experiments"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module", autouse=True)
def _close_browser() -> Iterator[None]:
    yield
    renderer.close()


@pytest.fixture(scope="module")
def exp(client: TestClient, database: str) -> dict[str, Any]:
    from backend.core.db import SessionLocal

    with SessionLocal() as db:
        return stored_experiment(client, db)


def _get(client: TestClient, exp_id: int, name: str, fmt: str, **params: Any) -> Any:
    r = client.get(f"{API}/{exp_id}/figures/{name}.{fmt}", params=params)
    assert r.status_code == 200, f"{name}.{fmt}: {r.text[:500]}"
    return r


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_read_figure_json_every_figure(client: TestClient, exp: dict[str, Any], name: str) -> None:
    fig = _get(client, exp["id"], name, "json", style="screen").json()
    assert fig["data"], name
    assert fig["layout"]["meta"]["caption"]
    assert "width" not in fig["layout"]  # responsive in the UI
    titles = [fig["layout"][a].get("title", {}).get("text") for a in ("xaxis", "yaxis")]
    assert any(titles), "a value axis carries a title with its unit"


def test_throughput_figure_names_levels_and_units(client: TestClient, exp: dict[str, Any]) -> None:
    fig = _get(client, exp["id"], "throughput", "json", x="clients_per_thread").json()
    names = [t["name"] for t in fig["data"]]
    assert names == ["8 worker threads", "16 worker threads"]
    assert fig["layout"]["xaxis"]["title"]["text"] == "Clients per thread"
    assert fig["layout"]["yaxis"]["title"]["text"] == "Throughput (ops/s)"
    eight = fig["data"][0]
    assert eight["x"] == [1, 4]
    for x, y, err in zip(eight["x"], eight["y"], eight["error_y"]["array"], strict=True):
        values = {"clients_per_thread": x, "workers": 8}
        assert y == pytest.approx((model_throughput(values, 0) + model_throughput(values, 1)) / 2)
        assert err == pytest.approx(70.71, abs=0.01)  # std of {+0, +100}
    rt = _get(client, exp["id"], "response-time", "json").json()
    assert rt["layout"]["yaxis"]["title"]["text"] == "Response time (µs)"
    # Each series has its own marker and dash, so it survives grayscale printing.
    tmpl = fig["layout"]["template"]["data"]["scatter"]
    assert len({t["marker"]["symbol"] for t in tmpl}) == len(tmpl)
    assert len({t["line"]["dash"] for t in tmpl[:6]}) == 6


def test_figure_selection_series_and_pins(client: TestClient, exp: dict[str, Any]) -> None:
    fig = _get(
        client, exp["id"], "throughput", "json", x="workers", series="", pin="clients_per_thread=4"
    ).json()
    assert len(fig["data"]) == 1 and fig["data"][0]["x"] == [8, 16]
    assert "4 clients per thread" in fig["layout"]["meta"]["caption"]
    pct = _get(client, exp["id"], "percentiles", "json", percentiles="50,99").json()
    assert [t["name"] for t in pct["data"]] == ["p50", "p99"]


def _pdf_tool(tool: str, path: Path) -> list[str]:
    out = subprocess.run(
        [tool, *(["-list"] if tool == "pdfimages" else []), str(path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [line for line in out.splitlines()[2:] if line.strip()]


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_read_figure_pdf_is_vector_at_column_width(
    client: TestClient, exp: dict[str, Any], name: str, tmp_path: Path
) -> None:
    r = _get(client, exp["id"], name, "pdf")
    assert r.headers["content-type"] == "application/pdf"
    assert f"-{name}.pdf" in r.headers["content-disposition"]
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(r.content)
    fonts = _pdf_tool("pdffonts", path)
    assert fonts, "text must be text: pdffonts lists no font"
    assert any("LiberationSerif" in f or "TimesNewRoman" in f for f in fonts), fonts
    assert not [f for f in fonts if "Type 3" in f], f"Type 3 fonts fail publishers' checks: {fonts}"
    assert _pdf_tool("pdfimages", path) == [], "a vector PDF embeds no raster image"
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True)
    size = next(line for line in info.stdout.splitlines() if line.startswith("Page size"))
    width_pt, height_pt = float(size.split()[2]), float(size.split()[4])
    assert width_pt == pytest.approx(3.5 * 72, abs=1.5)
    # Every word lies on the page: nothing (e.g. the x-axis title) is cut at an edge.
    bbox = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    page = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", bbox))
    words = list(page.iter("{http://www.w3.org/1999/xhtml}word"))
    assert words
    for w in words:
        assert float(w.attrib["xMin"]) >= 0 and float(w.attrib["yMin"]) >= 0, w.text
        assert float(w.attrib["xMax"]) <= width_pt and float(w.attrib["yMax"]) <= height_pt, w.text


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_read_figure_svg_has_text(client: TestClient, exp: dict[str, Any], name: str) -> None:
    r = _get(client, exp["id"], name, "svg", width="page")
    root = ET.fromstring(r.content)
    assert root.tag == f"{SVG}svg"
    assert float(root.attrib["width"]) == pytest.approx(7.16 * 96)
    texts = [t for t in root.iter(f"{SVG}text") if (t.text or "").strip()]
    assert texts
    assert not list(root.iter(f"{SVG}image"))


@pytest.mark.parametrize(("width", "height", "dpi"), [("column", "2.5", 300), ("2", "1.5", 100)])
def test_read_figure_png_size_is_width_times_dpi(
    client: TestClient, exp: dict[str, Any], width: str, height: str, dpi: int
) -> None:
    r = _get(client, exp["id"], "throughput", "png", width=width, height=height, dpi=dpi)
    assert r.content[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", r.content[16:24])
    inches = 3.5 if width == "column" else float(width)
    assert (w, h) == (round(inches * dpi), round(float(height) * dpi))


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"width": "wide"}, "width"),
        ({"width": "50"}, "width"),
        ({"dpi": 10}, "dpi"),
        ({"style": "fancy"}, "style"),
        ({"x": "nope"}, "x"),
        ({"series": "nope"}, "series"),
        ({"pin": "workers"}, "pin"),
        ({"pin": "ratio=1:1"}, "pin"),
        ({"window_start_s": 10, "window_end_s": 5}, "window_end_s"),
    ],
)
def test_read_figure_bad_parameters_name_the_field(
    client: TestClient, exp: dict[str, Any], params: dict[str, Any], field: str
) -> None:
    r = client.get(f"{API}/{exp['id']}/figures/throughput.json", params=params)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["query", field]


def test_read_figure_not_found(client: TestClient, exp: dict[str, Any]) -> None:
    r = client.get(f"{API}/{exp['id']}/figures/pie-chart.json")
    assert r.status_code == 404 and r.json()["detail"] == "Figure not found"
    r = client.get(f"{API}/999999999/figures/throughput.pdf")
    assert r.status_code == 404 and r.json()["detail"] == "Experiment not found"
    r = client.get(f"{API}/{exp['id']}/figures/throughput.gif")
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "fmt"]
    listing = client.get(f"{API}/{exp['id']}/figures").json()
    assert [f["name"] for f in listing["data"]][:2] == ["throughput", "response-time"]
    assert listing["count"] == len(FIGURES)


def test_read_figure_json_is_plotly_json(client: TestClient, exp: dict[str, Any]) -> None:
    r = _get(client, exp["id"], "breakdown", "json")
    fig = json.loads(r.content)
    assert [t["name"] for t in fig["data"]] == ["queue", "server", "processing", "network"]
    assert fig["layout"]["barmode"] == "relative"
    assert "µs" in fig["layout"]["yaxis"]["title"]["text"]
