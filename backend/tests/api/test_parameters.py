"""The naming endpoints: every parameter's and metric's label and unit come from one table."""

from dataclasses import asdict

from fastapi.testclient import TestClient

from backend.domain.design_fields import DESIGN_FIELDS
from backend.domain.labels import parameter_title, sentence_case
from backend.domain.metrics import METRICS
from backend.domain.parameters import PARAMETERS
from backend.domain.templates import SEEDS, Template
from backend.schemas.experiment import ExperimentBase


def test_parameters_serve_every_label_legend_and_unit(client: TestClient) -> None:
    served = client.get("/api/v1/parameters").json()
    assert [p["name"] for p in served] == list(PARAMETERS)
    for p in served:
        declared = PARAMETERS[p["name"]]
        assert p["label"] == declared.label != "", p["name"]
        assert (p["legend"], p["unit"]) == (declared.legend, declared.unit), p["name"]
    by_name = {p["name"]: p for p in served}
    assert by_name["workers"]["label"] == "worker threads"
    assert by_name["workers"]["description"] == "middleware worker threads"
    assert by_name["value_size"]["label"] == "value size (bytes)"


def test_titles_are_the_labels_under_one_capitalisation_rule(client: TestClient) -> None:
    # The UI's selects and headings show the served title; figures print the same words.
    params = {p["name"]: p for p in client.get("/api/v1/parameters").json()}
    for name, p in params.items():
        assert p["title"] == sentence_case(p["label"]) == parameter_title(name), name
    assert params["clients_per_thread"]["title"] == "Clients per thread"
    assert params["ratio"]["title"] == "SET:GET ratio"
    metrics = {m["name"]: m for m in client.get("/api/v1/metrics").json()}
    for m in metrics.values():
        assert m["title"] == sentence_case(m["label"])
    assert metrics["p99_us"]["title"] == "99th percentile response time"


def test_metrics_serve_the_metric_table(client: TestClient) -> None:
    served = client.get("/api/v1/metrics").json()
    assert [m["name"] for m in served] == list(METRICS)
    for m in served:
        declared = METRICS[m["name"]]
        assert (m["label"], m["unit"]) == (declared.label, declared.unit)
        assert m["sources"] == list(declared.sources)
    by_name = {m["name"]: m for m in served}
    assert by_name["queue_time_us"]["sources"] == ["middleware"]
    assert by_name["p99_us"]["label"] == "99th percentile response time"


def test_design_fields_are_served_as_declared_and_drive_the_request_schema(
    client: TestClient,
) -> None:
    # One declaration: the form's labels and units, the request's defaults and bounds.
    served = client.get("/api/v1/design-fields").json()
    assert [f["name"] for f in served] == ["repetitions", "run_time_s", "warmup_s", "cooldown_s"]
    by_name = {f["name"]: f for f in served}
    assert (by_name["run_time_s"]["label"], by_name["run_time_s"]["unit"]) == ("Run time", "s")
    assert by_name["repetitions"]["unit"] is None
    fields = ExperimentBase.model_fields
    for f in served:
        assert f == {**f, **asdict(DESIGN_FIELDS[f["name"]])}
        schema = ExperimentBase.model_json_schema()["properties"][f["name"]]
        assert fields[f["name"]].default == f["default"]
        assert (schema["minimum"], schema["maximum"]) == (f["minimum"], f["maximum"])
    assert SEEDS[Template.CUSTOM].run_time_s == by_name["run_time_s"]["default"]
