"""Figures of the Models page's calculators (no experiment behind them): the network in the
body, as the solve endpoint takes it, plus the file's size and style. A router of its own
beside /analysis (as compare_figures beside compare): the figures' modules import the
analysis routes for their data."""

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Response, status

from backend.api.downloads import attachment
from backend.api.routes.analysis.models import solve_mva_route
from backend.figures.calculators import mva_calculator
from backend.figures.export import FigureFormat, render_figure
from backend.figures.render import MEDIA_TYPES, RenderError
from backend.schemas import analysis as s
from backend.schemas.problems import analysis_errors

router = APIRouter(prefix="/analysis", tags=["analysis"])


@router.post(
    "/figures/mva-calculator.{fmt}",
    response_class=Response,
    responses={200: {"content": {t: {} for t in MEDIA_TYPES.values()}}},
)
def create_mva_calculator_figure(
    fmt: Annotated[FigureFormat, Path(description="json (Plotly), pdf, svg or png")],
    body: s.MvaFigureRequest,
) -> Response:
    """X(N) and R(N) of the body's closed network (as /analysis/mva solves it), drawn."""
    result = solve_mva_route(body)  # its AnalysisErrors are 422s naming the field already
    try:
        with analysis_errors("body"):
            out = render_figure(mva_calculator(result), fmt, body)
    except RenderError as err:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(err)) from err
    if fmt == "json":
        return Response(out.content, media_type=MEDIA_TYPES[fmt])
    return attachment(out.content, MEDIA_TYPES[fmt], "mva", f"calculator.{fmt}")
