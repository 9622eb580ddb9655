"""What a latency-SLO search's design must satisfy beyond a grid's: the search alone sets
the offered load, so nothing varies and the rate is not fixed, and the load generator must be
able to hold a rate (the registry's `rate_limits`)."""

from typing import Any

from backend.domain.design import DesignError
from backend.domain.load_generators import AUTO, load_generator_names, load_generator_spec

RATE = "rate_limit"  # the parameter the search sets (backend/domain/parameters.py)


def search_problems(
    factors: dict[str, Any], fixed: dict[str, Any], ruled: bool = False, fractional: bool = False
) -> list[DesignError]:
    """One error per rule broken, each naming its field (`ruled`, `fractional`: the design also
    has a repetition rule, a fraction)."""
    out: list[DesignError] = []
    if ruled:
        # Silently ignoring it would run something else than was designed.
        out.append(
            DesignError(
                ("repetition_rule",),
                "a latency-SLO search decides its own repetitions (max_repeats, "
                "confirm_repeats); remove the repetition rule",
            )
        )
    if fractional:
        out.append(DesignError(("fraction",), "a latency-SLO search has no factors to fraction"))
    if factors:
        out.append(
            DesignError(
                ("factors",),
                "a latency-SLO search varies only the offered load; fix every other parameter",
            )
        )
    if RATE in fixed:
        out.append(DesignError(("fixed", RATE), "the search sets the offered load itself"))
    tool = fixed.get("load_generator", AUTO)
    if (
        tool != AUTO
        and tool in load_generator_names()
        and not load_generator_spec(tool).rate_limits
    ):
        out.append(
            DesignError(
                ("fixed", "load_generator"),
                f"{tool} cannot hold a request rate, which a latency-SLO search needs",
            )
        )
    return out
