"""Create an Azure lab recorded in the database and register it as a testbed.

The task takes the lab's id, claims it (queued to creating, a conditional UPDATE), creates it
through the engine (backend.azure.provisioning: quota first, tagged group, rollback on failure)
while recording each created resource on the row, then registers its role VMs as the hosts of
an azure testbed, each with the host key mcscope generated for it pinned as supplied. A lab
that fails leaves nothing on Azure and says why on its row.

A creation survives its worker: the row names the worker (host:pid) and carries a heartbeat,
and each VM's public host key is written before the VM is made. The janitor queues a lab left
`creating` by a dead worker again; the next attempt reuses what is there and makes the rest
(provisioning.Resume), or, past MAX_ATTEMPTS, the janitor deletes its group."""

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from azure.core.exceptions import AzureError
from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from backend.azure import provisioning
from backend.azure.arm import Arm, NoSubscription, arm_clients
from backend.azure.lab_spec import LabSpec, Role
from backend.azure.resource_plan import Resource, expires_at
from backend.azure.vcpu_quota import QuotaError
from backend.core.db import SessionLocal
from backend.core.processes import process_identity
from backend.crud.azure_lab import beat, claim_lab
from backend.crud.network import request_measurement
from backend.crud.testbed import SuppliedHost, register_with_supplied_keys
from backend.domain.vm_sizes import bandwidth
from backend.models import AzureLab, AzureLabStatus, Testbed, TestbedKind

logger = logging.getLogger(__name__)

MAX_ERROR = 4000
# A creation's heartbeat; the janitor judges a worker on another machine dead after
# STALE_AFTER_S without one (on this machine, by its PID at once).
HEARTBEAT_EVERY_S = 10.0
STALE_AFTER_S = 120
# Attempts at one lab's creation before the janitor gives up and deletes its group.
MAX_ATTEMPTS = 3


def _claim(session: Session, lab_id: int, worker: str) -> bool:
    claimed = claim_lab(session=session, lab_id=lab_id, worker=worker)
    session.commit()
    return claimed


@contextmanager
def _heartbeat(lab_id: int, worker: str) -> Iterator[None]:
    """Refresh the lab's heartbeat on a thread while its creation polls ARM for minutes."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(HEARTBEAT_EVERY_S):
            try:
                with SessionLocal() as session:
                    beat(session=session, lab_id=lab_id, worker=worker)
                    session.commit()
            except Exception:  # the database is away: the next beat tries again
                logger.exception("azure_lab.heartbeat_failed", extra={"lab_id": lab_id})

    thread = threading.Thread(target=loop, name=f"heartbeat-lab-{lab_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _fail(session: Session, row: AzureLab, error: str) -> None:
    row.status = AzureLabStatus.FAILED.value
    row.error = error[:MAX_ERROR]
    session.commit()
    logger.warning("azure_lab.failed", extra={"lab_id": row.id, "error": row.error})


def _register(session: Session, spec: LabSpec, lab: provisioning.Lab) -> Testbed:
    def built(h: provisioning.LabHost, role: Role) -> SuppliedHost:
        # Azure caps a VM's egress by its size: the network bound reads it.
        cap = bandwidth(h.size, "published")
        return SuppliedHost(
            name=h.name,
            role=role.value,
            address=h.private_ip,
            ssh_user=spec.admin_user,
            key_path=spec.ssh_private_key_path,
            host_key=h.host_key,
            size=h.size,
            region=lab.region,
            zone=h.zone,
            link_cap_mbit_s=cap.value if cap else None,
            link_cap_basis="published" if cap else None,
        )

    return register_with_supplied_keys(
        session=session,
        name=spec.name,
        kind=TestbedKind.AZURE,
        description=spec.description or f"Azure lab {lab.resource_group} in {lab.region}",
        # The jump host is not an mcscope host.
        hosts=[built(h, h.role) for h in lab.hosts if h.role is not None],
    )


def create_lab(lab_id: int, arm_for: Callable[[], Arm] = arm_clients) -> None:
    """Carry out (or resume) one lab's creation; a lab not queued (taken, done) is left alone."""
    worker = process_identity()
    with SessionLocal() as session:
        if not _claim(session, lab_id, worker):
            logger.info("azure_lab.not_queued", extra={"lab_id": lab_id})
            return
        with _heartbeat(lab_id, worker):
            _create_claimed(session, lab_id, arm_for)


def _create_claimed(session: Session, lab_id: int, arm_for: Callable[[], Arm]) -> None:
    row = session.get(AzureLab, lab_id)
    assert row is not None  # claimed just now
    try:
        spec = LabSpec.model_validate(row.spec)
    except ValidationError as exc:
        _fail(session, row, f"invalid spec: {exc}")
        return

    def progress(res: Resource) -> None:
        made = f"{res.kind.value} {res.name}"
        if made not in row.progress:  # a resumed creation passes what is there again
            row.progress = [*row.progress, made]
            session.commit()

    def record(keys: dict[str, str]) -> None:
        row.host_keys = dict(keys)
        session.commit()

    try:
        arm = arm_for()
    except (NoSubscription, AzureError) as exc:
        _fail(session, row, str(exc))
        return
    try:
        try:
            resume = provisioning.Resume(dict(row.host_keys), record)
            lab = provisioning.create(arm, spec, progress=progress, resume=resume)
        except (provisioning.ProvisionError, QuotaError, AzureError) as exc:
            _fail(session, row, provisioning.describe(exc))
            return
        try:
            testbed = _register(session, spec, lab)
        except IntegrityError:
            session.rollback()
            provisioning.delete(arm, lab.resource_group)
            _fail(session, row, f"a testbed named {spec.name!r} already exists; lab deleted")
            return
        row.status = AzureLabStatus.READY.value
        row.testbed_id = testbed.id
        row.expires_at = expires_at(lab.tags)
        session.commit()
        logger.info("azure_lab.ready", extra={"lab_id": lab_id, "testbed_id": testbed.id})
        # Provisioned: its round trips between roles, measured by the maintenance worker.
        request_measurement(session=session, testbed=testbed, bandwidth=False)
    finally:
        arm.close()
