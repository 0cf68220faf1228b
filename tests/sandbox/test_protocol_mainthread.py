"""The main thread's task scheduling, tested on MainThread alone.

Sources: docs/server-behaviour.md, "Main thread" and "Paper: tick loop".

Only orderings that the code guarantees are asserted (no timings): a task never runs during a
tick; a backlog gets ~50 ms after each tick but runs regardless once more than 3 ticks old; Paper
drains the queue at the start of every tick.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Literal

import pytest

from controller.sandbox.mainthread import MainThread, MainThreadStopped


class CountingGame:
    """Counts ticks and flags when a tick is running."""

    def __init__(self) -> None:
        self.ticks = 0
        self.in_tick = False

    def tick(self) -> None:
        """One tick."""
        self.in_tick = True
        self.ticks += 1
        self.in_tick = False


@pytest.fixture
def game() -> CountingGame:
    """A fresh counting game."""
    return CountingGame()


def _running(game: CountingGame, flavour: Literal["vanilla", "paper"]) -> Iterator[MainThread]:
    main = MainThread(game, flavour)
    main.start()
    try:
        yield main
    finally:
        main.stop()


@pytest.fixture
def vanilla(game: CountingGame) -> Iterator[MainThread]:
    """A running vanilla main thread."""
    yield from _running(game, "vanilla")


@pytest.fixture
def paper(game: CountingGame) -> Iterator[MainThread]:
    """A running paper main thread."""
    yield from _running(game, "paper")


def test_call_runs_on_the_server_thread_between_ticks(
    vanilla: MainThread, game: CountingGame
) -> None:
    """Main thread: executeBlocking runs the task on the main thread, outside any tick."""
    for _ in range(50):
        name, in_tick = vanilla.call(lambda: (threading.current_thread().name, game.in_tick))
        assert (name, in_tick) == ("Server thread", False)


def test_call_propagates_exceptions(vanilla: MainThread) -> None:
    """The caller sees the task's exception (the server turns it into Error executing)."""

    def fail() -> None:
        raise ValueError("bad")

    with pytest.raises(ValueError, match="bad"):
        vanilla.call(fail)


def test_tasks_run_in_submission_order(vanilla: MainThread) -> None:
    """Tasks are a FIFO queue."""
    order: list[int] = []
    gate = threading.Event()
    blocker = vanilla.submit(lambda: gate.wait(10))
    tasks = [vanilla.submit(lambda i=i: order.append(i)) for i in range(20)]
    gate.set()
    for task in [blocker, *tasks]:
        assert task.wait(10)
    assert order == list(range(20))


def test_wait_ticks_counts_ticks(vanilla: MainThread, game: CountingGame) -> None:
    """The loop keeps ticking; wait_ticks(n) returns after at least n more completed ticks."""
    start = vanilla.ticks_done
    reached = vanilla.wait_ticks(3, timeout=30)
    assert reached >= start + 3
    assert game.ticks >= reached


def test_vanilla_task_backlog_spreads_over_ticks_until_3_ticks_old(vanilla: MainThread) -> None:
    """Main thread ([C261] MayaanServer): after a tick, tasks get at most ~50 ms
    (delayedTasksMax...); the rest waits for the next tick, unless older than 3 ticks
    (tick + 3 < tickCount)."""
    gate = threading.Event()
    blocker = vanilla.submit(lambda: gate.wait(10))
    # 12 tasks of >= 40 ms: at most 2 fit a window, so without the 3-tick rule they would need
    # at least 6 ticks; with it, everything left runs at tickCount = stamp + 4.
    tasks = [vanilla.submit(lambda: (time.sleep(0.04), vanilla.tick_count)[1]) for _ in range(12)]
    gate.set()
    assert all(task.wait(30) for task in [blocker, *tasks])
    stamp = blocker.tick
    assert {task.tick for task in tasks} == {stamp}
    ran_at = [task.outcome() for task in tasks]
    assert ran_at == sorted(ran_at)
    assert len(set(ran_at)) >= 2  # 480 ms of tasks never fit one 50 ms window
    assert max(ran_at) <= stamp + 4  # at tickCount = stamp + 4 every remaining task runs


def test_vanilla_lagging_ticks_still_serve_tasks(vanilla: MainThread, game: CountingGame) -> None:
    """Slow ticks (60 ms > 50 ms): tasks still run, never during a tick, within 4 ticks."""
    vanilla.set_tick_ms(60)
    vanilla.wait_ticks(2, timeout=30)
    for _ in range(5):
        task = vanilla.submit(lambda: (vanilla.tick_count, game.in_tick))
        assert task.wait(10)
        ran_at, in_tick = task.outcome()
        assert not in_tick
        assert task.tick <= ran_at <= task.tick + 4
    vanilla.set_tick_ms(0)


def test_paper_drains_tasks_at_tick_start_even_when_lagging(paper: MainThread) -> None:
    """Paper: tick loop: runAllTasksAtTickStart, so a task runs before the next tick begins."""
    paper.set_tick_ms(60)
    paper.wait_ticks(2, timeout=30)
    for _ in range(5):
        task = paper.submit(lambda: paper.tick_count)
        assert task.wait(10)
        assert task.outcome() == task.tick
    paper.set_tick_ms(0)


def test_stop_fails_queued_tasks(game: CountingGame) -> None:
    """Tasks still queued when the server stops fail instead of hanging their callers."""
    main = MainThread(game)
    main.start()
    gate = threading.Event()
    blocker = main.submit(lambda: gate.wait(10))
    queued = main.submit(lambda: 1)
    stopper = threading.Thread(target=main.stop)
    stopper.start()
    gate.set()
    stopper.join(10)
    assert blocker.is_done()
    assert queued.wait(10)
    with pytest.raises(MainThreadStopped):
        queued.outcome()
    with pytest.raises(MainThreadStopped):
        main.submit(lambda: 2)


def test_negative_tick_ms_rejected(vanilla: MainThread) -> None:
    """Lag injection takes a non-negative duration."""
    with pytest.raises(ValueError):
        vanilla.set_tick_ms(-1)
