"""The end-to-end harness: a configuration pointing at a sandbox, a daemon on it, a world checker.

``tests/runtime/conftest.py`` builds the ``harness`` fixture from these; other suites use
``make_config`` and ``world_mismatches`` directly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config, parse_config
from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.puzzle.closed import closed_tiles
from controller.puzzle.flow import compute_flow
from controller.puzzle.model import CROSS, HOLE, Board, Direction, TileClass, map_id
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.runtime.pipes.room import PipesRoom
from controller.sandbox import Sandbox
from controller.world.geometry import (
    EDGE_OFF,
    EDGE_ON,
    SINK_EMPTY,
    SINK_FULL,
    shadow_of,
    state_block,
)
from controller.world.mapids import sink_map_id
from tests.support.grammar import assert_valid_commands

__all__ = ["Harness", "make_config", "world_mismatches", "harness_with_pack", "pack_harness"]


def make_config(
    sb: Sandbox, state_dir: Path, size: int = 7, seed: int = 7, detect: str = "auto", **world: Any
) -> Config:
    """One server (the sandbox, turn detection `detect`) and a room `lobby` at (0, 100, 0)."""
    lobby: dict[str, Any] = {
        "server": "main",
        "origin": [0, 100, 0],
        "size": [size, size],
        "seed": seed,
        "poll_scope": "near_players",
        "audit_interval_s": 0,
        "on_win": {"next_puzzle_after_s": 0.2, "waves_s": 0},
    }
    lobby.update(world)
    data = {
        "state_dir": str(state_dir),
        "servers": {
            "main": {
                "host": "127.0.0.1",
                "port": sb.port,
                "password_env": "SANDBOX_PW",
                "detect": detect,
            }
        },
        "worlds": {"lobby": lobby},
    }
    return parse_config(data)


@dataclass
class Harness:
    """A sandbox plus a daemon on it."""

    sb: Sandbox
    cfg: Config
    daemon: Daemon

    @property
    def room(self) -> PipesRoom:
        return self.daemon.rooms["lobby"]

    def solve(self) -> None:
        """Click along the solution, one click a poll, until the board is solved."""
        room = self.room
        order = solution_order(room.board)
        for _ in range(4 * room.board.size):
            idx = next_click(room.board, order)
            if idx is None:
                return
            self.click(idx % room.board.width, idx // room.board.width)
            self.daemon.poll("main")

    def click(self, i: int, j: int, times: int = 1, player: str = "Alex") -> None:
        """The player turns a frame, standing right next to it."""
        x, y, z = self.room.geom.frame_pos(i, j)
        self.sb.move(player, (x + 0.5, y + 1, z + 0.5))
        for _ in range(times):
            assert self.sb.use_entity(player, self.room.uuids[j * self.room.board.width + i])

    def regular_poll(self) -> int:
        """One regular poll (no gap, so no full read); the commands it sent."""
        daemon = self.daemon
        daemon.last_poll["main"] = daemon.clock.monotonic()
        sent = daemon.links["main"].sent
        daemon.poll("main")
        return daemon.links["main"].sent - sent


def _same_block(got: str, want: str) -> bool:
    """Equal states; a wanted block without properties accepts any (default) properties."""
    return got == want or ("[" not in want and got.split("[")[0] == want)


def _picture(base: int, board: Board, idx: int, cls: int, axes: int = 0) -> int:
    """The map id a tile must show (docs/world-format.md; sink rooms' fixed pictures, a
    cross's picture of its wet axes at base+20..23)."""
    if board.shapes[idx] == CROSS:
        return base + 20 + axes
    if board.mode == "sink" and board.sink is not None:
        if idx == board.source_index:
            return sink_map_id(base, "source")
        if idx == board.index(*board.sink):
            return sink_map_id(base, "sink_dry" if cls == TileClass.DRY else "sink_wet")
    return map_id(base, board.shapes[idx], cls)


def world_mismatches(sb: Sandbox, room: PipesRoom) -> list[str]:
    """Every block and frame of the room that differs from a full recompute of its board (a
    sink room's cauldron and `Fixed` flags included, and each frame's entity type)."""
    board = room.board
    flow = compute_flow(board)
    closed = closed_tiles(board)
    geom = room.geom
    n = board.size
    holes: list[int] = []
    expected: dict[tuple[int, int, int], str] = {}
    frames: dict[int, tuple[int, int]] = {}
    for idx, (i, j) in enumerate(geom.tiles()):
        hole = board.shapes[idx] == HOLE  # no frame, its own floor block (world format 8)
        expected[geom.state_pos(i, j)] = (
            "minecraft:polished_blackstone"
            if hole
            else state_block(flow.classes[idx], flow.parent[idx], idx in closed)
        )
        east = board.connected(idx, Direction.E)
        south = board.connected(idx, Direction.S)
        expected[geom.east_pos(i, j)] = EDGE_ON if east else EDGE_OFF
        expected[geom.south_pos(i, j)] = EDGE_ON if south else EDGE_OFF
        if hole:
            holes.append(idx)
            continue
        frames[idx] = (
            board.rotations[idx],
            _picture(
                room.cfg.map_id_base, board, idx, flow.classes[idx], (flow.axes or [0] * n)[idx]
            ),
        )
    for x in range(geom.x0 - 1, geom.x0 + board.width + 1):
        for z in range(geom.z0 - 1, geom.z0 + board.height + 1):
            ring = x in (geom.x0 - 1, geom.x0 + board.width) or z in (
                geom.z0 - 1,
                geom.z0 + board.height,
            )
            for y in range(geom.y0 - 3, geom.y0) if ring else ():
                expected[(x, y, z)] = "minecraft:oak_log"
    # world format 5: the shadow layers copy the block map three blocks lower
    expected.update({shadow_of(pos): block for pos, block in list(expected.items())})
    if board.sink is not None:
        wet = flow.classes[board.index(*board.sink)] != TileClass.DRY
        expected[geom.sink_pos(*board.sink)] = SINK_FULL if wet else SINK_EMPTY

    def read(game: Any) -> tuple[dict[tuple[int, int, int], str], dict[int, Any], dict[int, str]]:
        blocks = {pos: game.block(*pos) for pos in expected}
        nbts = {idx: game.entity_nbt(room.uuids[idx]) for idx in [*frames, *holes]}
        kinds = {
            idx: game.world.entities[room.uuids[idx]].type_id
            for idx in frames
            if nbts[idx] is not None
        }
        return blocks, nbts, kinds

    blocks, nbts, kinds = sb.call(read)
    kind = f"minecraft:{room.frame_kind}"  # the world's `frame:` setting
    problems = [f"frame {idx}: a {got}" for idx, got in kinds.items() if got != kind]
    problems += [
        f"{pos}: {blocks[pos]} != {want}"
        for pos, want in expected.items()
        if not _same_block(blocks[pos], want)
    ]
    problems += [f"frame {idx}: on a hole" for idx in holes if nbts[idx] is not None]
    for idx, (rotation, mid) in frames.items():
        nbt = nbts[idx]
        if nbt is None:
            problems.append(f"frame {idx}: missing")
            continue
        got_rot = int(nbt["ItemRotation"])
        got_map = int(nbt["Item"]["components"]["minecraft:map_id"]) if "Item" in nbt else -1
        tags = {str(t) for t in nbt.get("Tags", [])}
        if (got_rot, got_map) != (rotation, mid) or f"pipes.r{rotation}" not in tags:
            problems.append(f"frame {idx}: rot {got_rot} map {got_map} tags {sorted(tags)}")
        if ("pipes.fixed" in tags) != (idx in board.fixed):
            problems.append(f"frame {idx}: tags {sorted(tags)}")
        if int(nbt.get("Fixed", 0)) != (idx in board.fixed):
            problems.append(f"frame {idx}: Fixed {int(nbt.get('Fixed', 0))}")
    return problems


def harness_with_pack(
    files: dict[str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Harness]:
    """A sandbox whose world holds the data pack `files`, a started daemon on room `lobby` and
    the player Alex on it (for fixtures: `yield from harness_with_pack(...)`)."""
    world = tmp_path / "world"
    install_pack(world / "datapacks" / PACK_FOLDER, files)
    with Sandbox(world_dir=world) as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        cfg = make_config(sb, tmp_path / "state")
        daemon = Daemon(cfg, ["lobby"], connect=connect_server)
        daemon.start()
        sb.join("Alex", (3.5, 101, 3.5))
        yield Harness(sb, cfg, daemon)
        daemon.close()


def pack_harness(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    setup: str,
    files: dict[str, bytes],
    players: dict[str, tuple[float, float, float]],
    **world: Any,
) -> Iterator[Harness]:
    """For the controls' fixtures: the data pack `files` installed and detection as `setup`
    says (`trigger`, `scan+pack`; `none`: no pack, scan mode), a started daemon recording its
    commands on room `lobby` (`world`: its settings beyond `make_config`'s), `players` on it;
    at the end every command sent after the build must be vanilla grammar."""
    where = tmp_path / "world"
    if setup != "none":
        install_pack(where / "datapacks" / PACK_FOLDER, files)
    with Sandbox(world_dir=where) as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        detect = "scan" if setup != "trigger" else "auto"
        cfg = make_config(sb, tmp_path / "state", detect=detect, **world)
        daemon = Daemon(cfg, ["lobby"], connect=connect_server, record=True)
        daemon.start()
        built = len(daemon.links["main"].record)  # the build's commands are checked elsewhere
        for name, pos in players.items():
            sb.join(name, pos)
        yield Harness(sb, cfg, daemon)
        assert_valid_commands(sorted(set(daemon.links["main"].record[built:])))
        daemon.close()
