"""Every pair of design options composes with every analysis, figure and table: for each pair
(repetition rule, fraction, SLO search, memaslap, an Azure testbed, two middlewares) the design
is either refused with a 422 naming the reason, or its experiment (with stored results) answers
every analysis route, every figure and every table with content, or with a 4xx that says why:
never an empty view and never a 5xx."""

import itertools
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.models import Host, HostRole, Run, RunStatus, Testbed, TestbedKind
from backend.tests.utils.experiment import random_name
from backend.tests.utils.stored import stored_experiment
from backend.tests.utils.views import every_view, said_why

API = "/api/v1"
THREE = {"clients_per_thread": [1, 4], "workers": [8, 16], "value_size": [128, 1024]}


def _azure_testbed(db: Session) -> int:
    """A registered Azure testbed (its VMs never reached: results are seeded)."""
    name = f"az-{uuid.uuid4().hex[:8]}"
    testbed = Testbed(name=name, kind=TestbedKind.AZURE, description="")
    testbed.hosts = [
        Host(
            name=f"{name}-{role.value}",
            role=role,
            address=f"10.42.2.{i + 5}",
            ssh_user="mcscope",
            ssh_port=22,
            key_path="/nonexistent/key",
            size="Standard_A2_v2",
            region="westeurope",
        )
        for i, role in enumerate((HostRole.SERVER, HostRole.MIDDLEWARE, HostRole.CLIENT))
    ]
    db.add(testbed)
    db.commit()
    return testbed.id


# Each option as a change to the design (a function of the session for the testbed's row).
OPTIONS = ("rule", "fraction", "slo", "memaslap", "azure", "two_middlewares")


def _design(options: tuple[str, ...], db: Session) -> dict[str, Any]:
    design: dict[str, Any] = {
        "factors": dict(THREE)
        if "fraction" in options
        else {"clients_per_thread": [1, 4], "workers": [8, 16]},
        "fixed": {"servers": 2, "ratio": "0:1"},
        "repetitions": 2,
    }
    if "fraction" not in options:
        design["fixed"]["value_size"] = 128
    if "rule" in options:
        design["repetition_rule"] = {
            "half_width_pct": 50,
            "min_repetitions": 2,
            "max_repetitions": 3,
        }
    if "fraction" in options:
        design["fraction"] = {"generators": ["C = AB"]}
    if "slo" in options:
        design["factors"] = {}
        design["slo_search"] = {"target_us": 2000}
    if "memaslap" in options:
        design["fixed"]["load_generator"] = "memaslap"
    if "azure" in options:
        design["testbed_id"] = _azure_testbed(db)
    if "two_middlewares" in options:
        design["fixed"]["middlewares"] = 2
    return design


@pytest.mark.parametrize("options", list(itertools.combinations(OPTIONS, 2)), ids="+".join)
def test_every_pair_of_options_answers_every_view(
    client: TestClient, db: Session, options: tuple[str, ...]
) -> None:
    design = _design(options, db)
    refused = client.post(f"{API}/experiments/preview", json={"name": random_name(), **design})
    if refused.status_code == 422:
        # The design page refuses the combination, saying why (never a 5xx, never silently).
        assert said_why(refused), refused.text
        return
    assert refused.status_code == 200, refused.text
    exp = stored_experiment(client, db, **design)
    succeeded = db.scalar(
        select(func.count())
        .select_from(Run)
        .where(Run.experiment_id == exp["id"], Run.status == RunStatus.SUCCEEDED)
    )
    if "slo" not in options:  # a search adds its probes one at a time; a grid has them all
        assert succeeded, "a grid design stores results for every run"
    seen = every_view(client, exp["id"])
    if succeeded:
        # Seeded results: the core views have content whatever the options.
        assert seen[f"{API}/analysis/experiments/{{experiment_id}}/summary"] == "content"
        assert seen["figures/throughput.json"] == "content"
        assert seen["tables/summary.csv"] == "content"
        # Two-level factors with equal repetitions (a rule keeps a factorial's cells together).
        assert seen[f"{API}/analysis/experiments/{{experiment_id}}/factorial"] == "content"
