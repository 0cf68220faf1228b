"""The sandbox's single "server thread": a 20 TPS tick loop that runs queued tasks between ticks.

Modelled on vanilla ``MinecraftServer.runServer`` (reference vanilla.md §2.1): after each tick the
server waits for the next tick time and, while it waits (``waitUntilNextTick`` → ``managedBlock``),
runs queued tasks; a task also runs when it is older than 3 ticks even if the server has no time
left (``shouldRun(task) = task.getTick() + 3 < tickCount || haveTime()``). So an RCON command is
answered promptly when the server is idle and waits while a (slow) tick is running. On Paper
(paper.md §1.2, "improve tick loop") queued tasks are also drained at the start of every tick.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, Literal, Protocol, TypeVar

__all__ = ["MainThread", "MainThreadStopped", "TickingGame"]

T = TypeVar("T")
logger = logging.getLogger("controller.sandbox")

TICK_SECONDS = 0.05  # 20 ticks per second
_OVERLOAD_SECONDS = 2.0  # vanilla skips ahead ("Can't keep up!") when more than 2 s behind
_OLD_TASK_TICKS = 3  # vanilla.md §2.1: task.getTick() + 3 < tickCount


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
        self._tick_count = 0
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
        """Ticks completed since start."""
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

    def wait_ticks(self, n: int, timeout: float | None = None) -> int:
        """Block until ``n`` more ticks have completed; returns the tick count reached."""
        if self.is_current():
            raise RuntimeError("cannot wait for ticks on the main thread itself")
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            target = self._tick_count + n
            while self._tick_count < target:
                if self._stopping:
                    raise MainThreadStopped("the server stopped")
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise TimeoutError(f"waited for {n} ticks")
                self._cond.wait(remaining)
            return self._tick_count

    # -- the loop ----------------------------------------------------------------------------

    def _pop_runnable(self, have_time: bool) -> _Task[Any] | None:
        """Next task allowed to run now (vanilla ``shouldRun``), or None. Caller holds the lock."""
        if not self._queue:
            return None
        task = self._queue[0]
        if have_time or task.tick + _OLD_TASK_TICKS < self._tick_count:
            return self._queue.popleft()
        return None

    def _run_tasks(self, next_tick: float, drain: bool = False) -> None:
        """Run queued tasks that may run now (all of them when ``drain``)."""
        while True:
            with self._cond:
                if self._stopping:
                    return
                have_time = drain or time.monotonic() < next_tick
                task = self._pop_runnable(have_time)
            if task is None:
                return
            task.run()

    def _do_tick(self) -> None:
        """One game tick, stretched to ``tick_ms`` when lag is injected."""
        started = time.monotonic()
        try:
            self.game.tick()
        except Exception:  # a crashing tick would stop vanilla; the sandbox logs and goes on
            logger.exception("Exception while ticking the game (tick %d)", self._tick_count)
        if self._tick_ms > 0:
            end = started + self._tick_ms / 1000.0
            while (left := end - time.monotonic()) > 0:
                time.sleep(left)
        with self._cond:
            self._tick_count += 1
            self._cond.notify_all()

    def _run(self) -> None:
        """The server loop: tick, then serve tasks until the next tick is due."""
        next_tick = time.monotonic()
        while True:
            with self._cond:
                if self._stopping:
                    return
            now = time.monotonic()
            if now - next_tick > _OVERLOAD_SECONDS:
                next_tick = now  # "Can't keep up!": skip the missed ticks
            next_tick += TICK_SECONDS
            if self.flavour == "paper":
                self._run_tasks(next_tick, drain=True)  # runAllTasksAtTickStart
            self._do_tick()
            # waitUntilNextTick: runAllTasks, then managedBlock until !haveTime()
            self._run_tasks(next_tick)
            while True:
                with self._cond:
                    if self._stopping:
                        return
                    remaining = next_tick - time.monotonic()
                    if remaining <= 0:
                        break
                    if not self._queue:
                        self._cond.wait(remaining)
                        continue
                self._run_tasks(next_tick)
