"""Stop (deallocate), start and delete an Azure lab recorded in the database: the bodies of the
mcscope.azure.{stop,start,delete}_lab tasks. The API has already moved the lab to stopping,
starting or deleting (a conditional UPDATE, so one click is one task); each body acts only on a
lab in that state, so a redelivered message after the work is done changes nothing. A failure
puts the lab back in the state it was in (`before`, sent with the task), with the reason in its
error. The states and transitions: backend/domain/azure_lab_states.py."""

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from azure.core.exceptions import AzureError

from backend.azure import provisioning
from backend.azure.arm import Arm, arm_clients
from backend.azure.lab_creation import MAX_ERROR
from backend.core.db import SessionLocal
from backend.domain.azure_lab_states import LAB_TRANSITIONS, LabAction, back_to
from backend.models import AzureLab

logger = logging.getLogger(__name__)

ArmFactory = Callable[[], Arm]


def _carry_out(
    lab_id: int,
    action: LabAction,
    before: str | None,
    work: Callable[[Arm, AzureLab], None],
    arm_for: ArmFactory,
) -> None:
    transition = LAB_TRANSITIONS[action]
    doing, done = transition.during, transition.done
    with SessionLocal() as session:
        row = session.get(AzureLab, lab_id)
        if row is None or row.status != doing.value:
            logger.info("azure_lab.not_" + doing.value, extra={"lab_id": lab_id})
            return
        try:
            arm = arm_for()
            try:
                work(arm, row)
            finally:
                arm.close()
        except (RuntimeError, AzureError) as exc:
            row.status = back_to(transition, before).value
            row.error = f"{doing.value} failed: {provisioning.describe(exc)}"[:MAX_ERROR]
            session.commit()
            logger.warning("azure_lab.action_failed", extra={"lab_id": lab_id, "error": row.error})
            return
        row.status = done.value
        session.commit()
        logger.info("azure_lab." + done.value, extra={"lab_id": lab_id})


def _each_vm(act: Callable[[Arm, str], list[str]], arm: Arm, row: AzureLab) -> None:
    names = act(arm, row.resource_group)
    logger.info("azure_lab.vms", extra={"lab_id": row.id, "vms": names})


def stop_lab(lab_id: int, before: str | None = None, arm_for: ArmFactory = arm_clients) -> None:
    """Deallocate every VM of the lab's group."""
    _carry_out(
        lab_id,
        LabAction.STOP,
        before,
        lambda arm, row: _each_vm(provisioning.deallocate, arm, row),
        arm_for,
    )


def start_lab(lab_id: int, before: str | None = None, arm_for: ArmFactory = arm_clients) -> None:
    """Start every VM of the lab's group again."""
    _carry_out(
        lab_id,
        LabAction.START,
        before,
        lambda arm, row: _each_vm(provisioning.start, arm, row),
        arm_for,
    )


def _delete(arm: Arm, row: AzureLab) -> None:
    # A group that is already gone (a failed creation, the janitor) is not an error.
    provisioning.delete(arm, row.resource_group)
    row.deleted_at = row.deleted_at or datetime.now(UTC)


def delete_lab(lab_id: int, before: str | None = None, arm_for: ArmFactory = arm_clients) -> None:
    """Delete the lab's resource group (only if mcscope's tag is on it) and record when."""
    _carry_out(lab_id, LabAction.DELETE, before, _delete, arm_for)
