"""Login: lets the UI check a pasted token (the only route besides health open to all)."""

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import BaseModel

from backend.api.deps import SessionDep
from backend.api.security import authenticate, bearer
from backend.core import tokens

router = APIRouter(prefix="/auth", tags=["auth"])


class LoginPublic(BaseModel):
    # False when the API runs without authentication (loopback only): no login needed.
    auth_required: bool
    name: str | None


@router.post("/login", response_model=LoginPublic)
def login(
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> LoginPublic:
    """200 with the token's name when the bearer token is valid, 401 when it is not."""
    name = authenticate(session, credentials)
    return LoginPublic(auth_required=tokens.configured(session), name=name)
