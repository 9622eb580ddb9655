"""Run response schemas."""

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from backend.domain.stored_quality import quality_of
from backend.models.enums import RunStatus
from backend.schemas.experiment import ConfigurationPublic
from backend.schemas.network import NetworkPublic, network_public
from backend.schemas.quality import FlagPublic


class RunPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    experiment_id: int
    configuration_id: int
    repetition: int
    status: RunStatus
    attempt: int
    cancel_requested: bool
    started_at: datetime | None
    finished_at: datetime | None
    error: str | None
    worker: str | None
    hosts: dict[str, Any]
    tool_versions: dict[str, str]
    commands: list[dict[str, Any]]
    phase_timings: dict[str, float]
    results_attempt: int | None = Field(
        default=None, description="the attempt whose results are in use (None: no results)"
    )
    flags: list[FlagPublic] = Field(
        default_factory=list, description="quality flags computed at ingest (stable window)"
    )

    @model_validator(mode="before")
    @classmethod
    def _flags_from_quality(cls, data: Any) -> Any:
        """A Run row's stored quality (runs.quality) served as its flags."""
        quality = getattr(data, "quality", None)
        if isinstance(data, dict) or quality is None:
            return data
        flags = [FlagPublic.of(f) for f in quality_of(quality).flags]
        return {k: getattr(data, k) for k in cls.model_fields if k != "flags"} | {"flags": flags}

    @computed_field(  # type: ignore[prop-decorator]
        description="round trips of the run's paths between roles on the service ports, "
        "measured before its load started (hosts.network); null: not measured"
    )
    @property
    def network(self) -> NetworkPublic | None:
        return network_public(self.hosts.get("network"))


class RunDetailPublic(RunPublic):
    """One run with the configuration it measured (the run page needs no grid list)."""

    configuration: ConfigurationPublic = Field(
        description="the grid point this run measured, with its effective parameters"
    )


class RunsPublic(BaseModel):
    data: list[RunPublic]
    count: int


class StartResult(BaseModel):
    queued: int
    already_done: int
    unsent: int
