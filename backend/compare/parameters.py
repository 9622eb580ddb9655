"""The parameters table of a comparison: design, every parameter, testbed and tool versions
side by side, each row saying whether the experiments differ on it."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from backend.compare.differences import ExperimentDesign
from backend.domain.design_words import fraction_in_words, rule_in_words, slo_in_words
from backend.domain.hardware import Hardware, row_names
from backend.domain.parameters import PARAMETERS
from backend.models import Experiment
from backend.schemas.compare import ParameterRowPublic

# Design fields: name -> (label, unit); parameters are labelled by the parameter schema.
_DESIGN: dict[str, tuple[str, str | None]] = {
    "template": ("template", None),
    "repetitions": ("repetitions", None),
    "run_time_s": ("run time (s)", "s"),
    "warmup_s": ("warm-up (s)", "s"),
    "cooldown_s": ("cool-down (s)", "s"),
}


_OPTIONS: tuple[tuple[str, str, Callable[[dict[str, Any] | None], str]], ...] = (
    ("repetition_rule", "repetition rule", rule_in_words),
    ("fraction", "fraction", fraction_in_words),
    ("slo_search", "latency-SLO search", slo_in_words),
)


def _same(values: Sequence[Any]) -> bool:
    texts = {json.dumps(v, sort_keys=True, default=str) for v in values}
    return len(texts) <= 1


def _row(
    group: str,
    name: str,
    label: str,
    unit: str | None,
    values: list[Any],
    varied: list[bool],
) -> ParameterRowPublic:
    # Between experiments: a factor with the same levels in each is no difference.
    differs = not _same(values) or (any(varied) and not all(varied))
    return ParameterRowPublic.model_validate(
        {
            "group": group,
            "name": name,
            "label": label,
            "unit": unit,
            "values": values,
            "varied": varied,
            "differs": differs,
        }
    )


def parameter_rows(
    experiments: Sequence[Experiment],
    testbeds: dict[int, tuple[str, str]],
    tool_versions: dict[int, dict[str, list[str]]],
    hardware: Hardware | None = None,
) -> list[ParameterRowPublic]:
    """testbeds: id -> (name, kind); tool_versions: experiment -> tool -> distinct versions;
    hardware: experiment -> "role.fact" -> distinct values (backend.domain.hardware)."""
    no = [False] * len(experiments)
    rows = [
        _row("design", n, label, unit, [getattr(e, n) for e in experiments], no)
        for n, (label, unit) in _DESIGN.items()
    ]
    # The design's options, in words: a rule, a fraction or a search changes what was run.
    for name, label, words in _OPTIONS:
        said = [words(getattr(e, name)) for e in experiments]
        rows.append(_row("design", name, label, None, list(said), no))
    for name, param in PARAMETERS.items():
        values = [e.factors.get(name, e.fixed.get(name, param.default)) for e in experiments]
        rows.append(
            _row(
                "parameter",
                name,
                param.label or name.replace("_", " "),
                param.unit,
                values,
                [name in e.factors for e in experiments],
            )
        )
    rows.append(
        _row(
            "testbed",
            "testbed",
            "testbed",
            None,
            [
                "local (default)" if e.testbed_id is None else testbeds[e.testbed_id][0]
                for e in experiments
            ],
            no,
        )
    )
    tools = sorted({t for e in experiments for t in tool_versions.get(e.id, {})})
    for tool in tools:
        values = [", ".join(tool_versions.get(e.id, {}).get(tool, [])) or None for e in experiments]
        rows.append(_row("tool", tool, tool, None, values, no))
    machines = hardware or {}
    for name, label in row_names(machines):
        values = [", ".join(machines.get(e.id, {}).get(name, [])) or None for e in experiments]
        rows.append(_row("hardware", name, label, None, values, no))
    return rows


def varying_parameters(designs: Sequence[ExperimentDesign]) -> list[str]:
    """Parameters that take more than one value across the compared runs, in declared order:
    the factors of any experiment and the fixed values the experiments disagree on."""
    out = []
    for name, param in PARAMETERS.items():
        values = [d.fixed.get(name, param.default) for d in designs]
        if any(name in d.factors for d in designs) or not _same(values):
            out.append(name)
    return out
