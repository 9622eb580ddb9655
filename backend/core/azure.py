"""The Azure Resource Manager clients as the settings describe them: one place where the API
(plans) and the worker (creation, stop, start, delete, the janitor) connect, so both talk to the
same subscription, endpoint and credential. A test may instead replace `connect_from_settings`
(the worker's test app does, infra/tests/fake_azure_app.py): callers use `arm_clients`, which
looks it up at call time."""

from backend.core.config import settings
from infra.azure.arm import Arm, ArmOptions, StaticTokenCredential, connect


class NoSubscription(RuntimeError):
    """MCSCOPE_AZURE_SUBSCRIPTION_ID is not set: nothing can be asked of Azure."""


def connect_from_settings() -> Arm:
    """Clients for MCSCOPE_AZURE_SUBSCRIPTION_ID; DefaultAzureCredential unless a token is set."""
    if not settings.AZURE_SUBSCRIPTION_ID:
        raise NoSubscription("MCSCOPE_AZURE_SUBSCRIPTION_ID is not set: no Azure subscription")
    credential = (
        StaticTokenCredential(settings.AZURE_ACCESS_TOKEN) if settings.AZURE_ACCESS_TOKEN else None
    )
    options = ArmOptions(
        base_url=settings.AZURE_ARM_URL,
        polling_interval=settings.AZURE_POLLING_INTERVAL_S,
        connection_verify=str(settings.AZURE_CA_BUNDLE) if settings.AZURE_CA_BUNDLE else True,
    )
    return connect(settings.AZURE_SUBSCRIPTION_ID, credential, options)


def arm_clients() -> Arm:
    """`connect_from_settings` looked up at call time (tests replace it)."""
    return connect_from_settings()
