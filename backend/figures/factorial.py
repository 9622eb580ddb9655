"""2^k r factorial design: effects with intervals, allocation of variation, model checks."""

import numpy as np
import plotly.graph_objects as go

from backend.analysis.errors import AnalysisError
from backend.domain.labels import effect_label, level_label, parameter_title, sentence_case
from backend.domain.metrics import METRIC_UNITS
from backend.figures.data import load_factorial
from backend.figures.labels import metric_title, with_unit
from backend.figures.params import FigureQuery
from backend.figures.registry import register, set_caption
from backend.schemas import analysis as s


def _metric_title(data: s.FactorialPublic, q: FigureQuery, *, title: bool = True) -> str:
    """The analysed metric with its unit: as a title ("Throughput (ops/s)") or in running
    text ("throughput (ops/s)")."""
    name = metric_title(q.metric)
    unit = METRIC_UNITS.get(q.metric)
    if data.multiplicative:
        return f"log10 {name}"
    return with_unit(sentence_case(name) if title else name, unit)


def design_text(data: s.FactorialPublic) -> str:
    """How captions name a 2^k r design, in words that need no markup."""
    k, r = len(data.factors), data.replications
    return f"two-level factorial design ({k} factors, {r} replication{'s' if r != 1 else ''})"


def no_effect_text(data: s.FactorialPublic) -> str:
    """The design's notes on factors without effect by construction, as caption sentences."""
    return "".join(f" {n.text}" for n in data.no_effect)


@register("factorial-effects", "Factorial effects", load_factorial)
def effects(data: s.FactorialPublic, q: FigureQuery) -> go.Figure:
    """Each effect q with its confidence interval; an interval across 0 is not significant."""
    shown = [e for e in data.effects if e.factors]
    has_ci = all(e.ci_low is not None and e.ci_high is not None for e in shown)
    error = (
        {
            "type": "data",
            "symmetric": False,
            "array": [(e.ci_high or 0.0) - e.value for e in shown],
            "arrayminus": [e.value - (e.ci_low or 0.0) for e in shown],
            "visible": True,
        }
        if has_ci
        else None
    )
    # Horizontal (a forest plot): effect names are long and read best on the y axis.
    fig = go.Figure(
        go.Scatter(
            y=[e.label for e in shown],
            x=[e.value for e in shown],
            error_x=error,
            mode="markers",
            showlegend=False,
        )
    )
    fig.add_vline(x=0, line={"width": 0.75, "color": "black", "dash": "dot"})
    unit = "" if data.multiplicative else METRIC_UNITS.get(q.metric, "")
    fig.update_layout(
        yaxis={"type": "category", "autorange": "reversed"},
        xaxis={"title": {"text": with_unit("Effect", unit or None)}},
    )
    level = f"{100 * data.confidence:g}% confidence intervals" if data.confidence else ""
    return set_caption(
        fig,
        f"Effects of the {design_text(data)}"
        + (f" with {level}." if has_ci else ".")
        + no_effect_text(data),
    )


@register("allocation-of-variation", "Allocation of variation", load_factorial)
def allocation(data: s.FactorialPublic, q: FigureQuery) -> go.Figure:
    """Share of the total variation explained by each effect and by the error."""
    shown = [e for e in data.effects if e.factors]
    # A significant effect's bar is solid, one whose interval spans 0 faded (the table says
    # which); the error bar is hatched apart from the effects.
    significance = [
        "significant" if e.significant else "not significant" if e.significant is False else ""
        for e in shown
    ]
    fig = go.Figure(
        go.Bar(
            y=[e.label for e in shown] + ["Error"],
            x=[e.variation_percent for e in shown] + [data.error_percent],
            orientation="h",
            showlegend=False,
            customdata=[*significance, "unexplained"],
            marker={
                "opacity": [0.45 if e.significant is False else 1.0 for e in shown] + [1.0],
                "pattern": {"shape": [""] * len(shown) + ["/"]},
            },
            hovertemplate="%{y}: %{x:.3~g}% of the variation (%{customdata})<extra></extra>",
        )
    )
    fig.update_layout(
        yaxis={"type": "category", "autorange": "reversed"},
        xaxis={"title": {"text": "Variation explained (%)"}, "range": [0, 100]},
    )
    return set_caption(
        fig,
        f"Allocation of variation of {_metric_title(data, q, title=False)} in the "
        f"{design_text(data)}.",
    )


@register("residuals", "Residuals against predicted", load_factorial)
def residuals(data: s.FactorialPublic, q: FigureQuery) -> go.Figure:
    """Residuals against predicted responses: no trend or spread change if the model fits."""
    predicted = [v for row in data.predicted for v in row]
    resid = [v for row in data.residuals for v in row]
    fig = go.Figure(go.Scatter(x=predicted, y=resid, mode="markers", showlegend=False))
    fig.add_hline(y=0, line={"width": 0.75, "color": "black", "dash": "dot"})
    title = _metric_title(data, q)
    fig.update_layout(
        xaxis={"title": {"text": "Predicted " + title[:1].lower() + title[1:]}},
        yaxis={"title": {"text": "Residual"}},
    )
    return set_caption(fig, f"Residuals against predicted response of the {design_text(data)}.")


