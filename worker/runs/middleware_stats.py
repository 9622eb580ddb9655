"""Adapter: read a middleware --stats-dir, tolerating extra top-level keys in summary.json.

The strict parser rejects any key outside the stats contract; the middleware currently adds
"samples_dropped". Until both sides agree, extra keys are dropped from a scratch copy (the
archived raw file is left untouched) and the rest of the strict checks still apply.
"""

import json
import logging
import shutil
import tempfile
from pathlib import Path

from worker.parsers import MiddlewareStats, parse_middleware_dir

logger = logging.getLogger(__name__)

CONTRACT_SUMMARY_KEYS = frozenset(
    {
        "format_version",
        "started_unix",
        "stopped_unix",
        "config",
        "windows",
        "clean_shutdown",
        "totals",
        "queue_full_events",
    }
)


def load_middleware_stats(directory: Path) -> MiddlewareStats:
    summary_path = directory / "summary.json"
    extra: set[str] = set()
    if summary_path.exists():
        try:
            doc = json.loads(summary_path.read_text(encoding="utf-8"))
            extra = set(doc) - CONTRACT_SUMMARY_KEYS if isinstance(doc, dict) else set()
        except json.JSONDecodeError:
            pass  # the strict parser reports it with a line number
    if not extra:
        return parse_middleware_dir(directory)
    logger.warning("middleware.extra_summary_keys", extra={"keys": sorted(extra)})
    with tempfile.TemporaryDirectory(prefix="mcscope-stats-") as tmp:
        scratch = Path(tmp) / "stats"
        shutil.copytree(directory, scratch)
        kept = {k: v for k, v in doc.items() if k in CONTRACT_SUMMARY_KEYS}
        (scratch / "summary.json").write_text(json.dumps(kept), encoding="utf-8")
        return parse_middleware_dir(scratch)
