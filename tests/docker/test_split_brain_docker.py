"""No split brain on a real server: a `pipesctl start` frozen (SIGSTOP) in the middle of its
build, its lease run out with `/tick sprint`, a second daemon from another state directory
taking the room over, then the first resumed (SIGCONT). Its resumed build is refused by the
fence: the world stays the second daemon's room, checked through the image's rcon-cli
(docs/reliability.md, "One owner per room")."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from controller.config import load_config
from controller.puzzle.flow import compute_flow
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.state import RoomState
from controller.world.geometry import state_block
from tests.support.docker_server import McServer, rcon_cli
from tests.support.split_brain import LOST_LINE, owner_of
from tests.support.stop_runs import DaemonProcess, RoomSetup

pytestmark = pytest.mark.docker

ROOM = "split"


def _setup(folder: Path, mc: McServer) -> RoomSetup:
    folder.mkdir(parents=True, exist_ok=True)
    state_dir = folder / "state"
    config = folder / "split.yaml"
    config.write_text(
        f"state_dir: {state_dir}\n"
        f"servers:\n  mc: {{host: {mc.host}, port: {mc.rcon_port}, password_env: PIPES_PW, "
        f"version: '{mc.version}', timeout: 10.0}}\n"
        f"worlds:\n  {ROOM}:\n    origin: [48, 100, 48]\n    size: [15, 15]\n    seed: 5\n"
        f"    map_id_base: {mc.map_id_base}\n    audit_interval_s: 0\n",
        encoding="utf-8",
    )
    return RoomSetup(config, ROOM, state_dir)


def _game_time(mc: McServer) -> int:
    return int(rcon_cli(mc.container, "time query gametime").split()[4])


def test_a_resumed_owner_leaves_the_new_owners_room_alone(
    mc_server: McServer, tmp_path: Path
) -> None:
    mc = mc_server
    first = DaemonProcess(_setup(tmp_path / "a", mc), mc, tmp_path / "a.log")  # type: ignore[arg-type]
    second: DaemonProcess | None = None
    try:
        first.wait_for("lease taken", timeout=120)
        time.sleep(0.3)
        os.kill(first.proc.pid, signal.SIGSTOP)  # in the middle of its build
        start = _game_time(mc)
        rcon_cli(mc.container, "tick sprint 500")
        deadline = time.monotonic() + 60
        while _game_time(mc) < start + 450:
            assert time.monotonic() < deadline, "the sprint did not finish"
            time.sleep(0.2)
        b = _setup(tmp_path / "b", mc)
        second = DaemonProcess(b, mc, tmp_path / "b.log")  # type: ignore[arg-type]
        second.wait_for("ready, puzzle", timeout=120)
        os.kill(first.proc.pid, signal.SIGCONT)
        first.wait_for(LOST_LINE, timeout=60)
        time.sleep(2.0)
        text = first.text()
        assert text.count(LOST_LINE) == 1
        assert f"room {ROOM}: lease lost to owner {owner_of(b)} at " in text
        _check_world(mc, b)
        assert first.stop((signal.SIGTERM,), 0.0) < 10
    finally:
        if first.proc.poll() is None:
            os.kill(first.proc.pid, signal.SIGCONT)
        first.kill()
        if second is not None:
            second.stop((signal.SIGTERM,), 0.0)


def _check_world(mc: McServer, setup: RoomSetup) -> None:
    """Every frame's rotation and every water block as the new owner's state has them."""
    cfg = load_config(setup.config)
    state = RoomState.load(setup.state_dir / f"{ROOM}.json")
    assert state is not None
    room = PipesRoom(ROOM, cfg.worlds[ROOM], setup.state_dir)
    board = state.board
    flow = compute_flow(board)
    rotations = rcon_cli(
        mc.container,
        f"execute as @e[type=item_frame,tag=pipes.{ROOM},tag=pipes] "
        "run data get entity @s ItemRotation",
    )
    for idx, (i, j) in enumerate(room.geom.tiles()):
        assert f"pipes:{ROOM}:{i}:{j} has the following entity data: {board.rotations[idx]}b" in (
            rotations
        )
        x, y, z = room.geom.state_pos(i, j)
        block = state_block(flow.classes[idx], flow.parent[idx])
        assert rcon_cli(mc.container, f"execute if block {x} {y} {z} {block}") == "Test passed"
