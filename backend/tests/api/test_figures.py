"""Figure endpoints: every registered figure as Plotly JSON, vector PDF and SVG, and PNG."""

import json
import math
import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.figures.catalog import FIGURES
from backend.tests.utils.pdf import assert_vector_report_pdf, assert_words_on_page, poppler_lines
from backend.tests.utils.stored import model_throughput, stored_experiment

API = "/api/v1/experiments"
SVG = "{http://www.w3.org/2000/svg}"


pytestmark = pytest.mark.usefixtures("closes_renderer")


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
    if fig["data"][0]["type"] == "parcoords":
        titles = [d["label"] for d in fig["data"][0]["dimensions"]]
        assert "Throughput (ops/s)" in titles and "Response time (µs)" in titles
        return
    titles = [fig["layout"][a].get("title", {}).get("text") for a in ("xaxis", "yaxis")]
    assert any(titles), "a value axis carries a title with its unit"


def test_throughput_figure_names_levels_and_units(client: TestClient, exp: dict[str, Any]) -> None:
    fig = _get(client, exp["id"], "throughput", "json", x="clients_per_thread").json()
    names = [t["name"] for t in fig["data"]]
    assert names == ["8 worker threads", "16 worker threads"]
    assert fig["layout"]["xaxis"]["title"]["text"] == "Clients per thread"
    served = {p["name"]: p for p in client.get("/api/v1/parameters").json()}
    assert served["clients_per_thread"]["title"] == "Clients per thread"  # the UI's select
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


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_read_figure_pdf_is_vector_at_column_width(
    client: TestClient, exp: dict[str, Any], name: str, tmp_path: Path
) -> None:
    r = _get(client, exp["id"], name, "pdf")
    assert r.headers["content-type"] == "application/pdf"
    assert f"-{name}.pdf" in r.headers["content-disposition"]
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(r.content)
    fonts = poppler_lines("pdffonts", path)
    assert not [f for f in fonts if "Type 3" in f], f"Type 3 fonts fail publishers' checks: {fonts}"
    # Parallel coordinates too: drawn with vector traces for files, not WebGL.
    assert_vector_report_pdf(path, 3.5)
    assert_words_on_page(path)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_read_figure_svg_has_text(client: TestClient, exp: dict[str, Any], name: str) -> None:
    r = _get(client, exp["id"], name, "svg", width="page")
    root = ET.fromstring(r.content)
    assert root.tag == f"{SVG}svg"
    assert float(root.attrib["width"]) == pytest.approx(7.16 * 96)
    texts = [t for t in root.iter(f"{SVG}text") if (t.text or "").strip()]
    assert texts
    assert not list(root.iter(f"{SVG}image"))
    # The report style's type: 8 pt text, 9 pt axis titles, 7.5 pt legends (96 px per inch).
    sizes = {float(px) * 0.75 for px in re.findall(r"font-size: ?([\d.]+)px", r.text)}
    assert sizes and all(7.5 <= pt <= 9.0 for pt in sizes), (name, sorted(sizes))


