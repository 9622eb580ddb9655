"""A rehearsal testbed's states: the one table the API (its allowed actions), the worker's
build and teardown, the janitor and the Testbeds page read.

A rehearsal is never stopped (there is nothing billed to stop): it is built, used, then torn
down by Delete, by its expiry or by the janitor."""

from enum import StrEnum


class RehearsalStatus(StrEnum):
    QUEUED = "queued"  # row committed, task sent
    BUILDING = "building"  # claimed by a worker: namespaces, links and sshds being made
    READY = "ready"  # built and registered as a testbed
    FAILED = "failed"  # the build failed; the worker tore down what it made (see error)
    DELETING = "deleting"  # being torn down
    DELETED = "deleted"  # nothing of it is left on this machine (deleted_at says when)


# The states the user's Delete is taken from: a queued one (its build then finds it taken and
# does nothing), a ready one, and a failed one (its build may still hold something).
DELETABLE = frozenset({RehearsalStatus.QUEUED, RehearsalStatus.READY, RehearsalStatus.FAILED})
# States in which the rehearsal's hosts exist or are being made: they count against the limit.
LIVE = frozenset({RehearsalStatus.QUEUED, RehearsalStatus.BUILDING, RehearsalStatus.READY})


def allowed_actions(status: str) -> list[str]:
    """The user's actions in this state: only delete."""
    return ["delete"] if status in DELETABLE else []
