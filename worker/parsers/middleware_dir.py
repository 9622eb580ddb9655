"""parse_middleware_dir: read a whole middleware --stats-dir and cross-check its files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from worker.parsers.errors import ParseError
from worker.parsers.middleware import (
    parse_middleware_histograms,
    parse_middleware_requests,
    parse_middleware_summary,
    parse_middleware_window_histograms,
    parse_middleware_windows,
)
from worker.parsers.model import MiddlewareStats, MiddlewareWindowHistograms, Window

WINDOWS_FILE = "windows.jsonl"
HISTOGRAMS_FILE = "histograms.json"
WINDOW_HISTOGRAMS_FILE = "window_histograms.jsonl"
REQUESTS_FILE = "requests.csv"
SUMMARY_FILE = "summary.json"

T = TypeVar("T")


def _read(directory: Path, name: str) -> str | None:
    path = directory / name
    return path.read_text(encoding="utf-8") if path.exists() else None


def _checked(name: str, parse: Callable[[str], T], text: str | None) -> T | None:
    """Parse ``text`` if the file exists, naming the file in any ParseError."""
    if text is None:
        return None
    try:
        return parse(text)
    except ParseError as exc:
        raise exc.with_file(name) from None


def parse_middleware_dir(path: str | Path) -> MiddlewareStats:
    """Read and cross-check a --stats-dir; windows.jsonl is required, the rest
    may be absent (a middleware that was killed writes no summary/histograms)."""
    directory = Path(path)
    windows = _checked(WINDOWS_FILE, parse_middleware_windows, _read(directory, WINDOWS_FILE))
    if windows is None:
        raise ParseError("missing windows.jsonl", file=str(directory / WINDOWS_FILE))
    summary = _checked(SUMMARY_FILE, parse_middleware_summary, _read(directory, SUMMARY_FILE))
    if summary is not None:
        if summary.windows != len(windows):
            raise ParseError(
                f"summary says {summary.windows} windows, windows.jsonl has {len(windows)}",
                file=SUMMARY_FILE,
                line=1,
            )
        if windows and len(windows[0].requests_per_server) != len(summary.config.servers):
            raise ParseError(
                "requests_per_server length differs from config.servers", file=WINDOWS_FILE, line=1
            )
    window_hists = _checked(
        WINDOW_HISTOGRAMS_FILE,
        parse_middleware_window_histograms,
        _read(directory, WINDOW_HISTOGRAMS_FILE),
    )
    if window_hists is not None:
        _check_window_histograms(window_hists, windows, complete=summary is not None)
    requests = _checked(REQUESTS_FILE, parse_middleware_requests, _read(directory, REQUESTS_FILE))
    return MiddlewareStats(
        windows=windows,
        histograms=_checked(
            HISTOGRAMS_FILE, parse_middleware_histograms, _read(directory, HISTOGRAMS_FILE)
        ),
        requests=requests or (),
        summary=summary,
        window_histograms=window_hists,
    )


def _check_window_histograms(
    hists: MiddlewareWindowHistograms, windows: tuple[Window, ...], *, complete: bool
) -> None:
    """Each window's histograms hold exactly its completed requests, in each kind.

    The middleware writes a window's line to both files one after the other, so a killed
    middleware may leave one histogram line fewer; after a clean shutdown they match.
    """
    n = len(hists.windows)
    if n > len(windows) or (complete and n != len(windows)) or n < len(windows) - 1:
        raise ParseError(
            f"{n} windows of histograms for {len(windows)} windows",
            file=WINDOW_HISTOGRAMS_FILE,
        )
    for w, h in zip(windows, hists.windows, strict=False):
        for kind, by_hist in h.types.items():
            completed = w.types[kind].completed
            for name, counts in by_hist.items():
                if counts.total != completed:
                    raise ParseError(
                        f"window {w.window} {kind} {name}: {counts.total} values for "
                        f"{completed} completed requests",
                        file=WINDOW_HISTOGRAMS_FILE,
                        line=w.window + 2,
                    )
