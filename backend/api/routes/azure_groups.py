"""mcscope's resource groups that the database does not know: list them, and delete one when
the user confirms. A group without mcscope's tag is refused: it is never touched."""

from fastapi import APIRouter, HTTPException, Path, status

from backend.api.azure_deps import ArmDep
from backend.api.deps import SessionDep
from backend.azure.resource_groups import (
    AzureAnswered,
    Group,
    GroupNotFound,
    GroupNotOurs,
    GroupTracked,
    list_untracked,
    untracked_group,
)
from backend.azure.resource_plan import TAG_CREATED, TAG_EXPIRES, TAG_OWNER, TAG_TESTBED
from backend.core.queue import BrokerUnavailable, enqueue_azure_group_deletion
from backend.schemas.azure_group import UntrackedGroupPublic, UntrackedGroupsPublic

# Registered before the labs' router: "untracked" is not a lab id.
router = APIRouter(prefix="/azure-labs/untracked", tags=["azure-labs"])

NOT_FOUND = "resource group not found"
NOT_OURS = f"resource group has no {TAG_TESTBED} tag: mcscope never touches it"
TRACKED = "resource group belongs to a lab mcscope knows: delete the lab instead"
# Azure's rule for resource group names.
GROUP_NAME = r"^[-\w.()]{0,89}[-\w()]$"


def _public(g: Group) -> UntrackedGroupPublic:
    return UntrackedGroupPublic(
        name=g.name,
        location=g.location,
        testbed=g.tags[TAG_TESTBED],
        owner=g.tags.get(TAG_OWNER),
        created=g.tags.get(TAG_CREATED),
        expires=g.tags.get(TAG_EXPIRES),
    )


def _azure_failed(exc: AzureAnswered) -> HTTPException:
    return HTTPException(status.HTTP_502_BAD_GATEWAY, f"Azure answered: {exc}")


@router.get(
    "",
    response_model=UntrackedGroupsPublic,
    responses={409: {"description": "no Azure subscription is set"}},
)
def read_untracked_groups(session: SessionDep, arm: ArmDep) -> UntrackedGroupsPublic:
    """List resource groups with mcscope's tag that no lab in the database holds."""
    try:
        groups = list_untracked(session=session, arm=arm)
    except AzureAnswered as exc:
        raise _azure_failed(exc) from exc
    return UntrackedGroupsPublic(data=[_public(g) for g in groups], count=len(groups))


@router.delete(
    "/{name}",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=UntrackedGroupPublic,
    responses={
        404: {"description": NOT_FOUND},
        409: {"description": f"{NOT_OURS}; or {TRACKED}; or no Azure subscription is set"},
        503: {"description": "The message broker (Redis) is not reachable"},
    },
)
def delete_untracked_group(
    session: SessionDep,
    arm: ArmDep,
    name: str = Path(pattern=GROUP_NAME, description="the resource group's name"),
) -> UntrackedGroupPublic:
    """Queue the deletion of one untracked group with mcscope's tag (the user confirmed)."""
    try:
        group = untracked_group(session=session, arm=arm, name=name)
    except AzureAnswered as exc:
        raise _azure_failed(exc) from exc
    except GroupNotFound as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, NOT_FOUND) from exc
    except GroupNotOurs as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, NOT_OURS) from exc
    except GroupTracked as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, TRACKED) from exc
    try:
        enqueue_azure_group_deletion(name)
    except BrokerUnavailable as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from exc
    return _public(group)
