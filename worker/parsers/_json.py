"""Typed field access into parsed JSON that raises ParseError pointing at the offending line."""

from __future__ import annotations

import json
import math
from typing import Any, TypeVar

from worker.parsers.errors import ParseError, line_of_path

T = TypeVar("T")


class JsonDoc:
    """Parsed JSON text plus the text itself, so errors can name a line."""

    def __init__(self, text: str, *, line_offset: int = 0) -> None:
        self.text = text
        self.line_offset = line_offset
        try:
            self.root: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ParseError(f"invalid JSON: {exc.msg}", line=exc.lineno + line_offset) from None
        except RecursionError:
            raise ParseError("invalid JSON: nested too deeply", line=1 + line_offset) from None

    def error(self, path: tuple[str, ...], message: str) -> ParseError:
        """A ParseError for ``path`` with its best-effort line."""
        line = line_of_path(self.text, path) or 1
        dotted = ".".join(path) if path else "<root>"
        return ParseError(f"{dotted}: {message}", line=line + self.line_offset)

    def obj(self, value: Any, path: tuple[str, ...]) -> dict[str, Any]:
        """``value`` as a JSON object."""
        if not isinstance(value, dict):
            raise self.error(path, f"expected an object, got {type(value).__name__}")
        return value

    def field(self, parent: dict[str, Any], key: str, path: tuple[str, ...]) -> Any:
        """``parent[key]``, ParseError when missing."""
        if key not in parent:
            raise self.error(path, f"missing key {key!r}")
        return parent[key]

    def num(self, parent: dict[str, Any], key: str, path: tuple[str, ...]) -> float:
        """A finite number (ints accepted, bools rejected)."""
        value = self.field(parent, key, path)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error((*path, key), f"expected a number, got {type(value).__name__}")
        if not math.isfinite(value):
            raise self.error((*path, key), "expected a finite number")
        return float(value)

    def nonneg(self, parent: dict[str, Any], key: str, path: tuple[str, ...]) -> float:
        """A number >= 0."""
        value = self.num(parent, key, path)
        if value < 0:
            raise self.error((*path, key), f"negative value {value}")
        return value

    def count(self, parent: dict[str, Any], key: str, path: tuple[str, ...]) -> int:
        """A non-negative integer."""
        value = self.field(parent, key, path)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error((*path, key), f"expected an integer, got {type(value).__name__}")
        if value < 0:
            raise self.error((*path, key), f"negative count {value}")
        return value

    def string(self, parent: dict[str, Any], key: str, path: tuple[str, ...]) -> str:
        """A string value."""
        value = self.field(parent, key, path)
        if not isinstance(value, str):
            raise self.error((*path, key), f"expected a string, got {type(value).__name__}")
        return value

    def boolean(self, parent: dict[str, Any], key: str, path: tuple[str, ...]) -> bool:
        """A JSON boolean, or memtier's "true"/"false" strings."""
        value = self.field(parent, key, path)
        if isinstance(value, bool):
            return value
        if value in ("true", "false"):
            return bool(value == "true")
        raise self.error((*path, key), f"expected a boolean, got {value!r}")

    def exact_keys(self, value: dict[str, Any], keys: set[str], path: tuple[str, ...]) -> None:
        """Strict formats: exactly ``keys``, naming the first missing or unknown one."""
        missing = sorted(keys - value.keys())
        if missing:
            raise self.error(path, f"missing key {missing[0]!r}")
        unknown = sorted(value.keys() - keys)
        if unknown:
            raise self.error((*path, unknown[0]), f"unknown key {unknown[0]!r}")
