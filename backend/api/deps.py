"""Dependencies shared by the routes: the database session, the caller's name."""

from collections.abc import Generator
from typing import Annotated

from fastapi import Depends
from sqlalchemy.orm import Session

from backend.api.security import require_token
from backend.core.db import SessionLocal


def get_db() -> Generator[Session, None, None]:
    with SessionLocal() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_db)]

# The token owner's name (None: authentication off). The routers' own guard is this same
# dependency, so FastAPI runs it once per request.
OwnerDep = Annotated[str | None, Depends(require_token)]
