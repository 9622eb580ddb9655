"""Azure labs: queue a lab's creation (the worker creates it through the Azure SDK and
registers it as a testbed), list labs, read one's state and progress; stop (deallocate), start
and delete one, each a task the worker carries out."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, status
from pydantic import ValidationError
from sqlalchemy.orm import Session

from backend.api.broker import RESPONSES as BROKER_RESPONSES
from backend.api.broker import nothing_queued_without_broker, require_broker, send_or_put_back
from backend.api.deps import SessionDep
from backend.api.paging import Page, paging
from backend.azure.lab_spec import LabSpec
from backend.azure.plan_preview import resources
from backend.core.config import settings
from backend.core.keys import KeyPathError, check_key_path
from backend.core.queue import (
    AZURE_DELETE_LAB_TASK,
    AZURE_START_LAB_TASK,
    AZURE_STOP_LAB_TASK,
    BrokerUnavailable,
    enqueue_azure_lab,
)
from backend.crud import azure_lab as crud_lab
from backend.crud.testbed import testbed_id_by_name
from backend.domain.azure_lab_states import (
    AUTOMATIC_TRANSITIONS,
    LAB_TRANSITIONS,
    LabAction,
)
from backend.models import AzureLab, AzureLabStatus
from backend.schemas.azure_lab import (
    AzureLabCreate,
    AzureLabDelete,
    AzureLabPublic,
    AzureLabsPublic,
    AzureLabStatesPublic,
    AzureLabTransitionPublic,
)
from backend.schemas.problems import unprocessable

router = APIRouter(prefix="/azure-labs", tags=["azure-labs"])

NOT_FOUND = "Azure lab not found"
# Where a LabSpec error lands in the request (LabSpec's own names on the left).
_ROLE_FIELDS = {"server": "servers", "middleware": "middlewares", "client": "clients"}
_SPEC_FIELDS = {
    "jump_host": "jump_host",
    "resource_group": "name",
    "ssh_public_key_path": "key_path",
    "ssh_private_key_path": "key_path",
}


def _request_loc(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    if len(loc) >= 2 and loc[0] == "roles":
        return (_ROLE_FIELDS.get(str(loc[1]), "servers"), *loc[2:])
    if loc and loc[0] == "network":
        return ("ssh_source_cidr" if "ssh_source_cidr" in loc else "subnet_prefix",)
    if loc and loc[0] in _SPEC_FIELDS:
        return (_SPEC_FIELDS[str(loc[0])],)
    return loc[:1]  # the same name in both, or () for the whole body


def checked_spec(
    session: Session, body: AzureLabCreate, *, plan_only: bool = False
) -> tuple[LabSpec, str | None]:
    """The request as the engine's spec, every check a 422 naming the field: keys, values,
    the expiry against its maximum in the settings, a testbed name not taken. With
    `plan_only` (nothing is created) a missing key is not an error but said in the second
    value, so the plan shows before the key exists."""
    if body.expires_in_hours > settings.AZURE_MAX_EXPIRY_HOURS:
        raise unprocessable(
            ("expires_in_hours",),
            f"at most {settings.AZURE_MAX_EXPIRY_HOURS:g} h (MCSCOPE_AZURE_MAX_EXPIRY_HOURS)",
            body.expires_in_hours,
        )
    missing: str | None = None
    private = public = ""
    for raw in (body.key_path, body.key_path + ".pub"):
        try:
            found = check_key_path(raw)
        except KeyPathError as e:
            if not plan_only:
                raise unprocessable(("key_path",), str(e), raw) from e
            missing = missing or f"{e}; create needs this key"
            found = str(settings.SSH_KEY_DIR.expanduser() / raw)
        private, public = (found, public) if raw == body.key_path else (private, found)
    spec = lab_spec(body, private, public, plan_only=missing is not None)
    if testbed_id_by_name(session=session, name=body.name) is not None:
        raise unprocessable(("name",), f"a testbed named {body.name!r} already exists", body.name)
    return spec, missing


def lab_spec(
    body: AzureLabCreate, private_key: str, public_key: str, *, plan_only: bool = False
) -> LabSpec:
    """The engine's spec for a request; a value it refuses is a 422 naming the request field."""
    data: dict[str, Any] = {
        "name": body.name,
        "resource_group": f"mcscope-{body.name}",
        "region": body.region,
        "zone": body.zone,
        "owner": body.owner,
        "expires_in_hours": body.expires_in_hours,
        "ssh_private_key_path": private_key,
        "ssh_public_key_path": public_key,
        "network": {
            "address_prefix": body.subnet_prefix,
            "subnet_prefix": body.subnet_prefix,
            "ssh_source_cidr": body.ssh_source_cidr,
        },
        "roles": {
            "server": body.servers.model_dump(),
            "middleware": body.middlewares.model_dump(),
            "client": body.clients.model_dump(),
        },
        "jump_host": {"enabled": body.jump_host},
    }
    if body.image is not None:
        data["image"] = body.image
    try:
        return LabSpec.model_validate(data, context={"plan_only": plan_only})
    except ValidationError as e:
        first = e.errors()[0]
        raise unprocessable(_request_loc(tuple(first["loc"])), first["msg"]) from e


