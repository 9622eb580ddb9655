"""The one rule for every value a request carries, checked at the edge before any route:
numbers are finite, text is storable Unicode.

Python's JSON parser reads NaN, Infinity and 1e400 (an overflow to inf) as floats; no column,
model or JSON answer can hold them. A NUL character cannot be stored in PostgreSQL text, and a
lone UTF-16 surrogate ("\\ud800", legal JSON escape, not a character) cannot be encoded as
UTF-8 at all. Each is refused here with a 422 naming the field, the same shape FastAPI gives
schema errors, for every JSON body (values and keys, at any depth, also in free-form fields
such as a design's `fixed`) and every query parameter.
"""

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Receive, Scope, Send

from backend.api.errors import json_safe
from backend.api.guards import replaying
from backend.schemas.limits import text_problem

_INPUT_ECHO_CHARS = 200  # of a refused string, echoed back in the 422


@dataclass(frozen=True)
class Malformed:
    """Where a refused value sits (FastAPI's `loc`), why, and the value as JSON can echo it."""

    loc: tuple[str | int, ...]
    type: str
    msg: str
    input: Any

    def detail(self) -> dict[str, Any]:
        return {"type": self.type, "loc": list(self.loc), "msg": self.msg, "input": self.input}


class _NonFinite:
    """A non-finite number as the JSON text spelled it (NaN, Infinity, 1e400)."""

    def __init__(self, text: str) -> None:
        self.text = text


def _parse_float(text: str) -> float | _NonFinite:
    value = float(text)
    return value if math.isfinite(value) else _NonFinite(text)


def _echo(text: str) -> str:
    return text[:_INPUT_ECHO_CHARS].encode("utf-8", "backslashreplace").decode("utf-8")


def _walk(value: Any, loc: tuple[str | int, ...]) -> Iterator[Malformed]:
    if isinstance(value, _NonFinite):
        yield Malformed(loc, "finite_number", "must be a finite number", value.text)
    elif isinstance(value, str):
        problem = text_problem(value)
        if problem is not None:
            yield Malformed(loc, *problem, _echo(value))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, (*loc, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = text_problem(key)
            if problem is not None:
                yield Malformed((*loc, _echo(key)), problem[0], "a key " + problem[1], _echo(key))
            else:
                yield from _walk(item, (*loc, key))


def body_problems(body: bytes) -> list[Malformed]:
    """What a JSON body carries that no field may hold (empty when fine or not JSON at all:
    FastAPI answers malformed JSON itself)."""
    try:
        parsed = json.loads(body, parse_constant=_NonFinite, parse_float=_parse_float)
    except (ValueError, RecursionError):
        return []
    try:
        return list(_walk(parsed, ("body",)))
    except RecursionError:  # no field of this API nests deeper than a few levels
        return [Malformed(("body",), "json_invalid", "nested too deeply", None)]


def query_problems(query_string: bytes) -> list[Malformed]:
    """NUL in a query parameter's name or value (URLs cannot carry surrogates: Starlette
    decodes them as U+FFFD)."""
    out = []
    for key, value in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True):
        problem = text_problem(key) or text_problem(value)
        if problem is not None:
            out.append(Malformed(("query", _echo(key)), *problem, _echo(value)))
    return out


def _is_json(scope: Scope) -> bool:
    for key, value in scope["headers"]:
        if key == b"content-type":
            media = str(value.decode("latin-1")).split(";")[0].strip().lower()
            return media == "application/json" or media.endswith("+json")
    return False


class WellFormedInput:
    """422 for a request whose query or JSON body breaks the rule above; the body is read
    whole (BodyLimit, outside, has capped it) and handed on unchanged."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        problems = query_problems(scope.get("query_string", b""))
        if problems:
            await _refuse(send, problems)
            return
        if not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        problems = body_problems(body)
        if problems:
            await _refuse(send, problems)
            return
        await self.app(scope, replaying(body, receive), send)


async def _refuse(send: Send, problems: list[Malformed]) -> None:
    body = json.dumps(json_safe({"detail": [p.detail() for p in problems]})).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 422,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
