"""The API refuses to listen beyond loopback without authentication configured."""

import ipaddress

from sqlalchemy.orm import Session

from backend.core import tokens

REFUSAL = (
    "mcscope: refusing to listen on {host} without authentication; set MCSCOPE_ADMIN_TOKEN "
    "or create a token with `python -m backend.cli token create NAME` (README: Security)"
)


def is_loopback(host: str) -> bool:
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name other than localhost may resolve anywhere
        return False


def exposure_error(session: Session, host: str) -> str | None:
    """The one-line refusal when `host` is not loopback and nothing authenticates."""
    if is_loopback(host) or tokens.configured(session):
        return None
    return REFUSAL.format(host=host)
