"""Stopping a real `pipesctl start` process at random moments, for the tests and the benchmark.

One run starts the daemon on a sandbox server, drives it into a phase (building its room,
playing, its server down and the daemon in reconnect backoff, its server silent (the main
thread busy until the daemon has exited, 8 s at most: commands wait unanswered), carrying out
an admin request, or after a SIGSTOP/SIGCONT pause), sends a random pattern of signals and
measures the time from the first signal to the process's exit.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from controller.runtime.control import write_request
from controller.runtime.journal import journal_path
from controller.runtime.requests import HintRequest, ResetRequest
from controller.runtime.state import RoomState
from controller.sandbox import Sandbox

__all__ = ["PHASES", "SIGNAL_PATTERNS", "StopRun", "DaemonProcess", "RoomSetup", "stop_once"]

PHASES = ("build", "play", "down", "silent", "request", "paused")
SIGNAL_PATTERNS: tuple[tuple[signal.Signals, ...], ...] = (
    (signal.SIGTERM,),
    (signal.SIGINT,),
    (signal.SIGTERM, signal.SIGTERM),
    (signal.SIGINT, signal.SIGINT),
    (signal.SIGTERM, signal.SIGINT),
)
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class StopRun:
    """One stop: the phase, the signals sent, the seconds from the first to the exit."""

    phase: str
    signals: tuple[str, ...]
    seconds: float
    exit_code: int
    log: str
    journal_left: bool = False
    notes: list[str] = field(default_factory=list)


@dataclass
class RoomSetup:
    """A room's configuration file on the sandbox, and where its state goes."""

    config: Path
    room: str
    state_dir: Path

    @classmethod
    def write(cls, folder: Path, sb: Sandbox, room: str, size: int, z: int = 0) -> RoomSetup:
        """A configuration with one room of `size`×`size` tiles at z = `z`."""
        folder.mkdir(parents=True, exist_ok=True)
        state_dir = folder / "state"
        config = folder / f"{room}.yaml"
        config.write_text(
            f"state_dir: {state_dir}\n"
            f"servers:\n  main: {{host: 127.0.0.1, port: {sb.port}, password_env: PIPES_PW}}\n"
            f"worlds:\n  {room}:\n    origin: [0, 100, {z}]\n    size: [{size}, {size}]\n"
            "    seed: 4\n    audit_interval_s: 0\n",
            encoding="utf-8",
        )
        return cls(config, room, state_dir)


class DaemonProcess:
    """`pipesctl start` as a child process, its log in a file."""

    def __init__(self, setup: RoomSetup, sb: Sandbox, log: Path) -> None:
        self.setup, self.log = setup, log
        env = {**os.environ, "PIPES_PW": sb.password}
        argv = [sys.executable, "-m", "controller.cli", "start", "-w", setup.room]
        argv += ["-c", str(setup.config)]
        self._out = log.open("w", encoding="utf-8")
        self.proc = subprocess.Popen(argv, env=env, stderr=self._out, cwd=ROOT)

    def text(self) -> str:
        """Everything logged so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def wait_for(self, needle: str, timeout: float = 60.0) -> None:
        """Wait until the log contains `needle` (AssertionError with the log past `timeout`)."""
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"no {needle!r} in the daemon's log:\n{self.text()}")
            time.sleep(0.02)

    def stop(self, signals: tuple[signal.Signals, ...], gap: float, timeout: float = 30.0) -> float:
        """Send the signals `gap` seconds apart; seconds from the first to the exit."""
        started = time.monotonic()
        for k, sig in enumerate(signals):
            if k:
                time.sleep(gap)
            if self.proc.poll() is None:
                self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(
                f"no exit {timeout:.0f} s after {signals}:\n{self.text()}"
            ) from None
        seconds = time.monotonic() - started
        self._out.close()
        return seconds

    def kill(self) -> None:
        """Make sure the process is gone."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._out.close()


def stop_once(sb: Sandbox, setup: RoomSetup, phase: str, rng: random.Random, log: Path) -> StopRun:
    """Start the daemon, drive it into `phase`, stop it with a random signal pattern."""
    daemon = DaemonProcess(setup, sb, log)
    pattern = rng.choice(SIGNAL_PATTERNS)
    notes: list[str] = []
    busy: threading.Thread | None = None
    answer = threading.Event()  # the silent server's main thread is busy until this is set
    try:
        if phase == "build":
            daemon.wait_for("lease taken")
            time.sleep(rng.uniform(0.0, 1.2))
        else:
            daemon.wait_for("ready, puzzle")
        if phase == "play":
            time.sleep(rng.uniform(0.0, 1.0))
        elif phase == "down":
            sb.go_down()
            daemon.wait_for("connection lost")
            time.sleep(rng.uniform(0.0, 3.0))
        elif phase == "silent":  # the server's main thread busy (8 s at most): no replies
            busy = threading.Thread(target=lambda: sb.call(lambda game: answer.wait(8.0)))
            busy.start()
            time.sleep(rng.uniform(0.3, 1.5))
        elif phase == "request":
            request = ResetRequest(rng.randrange(1000)) if rng.random() < 0.5 else HintRequest()
            write_request(setup.state_dir, setup.room, request)
            time.sleep(rng.uniform(0.0, 0.15))
            notes.append(type(request).__name__)
        elif phase == "paused":
            daemon.proc.send_signal(signal.SIGSTOP)
            time.sleep(rng.uniform(0.2, 1.5))
            daemon.proc.send_signal(signal.SIGCONT)
            time.sleep(rng.uniform(0.0, 0.2))
        seconds = daemon.stop(pattern, gap=rng.uniform(0.0, 0.05))
    finally:
        daemon.kill()  # the daemon is gone: a silent server may answer again
        answer.set()
        if phase == "down" and not sb.running:
            sb.come_back()
        if busy is not None:
            busy.join()
    return StopRun(
        phase,
        tuple(s.name for s in pattern),
        seconds,
        daemon.proc.returncode,
        daemon.text(),
        journal_left=journal_path(setup.state_dir, setup.room).exists(),
        notes=notes,
    )


def state_readable(setup: RoomSetup) -> bool:
    """Whether the room's state file loads."""
    path = setup.state_dir / f"{setup.room}.json"
    return not path.exists() or RoomState.load(path) is not None
