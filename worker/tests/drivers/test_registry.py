"""The load-generator registry: every declared tool resolves to its driver, and the parameter
choices, preflight's choice and the plan's populate step read it (no list of tools elsewhere)."""

from pathlib import Path

import pytest

from backend.domain import load_generators
from backend.domain.load_generators import LOAD_GENERATORS, LoadGeneratorSpec
from backend.domain.parameters import PARAMETERS
from worker.drivers import registry
from worker.drivers.host import Host, HostSpec
from worker.drivers.loadgen import LoadGenerator, LoadSpec
from worker.drivers.memaslap import MemaslapDriver
from worker.drivers.memtier import MemtierDriver
from worker.parsers import ClientResult, MemtierProgressParser, ProgressParser
from worker.runs.plan import build_plan
from worker.runs.preflight import choose_load_generator
from worker.runs.testbed import local_testbed

FAKE = LoadGeneratorSpec(
    name="fakegen",
    program="fakegen_benchmark",
    driver=f"{__name__}:FakeDriver",
    candidates=("fakegen_benchmark",),
    writes_own_keys=True,
)


class FakeDriver(LoadGenerator):
    """What a new tool adds: a driver bound to its registry entry."""

    spec = FAKE

    def argv(self, spec: LoadSpec, workdir: str, name: str) -> list[str]:
        return [self.binary, f"--seconds={spec.run_time_s}"]

    def parse(self, local_dir: Path, name: str) -> ClientResult:
        return ClientResult(tool=self.tool_name, duration_s=0.0, types={})

    def progress_parser(self) -> ProgressParser:
        return MemtierProgressParser()


@pytest.fixture()
def with_fake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load_generators, "LOAD_GENERATORS", (*LOAD_GENERATORS, FAKE))
    monkeypatch.setattr(registry, "LOAD_GENERATORS", (*LOAD_GENERATORS, FAKE))
    registry.driver_for.cache_clear()


def test_every_entry_resolves_to_its_driver() -> None:
    assert registry.drivers() == [MemtierDriver, MemaslapDriver]
    for driver in registry.drivers():
        assert driver.tool_name == driver.spec.name
        assert driver.candidates == driver.spec.candidates
    assert registry.populator() is MemtierDriver
    with pytest.raises(LookupError, match="unknown load generator 'nope'"):
        registry.driver_for("nope")


def test_parameter_choices_are_the_registered_names() -> None:
    choices = PARAMETERS["load_generator"].choices
    assert choices == ("auto", *(g.name for g in LOAD_GENERATORS))


def test_a_new_tool_is_one_registration(with_fake: None) -> None:
    assert registry.driver_for("fakegen") is FakeDriver
    assert FakeDriver.tool == "fakegen_benchmark"
    host = Host(HostSpec("h", "127.0.0.1", "u", 22, "/nonexistent"))
    assert choose_load_generator("fakegen", [host], {}) is FakeDriver
    params = {
        "servers": 1,
        "middlewares": 0,
        "client_machines": 1,
        "instances_per_machine": 1,
        "threads_per_instance": 1,
        "clients_per_thread": 1,
        "ratio": "1:9",
        "multiget_size": 1,
        "value_size": 64,
        "key_maximum": 100,
        "workers": 1,
        "sharded": False,
        "replication": 1,
        "queue_capacity": 8,
        "rate_limit": 0,
    }
    ports = iter(range(30000, 30100))
    plan = build_plan(
        params, local_testbed(), "fakegen", 5, lambda _: next(ports), memory_of=lambda _: 1 << 30
    )
    assert not plan.populate  # it writes its own keys, as its entry says
    assert build_plan(
        params, local_testbed(), "memtier", 5, lambda _: next(ports), memory_of=lambda _: 1 << 30
    ).populate


def test_a_driver_of_another_entry_is_refused(
    with_fake: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrong = LoadGeneratorSpec("wrong", "x", "worker.drivers.memtier:MemtierDriver", ("x",))
    monkeypatch.setattr(load_generators, "LOAD_GENERATORS", (*LOAD_GENERATORS, wrong))
    with pytest.raises(TypeError, match="not the LoadGenerator of the 'wrong' entry"):
        registry.driver_for("wrong")
    registry.driver_for.cache_clear()
