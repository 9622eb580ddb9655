"""Every table of an experiment, registered by importing its family's module (order of
registration = bundle order): configuration, summary, factorial, differences and the models
against measurement."""

# Imported for their registrations, in bundle order (kept out of sorting on purpose).
from backend.tables import design  # noqa: I001
from backend.tables import results
from backend.tables import factorial
from backend.tables import differences
from backend.tables import models
from backend.tables.registry import TABLES, ExperimentInfo, TableQuery, TableSpec

__all__ = [
    "TABLES",
    "ExperimentInfo",
    "TableQuery",
    "TableSpec",
    "design",
    "differences",
    "factorial",
    "models",
    "results",
]
