"""Bounds on live event streams: slots per client address and in all, one shared Redis pool.

A stream holds one Redis connection (its pub/sub subscription) and no database connection.
"""

import asyncio
import threading
import weakref
from collections import Counter
from collections.abc import Callable

import redis.asyncio as aioredis
from fastapi import HTTPException, status
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from backend.core.config import settings


class StreamSlots:
    """Counts open streams; `acquire` answers 429 beyond the caps."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.total = total
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def acquire(self, client: str) -> Callable[[], None]:
        with self._lock:
            if self._open[client] >= self.per_client:
                raise HTTPException(
                    status.HTTP_429_TOO_MANY_REQUESTS,
                    f"too many live streams from this client (at most {self.per_client})",
                )
            if self._open.total() >= self.total:
                raise HTTPException(
                    status.HTTP_429_TOO_MANY_REQUESTS,
                    f"too many live streams open (at most {self.total})",
                )
            self._open[client] += 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if not released:
                    released = True
                    self._open[client] -= 1
                    if self._open[client] <= 0:
                        del self._open[client]

        return release

    def open_count(self) -> int:
        with self._lock:
            return self._open.total()


slots = StreamSlots(settings.STREAMS_PER_CLIENT, settings.STREAMS_TOTAL)

# One pool per event loop (asyncio connections belong to the loop that made them; uvicorn has
# one loop, test clients make several).
_pools: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.ConnectionPool]" = (
    weakref.WeakKeyDictionary()
)


def redis_client() -> aioredis.Redis:
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = aioredis.ConnectionPool.from_url(
            settings.REDIS_URL, max_connections=settings.STREAMS_TOTAL
        )
        _pools[loop] = pool
    return aioredis.Redis(connection_pool=pool)


class SlotStreamingResponse(StreamingResponse):
    """Releases its stream slot however the response ends (finished, cancelled, disconnected),
    even when the body iterator never started."""

    def __init__(self, *args: object, release: Callable[[], None], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()
