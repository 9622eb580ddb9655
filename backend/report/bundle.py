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
from typing import Any, Literal

from pydantic import ValidationError
from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError
from backend.compare.service import compare_differences
from backend.crud.compare import read_experiment_names
from backend.domain.errors import DomainError, InvalidInput
from backend.domain.printing import needs_lualatex, refusal, unprintable
from backend.figures.catalog import figures_in_order
from backend.figures.compare_page import compare_figure
from backend.figures.export import ExportedFigure, export_figure, render_figure, slug
from backend.figures.params import FigureQuery, ResultsQuery
from backend.models import Experiment
from backend.report.latex import FigureItem, Paragraph, Section, TableItem, main_tex
from backend.report.raw import runs_table
from backend.report.repetitions import rule_section
from backend.report.support import DesignFacts, supported
from backend.schemas.compare import CompareFigureRequest, DifferencesRequest
from backend.tables.catalog import TABLES, ExperimentInfo, TableQuery
from backend.tables.compare import differences_latex_table, differences_table
from backend.tables.table import Table, latex_label, to_csv, to_latex


@dataclass(frozen=True)
class PlanItem:
    """A figure or table in the report, with an optional caption and explanation, and the
    view it was added from (its page and selection; None: the bundle's selection)."""

    kind: Literal["figure", "table"]
    name: str
    caption: str | None = None
    explanation: str = ""
    origin: Literal["experiment", "compare"] = "experiment"
    selection: dict[str, Any] | None = None


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
    """Every table and figure the design supports, grouped as a lab report is."""
    design = DesignFacts.of(exp)
    plan = _every_item(exp)
    plan.sections = [
        (title, [i for i in items if supported(i.kind, i.name, design)])
        for title, items in plan.sections
    ]
    return plan


def _every_item(exp: Experiment) -> ReportPlan:
    """Every table and figure of the product, in the bundle's order."""
    figures = [f.name for f in figures_in_order()]
    results = [PlanItem("figure", n) for n in figures if n in _RESULTS]
    results.insert(2, PlanItem("table", "summary"))
    analysis = [PlanItem("figure", n) for n in figures if n not in _RESULTS]
    analysis[2:2] = [PlanItem("table", "differences"), PlanItem("table", "factorial")]
    models = next((i for i, p in enumerate(analysis) if p.name == "model-throughput"), None)
    if models is not None:  # the model's numbers beside its figures, then the bottlenecks
        analysis.insert(models, PlanItem("table", "bottlenecks"))
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


def check_printable(exp: Experiment, plan: ReportPlan) -> None:
    """Refuse, naming the field and the characters, a report whose texts cannot be printed
    (an experiment named, or a report saved, before its characters were checked)."""
    texts: list[tuple[tuple[str | int, ...], str]] = [
        (("name",), exp.name),
        (("hypothesis",), plan.hypothesis),
        (("notes",), plan.notes),
    ]
    items = [i for _, section in plan.sections for i in section]
    for n, item in enumerate(items):
        texts += [
            (("items", n, "caption"), item.caption or ""),
            (("items", n, "explanation"), item.explanation),
        ]
    for where, text in texts:
        chars = unprintable(text)
        if chars:
            # The field to change: the experiment's name, or the saved report's.
            raise InvalidInput.at(where, refusal(chars))


def _reason(err: Exception) -> str:
    if isinstance(err, InvalidInput | ValidationError):
        return "; ".join(str(e.get("msg", "")) for e in err.errors())
    if isinstance(err, DomainError):
        return err.detail
    return str(err)


def build_bundle(
    session: Session, exp: Experiment, sel: ResultsQuery, plan: ReportPlan | None = None
) -> bytes:
    """The zip's bytes (figures rendered by the warm renderer, so a few seconds in all)."""
    plan = plan or default_plan(exp)
    check_printable(exp, plan)
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
            except (DomainError, ValidationError) as err:
                left_out.append(f"{item.kind} {item.name}: {_reason(err)}")
        sections.append(section)
    repetitions = rule_section(session, exp)
    if repetitions is not None:  # how each n came about, before anything is read into it
        sections.insert(1 if plan.hypothesis else 0, repetitions)
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
    day = datetime.now(UTC).date()
    main = main_tex(plan.title, sections, day)
    tables = (c.decode() for p, c in files.items() if p.endswith(".tex"))
    if needs_lualatex(main) or any(needs_lualatex(t) for t in tables):
        main = main_tex(plan.title, sections, day, "lualatex")
    files["main.tex"] = main.encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, content in files.items():
            zf.writestr(path, content)
    return out.getvalue()


def _stem(files: dict[str, bytes], folder: str, name: str) -> str:
    """`folder/name`, or `folder/name-2` ... when the report holds that item twice (two
    views of one figure)."""
    stem, n = f"{folder}/{name}", 1
    while any(p.startswith(stem + ".") for p in files):
        n += 1
        stem = f"{folder}/{name}-{n}"
    return stem


def _table(session: Session, exp: Experiment, sel: ResultsQuery, item: PlanItem) -> Table:
    """The item's table for its own selection (the bundle's when it has none)."""
    if item.origin == "compare":
        body = DifferencesRequest.model_validate(item.selection or {})
        data = compare_differences(session=session, body=body)
        names = read_experiment_names(session=session, ids=body.experiment_ids)
        table = differences_latex_table(data, names, "column")
    else:
        spec = TABLES.get(item.name)
        if spec is None:
            raise AnalysisError("table", f"unknown table {item.name!r}")
        q = TableQuery.model_validate(
            item.selection if item.selection is not None else sel.model_dump()
        )
        table = spec.make(session, exp, q)
    return replace(table, caption=item.caption) if item.caption else table  # keeps its layout


def _figure(session: Session, exp: Experiment, sel: ResultsQuery, item: PlanItem) -> ExportedFigure:
    """The item's figure as PDF (column width) for its own selection (else the bundle's)."""
    if item.origin == "compare":
        body = CompareFigureRequest.model_validate(item.selection or {})
        return render_figure(compare_figure(session, item.name, body, "pdf"), "pdf", body)
    q = FigureQuery.model_validate(
        item.selection if item.selection is not None else sel.model_dump()
    )
    try:
        return export_figure(session, exp.id, item.name, "pdf", q)
    except KeyError as err:
        raise AnalysisError("figure", f"unknown figure {item.name!r}") from err


def _add(
    session: Session,
    exp: Experiment,
    info: ExperimentInfo,
    sel: ResultsQuery,
    item: PlanItem,
    files: dict[str, bytes],
) -> FigureItem | TableItem:
    """Render one item into `files` and return how main.tex refers to it."""
    if item.kind == "table":
        table = _table(session, exp, sel, item)
        stem = _stem(files, "tables", item.name)
        files[f"{stem}.tex"] = to_latex(table).encode()
        csv = table
        if item.origin == "compare":  # the CSV has every number, the .tex what fits
            body = DifferencesRequest.model_validate(item.selection or {})
            names = read_experiment_names(session=session, ids=body.experiment_ids)
            csv = differences_table(compare_differences(session=session, body=body), names)
        files[f"{stem}.csv"] = to_csv(csv).encode()
        return TableItem(f"{stem}.tex", item.explanation)
    out = _figure(session, exp, sel, item)
    stem = _stem(files, "figures", item.name)
    files[f"{stem}.pdf"] = out.content
    return FigureItem(
        f"{stem}.pdf",
        item.caption or out.caption,
        latex_label("fig", slug(info.name), stem.removeprefix("figures/")),
        item.explanation,
    )
