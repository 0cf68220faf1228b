"""Two `pipesctl start` processes on one room: the owner frozen (SIGSTOP) in the middle of a
turn, its lease expired, a second daemon from another state directory taking the room over,
then the first resumed (docs/reliability.md, "One owner per room"). Used by
`tests/cli/test_split_brain.py` (sandbox) and `tests/docker/test_split_brain_docker.py`.
"""

from __future__ import annotations

import time
from pathlib import Path

from controller.sandbox import Sandbox
from tests.support.stop_runs import DaemonProcess, RoomSetup

__all__ = ["LOST_LINE", "room_config", "owner_of", "wait_until"]

LOST_LINE = "lease lost to owner"


def room_config(folder: Path, port: int, detect: str, size: int = 3) -> RoomSetup:
    """A configuration of room `lobby` (`size`×`size` at the origin) with its own state
    directory in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    state_dir = folder / "state"
    config = folder / "lobby.yaml"
    config.write_text(
        f"state_dir: {state_dir}\n"
        f"servers:\n  main: {{host: 127.0.0.1, port: {port}, password_env: PIPES_PW, "
        f"detect: {detect}}}\n"
        f"worlds:\n  lobby:\n    origin: [0, 100, 0]\n    size: [{size}, {size}]\n"
        "    seed: 4\n    audit_interval_s: 0\n",
        encoding="utf-8",
    )
    return RoomSetup(config, "lobby", state_dir)


def owner_of(setup: RoomSetup) -> int:
    """The lease id the daemon on `setup` runs the room under (`<state_dir>/lobby.owner`)."""
    return int((setup.state_dir / "lobby.owner").read_text(encoding="utf-8").strip())


def wait_until(check: object, daemon: DaemonProcess, timeout: float = 30.0) -> None:
    """Wait until `check()` is true (AssertionError with the daemon's log past `timeout`)."""
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out; daemon log:\n{daemon.text()}")
        time.sleep(0.02)


def start(setup: RoomSetup, sb: Sandbox, log: Path) -> DaemonProcess:
    """`pipesctl start` on `setup`, waited for until its room is ready."""
    daemon = DaemonProcess(setup, sb, log)
    daemon.wait_for("ready, puzzle")
    return daemon
