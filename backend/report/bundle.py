"""The report bundle of an experiment: a zip that compiles with pdflatex as it is.

figures/*.pdf (every figure, vector, at column width), tables/*.tex and *.csv, data/runs.csv
(the raw per-run, per-source numbers) and main.tex \\input-ing them in a plan's order. A
figure or table the data cannot support (e.g. a factorial of a grid that is not 2^k) is
left out and named, with the reason, in main.tex.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Literal

from fastapi import HTTPException
from fastapi.exceptions import RequestValidationError
from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError
from backend.figures.catalog import figures_in_order
from backend.figures.export import export_figure, slug
from backend.figures.params import FigureQuery, Selection
from backend.models import Experiment
from backend.report.latex import FigureItem, Paragraph, Section, TableItem, main_tex
from backend.report.raw import runs_table
from backend.tables.catalog import TABLES, ExperimentInfo, TableQuery
from backend.tables.table import latex_label, to_csv, to_latex


@dataclass(frozen=True)
class PlanItem:
    """A figure or table in the report, with an optional caption and explanation."""

    kind: Literal["figure", "table"]
    name: str
    caption: str | None = None
    explanation: str = ""


@dataclass
class ReportPlan:
    """What main.tex contains: optional hypothesis and notes, then items per section."""

    title: str
    hypothesis: str = ""
    hypothesis_note: str = ""
    notes: str = ""
    sections: list[tuple[str, list[PlanItem]]] = field(default_factory=list)


# The default order: the configuration, the results page's figures, then the analyses.
_RESULTS = ("throughput", "response-time", "percentiles", "histogram", "time-series")


def default_plan(exp: Experiment) -> ReportPlan:
    """Every table and figure of the product, grouped as a lab report is."""
    figures = [f.name for f in figures_in_order()]
    results = [PlanItem("figure", n) for n in figures if n in _RESULTS]
    results.insert(2, PlanItem("table", "summary"))
    analysis = [PlanItem("figure", n) for n in figures if n not in _RESULTS]
    analysis[2:2] = [PlanItem("table", "differences"), PlanItem("table", "factorial")]
    models = next((i for i, p in enumerate(analysis) if p.name == "model-throughput"), None)
    if models is not None:  # the model's numbers beside its figures
        analysis.insert(models, PlanItem("table", "model-comparison"))
    queues = next((i for i, p in enumerate(analysis) if p.name == "queue-models"), None)
    if queues is not None:
        analysis.insert(queues, PlanItem("table", "queue-models"))
    return ReportPlan(
        title=f"Experiment {exp.name}",
        sections=[
            ("Experiment", [PlanItem("table", "configuration")]),
            ("Results", results),
            ("Analysis", analysis),
        ],
    )


def _reason(err: Exception) -> str:
    if isinstance(err, RequestValidationError):
        return "; ".join(str(e.get("msg", "")) for e in err.errors())
    if isinstance(err, HTTPException):
        return str(err.detail)
    return str(err)


def build_bundle(
    session: Session, exp: Experiment, sel: Selection, plan: ReportPlan | None = None
) -> bytes:
    """The zip's bytes (figures rendered by the warm renderer, so a few seconds in all)."""
    plan = plan or default_plan(exp)
    info = ExperimentInfo.of(exp)
    files: dict[str, bytes] = {}
    left_out: list[str] = []
    sections: list[Section] = []
    if plan.hypothesis:
        text = plan.hypothesis + (f" ({plan.hypothesis_note})" if plan.hypothesis_note else "")
        sections.append(Section("Hypothesis", [Paragraph(text)]))
    for title, items in plan.sections:
        section = Section(title)
        for item in items:
            try:
                section.items.append(_add(session, exp, info, sel, item, files))
            except (AnalysisError, HTTPException, RequestValidationError) as err:
                left_out.append(f"{item.kind} {item.name}: {_reason(err)}")
        sections.append(section)
    if plan.notes:
        sections.append(Section("Notes", [Paragraph(plan.notes)]))
    if left_out:
        sections.append(
            Section(
                "Not included",
                [Paragraph("Left out for lack of data: " + "; ".join(left_out) + ".")],
            )
        )
    files["data/runs.csv"] = to_csv(runs_table(session, exp)).encode()
    # Dated the day of the export (UTC): the numbers are those of the data on that day.
    files["main.tex"] = main_tex(plan.title, sections, datetime.now(UTC).date()).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, content in files.items():
            zf.writestr(path, content)
    return out.getvalue()


def _add(
    session: Session,
    exp: Experiment,
    info: ExperimentInfo,
    sel: Selection,
    item: PlanItem,
    files: dict[str, bytes],
) -> FigureItem | TableItem:
    """Render one item into `files` and return how main.tex refers to it."""
    if item.kind == "table":
        spec = TABLES.get(item.name)
        if spec is None:
            raise AnalysisError("table", f"unknown table {item.name!r}")
        table = spec.make(session, exp, TableQuery(**sel.model_dump()))
        if item.caption:
            table = replace(table, caption=item.caption)  # keeps its layout
        files[f"tables/{item.name}.tex"] = to_latex(table).encode()
        files[f"tables/{item.name}.csv"] = to_csv(table).encode()
        return TableItem(f"tables/{item.name}.tex", item.explanation)
    q = FigureQuery(**sel.model_dump())
    try:
        out = export_figure(session, exp.id, item.name, "pdf", q)
    except KeyError as err:
        raise AnalysisError("figure", f"unknown figure {item.name!r}") from err
    path = f"figures/{item.name}.pdf"
    files[path] = out.content
    return FigureItem(
        path,
        item.caption or out.caption,
        latex_label("fig", slug(info.name), item.name),
        item.explanation,
    )
