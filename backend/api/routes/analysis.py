"""Analysis endpoints (queueing models, factorial designs, statistics on stored results)."""

from fastapi import APIRouter

router = APIRouter(prefix="/analysis", tags=["analysis"])
