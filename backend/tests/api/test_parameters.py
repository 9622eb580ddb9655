"""The naming endpoints: every parameter's and metric's label and unit come from one table."""

from fastapi.testclient import TestClient

from backend.domain.labels import parameter_title, sentence_case
from backend.domain.parameters import PARAMETERS
from backend.results.metrics import METRICS


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
