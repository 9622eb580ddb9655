"""The stored form of a run's quality (runs.quality, run_attempts.outcome): JSON both ways."""

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from backend.domain.quality import Flag, FlagCode, RunQuality


def flag_json(flag: Flag) -> dict[str, Any]:
    return {**asdict(flag), "code": flag.code.value}


def flag_of(data: Mapping[str, Any]) -> Flag:
    return Flag(
        FlagCode(data["code"]),
        str(data["rule"]),
        str(data["reason"]),
        {str(k): float(v) for k, v in dict(data.get("numbers") or {}).items()},
        data.get("run_id"),
    )


def quality_json(
    quality: RunQuality, *, expects_no_misses: bool, tool_errors: Mapping[str, int] | None
) -> dict[str, Any]:
    """runs.quality: the flags, what was not measured, and the whole-run inputs a re-cut
    window reuses (whether misses are expected, the tools' error counts)."""
    return {
        "flags": [flag_json(f) for f in quality.flags],
        "not_measured": {str(k): v for k, v in quality.not_measured.items()},
        "expects_no_misses": expects_no_misses,
        "tool_errors": dict(tool_errors or {}),
    }


def quality_of(data: Mapping[str, Any]) -> RunQuality:
    return RunQuality(
        [flag_of(f) for f in data.get("flags", [])], dict(data.get("not_measured", {}))
    )
