"""Import a folder of earlier runs on the server: `python -m worker.imports FOLDER [...]`.

Prints the mapping preview (runs, parameters read and supplied, configurations, files not
used with the reason); stores only with --confirm, in one transaction, as the upload page does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from backend.core.db import SessionLocal
from backend.schemas.imports import ImportMapping, ImportPreview
from worker.imports import store
from worker.imports.preview import MappingError, typed_value
from worker.imports.staging import StagingError, discard, stage_folder


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m worker.imports", description=__doc__)
    parser.add_argument("folder", type=Path, help="folder of tool outputs (read, never changed)")
    parser.add_argument("--name", help="experiment name (default: 'imported from FOLDER')")
    parser.add_argument(
        "--pattern",
        help="regular expression over each client file's path; named groups are parameters, "
        r"e.g. 'w(?P<workers>\d+)/'",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="PARAMETER=VALUE",
        help="a parameter value for every run (repeatable), e.g. --set servers=3",
    )
    parser.add_argument("--warmup-s", type=int, default=0, help="seconds cut at the start")
    parser.add_argument("--cooldown-s", type=int, default=0, help="seconds cut at the end")
    parser.add_argument(
        "--populated", action="store_true", help="the servers held every key (misses flagged)"
    )
    parser.add_argument("--confirm", action="store_true", help="store what the preview shows")
    return parser


def _values(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"error: --set {pair!r}: expected PARAMETER=VALUE")
        out[name.strip()] = typed_value(value.strip())
    return out


def _print(p: ImportPreview) -> None:
    print(f"{p.source}: {len(p.runs)} run(s), {p.new_runs} new; experiment {p.name!r}")
    window = f"{p.warmup_s} s cut at the start, {p.cooldown_s} s at the end"
    print(f"run time {p.run_time_s} s; {window}")
    print("factors: " + (", ".join(f"{k} {v}" for k, v in p.factors.items()) or "none"))
    for r in p.runs:
        where = f"configuration {r.configuration}, repetition {r.repetition}"
        if r.already_imported is not None:
            where = f"imported before (run {r.already_imported}): skipped"
        print(f"  {r.key} [{r.tool}, {r.started_at:%Y-%m-%d %H:%M:%S} UTC] {where}")
        print(f"    read: {r.read}")
        if r.supplied:
            print(f"    supplied: {r.supplied}")
        if r.defaulted:
            print(f"    defaults: {', '.join(r.defaulted)}")
        print(f"    stable window: {r.stable_window}")
        for f in r.files[1:]:
            print(f"    + {f.path} ({f.role})")
    for u in p.unused:
        print(f"  not used: {u.path}: {u.reason}")
    for problem in p.problems:
        print(f"problem: {problem}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        mapping = ImportMapping(
            name=args.name,
            pattern=args.pattern,
            values=_values(args.set),
            warmup_s=args.warmup_s,
            cooldown_s=args.cooldown_s,
            populated=args.populated,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        staged = stage_folder(args.folder)
    except StagingError as exc:
        print(f"error: refused: {exc}", file=sys.stderr)
        return 1
    try:
        with SessionLocal() as session:
            plan = store.preview(session, staged, mapping)
            _print(plan.preview)
            if not args.confirm:
                print("nothing stored (add --confirm to store this)", file=sys.stderr)
                return 0 if plan.preview.can_confirm else 1
            outcome = store.confirm(session, staged, mapping)
    except MappingError as exc:
        print(f"error: {'.'.join(map(str, exc.field))}: {exc.message}", file=sys.stderr)
        return 2
    except store.ImportRefused as exc:
        print(f"error: nothing stored: {exc}", file=sys.stderr)
        return 1
    finally:
        discard(staged.id)
    if outcome.experiment_id is None:
        print(f"nothing new: {outcome.skipped_runs} run(s) were imported before")
    else:
        print(
            f"experiment {outcome.experiment_id}: {outcome.stored_runs} run(s) stored, "
            f"{outcome.skipped_runs} skipped (imported before)"
        )
    return 0
