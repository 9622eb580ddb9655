"""The parameter schema, the design fields, the metric table and the experiment catalogue, for
building forms and naming things: the UI takes every parameter's, design field's and metric's
label, title and unit from here, the names the server's figures and tables print
(backend/figures/labels.py)."""

from fastapi import APIRouter

from backend.domain.design_fields import DESIGN_FIELDS
from backend.domain.labels import parameter_label, parameter_title, sentence_case
from backend.domain.metrics import METRICS
from backend.domain.parameters import PARAMETERS
from backend.domain.templates import SEEDS
from backend.schemas.parameter import (
    DesignFieldPublic,
    MetricPublic,
    ParameterPublic,
    TemplatePublic,
)

router = APIRouter(tags=["parameters"])


@router.get("/parameters", response_model=list[ParameterPublic])
def read_parameters() -> list[ParameterPublic]:
    """Every parameter an experiment may vary or fix, with units and ranges."""
    return [
        ParameterPublic(
            name=p.name,
            kind=p.kind.value,
            default=p.default,
            description=p.description,
            label=parameter_label(p.name),
            title=parameter_title(p.name),
            legend=p.legend,
            unit=p.unit,
            minimum=p.minimum,
            maximum=p.maximum,
            choices=list(p.choices),
        )
        for p in PARAMETERS.values()
    ]


@router.get("/metrics", response_model=list[MetricPublic])
def read_metrics() -> list[MetricPublic]:
    """Every result metric with its label, unit and the sides that report it."""
    return [
        MetricPublic(
            name=m.name,
            label=m.label,
            title=sentence_case(m.label),
            unit=m.unit,
            sources=list(m.sources),
        )
        for m in METRICS.values()
    ]


@router.get("/design-fields", response_model=list[DesignFieldPublic])
def read_design_fields() -> list[DesignFieldPublic]:
    """The design fields besides the parameters, with labels, units, defaults and bounds."""
    return [
        DesignFieldPublic(
            name=f.name,
            label=f.label,
            unit=f.unit,
            default=f.default,
            minimum=f.minimum,
            maximum=f.maximum,
            description=f.description,
        )
        for f in DESIGN_FIELDS.values()
    ]


@router.get("/templates", response_model=list[TemplatePublic])
def read_templates() -> list[TemplatePublic]:
    """The experiment catalogue with seed factors."""
    return [
        TemplatePublic(
            id=t.value,
            title=s.title,
            description=s.description,
            factors=s.factors,
            fixed=s.fixed,
            repetitions=s.repetitions,
            run_time_s=s.run_time_s,
            warmup_s=s.warmup_s,
            cooldown_s=s.cooldown_s,
            measured=list(s.measured),
        )
        for t, s in SEEDS.items()
    ]
