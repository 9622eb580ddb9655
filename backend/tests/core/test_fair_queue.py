"""The order key reads are taken in (backend.core.fair_queue): owners in turn, each owner's
registrations in turn, first in first out within one."""

from backend.core.fair_queue import FairQueue


def _drain(queue: FairQueue[str]) -> list[str]:
    out = []
    while (item := queue.take()) is not None:
        out.append(item)
    return out


def test_one_registration_is_first_in_first_out() -> None:
    queue: FairQueue[str] = FairQueue()
    for i in range(5):
        queue.put(None, 1, f"h{i}")
    assert len(queue) == 5
    assert _drain(queue) == ["h0", "h1", "h2", "h3", "h4"]
    assert len(queue) == 0 and queue.take() is None


def test_a_new_registration_waits_for_one_item_of_each_before_it() -> None:
    """The issue's case, one owner: 20 registrations of 50 silent hosts, then a good one."""
    queue: FairQueue[str] = FairQueue()
    for testbed in range(20):
        for port in range(50):
            queue.put(None, testbed, f"silent-{testbed}-{port}")
    queue.put(None, "good", "good")
    order = _drain(queue)
    assert order.index("good") == 20  # after the first host of each registration before it
    assert order[:20] == [f"silent-{t}-0" for t in range(20)]
    assert len(order) == 1001


def test_owners_take_turns_whatever_their_registrations() -> None:
    queue: FairQueue[str] = FairQueue()
    for testbed in range(100):
        queue.put("mallory", testbed, f"m{testbed}")
    queue.put("alice", 500, "a0")
    queue.put("alice", 500, "a1")
    queue.put("bob", 501, "b0")
    order = _drain(queue)
    # One of mallory's, then alice's and bob's firsts, whatever mallory has left.
    assert order[:6] == ["m0", "a0", "b0", "m1", "a1", "m2"]
    assert order[6:] == [f"m{t}" for t in range(3, 100)]


def test_an_owner_goes_round_its_registrations() -> None:
    queue: FairQueue[str] = FairQueue()
    for item in ("x0", "x1", "x2"):
        queue.put("alice", "x", item)
    queue.put("alice", "y", "y0")
    queue.put("bob", "z", "z0")
    assert _drain(queue) == ["x0", "z0", "y0", "x1", "x2"]


def test_an_owner_who_left_the_round_joins_its_end() -> None:
    queue: FairQueue[str] = FairQueue()
    queue.put("alice", 1, "a0")
    queue.put("bob", 2, "b0")
    queue.put("bob", 2, "b1")
    assert queue.take() == "a0"  # alice has nothing left: out of the round
    queue.put("alice", 1, "a1")
    queue.put("carol", 3, "c0")
    assert _drain(queue) == ["b0", "a1", "c0", "b1"]
    queue.put("dave", 4, "d0")
    queue.clear()
    assert queue.take() is None
