"""Human names for figures and tables: units, axis titles and legend entries.

Parameter names come from the parameter schema (`label`, `legend`), so a legend reads
"8 worker threads", not "workers=8"; a name the schema does not know is shown as it is.
"""

from typing import Any

from backend.domain.parameters import PARAMETERS
from backend.results.metrics import METRICS

MICROSECONDS = "µs"
US_PER_S = 1e6  # every time is printed in µs; the models and the law compute in seconds
OPS_PER_S = "ops/s"

# Units as the API spells them -> as printed ("us" is what a keyboard has, not a unit).
_PRINTED_UNITS = {"us": MICROSECONDS, "1/s": "1/s", "ops/s": OPS_PER_S}


def printed_unit(unit: str) -> str:
    """The unit as it is printed in a figure or table."""
    return _PRINTED_UNITS.get(unit, unit)


def with_unit(title: str, unit: str | None) -> str:
    """ "Throughput (ops/s)": titles carry their unit when there is one."""
    return f"{title} ({printed_unit(unit)})" if unit else title


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


def source_label(source: str) -> str:
    """One measuring process as a legend names it: "client:1" -> "client instance 1",
    "middleware:0" -> "middleware 0" (the numbers of the run page's processes)."""
    kind, _, index = source.partition(":")
    if not index:
        return source
    return f"client instance {index}" if kind == "client" else f"{kind} {index}"


def percentile_label(q: float) -> str:
    """ "p50", "p99.9": how reports name percentiles."""
    return f"p{float(q):g}"


def metric_title(metric: str) -> str:
    """A metric in running text, the metric table's label: "throughput", "99th percentile
    response time" (the unit goes elsewhere; titles add sentence_case)."""
    m = METRICS.get(metric)  # type: ignore[call-overload]
    return m.label if m else metric.removesuffix("_per_s").removesuffix("_us").replace("_", " ")
