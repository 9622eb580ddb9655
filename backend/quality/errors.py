"""Errors a tool reported in its own output (the middleware's error counts and full-queue
events in summary.json), over the whole run."""

from collections.abc import Mapping

from backend.domain.quality import Flag, FlagCode


def errors_flag(tool_errors: Mapping[str, int]) -> Flag | None:
    """Any error counted by any tool."""
    bad = {source: n for source, n in sorted(tool_errors.items()) if n > 0}
    if not bad:
        return None
    listed = ", ".join(f"{source}: {n:,}" for source, n in bad.items())
    return Flag(
        FlagCode.TOOL_ERRORS,
        "any error in a tool's output",
        f"errors in the tools' output ({listed})",
        {source: float(n) for source, n in bad.items()},
    )