@router.post(
    "",
    response_model=AzureLabPublic,
    status_code=status.HTTP_202_ACCEPTED,
    responses=BROKER_RESPONSES,
)
def create_azure_lab(session: SessionDep, body: AzureLabCreate) -> AzureLabPublic:
    """Queue the creation of an Azure lab; the worker registers it as a testbed when done."""
    spec, _ = checked_spec(session, body)
    require_broker("create")  # before anything is committed: no lab queued without a message
    lab = AzureLab(
        name=body.name,
        spec=spec.model_dump(mode="json"),
        status=AzureLabStatus.QUEUED.value,
        planned=[r.label for r in resources(spec)],
        progress=[],
        resource_group=spec.resource_group,
        budget=body.budget,
    )
    session.add(lab)
    session.commit()

    def failed(exc: BrokerUnavailable) -> None:
        lab.status, lab.error = AzureLabStatus.FAILED.value, str(exc)

    send_or_put_back(
        session, "create", lambda: enqueue_azure_lab(lab.id), failed, "the lab was not created"
    )
    return AzureLabPublic.model_validate(lab)


@router.get("", response_model=AzureLabsPublic)
def read_azure_labs(
    session: SessionDep,
    page: Annotated[Page, Depends(paging())],
) -> AzureLabsPublic:
    """List Azure labs, newest first."""
    rows, count = crud_lab.list_labs(session=session, skip=page.skip, limit=page.limit)
    return AzureLabsPublic(data=[AzureLabPublic.model_validate(r) for r in rows], count=count)


@router.get("/states", response_model=AzureLabStatesPublic)
def read_azure_lab_states() -> AzureLabStatesPublic:
    """The lab's states and every transition between them: the user's actions (from which
    states, the state while a worker carries it out, the state once done) and the worker's."""
    rows = [
        AzureLabTransitionPublic(
            action=t.action.value,
            from_states=sorted(s.value for s in t.allowed),
            during=t.during.value,
            to=t.done.value,
            meaning=t.meaning,
        )
        for t in LAB_TRANSITIONS.values()
    ]
    rows += [
        AzureLabTransitionPublic(
            action=None, from_states=[a.value], during=None, to=b.value, meaning=why
        )
        for a, b, why in AUTOMATIC_TRANSITIONS
    ]
    rows.append(
        AzureLabTransitionPublic(
            action=None,
            from_states=sorted({s.value for t in LAB_TRANSITIONS.values() for s in t.allowed}),
            during=None,
            to=None,
            meaning="an action that fails puts the lab back in the state it was in, "
            "with the reason in its error",
        )
    )
    return AzureLabStatesPublic(data=rows)


@router.get("/{lab_id}", response_model=AzureLabPublic)
def read_azure_lab(session: SessionDep, lab_id: int) -> AzureLabPublic:
    """Get one Azure lab: its state, progress and, once ready, its testbed."""
    lab = session.get(AzureLab, lab_id)
    if lab is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, NOT_FOUND)
    return AzureLabPublic.model_validate(lab)


