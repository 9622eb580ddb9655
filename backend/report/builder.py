"""A user's report: their plan (hypothesis, notes, chosen items) and its compiled PDF."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import zipfile
from io import BytesIO
from pathlib import Path

from backend.models import Experiment, Report
from backend.report.bundle import PlanItem, ReportPlan, default_plan
from backend.report.latex import engine_of
from backend.schemas.report import ReportItem

TEX_TIMEOUT_S = 120


class NoTexEngine(RuntimeError):
    """The TeX engine the report needs (pdflatex or lualatex) is not installed."""


class TexFailed(RuntimeError):
    """The TeX engine ran and failed; `log` is the end of its output (for the server log only:
    it lists the server's paths)."""

    def __init__(self, engine: str, log: str) -> None:
        super().__init__(f"{engine} failed")
        self.engine = engine
        self.log = log


def default_items(exp: Experiment) -> list[ReportItem]:
    """A new report lists every figure and table the design supports, in the bundle's order."""
    return [
        ReportItem(kind=i.kind, name=i.name)
        for _, items in default_plan(exp).sections
        for i in items
    ]


def hypothesis_note(report: Report, before_runs: bool) -> str:
    if not report.hypothesis_at:
        return ""
    when = report.hypothesis_at.strftime("%Y-%m-%d %H:%M UTC")
    return f"written before the runs, {when}" if before_runs else f"written {when}"


def report_plan(exp: Experiment, report: Report | None, before_runs: bool) -> ReportPlan:
    """The bundle plan of a saved report (the default plan when none is saved)."""
    if report is None:
        return default_plan(exp)
    items = [PlanItem(**ReportItem.model_validate(i).model_dump()) for i in report.items]
    return ReportPlan(
        title=f"Experiment {exp.name}",
        hypothesis=report.hypothesis,
        hypothesis_note=hypothesis_note(report, before_runs),
        notes=report.notes,
        sections=[("Results", items)],
    )


def compile_bundle(bundle: bytes) -> bytes:
    """main.pdf of a bundle, compiled in a scratch directory by the engine its main.tex names
    (pdflatex, or lualatex for text beyond Latin: backend.report.latex)."""
    with zipfile.ZipFile(BytesIO(bundle)) as zf:
        name = engine_of(zf.read("main.tex").decode())
    engine = shutil.which(name)
    if engine is None:
        raise NoTexEngine(
            f"No TeX engine ({name}) is installed on the server; download the bundle "
            f"(report/bundle.zip) and compile main.tex with {name}"
        )
    with tempfile.TemporaryDirectory(prefix="mcscope-report-") as tmp:
        with zipfile.ZipFile(BytesIO(bundle)) as zf:
            zf.extractall(tmp)
        done = subprocess.run(
            [engine, "-interaction=nonstopmode", "-halt-on-error", "main.tex"],
            cwd=tmp,
            capture_output=True,
            # TeX writes its log in bytes and cuts lines at 79 of them, splitting a UTF-8
            # character (an overfull line's "ä"): a strict decode was a 500.
            encoding="utf-8",
            errors="replace",
            timeout=TEX_TIMEOUT_S,
        )
        pdf = Path(tmp) / "main.pdf"
        if done.returncode != 0 or not pdf.is_file():
            raise TexFailed(name, done.stdout[-4000:])
        return pdf.read_bytes()
