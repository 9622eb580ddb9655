"""Every figure kind, as the report prints it (PDF at column and page width), keeps its parts
apart: the legend beside the plot, not over it; every word on the page and whole (an axis
title cut at the edge read "letwork"); labels of points inside the plot. Geometry from the
SVG Plotly drew and the PDF's word boxes (backend/tests/utils/layout.py)."""

import math
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from backend.figures.catalog import FIGURES
from backend.models import RequestType, Run, RunSeries, RunStatus
from backend.tests.api.test_calculator_figures import BODY
from backend.tests.utils.layout import SvgLayout, Word, find_phrase, pdf_words, svg_layout
from backend.tests.utils.stored import RUN_TIME_S, stored_experiment

API = "/api/v1/experiments"

pytestmark = pytest.mark.usefixtures("closes_renderer")

# A testbed of several machines, as an Azure lab has: the resources figure then has a line per
# host, process and interface (its legend covered the plot at column width, and pushed the
# network axis' title off the figure).
HOSTS = ("client-1", "client-2", "middleware-1", "server-1", "server-2")


def _more_machines(run_id: int) -> list[RunSeries]:
    n = RUN_TIME_S + 4
    nan = [math.nan] * n  # the monitor's sources measure no requests
    rows = []
    for i, host in enumerate(HOSTS):
        busy = [10.0 + 5 * i] * n
        rows += [
            RunSeries(
                run_id=run_id,
                source=f"host:{host}",
                request_type=RequestType.ALL,
                start_unix=1_699_999_998.0,
                throughput=nan,
                response_time_us=nan,
                host_cpu_busy_pct=busy,
                host_cpus=[2.0] * n,
            ),
            RunSeries(
                run_id=run_id,
                source=f"net:{host}:eth0",
                request_type=RequestType.ALL,
                start_unix=1_699_999_998.0,
                throughput=nan,
                response_time_us=nan,
                net_rx_bytes_per_s=[1e6 * (i + 1)] * n,
                net_tx_bytes_per_s=[2e6 * (i + 1)] * n,
            ),
        ]
    return rows


@pytest.fixture(scope="module")
def exp(client: TestClient, database: str) -> dict[str, Any]:
    from backend.core.db import SessionLocal

    with SessionLocal() as db:
        exp = stored_experiment(client, db, name="Layout")
        first = db.scalar(
            select(Run.id)
            .where(Run.experiment_id == exp["id"], Run.status == RunStatus.SUCCEEDED)
            .order_by(Run.id)
            .limit(1)
        )
        assert first is not None
        db.add_all(_more_machines(first))
        db.commit()
        return exp


def _file(client: TestClient, exp_id: int, name: str, fmt: str, width: str) -> bytes:
    r = client.get(f"{API}/{exp_id}/figures/{name}.{fmt}", params={"width": width})
    assert r.status_code == 200, f"{name}.{fmt}: {r.text[:500]}"
    content: bytes = r.content
    return content


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_parts_stay_apart_in_print(
    client: TestClient, exp: dict[str, Any], name: str, width: str, tmp_path: Path
) -> None:
    layout = svg_layout(_file(client, exp["id"], name, "svg", width))
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(_file(client, exp["id"], name, "pdf", width))
    _assert_parts_apart(layout, pdf_words(pdf))


@pytest.mark.parametrize("width", ["column", "page"])
def test_mva_calculator_parts_stay_apart_in_print(
    client: TestClient, width: str, tmp_path: Path
) -> None:
    # The one figure kind outside an experiment (the Models page's calculator).
    def render(fmt: str) -> bytes:
        r = client.post(
            f"/api/v1/analysis/figures/mva-calculator.{fmt}", json=dict(BODY, width=width)
        )
        assert r.status_code == 200, r.text[:500]
        content: bytes = r.content
        return content

    (tmp_path / "mva.pdf").write_bytes(render("pdf"))
    _assert_parts_apart(svg_layout(render("svg")), pdf_words(tmp_path / "mva.pdf"))


def _assert_parts_apart(layout: SvgLayout, words: list[Word]) -> None:
    assert layout.plots, "a figure has a plot area"
    if layout.legend is not None:
        assert layout.legend.inside(layout.page), (layout.legend, layout.page)
        for plot in layout.plots:
            assert not layout.legend.overlaps(plot), ("legend over the plot", layout.legend, plot)
    off = [w.text for w in words if not w.box.inside(layout.page)]
    assert not off, f"cut at the figure's edge: {off}"
    # Every text Plotly drew level with the page is found whole among the PDF's words (a
    # character outside the page is dropped: "Network" read "letwork"). Slanted text (tick
    # labels at an angle) poppler reads letter by letter; its boxes are checked above.
    found = {w.text for w in words}
    for text in layout.level_texts:
        missing = [t for t in text.split() if t not in found]
        assert not missing, f"{text!r} is cut: {missing} not on the page"
    for label in layout.point_labels:
        spelled = find_phrase(words, label)
        assert spelled is not None, f"point label {label!r} not printed whole"
        assert any(all(w.box.inside(p) for w in spelled) for p in layout.plots), (
            f"point label {label!r} runs out of the plot"
        )


def test_the_report_prints_every_legend_entry_and_title_whole(
    client: TestClient, exp: dict[str, Any], tmp_path: Path
) -> None:
    # The figures of issue 37 as report.pdf sets them (natural size, column width): what
    # each figure drew level is in the compiled report, word for word.
    names = ["breakdown", "resources", "half-normal"]
    items = [{"kind": "figure", "name": n} for n in names]
    assert client.put(f"{API}/{exp['id']}/report", json={"items": items}).status_code == 200
    r = client.get(f"{API}/{exp['id']}/report.pdf")
    assert r.status_code == 200, r.text[:2000]
    (tmp_path / "report.pdf").write_bytes(r.content)
    printed = {w.text for w in pdf_words(tmp_path / "report.pdf")}
    for name in names:
        layout = svg_layout(_file(client, exp["id"], name, "svg", "column"))
        for text in layout.level_texts:
            missing = [t for t in text.split() if t not in printed]
            assert not missing, f"{name}: {text!r} is not printed whole ({missing})"
