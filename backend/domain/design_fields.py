"""The design fields every experiment has besides its parameters: repetitions and the run's
times. Declared once, like the parameters (backend.domain.parameters): the request schema
takes its defaults and bounds from here, the templates their defaults, and the UI its labels
and units from the served list (GET /design-fields)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class DesignField:
    name: str
    label: str
    unit: str | None
    default: int
    minimum: int
    maximum: int
    description: str


DESIGN_FIELDS: dict[str, DesignField] = {
    f.name: f
    for f in (
        DesignField("repetitions", "Repetitions", None, 3, 1, 100, "runs per configuration"),
        DesignField("run_time_s", "Run time", "s", 90, 5, 86_400, "seconds per run"),
        DesignField("warmup_s", "Warm-up", "s", 10, 0, 3_600, "seconds cut at the start"),
        DesignField("cooldown_s", "Cool-down", "s", 10, 0, 3_600, "seconds cut at the end"),
    )
}

REPETITIONS = DESIGN_FIELDS["repetitions"]
RUN_TIME = DESIGN_FIELDS["run_time_s"]
WARMUP = DESIGN_FIELDS["warmup_s"]
COOLDOWN = DESIGN_FIELDS["cooldown_s"]
