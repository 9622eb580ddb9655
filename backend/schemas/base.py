"""Bases of every API schema: described fields, and request bodies that reject unknown fields.

A misspelled request field (`arival_rate_per_s`) silently falling back to a default would
answer a different question than the one asked; `extra="forbid"` makes Pydantic reject it with
`type: extra_forbidden` and the field in `loc`. Response models stay lenient.

Every field shows a description with its unit and meaning at /docs: a field's own
`Field(description=...)` wins, otherwise its name's entry in `backend.schemas.glossary`
(one home for what a name such as `throughput_per_s` means across the API).
"""

from typing import Any

from pydantic import BaseModel, ConfigDict

from backend.schemas.glossary import describe


def _describe_properties(schema: dict[str, Any], cls: type[BaseModel]) -> None:
    """Fill each property's missing description from the glossary (JSON schema only)."""
    for name, prop in schema.get("properties", {}).items():
        if "description" not in prop:
            text = describe(cls.__name__, name)
            if text is not None:
                prop["description"] = text


class Schema(BaseModel):
    """Base class of every API schema: descriptions come from the glossary when not given."""

    model_config = ConfigDict(json_schema_extra=_describe_properties)


class RequestModel(Schema):
    """Base class for request bodies (and the models nested in them)."""

    model_config = ConfigDict(extra="forbid")
