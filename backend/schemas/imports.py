"""Importing earlier runs: the mapping a user supplies, the preview it yields, the outcome.

The preview is a pure function of the staged upload and the mapping (worker/imports): nothing
is stored until the user confirms with the same mapping.
"""

from datetime import datetime
from typing import Any

from pydantic import Field

from backend.schemas.base import RequestModel, Schema


class ImportMapping(RequestModel):
    """What the files do not say, supplied by the user."""

    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="Name of the experiment to create (default: 'imported from <upload>').",
    )
    pattern: str | None = Field(
        default=None,
        max_length=1000,
        description="A regular expression searched in each run's client file path (folders "
        "included); each named group is a parameter, e.g. 'w(?P<workers>\\d+)/'.",
    )
    values: dict[str, Any] = Field(
        default_factory=dict,
        description="Parameter values for every run (parameter name -> value).",
    )
    runs: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="The edited table: per run (its client file path), parameter values that "
        "override the files, the pattern and `values`.",
    )
    warmup_s: int = Field(
        default=0, ge=0, le=86_400, description="Seconds cut at the start of every run (s)."
    )
    cooldown_s: int = Field(
        default=0, ge=0, le=86_400, description="Seconds cut at the end of every run (s)."
    )
    populated: bool = Field(
        default=False,
        description="The servers held every key before the runs (then a miss is flagged).",
    )


class ImportFile(Schema):
    path: str = Field(description="Path inside the upload.")
    kind: str = Field(description="The format recognised from the file's content.")
    role: str = Field(description="client, hdr, companion or middleware.")


class ImportRun(Schema):
    key: str = Field(description="The run's client output (path inside the upload).")
    tool: str = Field(description="memtier or memaslap.")
    files: list[ImportFile] = Field(description="The files this run is made from.")
    started_at: datetime = Field(description="When its load started (from the files).")
    started_from: str = Field(description="Where the start time was read.")
    start_unix: float = Field(description="The same start as seconds since the epoch (s).")
    duration_s: float = Field(description="Length of the run the tool reports (s).")
    read: dict[str, Any] = Field(description="Parameters read from the files.")
    supplied: dict[str, Any] = Field(description="Parameters from the pattern, values, table.")
    parameters: dict[str, Any] = Field(description="Every parameter of the run as stored.")
    defaulted: list[str] = Field(
        description="Parameters neither read nor supplied: the schema's default is stored."
    )
    configuration: int | None = Field(description="Its configuration's number (1-based).")
    repetition: int | None = Field(description="Its repetition within the configuration.")
    stable_window: str = Field(description="How the stable window is cut, or why it is not.")
    already_imported: int | None = Field(
        description="The stored run made from the same client output (content hash), if any: "
        "this run is skipped."
    )


class ImportConfiguration(Schema):
    index: int = Field(description="Configuration number (1-based).")
    values: dict[str, Any] = Field(description="Factor values.")
    runs: int = Field(description="Runs (repetitions) it gets.")


class ImportUnused(Schema):
    path: str = Field(description="Path inside the upload.")
    reason: str = Field(description="Why it is not used.")


class ImportPreview(Schema):
    id: str = Field(description="The staged upload.")
    source: str = Field(description="The upload's (or folder's) name.")
    expires_at: datetime = Field(description="When the staged upload is removed unconfirmed.")
    name: str = Field(description="Name of the experiment a confirmation creates.")
    runs: list[ImportRun]
    configurations: list[ImportConfiguration]
    factors: dict[str, list[Any]] = Field(description="Parameters that vary between runs.")
    fixed: dict[str, Any] = Field(description="Parameters the same in every run.")
    run_time_s: int | None = Field(description="The runs' common length (s).")
    warmup_s: int
    cooldown_s: int
    unused: list[ImportUnused] = Field(description="Files not used, each with its reason.")
    problems: list[str] = Field(description="What prevents confirming, each with its reason.")
    new_runs: int = Field(description="Runs a confirmation stores (not imported before).")
    can_confirm: bool = Field(description="No problem, and at least one new run.")


class ImportOutcome(Schema):
    experiment_id: int | None = Field(description="The experiment created (None: nothing new).")
    stored_runs: int = Field(description="Runs stored.")
    skipped_runs: int = Field(description="Runs skipped: their client output was imported before.")


class StagedUpload(Schema):
    id: str = Field(description="The staged upload, for preview and confirm.")
    source: str = Field(description="The upload's name.")
    files: int = Field(description="Files it unpacked to.")
    expires_at: datetime = Field(description="When it is removed unconfirmed.")
