"""Bearer tokens: creation, storage as a digest, and lookup.

Tokens are 256-bit random strings (`secrets.token_urlsafe(32)`), so a fast hash is enough:
slow password hashes (argon2, bcrypt) exist to resist guessing low-entropy secrets, and
guessing a 256-bit token is infeasible whatever the hash. A SHA-256 digest also lets a request
be authenticated by one indexed lookup instead of a slow hash per stored token. The admin
token from the environment is held to at least 32 characters (settings) for the same reason.
"""

import hashlib
import hmac
import secrets
from datetime import UTC, datetime

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.models import ApiToken

PREFIX = "mcs_"
ADMIN_NAME = "admin (MCSCOPE_ADMIN_TOKEN)"


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _admin_digest() -> str | None:
    admin = settings.ADMIN_TOKEN
    return digest(admin.get_secret_value()) if admin is not None else None


def configured(session: Session) -> bool:
    """Authentication is on once an admin token is set or any token was ever created."""
    return _admin_digest() is not None or bool(
        session.scalar(select(exists().select_from(ApiToken)))
    )


def identify(session: Session, token: str) -> str | None:
    """The name of the token's owner, or None when the token is unknown or revoked."""
    d = digest(token)
    admin = _admin_digest()
    if admin is not None and hmac.compare_digest(d, admin):
        return ADMIN_NAME
    row = session.scalar(select(ApiToken).where(ApiToken.digest == d))
    if row is None or row.revoked_at is not None:
        return None
    return row.name


def create(session: Session, name: str) -> str:
    """Store a new token under `name` and return it (the only time it is seen)."""
    token = new_token()
    session.add(ApiToken(name=name, digest=digest(token)))
    session.commit()
    return token


def revoke(session: Session, name: str) -> bool:
    row = session.scalar(select(ApiToken).where(ApiToken.name == name))
    if row is None or row.revoked_at is not None:
        return False
    row.revoked_at = datetime.now(UTC)
    session.commit()
    return True


def listing(session: Session) -> list[ApiToken]:
    return list(session.scalars(select(ApiToken).order_by(ApiToken.id)))
