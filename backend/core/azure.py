"""The Azure clients of the configured subscription, for the API and the worker alike.

One place, so a test points both at the fake ARM by replacing `connect_from_settings` (the
worker's test app does, infra/tests/fake_azure_app.py); everything else calls it at use."""

from backend.core.config import settings
from infra.azure.arm import Arm, connect


class NoSubscription(RuntimeError):
    """MCSCOPE_AZURE_SUBSCRIPTION_ID is not set."""


def connect_from_settings() -> Arm:
    """Clients signed in through DefaultAzureCredential; NoSubscription when none is set."""
    if not settings.AZURE_SUBSCRIPTION_ID:
        raise NoSubscription("MCSCOPE_AZURE_SUBSCRIPTION_ID is not set: no Azure subscription")
    return connect(settings.AZURE_SUBSCRIPTION_ID)


def arm_clients() -> Arm:
    """`connect_from_settings` looked up at call time (tests replace it)."""
    return connect_from_settings()
