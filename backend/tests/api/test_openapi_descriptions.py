"""Every field and query parameter of the OpenAPI document says what it is, with its unit."""

import json
import re
from typing import Any

from backend.domain.metrics import METRICS, metric
from backend.main import app
from backend.schemas.results import RESULT_METRICS

SPEC: dict[str, Any] = app.openapi()
# A unit suffix in the name must show in the description too (reading /docs, not the code).
UNIT_WORDS = {
    "_per_s": r"/s\b",
    "_us": r"\bus\b",
    "_s2": r"s\^2",
    "_s": r"\bs\b|second",
    "_percent": "%",
}


def _fields() -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for model, schema in SPEC["components"]["schemas"].items():
        for name, prop in schema.get("properties", {}).items():
            out.append((model, name, prop))
    for path, ops in SPEC["paths"].items():
        for method, op in ops.items():
            for param in op.get("parameters", []):
                out.append((f"{method.upper()} {path}", param["name"], param))
    return out


def test_every_field_and_parameter_has_a_description() -> None:
    fields = _fields()
    assert len(fields) > 500
    missing = [f"{where}.{name}" for where, name, prop in fields if not prop.get("description")]
    assert missing == []


def test_descriptions_name_the_unit_of_unit_bearing_fields() -> None:
    wrong = []
    for where, name, prop in _fields():
        for suffix, pattern in UNIT_WORDS.items():
            if name.endswith(suffix):
                if not re.search(pattern, prop.get("description", "")):
                    wrong.append(f"{where}.{name}: {prop.get('description')}")
                break
    assert wrong == []


def test_utilization_conventions_are_spelled_out() -> None:
    schemas = SPEC["components"]["schemas"]
    per_server = schemas["StationCurvesPublic"]["properties"]["utilization_per_server"]
    assert "X V S / m" in per_server["description"]
    assert "not empty" in schemas["StationCurvesPublic"]["properties"]["prob_busy"]["description"]
    assert "lambda / mu" in schemas["MM1Public"]["properties"]["utilization"]["description"]


def test_bounds_reach_the_document_as_json_schema_keywords() -> None:
    # A pydantic bound that cannot join the JSON schema (e.g. gt=0 stacked on a type with its
    # own validator) shows as a raw "gt": clients and the fuzz test would not see the bound.
    raw = re.findall(r'"(?:gt|ge|lt|le)":', json.dumps(SPEC))
    assert raw == []


def test_metric_fields_are_described_by_the_metric_table() -> None:
    # One home: a metric's field reads the metric table's description and unit, wherever it is
    # served (a per-second series' column, a row keyed by metric name).
    schemas = SPEC["components"]["schemas"]
    for field, name in (("throughput", "throughput_per_s"), ("queue_time_us", "queue_time_us")):
        m = metric(name)
        described = schemas["InstanceSeriesPublic"]["properties"][field]["description"]
        assert described == f"{m.description}, {m.unit}"
    row = schemas["ResultMetricsPublic"]["properties"]
    assert list(row) == list(RESULT_METRICS)
    for name in RESULT_METRICS:
        assert row[name]["description"] == f"{METRICS[name].description}, {METRICS[name].unit}"
