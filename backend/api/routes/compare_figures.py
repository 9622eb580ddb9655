"""The compare page's figures (grouped curves, parallel coordinates) for a selection in the
body: brushing travels as intervals per axis, which no query string need carry."""

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Response, status

from backend.api.deps import SessionDep
from backend.api.downloads import attachment
from backend.figures.compare_page import COMPARE_FIGURES, UnknownCompareFigure, compare_figure
from backend.figures.export import FigureFormat, render_figure
from backend.figures.render import MEDIA_TYPES, RenderError
from backend.schemas.compare import CompareFigureRequest
from backend.schemas.problems import analysis_errors

router = APIRouter(prefix="/compare", tags=["compare"])


@router.post(
    "/figures/{figure}.{fmt}",
    response_class=Response,
    responses={200: {"content": {t: {} for t in MEDIA_TYPES.values()}}},
)
def create_compare_figure(
    session: SessionDep,
    figure: Annotated[str, Path(description=" or ".join(COMPARE_FIGURES))],
    fmt: Annotated[FigureFormat, Path(description="json (Plotly), pdf, svg or png")],
    body: CompareFigureRequest,
) -> Response:
    """A compare figure for the body's selection and brush: Plotly JSON or a file."""
    try:
        with analysis_errors("body"):
            out = render_figure(compare_figure(session, figure, body, fmt), fmt, body)
    except UnknownCompareFigure as err:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Figure not found") from err
    except RenderError as err:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(err)) from err
    if fmt == "json":
        return Response(out.content, media_type=MEDIA_TYPES[fmt])
    return attachment(out.content, MEDIA_TYPES[fmt], "compare", f"{figure}.{fmt}")
