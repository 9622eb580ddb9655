"""Every figure of an experiment as Plotly JSON (for the UI) or PDF/SVG/PNG (for reports)."""

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Response, status
from pydantic import BaseModel

from backend.api.deps import SessionDep
from backend.api.downloads import attachment
from backend.figures.catalog import figures_in_order
from backend.figures.export import FigureFormat, UnknownFigure, export_figure
from backend.figures.params import FigureQuery
from backend.figures.render import MEDIA_TYPES, RenderError
from backend.models import Experiment
from backend.schemas.problems import analysis_errors

router = APIRouter(prefix="/experiments", tags=["figures"])


class FigureInfo(BaseModel):
    name: str
    title: str
    formats: list[str]


class FiguresPublic(BaseModel):
    data: list[FigureInfo]
    count: int


@router.get("/{experiment_id}/figures", response_model=FiguresPublic)
def read_figures(session: SessionDep, experiment_id: int) -> FiguresPublic:
    """The figures an experiment can be drawn as, in report order."""
    if session.get(Experiment, experiment_id) is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Experiment not found")
    data = [
        FigureInfo(name=f.name, title=f.title, formats=list(MEDIA_TYPES))
        for f in figures_in_order()
    ]
    return FiguresPublic(data=data, count=len(data))


@router.get(
    "/{experiment_id}/figures/{figure}.{fmt}",
    response_class=Response,
    responses={200: {"content": {t: {} for t in MEDIA_TYPES.values()}}},
)
def read_figure(
    session: SessionDep,
    experiment_id: int,
    figure: str,
    fmt: FigureFormat,
    q: Annotated[FigureQuery, Query()],
) -> Response:
    """One figure with the page's selection; width `column`, `page` or inches, style, dpi."""
    exp = session.get(Experiment, experiment_id)
    if exp is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Experiment not found")
    try:
        with analysis_errors("query"):
            out = export_figure(session, experiment_id, figure, fmt, q)
    except UnknownFigure as err:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Figure not found") from err
    except RenderError as err:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(err)) from err
    if fmt == "json":
        return Response(out.content, media_type=MEDIA_TYPES[fmt])
    return attachment(out.content, MEDIA_TYPES[fmt], exp.name, f"{figure}.{fmt}")
