"""All tables, importable from one place (Alembic reads Base.metadata from here)."""

from backend.models.azure_lab import AzureLab, AzureLabStatus
from backend.models.base import Base
from backend.models.enums import HistogramMetric, HostRole, RequestType, RunStatus, TestbedKind
from backend.models.experiment import Configuration, Experiment
from backend.models.imported_file import ImportedFile
from backend.models.kept_server import KeptServer
from backend.models.price import PriceSource, VmPrice
from backend.models.rehearsal import Rehearsal
from backend.models.report import Report
from backend.models.results import RunHistogram, RunSeries, RunSummary, RunWindowHistogram
from backend.models.run import Run
from backend.models.run_attempt import RunAttempt
from backend.models.testbed import Host, Testbed
from backend.models.token import ApiToken
from backend.models.view import SavedView

__all__ = [
    "ApiToken",
    "AzureLab",
    "AzureLabStatus",
    "Base",
    "Configuration",
    "Experiment",
    "HistogramMetric",
    "Host",
    "ImportedFile",
    "HostRole",
    "KeptServer",
    "PriceSource",
    "Rehearsal",
    "Report",
    "RequestType",
    "Run",
    "RunAttempt",
    "RunHistogram",
    "RunWindowHistogram",
    "RunSeries",
    "RunStatus",
    "RunSummary",
    "SavedView",
    "Testbed",
    "TestbedKind",
    "VmPrice",
]
