"""controller/stopping.py: the stop flag, the signal handlers, the worker threads, the bounded
wait of the main thread."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from controller.stopping import (
    STOP_SIGNALS,
    StopFlag,
    StopSignals,
    handle_stop_signals,
    run_until_stopped,
    worker,
)


def test_the_flag_wakes_every_waiter_at_once() -> None:
    flag = StopFlag()
    assert not flag.wait(0.01) and not flag.is_set()
    woke: list[float] = []

    def waiter() -> None:
        flag.wait(10.0)
        woke.append(time.monotonic())

    threads = [threading.Thread(target=waiter) for _ in range(5)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    set_at = time.monotonic()
    flag.set()
    flag.set()  # twice is harmless
    for t in threads:
        t.join(5.0)
    assert len(woke) == 5 and max(woke) - set_at < 1.0
    assert flag.wait(None) and flag.wait(0.0)
    flag.close()
    assert flag.is_set()


def test_the_handler_records_and_sets_nothing_else() -> None:
    signals = StopSignals(StopFlag())
    signals.handler(signal.SIGTERM, None)
    signals.handler(signal.SIGINT, None)
    assert signals.received == [signal.SIGTERM, signal.SIGINT]
    assert signals.flag.is_set() and signals.first() == "SIGTERM"
    signals.close()


def test_worker_threads_block_the_stop_signals() -> None:
    seen: list[set[int]] = []
    thread = worker(lambda: seen.append(signal.pthread_sigmask(signal.SIG_BLOCK, [])), "w")
    thread.join(5.0)
    assert set(STOP_SIGNALS) <= seen[0]
    assert not set(STOP_SIGNALS) & signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_run_until_stopped_hands_back_the_result_and_the_error() -> None:
    with handle_stop_signals() as signals:
        assert run_until_stopped(lambda: 42, signals).result == 42

        def broken() -> None:
            raise ValueError("boom")

        with pytest.raises(ValueError, match="boom"):
            run_until_stopped(broken, signals)


def test_a_stop_reaches_the_work_and_a_stuck_work_is_left_after_the_grace() -> None:
    with handle_stop_signals() as signals:
        flag = signals.flag
        told: list[str] = []
        threading.Timer(0.1, flag.set).start()
        finished = run_until_stopped(lambda: flag.wait(10.0), signals, on_stop=told.append)
        assert finished.stopped and finished.result is True and not finished.abandoned
        assert told == ["a stop request"]
        started = time.monotonic()
        stuck = threading.Event()
        finished = run_until_stopped(lambda: stuck.wait(30.0), signals, grace=0.3)
        assert finished.abandoned and time.monotonic() - started < 2.0
        stuck.set()


SCRIPT = textwrap.dedent(
    """
    import sys, threading, time
    from controller.stopping import handle_stop_signals, run_until_stopped

    mode = sys.argv[1]
    lock = threading.Lock()
    with handle_stop_signals() as signals:
        print("ready", flush=True)
        if mode == "busy":  # the main thread keeps taking and giving a lock: the old handler's
            while not signals.flag.is_set():  # Event.set deadlocked against exactly this
                with lock:
                    pass
        elif mode == "worker":  # the work never looks at the flag: the grace ends it
            finished = run_until_stopped(lambda: time.sleep(60), signals, grace=0.5)
            print("abandoned" if finished.abandoned else "finished", flush=True)
        elif mode == "stuck":  # a stop that never completes: the third signal ends it
            run_until_stopped(lambda: time.sleep(60), signals, grace=60.0)
    print("stopped", signals.received, flush=True)
    """
)


def _script(mode: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def test_signals_pouring_in_never_hang_a_busy_main_thread() -> None:
    for _ in range(5):
        proc = _script("busy")
        for sig in (signal.SIGTERM, signal.SIGTERM):
            proc.send_signal(sig)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        assert "stopped" in out and "Traceback" not in err


def test_a_signal_stops_the_wait_and_a_late_one_is_harmless() -> None:
    proc = _script("worker")
    time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert out.split()[0] == "abandoned"


def test_the_third_signal_exits_at_once_and_says_so() -> None:
    proc = _script("stuck")
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGTERM):
        proc.send_signal(sig)
        time.sleep(0.2)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 128 + signal.SIGTERM
    assert "SIGTERM received 3 times: exiting at once" in err
    assert "stopped" not in out
