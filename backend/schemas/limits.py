"""Bounds on request values, answered by a 422 naming the field instead of a 500.

Integers that reach the database: ids are PostgreSQL `integer`, paging offsets are `bigint`
(bounded by backend.api.paging).

Numbers given to the analysis models: physical limits of what can be measured on this system.
Beyond them an input is not a measurement; within them every formula the models evaluate
(sums, products and ratios of a few bounded terms, sums of squares over at most 10^5 values)
stays far inside double range, so a result is never infinite, NaN or a silently lost number.
"""

from collections.abc import Callable
from typing import Annotated

from pydantic import AfterValidator, Field

INT32_MAX = 2**31 - 1

# A database id in a request body (a PostgreSQL `integer` primary key).
DbId = Annotated[int, Field(ge=1, le=INT32_MAX)]


def text_problem(text: str) -> tuple[str, str] | None:
    """(error type, message) when `text` is no storable Unicode, else None: PostgreSQL text
    cannot hold NUL, and a lone UTF-16 surrogate (a legal JSON escape, "\\ud800") is no
    character, so UTF-8 cannot encode it. The API applies this to every request value at the
    edge (backend.api.well_formed); DbText applies it to models built outside a request."""
    if "\x00" in text:
        return "string_nul", "must not contain NUL characters"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "string_unicode", "must be valid Unicode: a lone UTF-16 surrogate is no character"
    return None


def _storable(value: str) -> str:
    problem = text_problem(value)
    if problem is not None:
        raise ValueError(problem[1])
    return value


# A string stored in or searched against a PostgreSQL text column.
DbText = Annotated[str, AfterValidator(_storable)]

# ------------------------------------------------------------ analysis model inputs

# 1 ns: below the resolution of any clock that timed a request (the middleware reports in us).
MIN_TIME_S = 1e-9
# About 11.6 days: longer than any run (60 s .. 1 h), service time or think time.
MAX_TIME_S = 1e6
# The reciprocals: a positive rate below one event in the longest time is not measurable;
# one event per ns is beyond any network interface.
MIN_RATE_PER_S = 1e-6
MAX_RATE_PER_S = 1e9
# Jobs in a system (clients of a closed loop, a mean queue length): beyond any population.
MAX_JOBS = 1e9
# Visits of one station per job (e.g. 1/S under hashing, K for a K-key multi-get).
MAX_VISITS = 1e6
# Any other measured value (ops/s, us, bytes, keys, a count), either sign (e.g. log y).
MAX_MEASURED = 1e15
# t[1 - alpha/2; dof] grows without bound as the level nears 1 (at 1 - 2^-53 it is infinite);
# 99.99% is beyond any report's level, and its quantile at 1 degree of freedom is 6366.2, so a
# given critical t above 10^4 is no table value.
MAX_CONFIDENCE = 0.9999
# A measured utilization: one microsecond busy per second is below what a utilization
# measurement resolves; smaller values only make the utilization law's S = U / (X V) underflow.
MIN_UTILIZATION = 1e-6
MAX_T_CRITICAL = 1e4


def _zero_or_at_least(minimum: float, unit: str) -> Callable[[float], float]:
    def check(value: float) -> float:
        if 0.0 < value < minimum:
            raise ValueError(
                f"{value:g} {unit} is below what can be measured: the smallest nonzero "
                f"value is {minimum:g} {unit}"
            )
        return value

    return check


# A time in seconds or microseconds, a rate (throughput, arrival rate) per second: 0 or between
# the resolution and the maximum above; the Positive ones exclude 0. (A bound added to these
# types at a field, after their validator, would reach OpenAPI as a raw "gt": spell it here.)
_TIME_S = AfterValidator(_zero_or_at_least(MIN_TIME_S, "s"))
_TIME_US = AfterValidator(_zero_or_at_least(MIN_TIME_S * 1e6, "us"))
_RATE = AfterValidator(_zero_or_at_least(MIN_RATE_PER_S, "1/s"))
Seconds = Annotated[float, Field(ge=0, le=MAX_TIME_S, allow_inf_nan=False), _TIME_S]
Microseconds = Annotated[float, Field(ge=0, le=MAX_TIME_S * 1e6, allow_inf_nan=False), _TIME_US]
PositiveMicroseconds = Annotated[
    float, Field(gt=0, le=MAX_TIME_S * 1e6, allow_inf_nan=False), _TIME_US
]
RatePerS = Annotated[float, Field(ge=0, le=MAX_RATE_PER_S, allow_inf_nan=False), _RATE]
PositiveRatePerS = Annotated[float, Field(gt=0, le=MAX_RATE_PER_S, allow_inf_nan=False), _RATE]
Jobs = Annotated[float, Field(ge=0, le=MAX_JOBS, allow_inf_nan=False)]
Visits = Annotated[float, Field(ge=0, le=MAX_VISITS, allow_inf_nan=False)]
Measured = Annotated[float, Field(ge=-MAX_MEASURED, le=MAX_MEASURED, allow_inf_nan=False)]
# What a configuration costs, to order configurations by (workers, servers, a price): not negative.
Resource = Annotated[float, Field(ge=0, le=MAX_MEASURED, allow_inf_nan=False)]
Confidence = Annotated[float, Field(gt=0, le=MAX_CONFIDENCE, allow_inf_nan=False)]
TCritical = Annotated[float, Field(gt=0, le=MAX_T_CRITICAL, allow_inf_nan=False)]
Utilization = Annotated[float, Field(ge=MIN_UTILIZATION, le=1, allow_inf_nan=False)]
