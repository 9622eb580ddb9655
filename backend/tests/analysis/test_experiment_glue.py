"""Grid helpers of the stored-experiment analyses."""

import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.experiment import total_clients, write_fraction


def test_total_clients_and_write_fraction() -> None:
    params = {
        "client_machines": 3,
        "instances_per_machine": 2,
        "threads_per_instance": 1,
        "clients_per_thread": 32,
        "middlewares": 0,
    }
    assert total_clients(params) == 192
    # Through middlewares each machine runs its instances once per middleware (the planner).
    assert total_clients({**params, "instances_per_machine": 1, "middlewares": 2}) == 192
    assert write_fraction("1:9") == pytest.approx(0.1)
    with pytest.raises(AnalysisError) as err:
        write_fraction("x")
    assert err.value.field == "ratio"
