"""Which configurations are the same system (backend.domain.same_system)."""

from typing import Any

from backend.domain.grid import effective_parameters
from backend.domain.same_system import duplicates, inert, system


def _p(**values: Any) -> dict[str, Any]:
    return effective_parameters(values, {})


def test_replication_resolves_against_the_servers() -> None:
    assert system(_p(servers=1, replication="one")) == system(_p(servers=1, replication="all"))
    assert system(_p(servers=2, replication="half")) == system(_p(servers=2, replication=1))
    assert system(_p(servers=3, replication="one")) != system(_p(servers=3, replication="all"))


def test_parameters_that_cannot_matter() -> None:
    direct = inert(_p(middlewares=0))
    assert {"workers", "queue_capacity", "replication"} <= set(direct)
    assert "replication" in inert(_p(servers=3, ratio="0:1"))
    assert "replication" not in inert(_p(servers=3, ratio="1:9"))
    assert "multiget_size" in inert(_p(ratio="1:0")) and "sharded" in inert(_p(ratio="1:0"))
    assert "sharded" in inert(_p(servers=3, multiget_size=1))
    assert "sharded" not in inert(_p(servers=3, multiget_size=4, ratio="1:9"))
    assert system(_p(workers=8, middlewares=0)) == system(_p(workers=32, middlewares=0))
    assert system(_p(workers=8)) != system(_p(workers=32))


def test_duplicates_group_the_points_and_say_why() -> None:
    points = [{"servers": s, "replication": r} for s in (1, 2) for r in ("one", "half", "all")]
    groups = duplicates(points, [effective_parameters(p, {}) for p in points])
    # servers 1: one = half = all; servers 2: one = half (1 copy), all is 2.
    assert [g.positions for g in groups] == [(0, 1, 2), (3, 4)]
    assert groups[0].reasons == ("with 1 server every set is written to that one server",)
    assert groups[1].reasons == ("with 2 servers replication one and half both write 1 copy",)
