"""ParseError: the one exception every parser in this package raises on bad input."""

from __future__ import annotations


class ParseError(ValueError):
    """Input that does not match the expected format.

    Carries the 1-based ``line`` (when known) and the ``file`` name (for
    directory formats) so a failed run can say exactly where its output broke.
    """

    def __init__(self, message: str, *, line: int | None = None, file: str | None = None) -> None:
        self.message = message
        self.line = line
        self.file = file
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = self.file
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        return f"{where}: {self.message}" if where else self.message

    def with_file(self, file: str) -> ParseError:
        """Return a copy naming ``file`` (used by the directory parsers)."""
        return ParseError(self.message, line=self.line, file=file)


def line_of_offset(text: str, offset: int) -> int:
    """1-based line number of character ``offset`` in ``text``."""
    return text.count("\n", 0, max(0, offset)) + 1


def line_of_path(text: str, path: tuple[str, ...]) -> int | None:
    """Best-effort line of the JSON key ``path`` in pretty-printed ``text``.

    json.loads keeps no positions, so we walk the text finding each quoted key
    after the previous one; good enough to point a human at the right place.
    """
    pos = 0
    found = False
    for key in path:
        idx = text.find(f'"{key}"', pos)
        if idx < 0:
            break
        pos = idx + 1
        found = True
    return line_of_offset(text, pos - 1) if found else None
