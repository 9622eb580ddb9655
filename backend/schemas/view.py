"""Saved view schemas: a name and the Compare page's state (the same fields as its URL)."""

from datetime import datetime

from pydantic import ConfigDict, Field, field_validator

from backend.domain.compare import BandKind, CompareMetric
from backend.domain.metrics import SourceKind
from backend.models import HostRole, RequestType
from backend.schemas.base import RequestModel, Schema
from backend.schemas.compare import (
    GROUP_BY_EXPERIMENT,
    ROLE_DESCRIPTION,
    BrushRanges,
    process_role,
)
from backend.schemas.limits import INT32_MAX, DbId


class CompareViewState(RequestModel):
    """Everything that decides what the Compare page shows; unknown fields are rejected."""

    model_config = ConfigDict(extra="forbid")

    experiment_ids: list[DbId] = Field(default_factory=list, max_length=50)
    base_experiment_id: DbId | None = None
    configuration_ids: list[DbId] = Field(default_factory=list, max_length=5000)
    base_configuration_id: DbId | None = None
    metric: CompareMetric = "throughput_per_s"
    x: str | None = Field(default=None, max_length=100)
    group_by: str = Field(default=GROUP_BY_EXPERIMENT, min_length=1, max_length=100)
    band: BandKind = "std"
    source: SourceKind = "client"
    role: HostRole | None = Field(default=None, description=ROLE_DESCRIPTION)
    request_type: RequestType = RequestType.ALL
    window_start_s: float | None = Field(default=None, ge=0, le=INT32_MAX)
    window_end_s: float | None = Field(default=None, gt=0, le=INT32_MAX)
    only_differences: bool = False
    brush: BrushRanges | None = Field(
        default=None,
        max_length=64,
        description="the parallel coordinates' brush, as the compare endpoints take it",
    )

    _role = field_validator("role")(process_role)


class ViewBase(Schema):
    name: str = Field(min_length=1, max_length=200)
    state: CompareViewState

    @field_validator("name")
    @classmethod
    def name_not_blank(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("must not be blank")
        return v


class ViewCreate(ViewBase, RequestModel):
    pass


class ViewUpdate(ViewBase, RequestModel):
    pass


class ViewPublic(ViewBase):
    model_config = ConfigDict(from_attributes=True)

    id: int
    created_at: datetime
    updated_at: datetime


class ViewsPublic(Schema):
    data: list[ViewPublic]
    count: int
