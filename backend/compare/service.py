"""The compare service: parameters side by side, differences against a base with their
confidence intervals, grouped curves with bands, and every configuration for parallel
coordinates, as served by /compare/* and drawn by the compare figures and tables.

A selection's faults are 422s naming the body field, as the routes answer them."""

from collections.abc import Sequence

from sqlalchemy.orm import Session

from backend.compare.brush import EXPERIMENT_AXIS, AxisRow, brushed_ids
from backend.compare.differences import ExperimentDesign, pair_configurations, pair_experiments
from backend.compare.groups import group_curves
from backend.compare.parameters import parameter_rows, varying_parameters
from backend.compare.source import ConfigurationSamples, read_configurations
from backend.crud import compare as crud
from backend.domain.compare import CompareMetric
from backend.domain.grid import effective_parameters
from backend.domain.hardware import describe
from backend.domain.metrics import METRIC_UNITS, METRICS
from backend.domain.parameters import PARAMETERS
from backend.quality.service import flagged_configurations
from backend.schemas.compare import (
    GROUP_BY_EXPERIMENT,
    BrushedSelection,
    CompareSelection,
    ConfigurationRowPublic,
    ConfigurationsRequest,
    ConfigurationTablePublic,
    DifferencesPublic,
    DifferencesRequest,
    ExperimentRefPublic,
    GroupsPublic,
    GroupsRequest,
    ParametersComparisonPublic,
)
from backend.schemas.problems import analysis_errors, unprocessable


def _designs(session: Session, ids: Sequence[int]) -> dict[int, ExperimentDesign]:
    """The selected experiments in selection order; a missing one is a 422 naming its index."""
    found = crud.read_experiments(session=session, ids=ids)
    for i, exp_id in enumerate(ids):
        if exp_id not in found:
            raise unprocessable(
                ("experiment_ids", i), f"experiment {exp_id} does not exist", exp_id
            )
    return {i: ExperimentDesign(i, found[i].name, found[i].factors, found[i].fixed) for i in ids}


def _check_metrics(sel: CompareSelection, field: str, metrics: Sequence[CompareMetric]) -> None:
    """A 422 naming the field for a metric the chosen side does not report."""
    for i, name in enumerate(metrics):
        loc: tuple[str | int, ...] = (field, i) if field == "metrics" else (field,)
        m = METRICS[name]
        if sel.source not in m.sources:
            raise unprocessable(
                loc, f"{name} ({m.label}) is not reported by the {sel.source} side", name
            )


def _configurations(
    session: Session, sel: CompareSelection, metrics: Sequence[CompareMetric]
) -> list[ConfigurationSamples]:
    with analysis_errors():  # a metric the window cannot give: 422 naming the field
        return read_configurations(
            session=session,
            experiment_ids=sel.experiment_ids,
            source=sel.source,
            request_type=sel.request_type,
            window=sel.window,
            metrics=metrics,
            role=sel.role,
        )


def _brush_metrics(body: BrushedSelection) -> list[CompareMetric]:
    """The metric axes a brush names; a 422 naming `brush.<axis>` for one that is no axis."""
    out: list[CompareMetric] = []
    for key in body.brush or {}:
        if key == EXPERIMENT_AXIS or key in PARAMETERS:
            continue
        if key not in METRICS:
            raise unprocessable(
                ("brush", key), "not an axis: 'experiment', a parameter or a metric", key
            )
        if body.source not in METRICS[key].sources:
            raise unprocessable(("brush", key), f"not reported by the {body.source} side", key)
        out.append(key)
    return out


def _with_brush(body: BrushedSelection, metrics: Sequence[CompareMetric]) -> list[CompareMetric]:
    """`metrics` and the brushed metric axes, each once (what must be read to resolve it)."""
    return list(dict.fromkeys([*metrics, *_brush_metrics(body)]))


def _keep(
    body: BrushedSelection,
    rows: Sequence[ConfigurationSamples],
    designs: dict[int, ExperimentDesign],
    only: Sequence[int] | None = None,
) -> set[int] | None:
    """The configurations kept: inside the brush and among `only`; None keeps all."""
    keep = set(only) if only is not None else None
    brushed = brushed_ids(axis_rows(rows, designs), body.brush, body.experiment_ids, set(METRICS))
    if brushed is None:
        return keep
    return brushed if keep is None else keep & brushed


def axis_rows(
    rows: Sequence[ConfigurationSamples], designs: dict[int, ExperimentDesign]
) -> list[AxisRow]:
    """Configurations as the parallel coordinates' axes see them (effective parameters)."""
    return [
        AxisRow(
            r.experiment_id,
            r.configuration_id,
            effective_parameters(r.values, designs[r.experiment_id].fixed),
            {m: s.mean for m, s in r.samples.items()},
        )
        for r in rows
    ]


