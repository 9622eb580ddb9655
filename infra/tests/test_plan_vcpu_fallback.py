"""The plan's vCPUs when Azure's quota cannot be read come from the size table."""

from typing import Any

from backend.azure.plans import quota
from backend.core.azure import NoSubscription
from infra.azure.arm import Arm
from infra.azure.spec import LabSpec


def _no_subscription() -> Arm:
    raise NoSubscription("MCSCOPE_AZURE_SUBSCRIPTION_ID is not set")


def test_unread_quota_counts_vcpus_from_the_table(example_data: dict[str, Any]) -> None:
    spec = LabSpec.model_validate(example_data)
    q = quota(spec, _no_subscription)
    assert not q.checked and q.lines == []
    # 3 A1_v2 servers, 2 A8_v2 middlewares, 3 A2_v2 clients, a B2s jump host.
    assert q.table_vcpus == 3 * 1 + 2 * 8 + 3 * 2 + 2


def test_a_size_outside_the_table_gives_no_count(example_data: dict[str, Any]) -> None:
    example_data["roles"]["client"]["size"] = "Standard_E2s_v5"
    q = quota(LabSpec.model_validate(example_data), _no_subscription)
    assert not q.checked and q.table_vcpus is None
