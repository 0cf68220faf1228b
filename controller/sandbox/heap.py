"""The sandbox's long-lived world kept out of the garbage collector's full passes.

A 128×128 room is about 330,000 objects that live as long as the world (frames, their NBT, the
index's lists). CPython's cyclic collector walks every one of them at each full collection
(generation 2, due whenever the objects that survived since grew by a quarter): 0.4–0.6 s with
the GIL held, every 10–20 s of play, in the sandbox's process, which is the daemon's too in the
tests, the benchmarks and `pipesctl demo`; a server's own heap never costs the daemon that.

So while a sandbox runs, what a full collection leaves alive is frozen (`gc.freeze`) at the
main thread's next tick, and the next full collection walks only what was made since.
Reference counting still frees every object dropped; only garbage in reference cycles among
frozen objects waits until the last running sandbox stops, when everything is unfrozen
(`gc.unfreeze`) and collected as usual.
"""

from __future__ import annotations

import gc
import threading

__all__ = ["hold", "release", "settle"]

_lock = threading.Lock()
_running = 0
_due = threading.Event()  # a full collection ended since the last freeze


def _after_collection(phase: str, info: dict[str, int]) -> None:
    if phase == "stop" and info.get("generation") == 2:
        _due.set()


def hold() -> None:
    """A sandbox starts serving: full collections are followed by a freeze from now on."""
    global _running
    with _lock:
        _running += 1
        if _running == 1:
            gc.callbacks.append(_after_collection)


def release() -> None:
    """A sandbox stopped serving; once none runs, nothing is frozen any more."""
    global _running
    with _lock:
        if _running == 0:
            return
        _running -= 1
        if _running == 0:
            gc.callbacks.remove(_after_collection)
            _due.clear()
            gc.unfreeze()


def settle() -> None:
    """The main thread between ticks: freeze what the last full collection left alive."""
    if _due.is_set():
        _due.clear()
        gc.freeze()
