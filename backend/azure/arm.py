"""The three Azure Resource Manager clients the engine uses, built in one place, and built
from the settings (`arm_clients`) so the API (plans, untracked groups) and the worker (creation,
stop, start, delete, the janitor) talk to the same subscription, endpoint and credential.

Production: DefaultAzureCredential (the user's `az login`, a service principal from the
environment, or a managed identity) against management.azure.com. Tests point the same clients
at the fake ARM with `base_url`, a test credential and the fake's CA certificate; nothing else in
the engine knows which it talks to. Retries (429 with Retry-After, 5xx) are azure-core's
RetryPolicy and long-running operations its ARM pollers: both are configured here, never looped
by hand. A test may instead replace `connect_from_settings` (the worker's test app does,
infra/tests/fake_azure_app.py): callers use `arm_clients`, which looks it up at call time."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from azure.core.credentials import AccessToken, TokenCredential

from backend.core.config import settings

if TYPE_CHECKING:  # the management SDKs load when a client is built (`connect`), see there
    from azure.mgmt.compute import ComputeManagementClient
    from azure.mgmt.network import NetworkManagementClient
    from azure.mgmt.resource.resources import ResourceManagementClient


@dataclass(frozen=True)
class ArmOptions:
    """Pipeline settings shared by the three clients (azure-core keyword names)."""

    base_url: str | None = None  # None: the public cloud's management endpoint
    retry_total: int = 6
    retry_backoff_factor: float = 0.8
    retry_backoff_max: int = 60
    # Seconds between polls of a long-running operation that sends no Retry-After.
    polling_interval: float = 10.0
    # A CA bundle path (the fake's self-signed certificate) or True for the system's.
    connection_verify: str | bool = True

    def kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = {
            "retry_total": self.retry_total,
            "retry_backoff_factor": self.retry_backoff_factor,
            "retry_backoff_max": self.retry_backoff_max,
            "polling_interval": self.polling_interval,
            "connection_verify": self.connection_verify,
        }
        if self.base_url is not None:
            kw["base_url"] = self.base_url
        return kw


@dataclass(frozen=True)
class Arm:
    """One subscription's resource, network and compute clients."""

    subscription_id: str
    resource: ResourceManagementClient
    network: NetworkManagementClient
    compute: ComputeManagementClient

    def close(self) -> None:
        for c in (self.resource, self.network, self.compute):
            c.close()


class StaticTokenCredential:
    """A bearer token obtained elsewhere (`az account get-access-token`), handed out as is;
    Azure rejects it once it expires (within the hour), and so does the fake its own."""

    def __init__(self, token: str, lifetime_s: int = 3600) -> None:
        self._token = token
        self._lifetime_s = lifetime_s

    def get_token(self, *scopes: str, **kwargs: Any) -> AccessToken:
        return AccessToken(self._token, int(time.time()) + self._lifetime_s)


def default_credential() -> TokenCredential:
    # Imported here: azure-identity pulls in msal, which the tests' fake credential never needs.
    from azure.identity import DefaultAzureCredential

    return DefaultAzureCredential()


def connect(
    subscription_id: str,
    credential: TokenCredential | None = None,
    options: ArmOptions | None = None,
) -> Arm:
    """The clients for one subscription; `credential` defaults to DefaultAzureCredential."""
    # Imported here: the three management SDKs take about 0.9 s of CPU to import, which every
    # API and worker start paid before (and every test that starts one) while only Azure
    # testbeds use them.
    from azure.mgmt.compute import ComputeManagementClient
    from azure.mgmt.network import NetworkManagementClient
    from azure.mgmt.resource.resources import ResourceManagementClient

    cred = credential or default_credential()
    kw = (options or ArmOptions()).kwargs()
    return Arm(
        subscription_id=subscription_id,
        resource=ResourceManagementClient(cred, subscription_id, **kw),
        network=NetworkManagementClient(cred, subscription_id, **kw),
        compute=ComputeManagementClient(cred, subscription_id, **kw),
    )


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
