"""The compare page's figures for a POST body: its selection of experiments, brushing and the
file's size. Each is the registered figure (same build function) fed from the body."""

from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go
from sqlalchemy.orm import Session

from backend.compare.service import compare_configurations, compare_groups
from backend.crud import compare as crud
from backend.figures.catalog import FIGURES
from backend.figures.parcoords_axes import ParcoordsData, parcoords_metrics
from backend.schemas.compare import CompareFigureRequest, ConfigurationsRequest, GroupsRequest
from backend.schemas.problems import unprocessable

_SELECTION = set(ConfigurationsRequest.model_fields) - {"metrics"}


def _selection(body: CompareFigureRequest) -> dict[str, Any]:
    return body.model_dump(include=_SELECTION)


def _groups(session: Session, body: CompareFigureRequest) -> Any:
    if body.x is None:
        raise unprocessable(("x",), "compare-groups needs the parameter on the x axis", None)
    request = GroupsRequest(
        **_selection(body),
        x=body.x,
        group_by=body.group_by,
        metric=body.metric,
        band=body.band,
        level=body.level,
    )
    return compare_groups(session=session, body=request)


def _parcoords(session: Session, body: CompareFigureRequest) -> ParcoordsData:
    request = ConfigurationsRequest(
        **_selection(body), metrics=parcoords_metrics(body.metric, body.source)
    )
    table = compare_configurations(session=session, body=request)
    ids = list(body.experiment_ids)
    return ParcoordsData(
        table,
        crud.read_experiment_names(session=session, ids=ids),
        ids,
        body.metric,
        dict(body.brush or {}),
    )


COMPARE_FIGURES: dict[str, Callable[[Session, CompareFigureRequest], Any]] = {
    "compare-groups": _groups,
    "compare-parcoords": _parcoords,
}


class UnknownCompareFigure(KeyError):
    """Not a figure of the compare page."""


def compare_figure(
    session: Session, name: str, body: CompareFigureRequest, fmt: str = "json"
) -> go.Figure:
    """The unstyled figure `name` for the body and a format; a bad body is a 422 naming
    its field."""
    load = COMPARE_FIGURES.get(name)
    if load is None:
        raise UnknownCompareFigure(name)
    return FIGURES[name].builder(fmt)(load(session, body), body)
