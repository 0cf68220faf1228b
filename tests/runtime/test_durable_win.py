"""A crash at any moment of the win flow loses no solve and counts none twice; feedback
commands that fail never end the daemon."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.errors import RconError
from controller.puzzle.play import PlayState
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.runtime.link import CommandClient
from controller.sandbox import Sandbox
from tests.support.fence import unfenced
from tests.support.harness import make_config


class Crash(BaseException):
    """Stands for SIGKILL: nothing after it runs (the state on disk is what was saved)."""


class CrashAfter:
    """A transport that dies after `budget` more commands."""

    def __init__(self, inner: CommandClient, budget: int) -> None:
        self.inner, self.budget = inner, budget

    def command(self, command: str, *, prefix: bool = False) -> str:
        if self.budget <= 0:
            raise Crash
        self.budget -= 1
        return self.inner.command(command, prefix=prefix)

    def close(self) -> None:
        self.inner.close()  # type: ignore[attr-defined]


def _killed(daemon: Daemon) -> None:
    """What SIGKILL leaves: sockets and file locks gone, nothing else done (the lease stays)."""
    for link in daemon.links.values():
        client = link.client
        getattr(client, "inner", client).close()
    for lock in daemon.locks:
        lock.release()


def _solves(sb: Sandbox, name: str) -> int:
    reply = sb.call(lambda g: g.execute(f"scoreboard players get {name} pipes_solves"))
    return int(reply[0].split(" has ")[1].split(" ")[0]) if " has " in reply[0] else 0


def _solve_until_one_click_left(daemon: Daemon, sb: Sandbox) -> int:
    room = daemon.rooms["lobby"]
    order = solution_order(room.board)
    w = room.board.width
    while True:
        idx = next_click(room.board, order)
        assert idx is not None
        sb.move("Alex", (idx % w + 0.5, 101, idx // w + 0.5))
        assert not room.play_state.solved
        trial = room.board.copy()
        trial.rotations[idx] = (trial.rotations[idx] + 1) % 4
        if PlayState(trial).solved:
            return idx  # the winning click
        assert sb.use_entity("Alex", room.uuids[idx])
        daemon.poll("main")


@pytest.mark.parametrize("budget", [0, 1, 2, 3, 4, 5, 6, 8, 10, 14, 20])
def test_a_crash_anywhere_in_the_win_flow_pays_the_solve_exactly_once(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, budget: int
) -> None:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path, size=4, seed=3, on_win={"next_puzzle_after_s": 60})
    sandbox.join("Alex", (1.5, 101, 1.5))
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, lease_ticks=2)
    daemon.start()
    idx = _solve_until_one_click_left(daemon, sandbox)
    moves = daemon.rooms["lobby"].current_state.moves
    link = daemon.links["main"]
    link.client = CrashAfter(link.client, budget)
    assert sandbox.use_entity("Alex", daemon.rooms["lobby"].uuids[idx])
    try:
        daemon.poll("main")
        for _ in range(3):
            daemon.step()
    except Crash:
        pass
    _killed(daemon)
    sandbox.tick(3)  # the dead daemon's lease (2 ticks) expires
    again = Daemon(cfg, ["lobby"], connect=connect_server, lease_ticks=2)
    again.start()
    again.step()
    state = again.rooms["lobby"].current_state
    assert len(state.solves) == 1 and state.solves[0].moves == moves + 1
    assert state.win_phase == "paid" or state.puzzle_number == 2
    assert _solves(sandbox, "Alex") == 1
    again.step()
    assert _solves(sandbox, "Alex") == 1
    again.close()


def test_a_failing_feedback_command_is_skipped(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path, size=4, seed=3, on_win={"next_puzzle_after_s": 60})
    sandbox.join("Alex", (1.5, 101, 1.5))
    daemon = Daemon(cfg, ["lobby"], connect=connect_server)
    daemon.start()
    idx = _solve_until_one_click_left(daemon, sandbox)
    link = daemon.links["main"]
    inner = link.client

    class Refuses:
        def command(self, command: str, *, prefix: bool = False) -> str:
            bare = unfenced(command)
            if bare.startswith(("title", "tellraw")) or " playsound " in bare:
                raise RconError("command is 1564 UTF-8 bytes")
            return inner.command(command, prefix=prefix)

        def close(self) -> None:
            inner.close()  # type: ignore[attr-defined]

    link.client = Refuses()
    assert sandbox.use_entity("Alex", daemon.rooms["lobby"].uuids[idx])
    daemon.poll("main")
    state = daemon.rooms["lobby"].current_state
    assert len(state.solves) == 1 and state.win_phase == "paid"
    assert _solves(sandbox, "Alex") == 1
    daemon.close()