@register("qq", "Normal quantile-quantile plot of residuals", load_factorial)
def qq(data: s.FactorialPublic, q: FigureQuery) -> go.Figure:
    """Sorted residuals against normal quantiles with a least-squares line: straight = normal."""
    x = np.asarray(data.qq_normal_quantiles, dtype=float)
    y = np.asarray(data.qq_residuals, dtype=float)
    fig = go.Figure(go.Scatter(x=x.tolist(), y=y.tolist(), mode="markers", name="residuals"))
    if len(x) >= 2 and float(np.ptp(x)) > 0:
        slope, intercept = np.polyfit(x, y, 1)
        ends = np.array([x.min(), x.max()])
        fig.add_trace(
            go.Scatter(
                x=ends.tolist(),
                y=(slope * ends + intercept).tolist(),
                mode="lines",
                name="fit",
                line={"dash": "dash"},
            )
        )
    fig.update_layout(
        showlegend=False,
        xaxis={"title": {"text": "Normal quantile"}},
        yaxis={"title": {"text": "Residual quantile"}},
    )
    return set_caption(
        fig, f"Normal quantile-quantile plot of the {design_text(data)}'s residuals."
    )


def _names(data: s.FactorialPublic) -> dict[str, str]:
    """Effect name (as the analysis names it) -> its label in words."""
    return {e.name: e.label for e in data.effects if e.factors}


@register("half-normal", "Half-normal plot of effects", load_factorial)
def half_normal(data: s.FactorialPublic, q: FigureQuery) -> go.Figure:
    """|effect| against half-normal quantiles with Lenth's PSE line; for r = 1 also Lenth's
    margin of error, above which an effect is active."""
    lenth = data.lenth
    if lenth is None:
        raise AnalysisError("factors", "the half-normal plot needs at least two effects")
    names = _names(data)
    x = list(lenth.half_normal_quantiles)
    y = list(lenth.half_normal_abs_effects)
    top = max([*x, 0.0])
    fig = go.Figure(
        [
            go.Scatter(
                x=x,
                y=y,
                text=[names.get(n, n) for n in lenth.half_normal_names],
                mode="markers+text",
                # Each label towards the middle, so none runs out of the plot's sides.
                textposition=["top right" if q < top / 2 else "top left" for q in x],
                name="|effect|",
                hovertemplate="%{text}: |q| = %{y:.4~g}<extra></extra>",
            ),
            go.Scatter(
                x=[0.0, top],
                y=[0.0, lenth.pse * top],
                mode="lines",
                name=f"Lenth PSE line (slope {lenth.pse:.3g})",
                line={"dash": "dot"},
            ),
        ]
    )
    if data.replications == 1:
        fig.add_trace(
            go.Scatter(
                x=[0.0, top],
                y=[lenth.margin_of_error] * 2,
                mode="lines",
                name="Lenth margin of error (95%)",
                line={"dash": "dash"},
            )
        )
    # Room above the highest point for its label (Plotly's autorange leaves none for text).
    drawn = [*y, lenth.pse * top, lenth.margin_of_error if data.replications == 1 else 0.0]
    highest = max([*drawn, 0.0]) or 1.0
    fig.update_layout(
        xaxis={"title": {"text": "Half-normal quantile"}, "rangemode": "tozero"},
        yaxis={
            "title": {"text": f"|Effect| of {_metric_title(data, q, title=False)}"},
            "range": [-0.05 * highest, 1.2 * highest],
        },
    )
    return set_caption(
        fig,
        f"Half-normal plot of the effects of the {design_text(data)}: effects far above "
        "Lenth's pseudo standard error line are active.",
    )


def _level_pair(data: s.FactorialPublic, factor: str) -> list[str]:
    """The factor's low and high level in words ("8 worker threads"), or -1/+1."""
    levels = (data.levels or {}).get(factor)
    if levels and len(levels) == 2:
        return [level_label(factor, v) for v in levels]
    return [f"{parameter_title(factor)} −1", f"{parameter_title(factor)} +1"]


@register("main-effects", "Main effects", load_factorial)
def main_effects(data: s.FactorialPublic, q: FigureQuery) -> go.Figure:
    """Mean response at each factor's low and high level, one line per factor."""
    fig = go.Figure(
        [
            go.Scatter(
                x=["first level (−1)", "second level (+1)"],
                y=list(means[:2]),
                text=_level_pair(data, factor),
                mode="lines+markers",
                name=effect_label([factor], data.levels),
                hovertemplate="%{text}: %{y:.4~g}<extra>%{fullData.name}</extra>",
            )
            for factor, means in data.main_effects.items()
        ]
    )
    fig.update_layout(
        xaxis={"title": {"text": "Level"}, "type": "category"},
        yaxis={"title": {"text": "Mean " + _metric_title(data, q, title=False)}},
    )
    return set_caption(fig, f"Main effects of the {design_text(data)}: mean response per level.")


@register("interactions", "Interactions", load_factorial)
def interactions(data: s.FactorialPublic, q: FigureQuery) -> go.Figure:
    """For each pair A:B, mean response against A's level, one line per level of B:
    parallel lines mean no interaction."""
    fig = go.Figure()
    for pair, cells in data.interactions.items():
        a, _, b = pair.partition(":")
        x = _level_pair(data, a)
        b_levels = _level_pair(data, b)
        # cells: (A-, B-), (A+, B-), (A-, B+), (A+, B+)
        for i, ys in enumerate(([cells[0], cells[1]], [cells[2], cells[3]])):
            fig.add_trace(
                go.Scatter(
                    x=x,
                    y=ys,
                    mode="lines+markers",
                    name=b_levels[i],
                    legendgroup=pair,
                    legendgrouptitle={"text": effect_label([a, b], data.levels)}
                    if i == 0
                    else None,
                    hovertemplate="%{x}: %{y:.4~g}<extra>%{fullData.name}</extra>",
                )
            )
    fig.update_layout(
        xaxis={"title": {"text": "Level"}, "type": "category"},
        yaxis={"title": {"text": "Mean " + _metric_title(data, q, title=False)}},
    )
    return set_caption(
        fig,
        f"Two-factor interactions of the {design_text(data)}: parallel lines mean the "
        "factors act independently.",
    )
