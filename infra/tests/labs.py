"""Lab rows the infra tests start from, made as the product makes them: queued as the API
queues one, or created by the worker's task body against the fake Azure; and the small
memaslap experiment the lab tests run on their "VMs"."""

from sqlalchemy.orm import Session

from backend.azure.arm import Arm, connect
from backend.azure.lab_creation import create_lab
from backend.azure.lab_spec import LabSpec
from backend.models import AzureLab, AzureLabStatus
from infra.tests.conftest import fake_options
from infra.tests.fake_arm import SUBSCRIPTION, FakeArm, FakeCredential

SMALL_EXPERIMENT = {
    "servers": 1,
    "middlewares": 0,
    "instances_per_machine": 1,
    "ratio": "1:9",
    "value_size": 128,
    "key_maximum": 2000,
    "load_generator": "memaslap",
}


def fake_clients(fake: FakeArm) -> Arm:
    return connect(SUBSCRIPTION, FakeCredential(), fake_options(fake))


def queue_lab(db: Session, spec: LabSpec) -> AzureLab:
    row = AzureLab(
        name=spec.name,
        spec=spec.model_dump(mode="json"),
        resource_group=spec.resource_group,
        status=AzureLabStatus.QUEUED.value,
        progress=[],
    )
    db.add(row)
    db.commit()
    return row


def ready_lab(db: Session, fake: FakeArm, spec: LabSpec) -> AzureLab:
    """A lab created through the worker's task body, ready and registered as a testbed."""
    row = queue_lab(db, spec)
    create_lab(row.id, arm_for=lambda: fake_clients(fake))
    db.refresh(row)
    assert row.status == AzureLabStatus.READY.value, row.error
    return row
