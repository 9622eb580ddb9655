"""Saved views persistence: keyword-only, no HTTP errors (the routes own those)."""

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.models import SavedView
from backend.schemas.view import ViewBase


def get_by_name(*, session: Session, name: str) -> SavedView | None:
    return session.scalar(select(SavedView).where(SavedView.name == name))


def list_views(*, session: Session, skip: int, limit: int) -> tuple[Sequence[SavedView], int]:
    """Newest first."""
    rows = session.scalars(
        select(SavedView)
        .order_by(SavedView.updated_at.desc(), SavedView.id.desc())
        .offset(skip)
        .limit(limit)
    ).all()
    count = session.scalar(select(func.count()).select_from(SavedView)) or 0
    return rows, count


def create_view(*, session: Session, spec: ViewBase) -> SavedView:
    view = SavedView(name=spec.name, state=spec.state.model_dump(mode="json"))
    session.add(view)
    session.flush()
    return view


def update_view(*, session: Session, view: SavedView, spec: ViewBase) -> SavedView:
    view.name = spec.name
    view.state = spec.state.model_dump(mode="json")
    session.flush()
    return view
