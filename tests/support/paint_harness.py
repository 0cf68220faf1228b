"""Paint rooms in the sandbox for the tests: a small paint room's configuration, and the
cell-by-cell check of the world against the engine's canvas and target."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.config import Config, parse_config
from controller.runtime.paint.room import PaintRoom
from controller.sandbox import Sandbox
from controller.world.mapids import brush_map_id
from controller.world.paint.geometry import BORDER_BLOCK

__all__ = ["paint_data", "paint_config", "world_mismatches"]


def paint_data(sb: Sandbox, state_dir: Path, **paint: Any) -> dict[str, Any]:
    """A 5x4 paint room `lobby` at (0, 100, 0), a strokes target with par 6 (as a config
    document)."""
    return {
        "state_dir": str(state_dir),
        "servers": {"main": {"host": "127.0.0.1", "port": sb.port, "password_env": "SANDBOX_PW"}},
        "worlds": {
            "lobby": {
                "kind": "paint",
                "paint": {"generator": "strokes", "par": 6, **paint},
                "origin": [0, 100, 0],
                "size": [5, 4],
                "seed": 11,
                "audit_interval_s": 0,
                "on_win": {"next_puzzle_after_s": 0.2},
            }
        },
    }


def paint_config(sb: Sandbox, state_dir: Path, **paint: Any) -> Config:
    """The configuration of `paint_data`."""
    return parse_config(paint_data(sb, state_dir, **paint))


def world_mismatches(sb: Sandbox, room: PaintRoom) -> list[str]:
    """Every canvas, target and border block and every brush frame that differs from the
    engine's canvas and target."""
    geom, state = room.geom, room.current_state
    expected: dict[tuple[int, int, int], str] = {}
    i0, j0, i1, j1 = geom.plane_extent()
    for i in range(i0, i1 + 1):
        for j in range(j0, j1 + 1):
            expected[geom.plane(i, j)] = BORDER_BLOCK
    for i, j in geom.cells():
        expected[geom.cell_pos(i, j)] = room.block(state.canvas[i, j])
        if geom.target_offset is not None:
            expected[geom.target_pos(i, j)] = room.block(state.puzzle.target[i, j])
    for brush in room.brushes:
        expected[geom.frame_pos(brush.i, brush.j)] = "minecraft:air"

    def read(game: Any) -> tuple[dict[Any, str], dict[Any, Any]]:
        blocks = {pos: game.block(*pos) for pos in expected}
        nbts = {key: game.entity_nbt(uid) for key, uid in room.uuids.items()}
        return blocks, nbts

    blocks, nbts = sb.call(read)
    problems = [
        f"{pos}: {blocks[pos]} != {want}"
        for pos, want in expected.items()
        if blocks[pos].split("[")[0] != want
    ]
    for brush in room.brushes:
        nbt = nbts[(brush.i, brush.j)]
        if nbt is None:
            problems.append(f"brush {brush.describe()}: missing")
            continue
        got = (int(nbt["ItemRotation"]), int(nbt["Item"]["components"]["minecraft:map_id"]))
        tags = {str(t) for t in nbt.get("Tags", [])}
        want = (0, brush_map_id(room.cfg.map_id_base, brush.axis))
        facing = int(nbt["Facing"])
        if got != want or not {"pipes", "pipes.lobby", "pipes.r0", "pipes.paint"} <= tags:
            problems.append(f"brush {brush.describe()}: {got} {sorted(tags)}")
        if (int(nbt["Silent"]), int(nbt["Invulnerable"]), int(nbt["Fixed"])) != (1, 1, 0):
            problems.append(f"brush {brush.describe()}: flags")
        if facing != geom.facing:
            problems.append(f"brush {brush.describe()}: facing {facing}")
    return problems
