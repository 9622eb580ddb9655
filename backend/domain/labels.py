"""Human names of parameters and their levels, from the parameter schema (`label`, `legend`):
a legend reads "8 worker threads", not "workers=8"; a name the schema does not know is shown
as it is. Figures, tables, the compare service's group labels and the report use them."""

from collections.abc import Mapping, Sequence
from typing import Any

from backend.domain.parameters import PARAMETERS


def format_level(value: Any) -> str:
    """A factor level as text: booleans as yes/no, numbers without a trailing .0."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def sentence_case(text: str) -> str:
    """The one capitalisation rule of titles (axis titles, column headings, the UI's selects):
    the label as defined, its first letter capitalised ("clients per thread" -> "Clients per
    thread"). Running text uses the label as it is."""
    return text[:1].upper() + text[1:]


def parameter_label(name: str) -> str:
    """A parameter's name in running text: "worker threads", "value size (bytes)"."""
    param = PARAMETERS.get(name)
    return param.label if param and param.label else name.replace("_", " ")


def parameter_title(name: str) -> str:
    """Axis title of a parameter: "Worker threads", "Value size (bytes)"."""
    return sentence_case(parameter_label(name))


def level_label(name: str, value: Any) -> str:
    """Legend entry of one level: "8 worker threads", "1 worker thread", "SET:GET 1:9"."""
    param = PARAMETERS.get(name)
    text = format_level(value)
    if param is None:
        return f"{name.replace('_', ' ')} {text}"
    plural = "" if value == 1 and not isinstance(value, bool) else "s"
    return param.legend.format(v=text, s=plural)


def levels_label(values: dict[str, Any]) -> str:
    """Several levels, e.g. a configuration: "8 worker threads, 2 clients per thread"."""
    return ", ".join(level_label(k, v) for k, v in values.items()) or "all"


def effect_label(factors: Sequence[str], levels: Mapping[str, Sequence[Any]] | None = None) -> str:
    """A factorial effect in words, each factor from its -1 level to its +1 level (the sign
    of the effect is the change from the first to the second): "Memcached servers 1 → 3 ×
    Replication (servers) one → all"; "Mean" for the mean. A factor without two known levels
    is named alone ("Worker threads")."""
    if not factors:
        return "Mean"
    parts = []
    for f in factors:
        pair = (levels or {}).get(f)
        arrow = (
            f" {format_level(pair[0])} → {format_level(pair[1])}" if pair and len(pair) == 2 else ""
        )
        parts.append(parameter_title(f) + arrow)
    return " × ".join(parts)
