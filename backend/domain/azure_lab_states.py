"""An Azure lab's states and the transitions between them: the one table the API's actions, the
worker's tasks, the served lab (its allowed actions) and the Testbeds page all read."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

TESTBED_EXPIRED = "testbed expired"
"""The error of a run the janitor ended because its testbed expired: its hosts are being
deleted, so the run's worker does not try to reach them again (backend/azure/janitor.py,
worker/runs/lifecycle.py)."""


class AzureLabStatus(StrEnum):
    QUEUED = "queued"  # row committed, task sent
    CREATING = "creating"  # claimed by a worker
    READY = "ready"  # created and registered as a testbed
    FAILED = "failed"  # the creation failed; the engine deleted what it made (see error)
    STOPPING = "stopping"  # its VMs are being deallocated
    STOPPED = "stopped"  # deallocated: no compute billed, disks and addresses kept
    STARTING = "starting"  # its VMs are being started again
    DELETING = "deleting"  # its resource group is being deleted
    DELETED = "deleted"  # its resource group is gone (deleted_at says when)


class LabAction(StrEnum):
    STOP = "stop"
    START = "start"
    DELETE = "delete"


@dataclass(frozen=True)
class LabTransition:
    """An action the user may take: from which states, the state while a worker carries it
    out, and the state once done. A failure puts the lab back in the state it was in."""

    action: LabAction
    allowed: frozenset[AzureLabStatus]
    during: AzureLabStatus
    done: AzureLabStatus
    meaning: str
    # Where a failure leaves a lab whose earlier state is unknown (a message sent before the
    # task carried it): the state the action is usually taken from.
    usual_from: AzureLabStatus


_S = AzureLabStatus
LAB_TRANSITIONS: dict[LabAction, LabTransition] = {
    LabAction.STOP: LabTransition(
        LabAction.STOP,
        frozenset({_S.READY}),
        _S.STOPPING,
        _S.STOPPED,
        "deallocate every VM: no compute billed; disks, keys and addresses kept",
        _S.READY,
    ),
    LabAction.START: LabTransition(
        LabAction.START,
        frozenset({_S.STOPPED}),
        _S.STARTING,
        _S.READY,
        "start the deallocated VMs again",
        _S.STOPPED,
    ),
    LabAction.DELETE: LabTransition(
        LabAction.DELETE,
        # A failed creation can always be removed: its row, and its group if one is left.
        frozenset({_S.READY, _S.STOPPED, _S.FAILED}),
        _S.DELETING,
        _S.DELETED,
        "delete the resource group and everything in it (a failed creation that made "
        "nothing is deleted at once, without Azure)",
        _S.READY,
    ),
}

# What the worker does without a user's action (creation, the janitor), for the page's table.
AUTOMATIC_TRANSITIONS: tuple[tuple[AzureLabStatus, AzureLabStatus, str], ...] = (
    (_S.QUEUED, _S.CREATING, "a worker claims the creation"),
    (_S.CREATING, _S.READY, "every resource created; registered as a testbed"),
    (_S.CREATING, _S.FAILED, "a step failed; the engine deletes what it made"),
    (_S.READY, _S.DELETED, "the janitor deletes a lab past its expiry or budget"),
)


def allowed_actions(status: str, deleted: bool) -> list[LabAction]:
    """The actions a lab in `status` allows (none once its group was deleted)."""
    if deleted:
        return []
    return [t.action for t in LAB_TRANSITIONS.values() if status in t.allowed]


def back_to(transition: LabTransition, before: str | None) -> AzureLabStatus:
    """Where a failed action leaves the lab: the state it was in when the action was asked
    (one of the allowed ones), else the state it is usually taken from."""
    if before is not None and before in transition.allowed:
        return AzureLabStatus(before)
    return transition.usual_from
