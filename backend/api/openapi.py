"""The OpenAPI document with a description on every field and query parameter (shown at /docs).

A field's own `Field(description=...)` wins; otherwise the glossary's entry for its name
(`backend.schemas.glossary`, one home for what `throughput_per_s` or `utilization` means).
"""

from typing import Any

from fastapi import FastAPI

from backend.schemas.glossary import describe


def _fill(spec: dict[str, Any]) -> dict[str, Any]:
    for model, schema in spec.get("components", {}).get("schemas", {}).items():
        for name, prop in schema.get("properties", {}).items():
            if "description" not in prop and (text := describe(model, name)) is not None:
                prop["description"] = text
    for ops in spec.get("paths", {}).values():
        for op in ops.values():
            for param in op.get("parameters", []):
                if "description" not in param and (text := describe("query", param["name"])):
                    param["description"] = text
    return spec


def install_described_openapi(app: FastAPI) -> None:
    """Make app.openapi() fill missing descriptions from the glossary (built once, cached)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _fill(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
