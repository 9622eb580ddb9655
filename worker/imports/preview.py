"""The mapping preview: a pure function of the staged files, the user's mapping and which
client outputs were imported before. The same function plans the confirmation, so what is
stored is what was previewed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from backend.domain.parameters import PARAMETERS, ParameterError, coerce
from backend.domain.window import DesignWindow, WindowError, design_window
from backend.schemas.imports import (
    ImportConfiguration,
    ImportFile,
    ImportMapping,
    ImportPreview,
    ImportRun,
    ImportUnused,
)
from worker.imports.recognise import Unused, recognise
from worker.imports.runs import ReadRun, RunFiles, full_parameters, group, read_run, sha256_of
from worker.imports.staging import Staged
from worker.parsers import ParseError


class MappingError(ValueError):
    """A mapping value the schema refuses; `field` names it (as a request body field)."""

    def __init__(self, field: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class PlannedRun:
    files: RunFiles
    read: ReadRun
    sha256: str
    parameters: dict[str, Any]
    configuration: int
    repetition: int


@dataclass(frozen=True)
class ImportPlan:
    preview: ImportPreview
    runs: tuple[PlannedRun, ...]  # the new ones, in configuration and repetition order
    window: DesignWindow | None


def typed_value(text: str) -> Any:
    """A pattern group's text as the value it spells: an integer, a yes/no, else the text."""
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    return text


def _sortable(value: Any) -> tuple[int, Any]:
    """Levels sort numbers (and yes/no) before words, each in its own order."""
    if isinstance(value, bool | int | float):
        return (0, float(value))
    return (1, str(value))


def _pattern(mapping: ImportMapping) -> re.Pattern[str] | None:
    if not mapping.pattern:
        return None
    try:
        compiled = re.compile(mapping.pattern)
    except re.error as exc:
        raise MappingError(("pattern",), f"not a regular expression: {exc}") from exc
    unknown = [g for g in compiled.groupindex if g not in PARAMETERS]
    if unknown:
        raise MappingError(
            ("pattern",),
            f"group {unknown[0]!r} is not a parameter (known: {', '.join(PARAMETERS)})",
        )
    if not compiled.groupindex:
        raise MappingError(("pattern",), "has no named group (?P<parameter>...)")
    return compiled


def _coerced(values: dict[str, Any], field: tuple[str | int, ...]) -> dict[str, Any]:
    out = {}
    for name, value in values.items():
        try:
            out[name] = coerce(name, value)
        except ParameterError as exc:
            raise MappingError((*field, name), str(exc)) from exc
    return out


def _window_words(read: ReadRun, window: DesignWindow | None, run_time_s: int) -> str:
    if window is None:
        return "not cut: the runs' lengths differ (see problems)"
    if not read.has_series:
        return "not cut: the output has no per-second series; whole-run figures are stored"
    if read.duration_s + 1 < window.end_s:
        return (
            f"the output covers {read.duration_s:g} s of the {run_time_s} s asked: the window "
            f"{window.start_s} s..{window.end_s} s is cut from what there is"
        )
    return f"cut {window.start_s} s..{window.end_s} s after the load started"


