"""Pure parsers for load-generator and middleware outputs, and the normalized result model.

Each tool's code is in its own modules (memtier: memtier.py with memtier_json.py,
memtier_stdout.py and hdr.py; memaslap: memaslap.py); the shared ones hold no tool's rules."""

from worker.parsers.errors import ParseError
from worker.parsers.hdr import decode_compressed_histogram, parse_hdr_txt, parse_hgrm
from worker.parsers.memaslap import (
    MemaslapProgressParser,
    client_result_from_memaslap,
    parse_memaslap,
)
from worker.parsers.memtier import (
    MemtierProgressParser,
    client_result_from_memtier,
    read_memtier_result,
)
from worker.parsers.memtier_json import parse_memtier_json
from worker.parsers.memtier_stdout import parse_memtier_stdout
from worker.parsers.middleware import (
    parse_middleware_histograms,
    parse_middleware_requests,
    parse_middleware_summary,
    parse_middleware_window_histograms,
    parse_middleware_windows,
)
from worker.parsers.middleware_dir import parse_middleware_dir
from worker.parsers.model import ClientResult, MiddlewareStats, SecondSample, Summary, TypeResult
from worker.parsers.progress import ProgressParser, ProgressTick, Status

__all__ = [
    "ClientResult",
    "MemaslapProgressParser",
    "MemtierProgressParser",
    "MiddlewareStats",
    "ParseError",
    "ProgressParser",
    "ProgressTick",
    "SecondSample",
    "Status",
    "Summary",
    "TypeResult",
    "client_result_from_memaslap",
    "client_result_from_memtier",
    "decode_compressed_histogram",
    "parse_hdr_txt",
    "parse_hgrm",
    "parse_memaslap",
    "parse_memtier_json",
    "parse_memtier_stdout",
    "parse_middleware_dir",
    "parse_middleware_histograms",
    "parse_middleware_window_histograms",
    "parse_middleware_requests",
    "parse_middleware_summary",
    "parse_middleware_windows",
    "read_memtier_result",
]
