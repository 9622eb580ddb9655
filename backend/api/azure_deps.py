"""The Azure clients a request uses, as a dependency (tests override `get_arm` with clients
pointed at the fake ARM)."""

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, status

from backend.core.azure import NoSubscription, arm_clients
from infra.azure.arm import Arm


def get_arm() -> Iterator[Arm]:
    try:
        arm = arm_clients()
    except NoSubscription as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from exc
    try:
        yield arm
    finally:
        arm.close()


ArmDep = Annotated[Arm, Depends(get_arm)]
