"""The Azure clients a request uses, as a dependency (tests override `get_arm` with clients
pointed at the fake ARM)."""

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, status

from backend.azure.arm import Arm, NoSubscription, arm_clients


def get_arm() -> Iterator[Arm]:
    try:
        arm = arm_clients()
    except NoSubscription as exc:
        # The installation's state, not an outage: 409 (set the variable and restart).
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from exc
    try:
        yield arm
    finally:
        arm.close()


ArmDep = Annotated[Arm, Depends(get_arm)]
