"""The three Azure Resource Manager clients the engine uses, built in one place.

Production: DefaultAzureCredential (the user's `az login`, a service principal from the
environment, or a managed identity) against management.azure.com. Tests point the same clients
at the fake ARM with `base_url`, a test credential and the fake's CA certificate; nothing else in
the engine knows which it talks to. Retries (429 with Retry-After, 5xx) are azure-core's
RetryPolicy and long-running operations its ARM pollers: both are configured here, never looped
by hand."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from azure.core.credentials import AccessToken, TokenCredential
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
    cred = credential or default_credential()
    kw = (options or ArmOptions()).kwargs()
    return Arm(
        subscription_id=subscription_id,
        resource=ResourceManagementClient(cred, subscription_id, **kw),
        network=NetworkManagementClient(cred, subscription_id, **kw),
        compute=ComputeManagementClient(cred, subscription_id, **kw),
    )
