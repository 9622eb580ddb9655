"""The worker's Celery app with its Azure clients pointed at the fake ARM, for the tests' real
worker processes (`celery -A infra.tests.fake_azure_app worker`): the fake's URL and CA
certificate come from MCSCOPE_TEST_FAKE_ARM_URL and MCSCOPE_TEST_FAKE_ARM_CA. Only Azure's API
is replaced; the tasks, database and broker are the production ones."""

from __future__ import annotations

import os

from backend.azure import arm as azure
from backend.azure.arm import Arm, ArmOptions, connect
from infra.tests.fake_arm import SUBSCRIPTION, FakeCredential
from worker.celery_app import app

URL_ENV = "MCSCOPE_TEST_FAKE_ARM_URL"
CA_ENV = "MCSCOPE_TEST_FAKE_ARM_CA"


def options(base_url: str, ca: str) -> ArmOptions:
    """The production clients' options against the fake: short backoff and polling."""
    return ArmOptions(
        base_url=base_url,
        retry_total=3,
        retry_backoff_factor=0.05,
        retry_backoff_max=1,
        polling_interval=0.05,
        connection_verify=ca,
    )


def _fake_clients() -> Arm:
    return connect(SUBSCRIPTION, FakeCredential(), options(os.environ[URL_ENV], os.environ[CA_ENV]))


if os.environ.get(URL_ENV):
    azure.connect_from_settings = _fake_clients

__all__ = ["app"]
