"""The worker's view of the load-generator registry: each declared tool with its driver class.

The declarations live in backend.domain.load_generators (the API reads them too); this module
imports each tool's driver from its "module:Class" path and checks that it belongs to the entry.
"""

import importlib
from functools import cache

from backend.domain.load_generators import LOAD_GENERATORS, load_generator_spec
from worker.drivers.loadgen import LoadGenerator


@cache
def driver_for(name: str) -> type[LoadGenerator]:
    """The driver class of a registered tool; LookupError for an unknown name."""
    spec = load_generator_spec(name)
    module, _, attr = spec.driver.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    if not (isinstance(cls, type) and issubclass(cls, LoadGenerator)) or cls.spec != spec:
        raise TypeError(f"{spec.driver} is not the LoadGenerator of the {name!r} entry")
    return cls


def drivers() -> list[type[LoadGenerator]]:
    """Every registered tool's driver, in order of preference."""
    return [driver_for(g.name) for g in LOAD_GENERATORS]


def populator() -> type[LoadGenerator]:
    """The tool that writes the key space before a run: the first that can."""
    for g in LOAD_GENERATORS:
        if g.populates:
            return driver_for(g.name)
    raise LookupError("no registered load generator can populate servers")
