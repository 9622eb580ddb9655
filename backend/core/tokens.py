"""Bearer tokens: creation, storage as a digest, and lookup.

Tokens are 256-bit random strings (`secrets.token_urlsafe(32)`), so a fast hash is enough:
slow password hashes (argon2, bcrypt) exist to resist guessing low-entropy secrets, and
guessing a 256-bit token is infeasible whatever the hash. A SHA-256 digest also lets a request
be authenticated by one indexed lookup instead of a slow hash per stored token. The admin
token from the environment is held to at least 32 characters (settings) for the same reason.

Tokens may expire (`expires_at`, by default `settings.TOKEN_TTL_DAYS` after creation). The
admin token of the environment (or var/admin-token, which `make up` exports) is rotated by
`rotate_admin`: its digest is kept as a revoked row, so a running API refuses it at once,
and its successor is an ordinary token named "admin", accepted without a restart.
"""

import hashlib
import hmac
import os
import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.models import ApiToken

PREFIX = "mcs_"
ADMIN_NAME = "admin (MCSCOPE_ADMIN_TOKEN)"
# The stored token that replaces the environment's admin token after a rotation.
ROTATED_ADMIN = "admin"


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
    """The name of the token's owner, or None when the token is unknown, revoked or expired."""
    d = digest(token)
    row = session.scalar(select(ApiToken).where(ApiToken.digest == d))
    if row is not None and not active(row):
        return None  # also the environment's admin token once rotated
    admin = _admin_digest()
    if admin is not None and hmac.compare_digest(d, admin):
        return ADMIN_NAME
    return None if row is None else row.name


def active(row: ApiToken) -> bool:
    """Not revoked and not expired."""
    return row.revoked_at is None and (row.expires_at is None or row.expires_at > datetime.now(UTC))


def default_expiry() -> datetime | None:
    ttl = settings.TOKEN_TTL_DAYS
    return None if ttl is None else datetime.now(UTC) + timedelta(days=ttl)


def create(session: Session, name: str, expires_at: datetime | None = None) -> str:
    """Store a new token under `name` and return it (the only time it is seen); it
    authenticates until `expires_at` (None: until revoked)."""
    token = new_token()
    session.add(ApiToken(name=name, digest=digest(token), expires_at=expires_at))
    session.commit()
    return token


def _retire(session: Session, d: str, now: datetime) -> None:
    """Revoke the token with digest `d`, storing it (revoked) if it was never stored."""
    row = session.scalar(select(ApiToken).where(ApiToken.digest == d))
    if row is None:
        stamp = f"{now:%Y-%m-%d %H:%M:%S.%f}"
        session.add(ApiToken(name=f"admin (revoked {stamp})", digest=d, revoked_at=now))
    elif row.revoked_at is None:
        row.revoked_at = now
        if row.name == ROTATED_ADMIN:
            row.name = f"admin (revoked {now:%Y-%m-%d %H:%M:%S.%f})"
    session.flush()


def rotate_admin(session: Session, file: Path) -> str:
    """Replace the admin token: revoke the environment's, the one in `file` and the stored
    "admin" one, store a new "admin" token (no expiry), write it to `file` (mode 600) and
    return it. A running API refuses the old token at once and accepts the new one."""
    now = datetime.now(UTC)
    old = {d for d in (_admin_digest(),) if d is not None}
    if file.is_file() and file.read_text().strip():
        old.add(digest(file.read_text().strip()))
    stored = session.scalar(select(ApiToken).where(ApiToken.name == ROTATED_ADMIN))
    if stored is not None:
        old.add(stored.digest)
    for d in sorted(old):
        _retire(session, d, now)
    token = new_token()
    session.add(ApiToken(name=ROTATED_ADMIN, digest=digest(token)))
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_name(file.name + ".new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        os.fchmod(out.fileno(), 0o600)
        out.write(token + "\n")
    session.commit()  # the old token is refused from here on
    tmp.replace(file)
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
