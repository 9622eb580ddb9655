"""The clients' request mix: memtier's cycle of a ratio with multi-gets, and how many servers
a sharded multi-get asks under the middleware's key hash."""

import random

import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.request_mix import cycle_get_keys, design_mix, servers_asked
from backend.tests.utils.memcached_text import fnv1a, memtier_key


def _params(ratio: str, k: int, sharded: bool = False, servers: int = 3) -> dict[str, object]:
    return {"ratio": ratio, "multiget_size": k, "sharded": sharded, "servers": servers}


def test_cycle_follows_memtier() -> None:
    # memtier counts the ratio's GET in keys: 1:9 with K = 6 is a 6-key and a 3-key get.
    assert cycle_get_keys(9, 6) == (6, 3)
    assert cycle_get_keys(9, 3) == (3, 3, 3)
    assert cycle_get_keys(9, 1) == (1,) * 9
    assert cycle_get_keys(1, 9) == (1,)  # ratio 0:1 sends one-key gets whatever K
    assert cycle_get_keys(0, 3) == ()


def test_write_fraction_counts_requests() -> None:
    assert design_mix(_params("1:9", 1)).write_fraction == pytest.approx(0.1)
    assert design_mix(_params("1:9", 3)).write_fraction == pytest.approx(1 / 4)
    assert design_mix(_params("1:9", 9)).write_fraction == pytest.approx(1 / 2)
    write_only = design_mix(_params("1:0", 6))
    assert write_only.write_fraction == 1.0
    assert [g.keys for g in write_only.gets] == [6]  # the design's get, for per-host figures


def test_sharded_gets_ask_the_servers_their_keys_hash_to() -> None:
    mix = design_mix(_params("1:9", 6, sharded=True, servers=3))
    assert [g.keys for g in mix.gets] == [6, 3]
    assert [g.servers_asked for g in mix.gets] == [
        pytest.approx(3 * (1 - (2 / 3) ** 6)),
        pytest.approx(3 * (1 - (2 / 3) ** 3)),
    ]
    plain = design_mix(_params("1:9", 6, sharded=False, servers=3))
    assert [g.servers_asked for g in plain.gets] == [1.0, 1.0]
    assert servers_asked(1, 5, sharded=True) == 1.0
    assert servers_asked(9, 1, sharded=True) == pytest.approx(1.0)


@pytest.mark.parametrize(("k", "servers"), [(3, 3), (6, 3), (9, 3), (9, 5), (9, 7)])
def test_uniform_hashing_holds_for_memtiers_keys(k: int, servers: int) -> None:
    # The exact expectation of servers asked for K keys drawn uniformly (with replacement, as
    # memtier's random pattern does) from memtier's 10,000 keys under the middleware's FNV-1a,
    # sum over servers of 1 - (1 - p_s)^K, against the uniform formula.
    counts = [0] * servers
    for i in range(1, 10_001):
        counts[fnv1a(memtier_key(i)) % servers] += 1
    exact = sum(1 - (1 - c / 10_000) ** k for c in counts)
    assert servers_asked(k, servers, sharded=True) == pytest.approx(exact, rel=1e-3)
    # And a draw of real multi-gets asks that many servers on average.
    rng = random.Random(7)
    draws = [
        len({fnv1a(memtier_key(rng.randint(1, 10_000))) % servers for _ in range(k)})
        for _ in range(4_000)
    ]
    assert sum(draws) / len(draws) == pytest.approx(exact, rel=0.02)


def test_bad_ratio_and_size_name_the_field() -> None:
    with pytest.raises(AnalysisError) as err:
        design_mix(_params("0:0", 3))
    assert err.value.field == "ratio"
    with pytest.raises(AnalysisError) as err:
        design_mix(_params("1:9", 0))
    assert err.value.field == "multiget_size"
