"""A report item's view: the selection of the page it was added from (x, lines, source,
request type, window, configuration, run, model group, what-if, the compare page's
experiments and brush), checked against the figure's or table's own query schema and stored
without its defaults, so the bundle draws exactly the view the user built."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from backend.figures.catalog import FIGURES
from backend.figures.compare_page import COMPARE_FIGURES
from backend.figures.params import FigureQuery
from backend.schemas.compare import CompareFigureRequest, DifferencesRequest
from backend.schemas.figure import FigureOutput
from backend.schemas.problems import unprocessable
from backend.schemas.report import ReportItem
from backend.tables.catalog import TABLES, TableQuery

# Size and style are the bundle's (column width, report style), never the item's.
_OUTPUT = frozenset(FigureOutput.model_fields)
# The compare page's tables: its differences against the base (POST /compare/tables/...).
COMPARE_TABLES = ("differences",)


def query_schema(item: ReportItem) -> type[BaseModel]:
    """The schema a view of this item is a value of (the endpoint's own query or body)."""
    if item.origin == "compare":
        return CompareFigureRequest if item.kind == "figure" else DifferencesRequest
    return FigureQuery if item.kind == "figure" else TableQuery


def known_item(item: ReportItem) -> bool:
    """A figure or table the item's page has (the compare page: its figures and table)."""
    if item.origin == "compare":
        return item.name in (COMPARE_FIGURES if item.kind == "figure" else COMPARE_TABLES)
    return item.name in (FIGURES if item.kind == "figure" else TABLES)


def checked_selection(item: ReportItem) -> dict[str, Any] | None:
    """The item's selection as stored (validated, defaults and output options left out);
    raises pydantic's ValidationError naming the bad field."""
    if item.selection is None:
        return None
    fields = {k: v for k, v in item.selection.items() if k not in _OUTPUT}
    model = query_schema(item).model_validate(fields)
    return model.model_dump(mode="json", exclude_defaults=True, exclude=set(_OUTPUT))


def checked_items(items: Sequence[ReportItem]) -> list[ReportItem]:
    """Every item known and its selection valid, else a 422 at `items.<i>.<field>`."""
    out = []
    for i, item in enumerate(items):
        if not known_item(item):
            raise unprocessable(
                ("items", i, "name"), f"no {item.kind} named {item.name!r}", item.name
            )
        try:
            selection = checked_selection(item)
        except ValidationError as err:
            first = err.errors()[0]
            raise unprocessable(
                ("items", i, "selection", *first["loc"]), first["msg"], first.get("input")
            ) from err
        out.append(item.model_copy(update={"selection": selection}))
    return out
