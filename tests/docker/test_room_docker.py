"""A real room on a real server (itzg/minecraft-server), checked through the image's rcon-cli."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.config import parse_config
from controller.puzzle.flow import compute_flow
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.world.geometry import state_block
from tests.support.docker_server import McServer, rcon_cli

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def daemon(mc_server: McServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    import os

    os.environ["PIPESCTL_TEST_RCON"] = mc_server.password
    cfg = parse_config(
        {
            "state_dir": str(tmp_path_factory.mktemp("state")),
            "servers": {
                "mc": {
                    "host": mc_server.host,
                    "port": mc_server.rcon_port,
                    "password_env": "PIPESCTL_TEST_RCON",
                    "version": mc_server.version,
                    "timeout": 10.0,
                }
            },
            "worlds": {
                "dock": {
                    "server": "mc",
                    "origin": [0, 100, 0],
                    "size": [15, 15],
                    "seed": 3,
                    "poll_scope": "all",
                    "map_id_base": mc_server.map_id_base,
                    "audit_interval_s": 0,
                }
            },
        }
    )
    d = Daemon(cfg, ["dock"], connect=connect_server)
    d.start()
    yield d
    d.close()


def _check_world(mc_server: McServer, d: Daemon) -> None:
    room = d.rooms["dock"]
    board = room.board
    flow = compute_flow(board)
    count = rcon_cli(
        mc_server.container, "execute if entity @e[type=item_frame,tag=pipes.dock,tag=pipes]"
    )
    assert count == f"Test passed. Count: {board.size}"
    rotations = rcon_cli(
        mc_server.container,
        "execute as @e[type=item_frame,tag=pipes.dock,tag=pipes] "
        "run data get entity @s ItemRotation",
    )
    for idx, (i, j) in enumerate(room.geom.tiles()):
        assert (
            f"pipes:dock:{i}:{j} has the following entity data: {board.rotations[idx]}b"
            in rotations
        )
        x, y, z = room.geom.state_pos(i, j)
        block = state_block(flow.classes[idx], flow.parent[idx])
        got = rcon_cli(mc_server.container, f"execute if block {x} {y} {z} {block}")
        assert got == "Test passed", (i, j, block)


def test_room_is_built_as_the_engine_says(mc_server: McServer, daemon: Daemon) -> None:
    _check_world(mc_server, daemon)
    mid = rcon_cli(
        mc_server.container,
        f'data get entity {daemon.rooms["dock"].uuids[0]} Item.components."minecraft:map_id"',
    )
    assert mid.endswith(str(daemon.rooms["dock"]._map_id(0)))


def test_turned_frames_are_applied(mc_server: McServer, daemon: Daemon) -> None:
    room = daemon.rooms["dock"]
    before = list(room.board.rotations)
    rcon_cli(
        mc_server.container,
        f"data modify entity {room.uuids[0]} ItemRotation set value {before[0] + 1}b",
    )
    rcon_cli(
        mc_server.container,
        f"data modify entity {room.uuids[16]} ItemRotation set value {before[16] + 6}b",
    )
    daemon.step()
    assert room.board.rotations[0] == (before[0] + 1) % 4
    assert room.board.rotations[16] == (before[16] + 6) % 4
    _check_world(mc_server, daemon)


def test_server_restart_is_survived_without_losing_moves(
    mc_server: McServer, daemon: Daemon, tmp_path: Path
) -> None:
    room = daemon.rooms["dock"]
    assert room.state is not None
    moves = room.state.moves
    rcon_cli(
        mc_server.container,
        f"data modify entity {room.uuids[3]} ItemRotation set value {room.board.rotations[3] + 1}b",
    )
    daemon.step()
    mc_server.container.get_wrapped_container().restart(timeout=60)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        daemon.step()
        if not daemon.down and daemon.polls:
            try:
                rcon_cli(mc_server.container, "list")
                break
            except RuntimeError:
                pass
        time.sleep(2)
    for _ in range(5):
        daemon.step()
    assert room.state.moves == moves + 1
    _check_world(mc_server, daemon)
