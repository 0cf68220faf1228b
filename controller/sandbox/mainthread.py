"""The sandbox's single "server thread": a 20 TPS tick loop that runs queued tasks between ticks.

A transcription of vanilla 26.1 ``MinecraftServer.runServer``
(docs/server-behaviour.md, "Main thread"; [C261] ``server/MayaanServer.java``: ``runServer``,
``haveTime``, ``waitUntilNextTick``, ``pollTask``, ``shouldRun``):

- ``tickCount`` is incremented at the start of each tick; a queued task is stamped with it.
- After a tick: ``mayHaveDelayedTasks = true``, ``delayedTasksMaxNextTickTimeNanos =
  max(now + 50 ms, nextTickTime)``, then ``waitUntilNextTick``: ``runAllTasks()`` and
  ``managedBlock(() -> !haveTime())``, polling tasks and parking until the next tick time.
- ``haveTime() = now < (mayHaveDelayedTasks ? delayedMax : nextTickTime)``; ``pollTask`` sets
  ``mayHaveDelayedTasks`` to whether it ran a task; ``shouldRun(task) = task.tick + 3 < tickCount
  || haveTime()``.

So a command is run promptly when the server is idle, waits while a (slow) tick runs, gets up to
about 50 ms of task time after each tick, and is run regardless once older than 3 ticks. Paper
("Paper: tick loop", "improve tick loop") also drains every queued task at the start of each tick.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, Literal, Protocol, TypeVar

from . import heap

__all__ = ["MainThread", "MainThreadStopped", "TickingGame"]

T = TypeVar("T")
logger = logging.getLogger("controller.sandbox")

TICK_SECONDS = 0.05  # 20 ticks per second
_OVERLOAD_SECONDS = 2.0  # OVERLOADED_THRESHOLD (1 s) + 20 ticks: then "Can't keep up!" skips
_WARNING_INTERVAL = 15.0  # OVERLOADED_WARNING_INTERVAL (10 s) + 100 ticks
_OLD_TASK_TICKS = 3  # "Main thread": task.getTick() + 3 < tickCount


class TickingGame(Protocol):
    """What the tick loop needs from a game."""

    def tick(self) -> None:
        """Advance one game tick."""


class MainThreadStopped(RuntimeError):
    """Raised to callers whose task could not run because the main thread stopped."""


class _Task(Generic[T]):
    """A queued task (vanilla ``TickTask``: a runnable stamped with the tick it was queued at)."""

    __slots__ = ("_done", "error", "fn", "result", "tick")

    def __init__(self, fn: Callable[[], T], tick: int) -> None:
        self.fn = fn
        self.tick = tick
        self.result: T | None = None
        self.error: BaseException | None = None
        self._done = threading.Lock()  # held until the task completes (cheaper than an Event)
        self._done.acquire()

    def run(self) -> None:
        """Run the task, capturing its result or exception, then wake the waiter."""
        try:
            self.result = self.fn()
        except BaseException as exc:  # handed back to the caller's thread
            self.error = exc
        self._done.release()

    def fail(self, exc: BaseException) -> None:
        """Complete the task without running it."""
        self.error = exc
        self._done.release()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the task completed; False on timeout."""
        if self._done.acquire(timeout=-1 if timeout is None else timeout):
            self._done.release()
            return True
        return False

    def is_done(self) -> bool:
        """Whether the task has completed."""
        return not self._done.locked()

    def outcome(self) -> T:
        """The task's result, or raise its exception."""
        if self.error is not None:
            raise self.error
        return self.result  # type: ignore[return-value]


