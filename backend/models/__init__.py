"""All tables, importable from one place (Alembic reads Base.metadata from here)."""

from backend.models.base import Base
from backend.models.enums import HistogramMetric, HostRole, RequestType, RunStatus, TestbedKind
from backend.models.experiment import Configuration, Experiment
from backend.models.results import RunHistogram, RunSeries, RunSummary
from backend.models.run import Run
from backend.models.testbed import Host, Testbed

__all__ = [
    "Base",
    "Configuration",
    "Experiment",
    "HistogramMetric",
    "Host",
    "HostRole",
    "RequestType",
    "Run",
    "RunHistogram",
    "RunSeries",
    "RunStatus",
    "RunSummary",
    "Testbed",
    "TestbedKind",
]
