"""PostgreSQL enum types shared by the models."""

from enum import StrEnum

from sqlalchemy import Enum

from backend.domain.templates import Template


class RunStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"


class HostRole(StrEnum):
    CLIENT = "client"
    MIDDLEWARE = "middleware"
    SERVER = "server"


class TestbedKind(StrEnum):
    LOCAL = "local"
    REMOTE = "remote"
    AZURE = "azure"
    # Namespace hosts on this machine built from an Azure plan (backend.rehearsal).
    REHEARSAL = "rehearsal"


class RequestType(StrEnum):
    ALL = "all"
    GET = "get"
    MULTIGET = "multiget"
    SET = "set"
    OTHER = "other"


class HistogramMetric(StrEnum):
    CLIENT = "client"  # response time seen by the load generator
    TOTAL = "total"  # middleware response time
    QUEUE = "queue"
    SERVER = "server"


def pg_enum(enum_cls: type[StrEnum], name: str) -> Enum:
    # Store the values ("queued"), not the Python member names ("QUEUED").
    return Enum(enum_cls, name=name, values_callable=lambda e: [m.value for m in e])


template_enum = pg_enum(Template, "experiment_template")
run_status_enum = pg_enum(RunStatus, "run_status")
host_role_enum = pg_enum(HostRole, "host_role")
testbed_kind_enum = pg_enum(TestbedKind, "testbed_kind")
request_type_enum = pg_enum(RequestType, "request_type")
histogram_metric_enum = pg_enum(HistogramMetric, "histogram_metric")
