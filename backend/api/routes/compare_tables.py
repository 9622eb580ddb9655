"""The compare page's difference table as CSV or booktabs LaTeX, for the selection (and
brush) in the body: the same rows as POST /compare/differences."""

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Response

from backend.api.deps import SessionDep
from backend.api.downloads import attachment
from backend.compare.service import compare_differences
from backend.crud import compare as crud
from backend.schemas.compare import DifferencesRequest
from backend.tables.compare import TableWidth, differences_latex_table, differences_table
from backend.tables.table import to_csv, to_latex

router = APIRouter(prefix="/compare", tags=["compare"])

_MEDIA = {"csv": "text/csv; charset=utf-8", "tex": "application/x-tex; charset=utf-8"}


@router.post(
    "/tables/differences.{fmt}",
    response_class=Response,
    responses={200: {"content": {m: {} for m in _MEDIA.values()}}},
)
def create_compare_differences_table(
    session: SessionDep,
    fmt: Annotated[Literal["csv", "tex"], Path(description="csv, or tex (a booktabs table)")],
    body: DifferencesRequest,
    width: Annotated[
        TableWidth,
        Query(
            description="tex: column fits one column of a two-column paper (3.5 in: base "
            "mean, difference ± interval); page is the full table as a table* over both"
        ),
    ] = "column",
) -> Response:
    """The differences against the base as a table file (caption, label, units in headers)."""
    data = compare_differences(session=session, body=body)
    names = crud.read_experiment_names(session=session, ids=body.experiment_ids)
    # The CSV has every number; the LaTeX table what fits the printed width.
    if fmt == "csv":
        text = to_csv(differences_table(data, names))
    else:
        text = to_latex(differences_latex_table(data, names, width))
    return attachment(text.encode(), _MEDIA[fmt], "compare", f"differences.{fmt}")
