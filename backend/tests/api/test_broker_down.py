"""Every queued action when the message broker does not answer (backend/api/broker.py): down
before anything is committed, a 503 "cannot <verb>: ...; nothing was queued" and no row made
or moved; the message lost after the commit, a 503 and the row put back (an action) or failed
with the broker's reason (a creation), so nothing waits for a message that was never sent.
Start's own case is test_start_broker.py."""

import socket
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.api.routes import azure_labs, rehearsals
from backend.core import queue
from backend.core.config import settings
from backend.core.queue import BrokerUnavailable
from backend.models import AzureLab, Rehearsal
from backend.tests.utils.azure_plans import plan_request
from backend.tests.utils.experiment import random_name

LOST = "the message broker (redis://127.0.0.1:1/0) is not reachable: connection lost"


def _unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def broker_down(monkeypatch: pytest.MonkeyPatch) -> None:
    down = Celery("down", broker=f"redis://127.0.0.1:{_unused_port()}/0")
    down.conf.broker_transport_options = queue.producer.conf.broker_transport_options
    down.conf.broker_connection_timeout = queue.BROKER_TIMEOUT_S
    monkeypatch.setattr(queue, "producer", down)


def _lose(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[tuple[Any, ...]]:
    """The broker answers the check, but the route's message is lost on the way."""
    tried: list[tuple[Any, ...]] = []

    def lost(*args: Any, **kwargs: Any) -> None:
        tried.append(args)
        raise BrokerUnavailable(LOST)

    monkeypatch.setattr(module, name, lost)
    return tried


@pytest.fixture()
def key_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "lab_key")],
        check=True,
    )
    monkeypatch.setattr(settings, "SSH_KEY_DIR", tmp_path)
    return tmp_path


def _rehearsal(db: Session, status: str = "ready") -> Rehearsal:
    row = Rehearsal(
        name=random_name("reh").lower().replace("_", "-"),
        status=status,
        hosts=[],
        tag="cd34",
        made=[],
        expires_at=datetime.now(UTC) + timedelta(hours=1),
    )
    db.add(row)
    db.commit()
    return row


def _lab(db: Session, status: str = "ready") -> AzureLab:
    name = random_name("lab").lower().replace("_", "-")
    row = AzureLab(
        name=name,
        spec={},
        resource_group=f"mcscope-{name}",
        status=status,
        planned=[],
        progress=[],
    )
    db.add(row)
    db.commit()
    return row


def _named(db: Session, model: type[Rehearsal] | type[AzureLab], name: str) -> list[Any]:
    db.expire_all()
    return list(db.scalars(select(model).where(model.name == name)))


def _status_of(db: Session, row: Rehearsal | AzureLab) -> str:
    db.expire_all()
    db.refresh(row)
    return row.status


def _assert_503(r: Any, start: str, outcome: str) -> None:
    assert r.status_code == 503, r.text
    detail = r.json()["detail"]
    assert detail.startswith(start) and detail.endswith(outcome), detail
    assert "not reachable" in detail


def _act(client: TestClient, lab: AzureLab, action: str) -> Any:
    if action == "delete":  # the body repeats the name, as on the page
        return client.request("DELETE", f"/api/v1/azure-labs/{lab.id}", json={"name": lab.name})
    return client.post(f"/api/v1/azure-labs/{lab.id}/{action}")


@pytest.mark.usefixtures("key_dir")
@pytest.mark.parametrize(
    ("path", "model", "verb"),
    [("/api/v1/rehearsals", Rehearsal, "rehearse"), ("/api/v1/azure-labs", AzureLab, "create")],
)
def test_a_creation_with_the_broker_down_stores_nothing(
    client: TestClient,
    db: Session,
    broker_down: None,
    path: str,
    model: type[Rehearsal] | type[AzureLab],
    verb: str,
) -> None:
    name = random_name("down").lower().replace("_", "-")
    r = client.post(path, json=plan_request(name, key_path="lab_key"))
    _assert_503(r, f"cannot {verb}: the message broker", "; nothing was queued")
    assert _named(db, model, name) == []


@pytest.mark.usefixtures("key_dir")
@pytest.mark.parametrize(
    ("path", "model", "module", "send", "verb", "outcome"),
    [
        ("/api/v1/rehearsals", Rehearsal, rehearsals, "enqueue_rehearsal", "rehearse",
         "nothing was built"),
        ("/api/v1/azure-labs", AzureLab, azure_labs, "enqueue_azure_lab", "create",
         "the lab was not created"),
    ],
)  # fmt: skip
def test_a_creation_whose_message_is_lost_is_failed_with_the_reason(
    client: TestClient,
    db: Session,
    monkeypatch: pytest.MonkeyPatch,
    path: str,
    model: type[Rehearsal] | type[AzureLab],
    module: object,
    send: str,
    verb: str,
    outcome: str,
) -> None:
    tried = _lose(monkeypatch, module, send)
    name = random_name("lost").lower().replace("_", "-")
    r = client.post(path, json=plan_request(name, key_path="lab_key"))
    _assert_503(r, f"cannot {verb}: {LOST}", f"; {outcome}")
    (row,) = _named(db, model, name)
    assert len(tried) == 1 and tried[0][0] == row.id
    assert (row.status, row.error) == ("failed", LOST)


def test_deleting_a_rehearsal_with_the_broker_down_leaves_it_ready(
    client: TestClient, db: Session, broker_down: None
) -> None:
    row = _rehearsal(db)
    r = client.request("DELETE", f"/api/v1/rehearsals/{row.id}", json={"name": row.name})
    _assert_503(r, "cannot delete: the message broker", "; nothing was queued")
    assert _status_of(db, row) == "ready"


def test_a_rehearsal_whose_delete_message_is_lost_is_ready_again(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    tried = _lose(monkeypatch, rehearsals, "enqueue_rehearsal")
    row = _rehearsal(db)
    r = client.request("DELETE", f"/api/v1/rehearsals/{row.id}", json={"name": row.name})
    _assert_503(r, f"cannot delete: {LOST}", "; it stays ready")
    assert tried == [(row.id, queue.REHEARSAL_DELETE_TASK)]
    assert _status_of(db, row) == "ready"


@pytest.mark.parametrize(("action", "state"), [("stop", "ready"), ("start", "stopped")])
def test_a_lab_action_with_the_broker_down_leaves_the_lab_as_it_was(
    client: TestClient, db: Session, broker_down: None, action: str, state: str
) -> None:
    lab = _lab(db, state)
    r = _act(client, lab, action)
    _assert_503(r, f"cannot {action}: the message broker", "; nothing was queued")
    assert _status_of(db, lab) == state


@pytest.mark.parametrize(("action", "state"), [("stop", "ready"), ("delete", "stopped")])
def test_a_lab_action_whose_message_is_lost_puts_the_lab_back(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch, action: str, state: str
) -> None:
    tried = _lose(monkeypatch, azure_labs, "enqueue_azure_lab")
    lab = _lab(db, state)
    r = _act(client, lab, action)
    _assert_503(r, f"cannot {action}: {LOST}", f"; it stays {state}")
    assert len(tried) == 1 and tried[0][0] == lab.id
    assert _status_of(db, lab) == state
