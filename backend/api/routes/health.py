"""Liveness and readiness: the API answers, the database and the broker answer."""

import redis
from fastapi import APIRouter, Response, status
from pydantic import BaseModel

from backend.api.deps import SessionDep
from backend.core.config import settings
from backend.crud.database import ping

router = APIRouter(tags=["health"])


class Health(BaseModel):
    status: str
    database: bool
    broker: bool


@router.get("/health", response_model=Health)
def read_health(session: SessionDep, response: Response) -> Health:
    """200 when the database and Redis answer, 503 otherwise."""
    try:
        ping(session=session)
        db_ok = True
    except Exception:  # any failure to reach the database means "not ready"
        db_ok = False
    try:
        broker_ok = bool(redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2).ping())
    except redis.RedisError:
        broker_ok = False
    ok = db_ok and broker_ok
    if not ok:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return Health(status="ok" if ok else "degraded", database=db_ok, broker=broker_ok)
