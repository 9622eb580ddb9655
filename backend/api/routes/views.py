"""Saved views of the Compare page: create, list, read, replace, delete."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, status
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from backend.api.deps import SessionDep
from backend.api.paging import Page, paging
from backend.crud import view as crud
from backend.models import SavedView
from backend.schemas.problems import unprocessable
from backend.schemas.served import served
from backend.schemas.view import ViewCreate, ViewPublic, ViewsPublic, ViewUpdate

router = APIRouter(prefix="/views", tags=["views"])

NOT_FOUND = "View not found"


def _load(session: Session, view_id: int) -> SavedView:
    view = session.get(SavedView, view_id)
    if view is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, NOT_FOUND)
    return view


def _check_name(session: Session, name: str, exclude_id: int | None = None) -> None:
    other = crud.get_by_name(session=session, name=name)
    if other is not None and other.id != exclude_id:
        raise unprocessable(("name",), f"a view named {name!r} already exists", name)


def _commit(session: Session, name: str) -> None:
    # A concurrent save of the same name passes _check_name; the unique index decides.
    try:
        session.commit()
    except IntegrityError as e:
        session.rollback()
        raise unprocessable(("name",), f"a view named {name!r} already exists", name) from e


@router.get("", response_model=ViewsPublic)
def read_views(
    session: SessionDep,
    page: Annotated[Page, Depends(paging())],
) -> ViewsPublic:
    """List saved views, most recently saved first."""
    rows, count = crud.list_views(session=session, skip=page.skip, limit=page.limit)
    data = [served(ViewPublic, _row(v), what="view", row_id=v.id) for v in rows]
    return ViewsPublic(data=data, count=count)


def _row(view: SavedView) -> dict[str, Any]:
    # A state saved before a Compare field changed is listed without that field (logged).
    return {k: getattr(view, k) for k in ViewPublic.model_fields}


@router.post("", response_model=ViewPublic, status_code=status.HTTP_201_CREATED)
def create_view(session: SessionDep, body: ViewCreate) -> ViewPublic:
    """Save a named view."""
    _check_name(session, body.name)
    view = crud.create_view(session=session, spec=body)
    _commit(session, body.name)
    return ViewPublic.model_validate(view)


@router.get("/{view_id}", response_model=ViewPublic)
def read_view(session: SessionDep, view_id: int) -> ViewPublic:
    """Get one saved view."""
    view = _load(session, view_id)
    return served(ViewPublic, _row(view), what="view", row_id=view.id)


@router.put("/{view_id}", response_model=ViewPublic)
def update_view(session: SessionDep, view_id: int, body: ViewUpdate) -> ViewPublic:
    """Replace a saved view's name and state."""
    view = _load(session, view_id)
    _check_name(session, body.name, exclude_id=view_id)
    crud.update_view(session=session, view=view, spec=body)
    _commit(session, body.name)
    return ViewPublic.model_validate(view)


@router.delete("/{view_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_view(session: SessionDep, view_id: int) -> None:
    """Delete a saved view."""
    session.delete(_load(session, view_id))
    session.commit()
