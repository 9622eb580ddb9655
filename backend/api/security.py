"""Bearer-token authentication, applied to every API router but health and login.

Tokens travel in the Authorization header only (never a cookie), so a foreign page cannot
make the browser send one: state changes are CSRF-safe by construction.
"""

from typing import Annotated

from fastapi import Depends, HTTPException, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from backend.core import tokens
from backend.core.db import SessionLocal

bearer = HTTPBearer(
    auto_error=False,
    description="A token from `python -m backend.cli token create NAME` or MCSCOPE_ADMIN_TOKEN.",
)

UNAUTHORIZED = HTTPException(
    status.HTTP_401_UNAUTHORIZED,
    "Not authenticated: send Authorization: Bearer <token>",
    headers={"WWW-Authenticate": "Bearer"},
)


def authenticate(session: Session, credentials: HTTPAuthorizationCredentials | None) -> str | None:
    """The token owner's name; None when authentication is not configured; 401 otherwise."""
    if credentials is not None:
        name = tokens.identify(session, credentials.credentials)
        if name is not None:
            return name
    if not tokens.configured(session):
        return None
    raise UNAUTHORIZED


def require_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str | None:
    # Its own short session, closed before the route runs: a long-lived route (the event
    # stream) must not hold a pooled connection for authentication.
    with SessionLocal() as session:
        return authenticate(session, credentials)


Authenticated = Depends(require_token)
