"""Models say how they fit: a measurement above the MVA's bound is flagged in the API, marked
on the figure (one N: the model's point and bound still drawn) and written in the PDF."""

import io
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.models import Run, RunStatus
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.stored import stored_summary

API = "/api/v1"
MEASURED_X = 21_310.0  # the measurement at N = 1
CLIENT_R_US = 68.4
# Middleware times: response 50 us (no queueing), of which 30 us memcached, 10 us parsing.
MW_R_US, SERVER_US, PROCESSING_US = 50.0, 30.0, 10.0

pytestmark = pytest.mark.usefixtures("closes_renderer")


def _one_n_experiment(client: TestClient, db: Session) -> dict[str, Any]:
    """Two groups (8 or 16 workers), each measured at N = 1 only, far faster than the model's
    demands allow: one client cannot complete 21,310 requests/s at 68.4 us each."""
    exp = create_random_experiment(
        client,
        factors={"workers": [8, 16]},
        fixed={
            "servers": 1,
            "middlewares": 1,
            "ratio": "0:1",
            "client_machines": 1,
            "instances_per_machine": 1,
            "threads_per_instance": 1,
            "clients_per_thread": 1,
        },
        repetitions=1,
    )
    client.post(f"{API}/experiments/{exp['id']}/start")
    client.post(f"{API}/experiments/{exp['id']}/cancel")
    for run in db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all():
        db.add(stored_summary(run.id, "client:0", MEASURED_X, CLIENT_R_US))
        db.add(
            stored_summary(
                run.id,
                "middleware:0",
                MEASURED_X,
                MW_R_US,
                queue_time_us=0.5,
                server_time_us=SERVER_US,
                processing_time_us=PROCESSING_US,
                queue_length=0.0,
            )
        )
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    return exp


def _solved(client: TestClient, exp_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first group's inputs and the network model solved from them (as the Models tab)."""
    inputs = client.get(f"{API}/analysis/experiments/{exp_id}/network-inputs")
    assert inputs.status_code == 200, inputs.text
    group = inputs.json()["data"][0]
    solved = client.post(
        f"{API}/analysis/network-model",
        json={
            "system": group["system"],
            "clients": [p["clients"] for p in group["points"]],
            "measured_throughput_per_s": [p["throughput_per_s"] for p in group["points"]],
            "measured_response_time_s": [p["response_time_s"] for p in group["points"]],
            "include_bounds": True,
        },
    )
    assert solved.status_code == 200, solved.text
    return group, solved.json()


def test_a_measurement_above_the_bound_is_flagged_in_the_api(
    client: TestClient, db: Session
) -> None:
    exp = _one_n_experiment(client, db)
    group, solved = _solved(client, exp["id"])
    assert [p["clients"] for p in group["points"]] == [1]
    (row,) = solved["rows"]
    bound = solved["model"]["bounds"]["aba_throughput_upper"][0]
    assert row["bound_throughput_per_s"] == pytest.approx(bound)
    assert bound < MEASURED_X / 2  # the seeded measurement is far beyond what the model allows
    flag = row["throughput_fit"]
    assert flag["verdict"] == "beyond_bound" and flag["bound_side"] == "upper"
    assert flag["measured"] == pytest.approx(MEASURED_X) and flag["bound"] == pytest.approx(bound)
    assert flag["beyond_bound_percent"] == pytest.approx(100 * (MEASURED_X - bound) / bound)
    assert flag["bound_tolerance_percent"] > 0 and flag["model_tolerance_percent"] > 0
    assert "N = 1: measured throughput 21,310 ops/s" in flag["message"]
    assert "above the model's bound" in flag["message"]
    # The response time (68.4 us) lies below the model's lower bound (every demand once).
    rt = row["response_time_fit"]
    assert rt["verdict"] == "beyond_bound" and rt["bound_side"] == "lower"
    assert rt["bound"] == pytest.approx(row["bound_response_time_s"])


def test_the_one_n_figure_draws_point_bound_and_the_flag(client: TestClient, db: Session) -> None:
    exp = _one_n_experiment(client, db)
    _, solved = _solved(client, exp["id"])
    r = client.get(f"{API}/experiments/{exp['id']}/figures/model-throughput.json")
    assert r.status_code == 200, r.text
    fig = r.json()
    traces = {t["name"].split(" (")[0]: t for t in fig["data"]}
    model, bound = traces["MVA, inputs from the data"], traces["asymptotic bound"]
    # One N: each model line is one point, drawn as a marker (a line of one point is invisible).
    for trace, value in (
        (model, solved["rows"][0]["model_throughput_per_s"]),
        (bound, solved["rows"][0]["bound_throughput_per_s"]),
    ):
        assert trace["x"] == [1] and trace["y"] == pytest.approx([value])
        assert "markers" in trace["mode"] and trace["marker"]["size"] == [8]
    measured = fig["data"][0]
    assert measured["y"] == pytest.approx([MEASURED_X])
    assert measured["marker"]["symbol"] == ["x-open"]
    (note,) = fig["layout"]["annotations"]
    assert note["x"] == 1 and note["y"] == pytest.approx(MEASURED_X)
    assert note["text"] == solved["rows"][0]["throughput_fit"]["label"]
    assert note["text"].endswith("% above the bound")
    caption = fig["layout"]["meta"]["caption"]
    assert "Does not fit: N = 1: measured throughput 21,310 ops/s" in caption


def test_the_report_pdf_says_the_measurement_does_not_fit(
    client: TestClient, db: Session, tmp_path: Path
) -> None:
    exp = _one_n_experiment(client, db)
    plan = {
        "items": [
            {"kind": "table", "name": "model-comparison"},
            {"kind": "figure", "name": "model-throughput"},
        ]
    }
    assert client.put(f"{API}/experiments/{exp['id']}/report", json=plan).status_code == 200
    bundle = client.get(f"{API}/experiments/{exp['id']}/report/bundle.zip")
    assert bundle.status_code == 200, bundle.text
    with zipfile.ZipFile(io.BytesIO(bundle.content)) as zf:
        main = zf.read("main.tex").decode()
    assert "Not included" not in main, main
    pdf = client.get(f"{API}/experiments/{exp['id']}/report.pdf")
    assert pdf.status_code == 200, pdf.text
    (tmp_path / "report.pdf").write_bytes(pdf.content)
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "report.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    words = " ".join(text.split())
    assert "beyond the bound" in words  # the table's fit column
    assert "Does not fit: N = 1: measured throughput 21,310 ops/s" in words  # note, caption
    assert "above the model" in words


def test_one_bottleneck_statement_per_group(client: TestClient, db: Session) -> None:
    exp = _one_n_experiment(client, db)
    r = client.get(f"{API}/analysis/experiments/{exp['id']}/bottlenecks")
    assert r.status_code == 200, r.text
    groups = r.json()["data"]
    assert sorted(g["group"]["workers"] for g in groups) == [8, 16]
    for g in groups:
        (mva,) = g["models"]  # no monitor data, no bandwidth: the MVA alone names one
        assert mva["model"] == "MVA" and g["agree"]
        assert mva["basis"].startswith("fitted service demands")
        assert mva["resource"] in g["statement"] and mva["component"] in g["statement"]
    bad = client.get(
        f"{API}/analysis/experiments/{exp['id']}/bottlenecks", params={"server_utilization": 2}
    )
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == [
        "query",
        "server_utilization",
    ]