@pytest.mark.parametrize(("width", "height", "dpi"), [("column", "2.5", 300), ("2", "1.5", 100)])
def test_read_figure_png_size_is_width_times_dpi(
    client: TestClient, exp: dict[str, Any], width: str, height: str, dpi: int
) -> None:
    r = _get(client, exp["id"], "throughput", "png", width=width, height=height, dpi=dpi)
    assert r.content[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", r.content[16:24])
    inches = 3.5 if width == "column" else float(width)
    assert (w, h) == (round(inches * dpi), round(float(height) * dpi))


@pytest.mark.parametrize("path", ["figures/compare-groups.json", "bundle.zip"])
def test_a_window_start_alone_names_the_missing_end(
    client: TestClient, exp: dict[str, Any], path: str
) -> None:
    # Issue 30: the compare figure (also drawn into every bundle) built its request from a
    # start alone and answered 500.
    r = client.get(f"{API}/{exp['id']}/{path}", params={"window_start_s": 0})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["query", "window_end_s"]


def test_read_figure_png_too_many_pixels_names_dpi(client: TestClient, exp: dict[str, Any]) -> None:
    # Issue 30: 20 x 20 in at 1200 dpi (24000 px a side) was a 200 with a 3-byte body.
    params = {"width": "20", "height": "20", "dpi": 1200}
    r = client.get(f"{API}/{exp['id']}/figures/throughput.png", params=params)
    assert r.status_code == 422, r.text
    err = r.json()["detail"][0]
    assert err["loc"] == ["query", "dpi"] and "at most 819 dpi" in err["msg"], err
    # The largest that fits is a real PNG of the asked size.
    r = _get(client, exp["id"], "throughput", "png", width="20", height="1", dpi=819)
    assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", r.content[16:24]) == (16_380, 819)


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
        ({"window_start_s": 0}, "window_end_s"),
        ({"server_utilization": 5e-324}, "server_utilization"),
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


def test_results_figure_band_log_axes_and_hover(client: TestClient, exp: dict[str, Any]) -> None:
    bars = _get(client, exp["id"], "throughput", "json", x="clients_per_thread").json()
    band = _get(
        client, exp["id"], "throughput", "json", x="clients_per_thread", band="band", log_x=True
    ).json()
    # A band per line, drawn under it in its colour and toggled with it; no error bars.
    assert len(band["data"]) == 2 * len(bars["data"])
    for area, line, plain in zip(band["data"][::2], band["data"][1::2], bars["data"], strict=True):
        assert area["fill"] == "toself" and area["showlegend"] is False
        assert area["legendgroup"] == line["legendgroup"]
        assert "error_y" not in line
        assert line["name"] == plain["name"]
        n = len(plain["x"])
        ys, errs = plain["y"], plain["error_y"]["array"]
        assert area["y"][:n] == pytest.approx([y + e for y, e in zip(ys, errs, strict=True)])
        assert area["fillcolor"].startswith("rgba(") and line["line"]["color"].startswith("#")
    assert band["layout"]["xaxis"]["type"] == "log"
    none = _get(client, exp["id"], "response-time", "json", band="none", log_y=True).json()
    assert all("error_y" not in t for t in none["data"])
    assert none["layout"]["yaxis"]["type"] == "log"
    # Hover names the x factor and the unit; the std over repetitions rides along.
    tmpl = bars["data"][0]["hovertemplate"]
    assert "Clients per thread" in tmpl and "ops/s" in tmpl and "customdata" in tmpl
    assert bars["data"][0]["customdata"] == bars["data"][0]["error_y"]["array"]


def test_model_figures_draw_the_network_model_over_the_data(
    client: TestClient, exp: dict[str, Any]
) -> None:
    inputs = client.get(f"/api/v1/analysis/experiments/{exp['id']}/network-inputs")
    assert inputs.status_code == 200, inputs.text
    group = inputs.json()["data"][1]
    solved = client.post(
        "/api/v1/analysis/network-model",
        json={
            "system": group["system"],
            "clients": [p["clients"] for p in group["points"]],
            "measured_throughput_per_s": [p["throughput_per_s"] for p in group["points"]],
            "measured_response_time_s": [p["response_time_s"] for p in group["points"]],
            "include_bounds": True,
        },
    ).json()["model"]
    fig = _get(client, exp["id"], "model-throughput", "json", group=1).json()
    measured, curve, bound = fig["data"]
    assert measured["x"] == [p["clients"] for p in group["points"]]
    assert measured["y"] == pytest.approx([p["throughput_per_s"] for p in group["points"]])
    assert curve["y"] == pytest.approx(solved["throughput_per_s"])
    assert bound["y"] == pytest.approx(solved["bounds"]["aba_throughput_upper"])
    assert solved["bottleneck"] in fig["layout"]["meta"]["caption"]
    assert "16 worker threads" in fig["layout"]["meta"]["caption"]
    rt = _get(client, exp["id"], "model-response-time", "json", group=1).json()
    assert rt["layout"]["yaxis"]["title"]["text"] == "Response time (µs)"
    assert rt["data"][1]["y"] == pytest.approx([r * 1e6 for r in solved["response_time_s"]])
    r = client.get(f"{API}/{exp['id']}/figures/model-throughput.json", params={"group": 5})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "group"]


