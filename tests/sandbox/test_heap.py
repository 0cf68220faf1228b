"""While a sandbox runs, what a full collection leaves alive is frozen at the next tick, so the
next one walks only newer objects; once the last sandbox stops, everything is collectable
again, cycles included (controller/sandbox/heap.py)."""

from __future__ import annotations

import gc
import weakref

from controller.sandbox import Sandbox


class Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_a_full_collection_is_followed_by_a_freeze_until_the_last_sandbox_stops() -> None:
    assert gc.get_freeze_count() == 0
    with Sandbox() as outer:
        with Sandbox() as inner:
            cycle = Node()
            alive = weakref.ref(cycle)
            gc.collect()  # a full collection: the cycle survives it, alive still
            inner.tick(2)
            assert gc.get_freeze_count() > 0
            del cycle
            gc.collect()
            assert alive() is not None  # frozen: the collector no longer walks it
        outer.tick(2)
        assert gc.get_freeze_count() > 0  # one sandbox still runs
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert alive() is None