# The task that carries out each action (the states it moves through: LAB_TRANSITIONS).
_TASKS: dict[LabAction, str] = {
    LabAction.STOP: AZURE_STOP_LAB_TASK,
    LabAction.START: AZURE_START_LAB_TASK,
    LabAction.DELETE: AZURE_DELETE_LAB_TASK,
}


def _act(session: Session, lab: AzureLab, action: LabAction) -> AzureLabPublic:
    """Move the lab to the action's state if it is in one that allows it (a conditional
    UPDATE, so two clicks queue one task), then send the task with the state it came from
    (where a failure puts it back)."""
    transition = LAB_TRANSITIONS[action]
    before = lab.status if lab.deleted_at is None else AzureLabStatus.DELETED.value
    with nothing_queued_without_broker(str(action), session):
        moved = crud_lab.move_lab(
            session=session,
            lab_id=lab.id,
            before=before,
            allowed=[s.value for s in transition.allowed],
            to=transition.during.value,
        )
    session.commit()
    if not moved:
        raise HTTPException(status.HTTP_409_CONFLICT, f"cannot {action} a lab that is {before}")
    send_or_put_back(
        session,
        str(action),
        lambda: enqueue_azure_lab(lab.id, _TASKS[action], before=before),
        lambda _: crud_lab.set_lab_status(session=session, lab_id=lab.id, status=before),
        f"it stays {before}",
    )
    session.refresh(lab)
    return AzureLabPublic.model_validate(lab)


def _forget_failed(session: Session, lab: AzureLab) -> AzureLabPublic | None:
    """A failed creation that made nothing on Azure is deleted at once: there is no group to
    delete, so no subscription or worker is needed (the case of a lab that failed because no
    subscription was configured). None when there is something to delete."""
    if lab.status != AzureLabStatus.FAILED.value or lab.progress or lab.deleted_at is not None:
        return None
    crud_lab.forget_failed_lab(session=session, lab_id=lab.id)
    session.commit()
    session.refresh(lab)
    return AzureLabPublic.model_validate(lab)


def _load(session: Session, lab_id: int) -> AzureLab:
    lab = session.get(AzureLab, lab_id)
    if lab is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, NOT_FOUND)
    return lab


_ACTION_RESPONSES: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such lab"},
    409: {"description": "The lab is not in a state that allows it"},
    **BROKER_RESPONSES,
}


@router.post(
    "/{lab_id}/stop",
    response_model=AzureLabPublic,
    status_code=status.HTTP_202_ACCEPTED,
    responses=_ACTION_RESPONSES,
)
def stop_azure_lab(session: SessionDep, lab_id: int) -> AzureLabPublic:
    """Queue deallocating the lab's VMs (no compute billed; disks, keys, addresses kept)."""
    return _act(session, _load(session, lab_id), LabAction.STOP)


@router.post(
    "/{lab_id}/start",
    response_model=AzureLabPublic,
    status_code=status.HTTP_202_ACCEPTED,
    responses=_ACTION_RESPONSES,
)
def start_azure_lab(session: SessionDep, lab_id: int) -> AzureLabPublic:
    """Queue starting the lab's stopped VMs again."""
    return _act(session, _load(session, lab_id), LabAction.START)


@router.delete(
    "/{lab_id}",
    response_model=AzureLabPublic,
    status_code=status.HTTP_202_ACCEPTED,
    responses=_ACTION_RESPONSES,
)
def delete_azure_lab(session: SessionDep, lab_id: int, body: AzureLabDelete) -> AzureLabPublic:
    """Queue deleting the lab's resource group and all in it; the body repeats its name."""
    lab = _load(session, lab_id)
    if body.name != lab.name:
        raise unprocessable(("name",), f"type the lab's name {lab.name!r} to delete it", body.name)
    return _forget_failed(session, lab) or _act(session, lab, LabAction.DELETE)