@pytest.mark.parametrize(
    ("quantity", "field", "scale"),
    [("response_time", "response_time_s", 1e6), ("queue_length", "queue_length", 1.0)],
)
def test_queue_models_figure_is_the_queue_models_endpoint(
    client: TestClient, exp: dict[str, Any], quantity: str, field: str, scale: float
) -> None:
    rows = client.get(f"/api/v1/analysis/experiments/{exp['id']}/queue-models").json()["data"]
    eight = sorted((r for r in rows if r["values"]["workers"] == 8), key=lambda r: r["clients"])
    fig = _get(client, exp["id"], "queue-models", "json", quantity=quantity).json()
    assert [t["name"] for t in fig["data"]] == ["measured", "M/M/1", "M/M/m"]
    measured, mm1, mmm = fig["data"]
    assert measured["x"] == [r["clients"] for r in eight]

    def scaled(model: str, key: str) -> list[Any]:
        # An unstable queue (utilization >= 1) predicts nothing: a gap in the line.
        values = [r[model][field][key] for r in eight]
        return [None if v is None else pytest.approx(v * scale) for v in values]

    assert mmm["y"] == scaled("mmm", "predicted")
    assert mm1["y"] == scaled("mm1", "predicted")
    assert measured["y"] == scaled("mmm", "measured")
    assert any(v is not None for v in mmm["y"])
    r = client.get(f"{API}/{exp['id']}/figures/queue-models.json", params={"quantity": "x"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "quantity"]


def test_compare_groups_figure_is_the_groups_endpoint(
    client: TestClient, exp: dict[str, Any]
) -> None:
    from backend.core.db import SessionLocal

    with SessionLocal() as db:
        other = stored_experiment(client, db)
    body = {
        "experiment_ids": [exp["id"], other["id"]],
        "x": "clients_per_thread",
        "group_by": "experiment",
        "band": "ci",
        "level": 0.9,
    }
    groups = client.post("/api/v1/compare/groups", json=body).json()["data"]
    fig = _get(
        client,
        exp["id"],
        "compare-groups",
        "json",
        compare=other["id"],
        x="clients_per_thread",
        interval="ci",
        level=0.9,
    ).json()
    lines = [t for t in fig["data"] if t.get("fill") != "toself"]
    bands = [t for t in fig["data"] if t.get("fill") == "toself"]
    pooled = [", pooled" if g["pooled"] else "" for g in groups]
    assert [t["name"] for t in lines] == [
        f"{g['label']} ({g['runs']} runs{p})" for g, p in zip(groups, pooled, strict=True)
    ]
    assert len(bands) == len(groups)
    for line, band, g in zip(lines, bands, groups, strict=True):
        assert line["y"] == pytest.approx([p["mean"] for p in g["points"]])
        n = len(g["points"])
        assert band["y"][:n] == pytest.approx([p["high"] for p in g["points"]])
        assert line["legendgroup"] == band["legendgroup"]
    assert "90% t interval" in fig["layout"]["meta"]["caption"]
    # One experiment alone: one curve per level of the other factor, named in words.
    alone = _get(client, exp["id"], "compare-groups", "json", x="clients_per_thread").json()
    names = [t["name"] for t in alone["data"] if t.get("fill") != "toself"]
    assert names == ["8 worker threads (4 runs)", "16 worker threads (4 runs)"]
    bad = client.get(
        f"{API}/{exp['id']}/figures/compare-groups.json", params={"metric": "queue_time_us"}
    )
    # The client side reports no queue time: the groups endpoint's 422, named as a query field.
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "metric"]


