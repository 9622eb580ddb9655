"""ASGI guards in front of every route: a request body size cap, and refusal of cross-origin
state changes (a foreign page's body-less POST /start or /cancel is a "simple" CORS request
that reaches the route without a preflight)."""

import json
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


async def _reply(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


class BodyLimit:
    """413 for a body above `max_bytes`, declared (Content-Length) or streamed (chunked)."""

    def __init__(
        self, app: ASGIApp, max_bytes: int, uploads: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        # Paths that take an upload (an import's archive) and their own cap; the route
        # streams the body to disk and enforces that cap itself as the bytes arrive.
        self.uploads = dict(uploads or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        upload_cap = self.uploads.get(scope["path"])
        if upload_cap is not None and scope["method"] == "POST":
            length = _header(scope, b"content-length")
            if length is not None and (not length.isdigit() or int(length) > upload_cap):
                await _reply(send, 413, f"upload larger than {upload_cap} bytes")
                return
            await self.app(scope, receive, send)
            return
        too_large = f"request body larger than {self.max_bytes} bytes"
        length = _header(scope, b"content-length")
        if length is not None:
            if not length.isdigit() or int(length) > self.max_bytes:
                await _reply(send, 413, too_large)
                return
            await self.app(scope, receive, send)
            return
        if _header(scope, b"transfer-encoding") is None:
            await self.app(scope, receive, send)
            return
        # Chunked: read it all here (at most max_bytes), then hand it on as one message.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _reply(send, 413, too_large)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, replaying(b"".join(chunks), receive), send)


class SameOriginWrites:
    """403 for a state-changing request whose Origin is neither this API nor an allowed UI
    origin (browsers send Origin on every cross-origin POST/PUT/DELETE)."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str]) -> None:
        self.app = app
        self.allowed = frozenset(o.rstrip("/") for o in allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in _SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        origin = _header(scope, b"origin")
        if origin is not None and not self._allowed(scope, origin):
            await _reply(send, 403, f"cross-origin request refused (Origin: {origin[:100]})")
            return
        if origin is None and _header(scope, b"sec-fetch-site") == "cross-site":
            await _reply(send, 403, "cross-site request refused")
            return
        await self.app(scope, receive, send)

    def _allowed(self, scope: Scope, origin: str) -> bool:
        if origin.rstrip("/") in self.allowed:
            return True
        host = _header(scope, b"host")
        return host is not None and urlsplit(origin).netloc == host


def replaying(body: bytes, receive: Receive) -> Receive:
    """A receive that hands the app the body a middleware already read, once, then the real
    receive (for a disconnect): how a middleware that must see the whole body passes it on."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()
        replayed = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
