"""Experiment kinds: designed here, or imported from earlier tool outputs (worker/imports),
whose runs were made elsewhere, so nothing runs here.

The one home of that rule: Start and re-run flagged refuse with this reason; Duplicate copies
the design into a designed experiment that can run here.
"""

EXPERIMENT_DESIGNED = "designed"
EXPERIMENT_IMPORTED = "imported"
EXPERIMENT_KINDS = (EXPERIMENT_DESIGNED, EXPERIMENT_IMPORTED)


def not_runnable_reason(kind: str) -> str | None:
    """Why an experiment of this kind cannot start runs here (None: it can)."""
    if kind == EXPERIMENT_IMPORTED:
        return (
            "an imported experiment's runs were made elsewhere and cannot be run here; "
            "duplicate it to run its design on a testbed"
        )
    return None
