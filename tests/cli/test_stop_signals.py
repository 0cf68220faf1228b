"""A real `pipesctl start` stopped by signals at random moments: exit 0 within 5 s of the first
SIGTERM / SIGINT from every phase, the state intact, an interrupted build finished by the next
start (docs/reliability.md, "Stopping"). `bench/stop_time.py` runs the same over more runs."""

from __future__ import annotations

import contextlib
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.config import load_config
from controller.runtime.journal import journal_path
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.state import RoomState
from controller.sandbox import Sandbox
from tests.support.harness import world_mismatches
from tests.support.stop_runs import DaemonProcess, RoomSetup, state_readable, stop_once

WITHIN_S = 5.0


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    with Sandbox() as sb:
        yield sb


def _check(run_log: str, code: int, seconds: float, what: str) -> None:
    assert code == 0, f"{what}: exit {code}\n{run_log}"
    assert seconds <= WITHIN_S, f"{what}: {seconds:.2f} s to stop\n{run_log}"
    assert "Traceback" not in run_log, run_log


def _finish_and_compare(sb: Sandbox, setup: RoomSetup, tmp: Path) -> str:
    """Start the room again until it is ready, stop it, and compare the world with its state."""
    daemon = DaemonProcess(setup, sb, tmp / "again.log")
    try:
        daemon.wait_for("ready, puzzle")
        # a request the first run put back is carried out now: let it finish before the stop,
        # or this run's own stop may cut it short again (the next start would finish it then)
        deadline = time.monotonic() + 10.0
        while any(setup.state_dir.glob(f"{setup.room}.request*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        seconds = daemon.stop((signal.SIGTERM,), gap=0.0)
    finally:
        daemon.kill()
    _check(daemon.text(), daemon.proc.returncode, seconds, "restart")
    cfg = load_config(setup.config)
    room = PipesRoom(setup.room, cfg.worlds[setup.room], setup.state_dir)
    assert room.load()
    assert not journal_path(setup.state_dir, setup.room).exists()
    assert world_mismatches(sb, room) == []
    return daemon.text()


@pytest.mark.parametrize("seed", range(3))
def test_a_build_stops_within_seconds_and_the_next_start_finishes_it(
    sandbox: Sandbox, tmp_path: Path, seed: int
) -> None:
    rng = random.Random(1000 + seed)
    setup = RoomSetup.write(tmp_path, sandbox, f"b{seed}", 31, z=40 * (seed + 1))
    run = stop_once(sandbox, setup, "build", rng, tmp_path / "build.log")
    _check(run.log, run.exit_code, run.seconds, f"build, seed {seed}, {run.signals}")
    assert state_readable(setup)
    again = _finish_and_compare(sandbox, setup, tmp_path)
    if run.journal_left:  # stopped half-way: the same puzzle, finished, not a new one
        assert "an interrupted build was finished" in again
        state = RoomState.load(setup.state_dir / f"{setup.room}.json")
        assert state is not None and state.puzzle_number == 1


PHASE_RUNS = [
    *((p, s) for p in ("play", "down", "request", "paused") for s in range(2)),
    ("silent", 0),
]


@pytest.mark.parametrize(("phase", "seed"), PHASE_RUNS)
def test_every_phase_stops_within_seconds(
    sandbox: Sandbox, tmp_path: Path, phase: str, seed: int
) -> None:
    rng = random.Random(f"{phase}-{seed}")
    where = -20 * (1 + PHASE_RUNS.index((phase, seed)))  # a room of its own: no lease to wait
    setup = RoomSetup.write(tmp_path, sandbox, f"{phase}{seed}", 7, z=where)
    run = stop_once(sandbox, setup, phase, rng, tmp_path / f"{phase}.log")
    _check(run.log, run.exit_code, run.seconds, f"{phase}, seed {seed}, {run.signals}")
    assert state_readable(setup)
    if phase in ("down", "silent"):  # not asked to take the lease back: it expires
        assert "lease left to expire" in run.log
    _finish_and_compare(sandbox, setup, tmp_path)


def _catches(pid: int, sig: int) -> bool:
    """Whether the process has a handler for `sig` (Linux: SigCgt in /proc/<pid>/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(mask, 16) >> (sig - 1) & 1)


def test_a_sigterm_while_demo_imports_is_an_interruption(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "controller.cli", "demo", "--size", "5"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while not _catches(proc.pid, signal.SIGTERM):  # demo() has begun, its imports not yet
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.001)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    assert proc.returncode == 130, err
    assert "demo interrupted" in err and "Traceback" not in err


def test_under_systemd_ready_comes_after_the_build_then_the_watchdog_then_stopping(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    address = str(tmp_path / "notify.sock")
    manager = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    manager.bind(address)
    manager.settimeout(20.0)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "400000")  # a ping every 0.2 s
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    setup = RoomSetup.write(tmp_path, sandbox, "lobby", 7)
    daemon = DaemonProcess(setup, sandbox, tmp_path / "notify.log")
    try:
        ready = manager.recv(4096).decode()
        assert ready.startswith("READY=1\n") and "STATUS=rooms lobby ready" in ready
        assert "ready, puzzle" in daemon.text()  # READY only once the room is up
        pings = [manager.recv(4096) for _ in range(3)]
        assert pings == [b"WATCHDOG=1"] * 3
        seconds = daemon.stop((signal.SIGTERM,), gap=0.0)
        rest = []
        manager.settimeout(0.5)
        with contextlib.suppress(TimeoutError):
            while True:
                rest.append(manager.recv(4096))
    finally:
        daemon.kill()
        manager.close()
    _check(daemon.text(), daemon.proc.returncode, seconds, "under systemd")
    assert any(m.startswith(b"STOPPING=1") for m in rest), rest