def plan_import(
    staged: Staged,
    mapping: ImportMapping,
    imported_before: Callable[[Iterable[str]], dict[str, int]],
) -> ImportPlan:
    """The preview of importing `staged` with `mapping`, and the runs a confirmation stores.
    MappingError for a mapping the parameter schema refuses."""
    pattern = _pattern(mapping)
    common = _coerced(mapping.values, ("values",))
    found = recognise(staged.root)
    grouped, unused = group(found)
    problems: list[str] = []
    known_keys = {g.client.path for g in grouped}
    for key in mapping.runs:
        if key not in known_keys:
            raise MappingError(("runs", key), "no run has this client output")

    reads: list[tuple[RunFiles, ReadRun, dict[str, Any], dict[str, Any], str]] = []
    for files in grouped:
        try:
            read = read_run(staged.root, files)
        except (ParseError, ValueError, OSError) as exc:
            unused.append(Unused(files.client.path, f"cannot be read as a run: {exc}"))
            continue
        supplied: dict[str, Any] = dict(common)
        if pattern is not None:
            match = pattern.search(files.client.path)
            if match is None:
                problems.append(f"{files.client.path}: the pattern does not match its path")
            else:
                groups = {k: typed_value(v) for k, v in match.groupdict().items() if v is not None}
                supplied.update(_coerced(groups, ("pattern",)))
        supplied.update(
            _coerced(mapping.runs.get(files.client.path, {}), ("runs", files.client.path))
        )
        try:
            parameters = full_parameters({**_coerced(read.read, ("files",)), **supplied})
        except MappingError as exc:
            unused.append(
                Unused(
                    files.client.path,
                    f"a value read from the files is outside the parameter schema: {exc.message}",
                )
            )
            continue
        reads.append(
            (files, read, supplied, parameters, sha256_of(staged.root / files.client.path))
        )

    lengths = sorted({r.run_time_s for _, r, _, _, _ in reads})
    window: DesignWindow | None = None
    run_time_s = lengths[0] if len(lengths) == 1 else None
    if len(lengths) > 1:
        problems.append(
            f"the runs have different lengths ({', '.join(f'{s} s' for s in lengths)}): one "
            "experiment has one stable window; import them separately"
        )
    elif run_time_s is not None:
        try:
            window = design_window(run_time_s, mapping.warmup_s, mapping.cooldown_s)
        except WindowError as exc:
            raise MappingError(("warmup_s",), str(exc)) from exc

    before = imported_before([sha for *_, sha in reads])
    # Factors: the parameters that differ between runs; the rest is fixed. Configurations are
    # numbered in the order of their values, repetitions in the order the runs started.
    names = list(PARAMETERS)
    varying = [n for n in names if len({repr(r[3][n]) for r in reads}) > 1]
    combos = sorted(
        {tuple(r[3][n] for n in varying) for r in reads}, key=lambda c: [_sortable(v) for v in c]
    )
    configs = {combo: i for i, combo in enumerate(combos, start=1)}
    reps: dict[int, int] = {}
    preview_runs: list[ImportRun] = []
    planned: list[PlannedRun] = []
    for files, read, supplied, parameters, sha in sorted(reads, key=lambda r: r[1].start_unix):
        index = configs[tuple(parameters[n] for n in varying)]
        old = before.get(sha)
        repetition = None
        if old is None:
            reps[index] = reps.get(index, 0) + 1
            repetition = reps[index]
            planned.append(PlannedRun(files, read, sha, parameters, index, repetition))
        preview_runs.append(
            ImportRun(
                key=files.client.path,
                tool=files.tool,
                files=[ImportFile(path=p, kind=k, role=r) for p, k, r in files.roles()],
                started_at=datetime.fromtimestamp(read.start_unix, UTC),
                started_from=read.started_from,
                start_unix=read.start_unix,
                duration_s=read.duration_s,
                read=read.read,
                supplied=supplied,
                parameters=parameters,
                defaulted=[n for n in PARAMETERS if n not in read.read and n not in supplied],
                configuration=index,
                repetition=repetition,
                stable_window=_window_words(read, window, read.run_time_s),
                already_imported=old,
            )
        )
    planned.sort(key=lambda r: (r.configuration, r.repetition))
    configurations = [
        ImportConfiguration(
            index=i, values=dict(zip(varying, combo, strict=True)), runs=reps.get(i, 0)
        )
        for combo, i in configs.items()
    ]
    factors = {n: sorted({c[k] for c in combos}, key=_sortable) for k, n in enumerate(varying)}
    fixed = {n: reads[0][3][n] for n in names if n not in varying} if reads else {}
    if not reads:
        problems.append("no run found: no memtier JSON or memaslap output that parses")
    name = mapping.name or f"imported from {staged.source}"
    preview = ImportPreview(
        id=staged.id,
        source=staged.source,
        expires_at=staged.expires_at,
        name=name,
        runs=preview_runs,
        configurations=configurations,
        factors=factors,
        fixed=fixed,
        run_time_s=run_time_s,
        warmup_s=mapping.warmup_s,
        cooldown_s=mapping.cooldown_s,
        unused=[ImportUnused(path=u.path, reason=u.reason) for u in unused],
        problems=problems,
        new_runs=len(planned),
        can_confirm=not problems and bool(planned),
    )
    return ImportPlan(preview, tuple(planned), window)
