"""Reports of an experiment: the bundle (figures, tables, raw data, main.tex), the user's
report (hypothesis, notes, chosen items) and its compiled PDF."""

import logging
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Response, status

from backend.api.deps import SessionDep
from backend.api.downloads import attachment
from backend.crud.report import (
    first_run_started,
    get_report,
    update_report,
    written_before_runs,
)
from backend.figures.params import ResultsQuery
from backend.figures.render import RenderError
from backend.models import Experiment
from backend.report.builder import (
    NoTexEngine,
    TexFailed,
    compile_bundle,
    default_items,
    report_plan,
)
from backend.report.bundle import build_bundle
from backend.report.selection import checked_items
from backend.schemas.problems import analysis_errors
from backend.schemas.report import ReportItem, ReportPublic, ReportUpdate

router = APIRouter(prefix="/experiments", tags=["reports"])
logger = logging.getLogger(__name__)

TEX_FAILED = (
    "The report did not compile (logged on the server); its sources are in report/bundle.zip"
)


@router.get(
    "/{experiment_id}/bundle.zip",
    response_class=Response,
    responses={200: {"content": {"application/zip": {}}}},
)
def read_bundle(
    session: SessionDep, experiment_id: int, q: Annotated[ResultsQuery, Query()]
) -> Response:
    """Every figure as PDF, every table as .tex and .csv, raw data and a compiling main.tex."""
    exp = _load(session, experiment_id)
    return _zip(exp, _bundle(session, exp, q, mine=False))


def _load(session: SessionDep, experiment_id: int) -> Experiment:
    exp = session.get(Experiment, experiment_id)
    if exp is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Experiment not found")
    return exp


def _bundle(session: SessionDep, exp: Experiment, q: ResultsQuery, *, mine: bool) -> bytes:
    """The default bundle, or (mine) the one of the user's saved report."""
    plan = None
    if mine:
        report = get_report(session=session, experiment=exp)
        before = written_before_runs(report, first_run_started(session=session, experiment=exp))
        plan = report_plan(exp, report, before)
    try:
        with analysis_errors("query"):
            return build_bundle(session, exp, q, plan)
    except RenderError as err:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(err)) from err


def _zip(exp: Experiment, content: bytes) -> Response:
    return attachment(content, "application/zip", exp.name, "report.zip")


def _public(session: SessionDep, exp: Experiment) -> ReportPublic:
    report = get_report(session=session, experiment=exp)
    before = written_before_runs(report, first_run_started(session=session, experiment=exp))
    return ReportPublic(
        experiment_id=exp.id,
        hypothesis=report.hypothesis if report else "",
        hypothesis_at=report.hypothesis_at if report else None,
        hypothesis_before_runs=before,
        notes=report.notes if report else "",
        items=[ReportItem.model_validate(i) for i in report.items]
        if report
        else default_items(exp),
    )


@router.get("/{experiment_id}/report", response_model=ReportPublic)
def read_report(session: SessionDep, experiment_id: int) -> ReportPublic:
    """The experiment's report (every figure and table until the user chooses)."""
    return _public(session, _load(session, experiment_id))


@router.put("/{experiment_id}/report", response_model=ReportPublic)
def update_experiment_report(
    session: SessionDep, experiment_id: int, body: ReportUpdate
) -> ReportPublic:
    """Write the hypothesis (timestamped when its text changes), notes and chosen items."""
    exp = _load(session, experiment_id)
    if body.items is not None:
        body = body.model_copy(update={"items": checked_items(body.items)})
    update_report(session=session, experiment=exp, update=body, default_items=default_items(exp))
    session.commit()
    return _public(session, exp)


@router.get(
    "/{experiment_id}/report/bundle.zip",
    response_class=Response,
    responses={200: {"content": {"application/zip": {}}}},
)
def read_report_bundle(
    session: SessionDep, experiment_id: int, q: Annotated[ResultsQuery, Query()]
) -> Response:
    """The bundle of the user's report: its items in order, hypothesis and notes in main.tex."""
    exp = _load(session, experiment_id)
    return _zip(exp, _bundle(session, exp, q, mine=True))


@router.get(
    "/{experiment_id}/report.pdf",
    response_class=Response,
    responses={200: {"content": {"application/pdf": {}}}},
)
def read_report_pdf(
    session: SessionDep, experiment_id: int, q: Annotated[ResultsQuery, Query()]
) -> Response:
    """The user's report compiled with pdflatex, or lualatex when its text goes beyond Latin
    (503 with a clear message without the engine; 422 naming the field and the characters
    when a text has one no font prints)."""
    exp = _load(session, experiment_id)
    try:
        pdf = compile_bundle(_bundle(session, exp, q, mine=True))
    except NoTexEngine as err:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(err)) from err
    except TexFailed as err:
        # Every text reaches main.tex through escape_latex, so this is a bug of ours: logged
        # with the engine's output, answered without it.
        logger.error(
            "report.tex_failed",
            extra={"experiment_id": exp.id, "engine": err.engine, "log": err.log},
        )
        raise HTTPException(status.HTTP_500_INTERNAL_SERVER_ERROR, TEX_FAILED) from err
    return attachment(pdf, "application/pdf", exp.name, "report.pdf")
