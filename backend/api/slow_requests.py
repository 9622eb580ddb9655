"""Requests slow to answer, logged with the time they took: uvicorn's access log records a
request only once answered, and without its duration, so a page that waited (or a browser test
that timed out) could not be read against the log. A request still unanswered at the threshold
is logged then too, so one that never answers (a hang, a lost connection) shows in the log.
Timed to the response's start, so a live stream counts until its first byte, not while it
stays open; the path is logged without its query string (a token put in a URL must not land
in the log)."""

import asyncio
import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger("mcscope.api.slow")


class SlowRequests:
    """Pure ASGI middleware: a warning for each HTTP request still unanswered `after_s` after it
    arrived, and another when such a request is answered, with its status and time."""

    def __init__(self, app: ASGIApp, after_s: float) -> None:
        self.app = app
        self.after_s = after_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.monotonic()
        method, path = scope["method"], scope["path"]

        def unanswered() -> None:
            took = time.monotonic() - start
            logger.warning("slow request: %s %s unanswered after %.1f s", method, path, took)

        waiting = asyncio.get_running_loop().call_later(self.after_s, unanswered)

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                waiting.cancel()
                took = time.monotonic() - start
                if took >= self.after_s:
                    logger.warning(
                        "slow request: %s %s answered %d after %.1f s",
                        method,
                        path,
                        message["status"],
                        took,
                    )
            await send(message)

        try:
            await self.app(scope, receive, timed)
        finally:
            waiting.cancel()  # no answer at all (an error, a client gone): no late warning
