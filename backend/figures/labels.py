"""Human names for figures and tables: units, axis titles and legend entries.

Parameter and level names are backend.domain.labels' (from the parameter schema).
"""

from backend.domain.metrics import METRICS

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
