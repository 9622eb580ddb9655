"""Rehearse an Azure plan locally: queue building its role VMs as shaped namespace hosts on
this machine (the worker registers them as a `rehearsal` testbed), list rehearsals, read one,
tear one down. A plan this machine cannot rehearse (too many hosts, a size with no bandwidth
figure, no root, no veth, no tc) is a 422 saying why, before anything is queued."""

import secrets
from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, status
from sqlalchemy.orm import Session

from backend.api.broker import RESPONSES as _BROKER
from backend.api.broker import nothing_queued_without_broker, require_broker, send_or_put_back
from backend.api.deps import SessionDep
from backend.api.paging import Page, paging
from backend.api.routes.azure_labs import checked_spec
from backend.azure.resource_plan import planned_vms
from backend.core.queue import REHEARSAL_DELETE_TASK, BrokerUnavailable, enqueue_rehearsal
from backend.crud import rehearsals as crud
from backend.domain.rehearsal_states import RehearsalStatus
from backend.models import Rehearsal
from backend.rehearsal.capabilities import missing_capability
from backend.rehearsal.topology import TopologyError, check_limit, rehearsal_hosts
from backend.schemas.problems import unprocessable
from backend.schemas.rehearsal import (
    RehearsalCreate,
    RehearsalDelete,
    RehearsalPublic,
    RehearsalsPublic,
)

router = APIRouter(prefix="/rehearsals", tags=["rehearsals"])

NOT_FOUND = "rehearsal not found"
CANNOT = "this machine cannot rehearse: {}"


def _live_hosts(session: Session) -> int:
    return crud.live_host_count(session=session)


def _name_free(session: Session, name: str) -> None:
    live = crud.live_rehearsal_named(session=session, name=name)
    if live is not None:
        raise unprocessable(("name",), f"a rehearsal named {name!r} is being built", name)


@router.post(
    "",
    response_model=RehearsalPublic,
    status_code=status.HTTP_202_ACCEPTED,
    responses=_BROKER,
)
def create_rehearsal(session: SessionDep, body: RehearsalCreate) -> RehearsalPublic:
    """Queue building the plan's role VMs as namespace hosts on this machine."""
    spec, _ = checked_spec(session, body, plan_only=True)  # the plan's own checks, 422s
    _name_free(session, body.name)
    planned = [(vm.name, vm.role.value, vm.size) for vm in planned_vms(spec) if vm.role]
    try:
        hosts = rehearsal_hosts(planned, body.bandwidth_basis)
        check_limit(len(hosts), _live_hosts(session))
    except TopologyError as exc:
        raise unprocessable((exc.field,), str(exc)) from exc
    missing = missing_capability()
    if missing is not None:
        raise unprocessable((), CANNOT.format(missing))
    require_broker("rehearse")  # before anything is committed: none queued without a message
    row = Rehearsal(
        name=body.name,
        status=RehearsalStatus.QUEUED.value,
        hosts=[h.as_json() for h in hosts],
        tag=_tag(session),
        made=[],
        expires_at=datetime.now(UTC) + timedelta(hours=body.expires_in_hours),
    )
    session.add(row)
    session.commit()

    def failed(exc: BrokerUnavailable) -> None:
        row.status, row.error = RehearsalStatus.FAILED.value, str(exc)

    send_or_put_back(
        session, "rehearse", lambda: enqueue_rehearsal(row.id), failed, "nothing was built"
    )
    return RehearsalPublic.model_validate(row)


def _tag(session: Session) -> str:
    """Four hex digits no rehearsal of this database holds: part of every name it makes."""
    used = crud.used_tags(session=session)
    while True:
        tag = secrets.token_hex(2)
        if tag not in used:
            return tag


@router.get("", response_model=RehearsalsPublic)
def read_rehearsals(
    session: SessionDep, page: Annotated[Page, Depends(paging())]
) -> RehearsalsPublic:
    """List rehearsals, newest first."""
    rows, count = crud.list_rehearsals(session=session, skip=page.skip, limit=page.limit)
    return RehearsalsPublic(data=[RehearsalPublic.model_validate(r) for r in rows], count=count)


@router.get("/{rehearsal_id}", response_model=RehearsalPublic)
def read_rehearsal(session: SessionDep, rehearsal_id: int) -> RehearsalPublic:
    """Get one rehearsal: its state, hosts and caps, and what is and is not like the cloud."""
    row = session.get(Rehearsal, rehearsal_id)
    if row is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, NOT_FOUND)
    return RehearsalPublic.model_validate(row)


@router.delete(
    "/{rehearsal_id}",
    response_model=RehearsalPublic,
    status_code=status.HTTP_202_ACCEPTED,
    responses={
        404: {"description": "No such rehearsal"},
        409: {"description": "Its state does not allow it"},
        **_BROKER,
    },
)
def delete_rehearsal(
    session: SessionDep, rehearsal_id: int, body: RehearsalDelete
) -> RehearsalPublic:
    """Queue tearing the rehearsal's hosts down (its runs end); the body repeats its name."""
    row = session.get(Rehearsal, rehearsal_id)
    if row is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, NOT_FOUND)
    if body.name != row.name:
        raise unprocessable(
            ("name",), f"type the rehearsal's name {row.name!r} to delete it", body.name
        )
    before = row.status
    with nothing_queued_without_broker("delete", session):
        moved = crud.start_deleting(session=session, rehearsal_id=row.id)
    session.commit()
    if not moved:
        raise HTTPException(status.HTTP_409_CONFLICT, f"cannot delete a rehearsal that is {before}")
    send_or_put_back(
        session,
        "delete",
        lambda: enqueue_rehearsal(row.id, REHEARSAL_DELETE_TASK),
        lambda _: crud.set_rehearsal_status(session=session, rehearsal_id=row.id, status=before),
        f"it stays {before}",
    )
    session.refresh(row)
    return RehearsalPublic.model_validate(row)
