"""Every table of an experiment as CSV or LaTeX (booktabs, caption, label)."""

from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Path, Query, Response, status
from pydantic import BaseModel

from backend.api.deps import SessionDep
from backend.api.downloads import attachment
from backend.models import Experiment
from backend.schemas.problems import analysis_errors
from backend.tables.catalog import TABLES, TableQuery
from backend.tables.table import to_csv, to_latex

router = APIRouter(prefix="/experiments", tags=["tables"])

TableFormat = Literal["csv", "tex"]
_MEDIA = {"csv": "text/csv; charset=utf-8", "tex": "application/x-tex; charset=utf-8"}


class TableInfo(BaseModel):
    name: str
    title: str
    formats: list[str]


class TablesPublic(BaseModel):
    data: list[TableInfo]
    count: int


@router.get("/{experiment_id}/tables", response_model=TablesPublic)
def read_tables(session: SessionDep, experiment_id: int) -> TablesPublic:
    """The tables an experiment can be exported as, in report order (as the bundle has them)."""
    if session.get(Experiment, experiment_id) is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Experiment not found")
    data = [TableInfo(name=t.name, title=t.title, formats=list(_MEDIA)) for t in TABLES.values()]
    return TablesPublic(data=data, count=len(data))


@router.get(
    "/{experiment_id}/tables/{table}.{fmt}",
    response_class=Response,
    responses={200: {"content": {m: {} for m in _MEDIA.values()}}},
)
def read_table(
    session: SessionDep,
    experiment_id: int,
    table: Annotated[str, Path(description="configuration, summary, factorial or differences")],
    fmt: Annotated[TableFormat, Path(description="csv, or tex (a booktabs LaTeX table)")],
    q: Annotated[TableQuery, Query()],
) -> Response:
    """One table (configuration, summary, factorial, differences) with the page's selection."""
    exp = session.get(Experiment, experiment_id)
    if exp is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Experiment not found")
    spec = TABLES.get(table)
    if spec is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Table not found")
    with analysis_errors("query"):
        t = spec.make(session, exp, q)
    text = to_csv(t) if fmt == "csv" else to_latex(t)
    return attachment(text.encode(), _MEDIA[fmt], exp.name, f"{table}.{fmt}")
