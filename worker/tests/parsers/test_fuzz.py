"""Damaged inputs: every parser either succeeds or raises ParseError with a line, nothing else."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from worker.parsers import (
    MemaslapProgressParser,
    MemtierProgressParser,
    ParseError,
    client_result_from_memaslap,
    client_result_from_memtier,
    parse_hdr_txt,
    parse_hgrm,
    parse_memaslap,
    parse_memtier_json,
    parse_memtier_stdout,
    parse_middleware_histograms,
    parse_middleware_requests,
    parse_middleware_summary,
    parse_middleware_windows,
)
from worker.tests.parsers.conftest import FIXTURES

SAMPLE = Path(__file__).resolve().parent / "data" / "middleware_ok"


def _memtier_full(text: str) -> Any:
    return client_result_from_memtier(parse_memtier_json(text))


def _memaslap_full(text: str) -> Any:
    return client_result_from_memaslap(parse_memaslap(text))


TARGETS: list[tuple[str, Path, Callable[[str], Any]]] = [
    ("memtier json", FIXTURES / "memtier_ratio1-3_mkg3_c2_t1_d128_5s.json", _memtier_full),
    (
        "memtier stdout",
        FIXTURES / "memtier_ratio1-1_c2_t1_d128_5s.stdout.txt",
        parse_memtier_stdout,
    ),
    (
        "hdr txt",
        FIXTURES / "memtier_ratio1-1_c2_t1_d128_5s_hdr_GET_command_run_1.txt",
        parse_hdr_txt,
    ),
    ("hgrm", FIXTURES / "memtier_ratio1-1_c2_t1_d128_5s_hdr_GET_command_run_1.hgrm", parse_hgrm),
    ("memaslap", FIXTURES / "memcaslap_d4_t5s_S1s_T2_c8.txt", _memaslap_full),
    ("windows", SAMPLE / "windows.jsonl", parse_middleware_windows),
    ("histograms", SAMPLE / "histograms.json", parse_middleware_histograms),
    ("requests", SAMPLE / "requests.csv", parse_middleware_requests),
    ("summary", SAMPLE / "summary.json", parse_middleware_summary),
]

_GARBAGE = st.sampled_from(
    ["", "x", "-1", "\n", "\r", "}", "{", ",", '"', "0.0", "---", "\x1b[2J", "é"]
)


@st.composite
def damaged(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few slices replaced by garbage."""
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 40)))
        text = text[:start] + draw(_GARBAGE) + text[end:]
    return text


@pytest.mark.parametrize(("name", "path", "parse"), TARGETS, ids=[t[0] for t in TARGETS])
def test_damaged_input_raises_only_parse_error(
    name: str, path: Path, parse: Callable[[str], Any]
) -> None:
    assert path.exists(), f"fixture {path} is missing (real tool outputs live in the repository)"
    original = path.read_text()
    parse(original)  # the undamaged input parses

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(damaged(original))
    def run(text: str) -> None:
        try:
            parse(text)
        except ParseError as exc:
            assert exc.line is None or exc.line >= 1
            assert exc.message

    run()


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=400))
def test_progress_parsers_never_raise_on_bytes(data: bytes) -> None:
    for parser in (MemtierProgressParser(), MemaslapProgressParser()):
        parser.feed(data)
        parser.finish()
        assert all(e.line is not None and e.line >= 1 for e in parser.errors)


def _json_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else []
    )
    for key, child in items:
        found += _json_paths(child, (*path, key))
    return found


JSON_TARGETS = [t for t in TARGETS if t[1].suffix == ".json"]
_ODD_VALUES: st.SearchStrategy[Any] = st.sampled_from(
    [None, "x", -1, [], {}, 1.5, True, 0, 10**30, "false"]
)


@pytest.mark.parametrize(("name", "path", "parse"), JSON_TARGETS, ids=[t[0] for t in JSON_TARGETS])
def test_wrong_json_types_raise_only_parse_error(
    name: str, path: Path, parse: Callable[[str], Any]
) -> None:
    assert path.exists(), f"fixture {path} is missing (real tool outputs live in the repository)"
    original = json.loads(path.read_text())
    paths = _json_paths(original)[1:]

    @settings(max_examples=80, deadline=None)
    @given(st.sampled_from(paths), _ODD_VALUES, st.booleans())
    def run(where: tuple[Any, ...], value: Any, delete: bool) -> None:
        doc = json.loads(json.dumps(original))
        parent = doc
        for key in where[:-1]:
            parent = parent[key]
        if delete and isinstance(parent, dict):
            del parent[where[-1]]
        else:
            parent[where[-1]] = value
        try:
            parse(json.dumps(doc, indent=1))
        except ParseError as exc:
            assert exc.line is not None and exc.line >= 1

    run()