class MainThread:
    """A 20 TPS tick loop on one thread, with a task queue served the vanilla way."""

    def __init__(
        self,
        game: TickingGame,
        flavour: Literal["vanilla", "paper"] = "vanilla",
        name: str = "Server thread",
    ) -> None:
        self.game = game
        self.flavour = flavour
        self._name = name
        self._cond = threading.Condition()
        self._queue: collections.deque[_Task[Any]] = collections.deque()
        self._tick_count = 0  # vanilla tickCount: ticks started
        self._ticks_done = 0
        self._next_tick = 0.0
        self._delayed_max = 0.0
        self._may_have_delayed = False
        self._tick_ms: float = 0.0  # extra time each tick takes (lag injection); 0 = normal
        self._stopping = False
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start the tick loop thread."""
        if self._thread is not None:
            raise RuntimeError("main thread already started")
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the loop; queued tasks that never ran fail with MainThreadStopped."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        with self._cond:
            pending = list(self._queue)
            self._queue.clear()
        for task in pending:
            task.fail(MainThreadStopped("the server stopped before the task ran"))

    @property
    def running(self) -> bool:
        """Whether the loop thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def tick_count(self) -> int:
        """Vanilla ``tickCount``: ticks started since start (a running tick counts)."""
        return self._tick_count

    def pending(self) -> int:
        """Number of queued tasks not yet started."""
        with self._cond:
            return len(self._queue)

    def is_current(self) -> bool:
        """Whether the caller is running on this main thread."""
        return self._thread is threading.current_thread()

    # -- lag injection -----------------------------------------------------------------------

    @property
    def tick_ms(self) -> float:
        """How long each tick takes (ms); 0 means as long as the game's tick() takes."""
        return self._tick_ms

    def set_tick_ms(self, ms: float) -> None:
        """Make every tick take at least ``ms`` milliseconds (0 restores normal ticks)."""
        if ms < 0:
            raise ValueError("tick duration must be >= 0")
        self._tick_ms = float(ms)

    # -- tasks -------------------------------------------------------------------------------

    def submit(self, fn: Callable[[], T]) -> _Task[T]:
        """Queue ``fn`` to run on the main thread; returns the task handle."""
        with self._cond:
            if self._stopping:
                raise MainThreadStopped("the server is stopping")
            task: _Task[T] = _Task(fn, self._tick_count)
            self._queue.append(task)
            self._cond.notify_all()
        return task

    def call(self, fn: Callable[[], T], timeout: float | None = None) -> T:
        """Run ``fn`` on the main thread and wait for its result (vanilla ``executeBlocking``)."""
        if self.is_current():
            return fn()
        task = self.submit(fn)
        if not task.wait(timeout):
            raise TimeoutError("main thread did not run the task in time")
        return task.outcome()

    @property
    def ticks_done(self) -> int:
        """Ticks completed since start."""
        return self._ticks_done

    def wait_ticks(self, n: int, timeout: float | None = None) -> int:
        """Block until ``n`` more ticks have completed; returns the completed-tick count."""
        if self.is_current():
            raise RuntimeError("cannot wait for ticks on the main thread itself")
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            target = self._ticks_done + n
            while self._ticks_done < target:
                if self._stopping:
                    raise MainThreadStopped("the server stopped")
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise TimeoutError(f"waited for {n} ticks")
                self._cond.wait(remaining)
            return self._ticks_done

    # -- the loop ----------------------------------------------------------------------------

    def _have_time(self) -> bool:
        """Vanilla ``haveTime()`` (no task is ever running when this is asked here)."""
        limit = self._delayed_max if self._may_have_delayed else self._next_tick
        return time.monotonic() < limit

    def _poll_task(self, drain: bool = False) -> bool:
        """Vanilla ``pollTask``: run the head task if ``shouldRun`` allows it."""
        with self._cond:
            if self._stopping or not self._queue:
                task = None
            else:
                head = self._queue[0]
                if drain or head.tick + _OLD_TASK_TICKS < self._tick_count or self._have_time():
                    task = self._queue.popleft()
                else:
                    task = None
        if task is not None:
            task.run()
        self._may_have_delayed = task is not None
        return task is not None

    def _wait_for_tasks(self) -> None:
        """Vanilla ``waitForTasks``: park until the next tick time or until a task is queued."""
        with self._cond:
            if self._stopping or self._queue:
                return
            remaining = self._next_tick - time.monotonic()
            if remaining > 0:
                self._cond.wait(remaining)

    def _do_tick(self) -> None:
        """One game tick (counted in ``tickCount`` at its start), stretched to ``tick_ms``."""
        started = time.monotonic()
        with self._cond:
            self._tick_count += 1
        try:
            self.game.tick()
        except Exception:  # a crashing tick would stop vanilla; the sandbox logs and goes on
            logger.exception("Exception while ticking the game (tick %d)", self._tick_count)
        if self._tick_ms > 0:
            end = started + self._tick_ms / 1000.0
            while (left := end - time.monotonic()) > 0:
                time.sleep(left)
        with self._cond:
            self._ticks_done += 1
            self._cond.notify_all()

    def _run(self) -> None:
        """``runServer``: overload skip, tick, then ``waitUntilNextTick``."""
        self._next_tick = time.monotonic()
        last_warning = self._next_tick - _WARNING_INTERVAL
        while not self._stopping:
            behind = time.monotonic() - self._next_tick
            if behind > _OVERLOAD_SECONDS and self._next_tick - last_warning >= _WARNING_INTERVAL:
                skipped = int(behind / TICK_SECONDS)
                logger.warning(
                    "Can't keep up! Is the server overloaded? Running %dms or %d ticks behind",
                    int(behind * 1000),
                    skipped,
                )
                self._next_tick += skipped * TICK_SECONDS
                last_warning = self._next_tick
            self._next_tick += TICK_SECONDS
            if self.flavour == "paper":
                while self._poll_task(drain=True):  # Paper: runAllTasksAtTickStart
                    pass
            self._do_tick()
            heap.settle()  # (controller/sandbox/heap.py: the world out of full collections)
            self._may_have_delayed = True
            self._delayed_max = max(time.monotonic() + TICK_SECONDS, self._next_tick)
            # waitUntilNextTick: runAllTasks(), then managedBlock(() -> !haveTime())
            while self._poll_task():
                pass
            while not self._stopping and self._have_time():
                if not self._poll_task():
                    self._wait_for_tasks()