def test_histogram_figure_log_axis_zoom_and_the_tail(
    client: TestClient, exp: dict[str, Any]
) -> None:
    lin = _get(client, exp["id"], "histogram", "json").json()
    log = _get(client, exp["id"], "histogram", "json", log_x=True).json()
    bars = lin["data"][0]
    # Buckets of 100 µs from 0; on a log axis the first is drawn from half its bound.
    assert bars["x"][0] == pytest.approx(50.0) and bars["width"][0] == pytest.approx(100.0)
    assert log["data"][0]["width"][0] == pytest.approx(50.0)
    assert log["layout"]["xaxis"]["type"] == "log"
    lo, hi = lin["layout"]["xaxis"]["range"]
    assert log["layout"]["xaxis"]["range"][1] == pytest.approx(math.log10(hi))
    # What lies right of the shown range: the overflow (3 per run, 8 runs) and any tail.
    counts, lows = bars["y"], [x - w / 2 for x, w in zip(bars["x"], bars["width"], strict=True)]
    tail = sum(c for low, c in zip(lows, counts, strict=True) if low >= hi)
    assert lin["layout"]["meta"]["beyond"] == 3 * 2 + tail  # one configuration, 2 runs
    assert "requests" in bars["hovertemplate"]


def test_time_series_figure_outlines_a_recut_window(
    client: TestClient, exp: dict[str, Any]
) -> None:
    plain = _get(client, exp["id"], "time-series", "json").json()
    cut = _get(client, exp["id"], "time-series", "json", window_start_s=8, window_end_s=20).json()
    assert len(cut["layout"]["shapes"]) == len(plain["layout"]["shapes"]) + 1
    outline = cut["layout"]["shapes"][-1]
    assert (outline["x0"], outline["x1"]) == (8, 20) and outline["line"]["dash"] == "dash"
    assert "re-cut window [8 s, 20 s)" in cut["layout"]["meta"]["caption"]
    assert [t["name"] for t in plain["data"]] == ["throughput", "response time"]


def test_factorial_diagnostic_figures_are_the_factorial_endpoint(
    client: TestClient, exp: dict[str, Any]
) -> None:
    f = client.get(f"/api/v1/analysis/experiments/{exp['id']}/factorial").json()
    main = _get(client, exp["id"], "main-effects", "json").json()
    # Factors in the design's order, each with its levels (first entered = -1).
    assert [t["name"] for t in main["data"]] == [
        "Clients per thread 1 → 4",
        "Worker threads 8 → 16",
    ]
    for trace, means in zip(main["data"], f["main_effects"].values(), strict=True):
        assert trace["y"] == pytest.approx(means[:2])
    assert main["data"][1]["text"] == ["8 worker threads", "16 worker threads"]
    inter = _get(client, exp["id"], "interactions", "json").json()
    (cells,) = f["interactions"].values()
    assert [t["y"] for t in inter["data"]] == [
        pytest.approx(cells[:2]),
        pytest.approx(cells[2:]),
    ]
    half = _get(client, exp["id"], "half-normal", "json", t_critical=2.5).json()
    lenth = f["lenth"]
    assert half["data"][0]["y"] == pytest.approx(lenth["half_normal_abs_effects"])
    assert "Clients per thread 1 → 4 × Worker threads 8 → 16" in half["data"][0]["text"]
    assert half["data"][1]["name"].startswith("Lenth PSE line")
    bad = client.get(f"{API}/{exp['id']}/figures/residuals.json", params={"t_critical": -1})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "t_critical"]


def test_model_figure_draws_a_what_if_curve_beside_the_data(
    client: TestClient, exp: dict[str, Any]
) -> None:
    fitted = _get(client, exp["id"], "model-throughput", "json").json()
    edited = _get(
        client, exp["id"], "model-throughput", "json", what_if=["workers=1", "middlewares=1"]
    ).json()
    names = [t["name"] for t in edited["data"]]
    assert names[-1] == "MVA, what-if" and "MVA, what-if" not in [t["name"] for t in fitted["data"]]
    assert names[3:] == ["MVA, what-if"]
    curve = next(t for t in fitted["data"] if t["name"] == "MVA, inputs from the data")
    same = next(t for t in edited["data"] if t["name"] == "MVA, inputs from the data")
    assert same["y"] == curve["y"]  # the data's curve stays as it was
    # One worker instead of 8: the layer saturates lower.
    assert edited["data"][-1]["y"][-1] < curve["y"][-1]
    assert "what-if" in edited["layout"]["meta"]["caption"]
    for bad in (["workers"], ["workers=many"], ["cores=4"], ["workers=0"]):
        r = client.get(f"{API}/{exp['id']}/figures/model-throughput.json", params={"what_if": bad})
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["detail"][0]["loc"] == ["query", "what_if"]
