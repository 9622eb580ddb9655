"""A queue that serves owners in turn, and each owner's lanes in turn: one owner's backlog
(a thousand silent hosts in twenty registrations) cannot hold back another owner's first item,
nor one registration another of the same owner.

A new owner joins the end of the round, so its first item is taken after at most one item of
each owner already waiting; a new lane of a waiting owner after at most one item of each of
that owner's lanes ahead of it, on that owner's turns. Not thread-safe: the caller locks.
"""

from collections import deque
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class FairQueue(Generic[T]):
    """Items by (owner, lane), first in first out within a lane; `take` goes round owners,
    then round the lanes of the owner whose turn it is."""

    def __init__(self) -> None:
        # Both dicts keep the round's order (insertion order): the next turn is the first key.
        self._owners: dict[Hashable, dict[Hashable, deque[T]]] = {}

    def put(self, owner: Hashable, lane: Hashable, item: T) -> None:
        self._owners.setdefault(owner, {}).setdefault(lane, deque()).append(item)

    def take(self) -> T | None:
        """The next item, its lane and its owner moved to the end of their rounds; None when
        empty."""
        if not self._owners:
            return None
        owner, lanes = next(iter(self._owners.items()))
        lane, items = next(iter(lanes.items()))
        item = items.popleft()
        del lanes[lane]
        if items:
            lanes[lane] = items
        del self._owners[owner]
        if lanes:
            self._owners[owner] = lanes
        return item

    def __len__(self) -> int:
        return sum(len(items) for lanes in self._owners.values() for items in lanes.values())

    def clear(self) -> None:
        self._owners.clear()