def compare_parameters(session: Session, body: CompareSelection) -> ParametersComparisonPublic:
    """Design, parameters, testbed and tool versions of the experiments side by side."""
    designs = _designs(session, body.experiment_ids)
    found = crud.read_experiments(session=session, ids=body.experiment_ids)
    experiments = [found[i] for i in body.experiment_ids]
    testbeds = crud.read_testbeds(
        session=session, ids=[e.testbed_id for e in experiments if e.testbed_id is not None]
    )
    tools = crud.read_tool_versions(session=session, experiment_ids=body.experiment_ids)
    hardware = crud.read_hardware(session=session, experiment_ids=body.experiment_ids)
    rows = parameter_rows(experiments, testbeds, tools, hardware)
    return ParametersComparisonPublic(
        experiments=[ExperimentRefPublic(id=e.id, name=e.name) for e in experiments],
        data=rows,
        groupable=varying_parameters(list(designs.values())),
        hardware_differences=[
            describe(r.label, r.values) for r in rows if r.group == "hardware" and r.differs
        ],
    )


def compare_differences(session: Session, body: DifferencesRequest) -> DifferencesPublic:
    """Absolute and relative differences against a base, with Welch intervals and a verdict."""
    designs = _designs(session, body.experiment_ids)
    _check_metrics(body, "metrics", body.metrics)
    rows = _configurations(session, body, _with_brush(body, body.metrics))
    keep = _keep(body, rows, designs, body.only_configuration_ids)
    if body.configuration_ids:
        owners = crud.configuration_owners(session=session, ids=body.configuration_ids)
        for i, cid in enumerate(body.configuration_ids):
            if owners.get(cid) not in designs:
                raise unprocessable(
                    ("configuration_ids", i),
                    f"configuration {cid} is not one of the selected experiments'",
                    cid,
                )
        if body.base_configuration_id not in body.configuration_ids:
            raise unprocessable(
                ("base_configuration_id",),
                "must be one of configuration_ids",
                body.base_configuration_id,
            )
        pairing = pair_configurations(
            rows,
            body.configuration_ids,
            body.base_configuration_id,
            body.metrics,
            body.level,
            keep,
        )
        mode = "configurations"
    else:
        base = body.base_experiment_id or body.experiment_ids[0]
        if base not in designs:
            raise unprocessable(
                ("base_experiment_id",), "must be one of experiment_ids", body.base_experiment_id
            )
        pairing = pair_experiments(
            rows,
            designs,
            base,
            body.metrics,
            body.level,
            keep,
        )
        mode = "experiments"
    flagged = flagged_configurations(session=session, experiment_ids=list(designs))
    data = [
        r.model_copy(
            update={
                "flagged_inputs": [
                    c for c in (r.base_configuration_id, r.configuration_id) if c in flagged
                ]
            }
        )
        for r in pairing.rows
    ]
    return DifferencesPublic(
        level=body.level,
        mode=mode,
        units={m: METRIC_UNITS[m] for m in body.metrics},
        data=data,
        count=len(data),
        unmatched=pairing.unmatched,
    )


def compare_groups(session: Session, body: GroupsRequest) -> GroupsPublic:
    """One mean curve per group over x, with a std, standard-error or t-interval band."""
    designs = _designs(session, body.experiment_ids)
    if body.x not in PARAMETERS:
        raise unprocessable(("x",), f"unknown parameter {body.x!r}", body.x)
    if body.group_by != GROUP_BY_EXPERIMENT and body.group_by not in PARAMETERS:
        raise unprocessable(
            ("group_by",),
            f"must be {GROUP_BY_EXPERIMENT!r} or a parameter, got {body.group_by!r}",
            body.group_by,
        )
    _check_metrics(body, "metric", [body.metric])
    rows = _configurations(session, body, _with_brush(body, [body.metric]))
    groups = group_curves(
        rows,
        designs,
        x=body.x,
        group_by=body.group_by,
        metric=body.metric,
        kind=body.band,
        level=body.level,
        keep=_keep(body, rows, designs, body.only_configuration_ids),
    )
    return GroupsPublic(
        x=body.x,
        group_by=body.group_by,
        metric=body.metric,
        unit=METRIC_UNITS[body.metric],
        band=body.band,
        level=body.level,
        data=groups,
    )


def compare_configurations(
    session: Session, body: ConfigurationsRequest
) -> ConfigurationTablePublic:
    """Every configuration of the experiments with its metric means (parallel coordinates)."""
    designs = _designs(session, body.experiment_ids)
    _check_metrics(body, "metrics", body.metrics)
    metrics = list(dict.fromkeys(body.metrics))
    rows = _configurations(session, body, _with_brush(body, metrics))
    brushed = _keep(body, rows, designs)
    parameters = varying_parameters(list(designs.values()))
    return ConfigurationTablePublic(
        parameters=parameters,
        metrics=metrics,
        units={m: METRIC_UNITS[m] for m in metrics},
        data=[
            ConfigurationRowPublic(
                experiment_id=r.experiment_id,
                configuration_id=r.configuration_id,
                values={
                    p: v
                    for p, v in effective_parameters(
                        r.values, designs[r.experiment_id].fixed
                    ).items()
                    if p in parameters
                },
                repetitions=max((s.n for s in r.samples.values()), default=0),
                metrics={m: (s.mean if (s := r.samples.get(m)) else None) for m in metrics},
                brushed=brushed is None or r.configuration_id in brushed,
            )
            for r in rows
        ],
        count=len(rows),
        brushed=None if brushed is None else len(brushed),
    )
