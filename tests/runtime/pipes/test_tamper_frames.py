"""Frames the guard must know by UUID, in both detection modes, with the default audit interval
and the daemon's clock driven by the test (docs/reliability.md, "Tampering"): every frame of the
room killed (the hidden picture frames included), and look-alikes of a room frame (another
UUID, the same name, tags and picture) that players' reads name as the tile."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.config import WorldConfig
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.pipes.guard import IDLE_QUICK_CHECK_S
from controller.runtime.pipes.room import PipesRoom
from controller.sandbox import Sandbox
from controller.world import commands as cmd
from controller.world.geometry import frame_name, preload_uuid
from controller.world.replies import parse_count
from tests.support.harness import make_config, world_mismatches
from tests.support.tamper import StepClock, commands_sent, frames_in_box, pipes_room, run

DEFAULT_AUDIT_S = WorldConfig.model_fields["audit_interval_s"].default
STEP = 0.05


@pytest.fixture
def guarded(
    sandbox: Sandbox, detect: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Sandbox, Daemon, StepClock]]:
    """Both modes (the `sandbox` fixture: trigger worlds have the pack), default intervals."""
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    clock = StepClock()
    cfg = make_config(sandbox, tmp_path / "state", audit_interval_s=DEFAULT_AUDIT_S)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, clock=clock)
    daemon.start()
    assert daemon.detector("main").mode == detect
    sandbox.join("Alex", (3.5, 101, 3.5))
    step(daemon, clock, 2.0)
    yield sandbox, daemon, clock
    daemon.close()


def step(daemon: Daemon, clock: StepClock, seconds: float) -> None:
    for _ in range(round(seconds / STEP)):
        clock.now += STEP
        daemon.step()


def preloads(sb: Sandbox, room: PipesRoom) -> list[int]:
    """The map id each hidden picture frame holds (-1 for a missing one)."""

    def read(game: object) -> list[int]:
        out = []
        for k in range(len(room.pictures)):
            nbt = game.entity_nbt(preload_uuid(room.name, k))  # type: ignore[attr-defined]
            out.append(-1 if nbt is None else int(nbt["Item"]["components"]["minecraft:map_id"]))
        return out

    return sb.call(read)


def whole(sb: Sandbox, room: PipesRoom) -> bool:
    """The hidden frames first: the cheapest read, and the one most often still wrong."""
    return (
        preloads(sb, room) == list(room.pictures)
        and frames_in_box(sb, room) == room.board.size
        and not world_mismatches(sb, room)
    )


def until_whole(sb: Sandbox, daemon: Daemon, clock: StepClock, limit: float) -> float:
    """Step until the room is whole; compared after the first step and after each step that
    sent a command (as `until_repaired`: only the daemon's commands repair it)."""
    room = pipes_room(daemon)
    start = clock.now
    seen = -1
    while clock.now - start <= limit:
        clock.now += STEP
        daemon.step()
        sent = commands_sent(daemon)
        if sent != seen and whole(sb, room):
            return clock.now - start
        seen = sent
    raise AssertionError(
        f"not whole in {limit} s: {world_mismatches(sb, room)}, preloads {preloads(sb, room)}"
    )


def kill_every_frame(sb: Sandbox, room: PipesRoom) -> None:
    (xa, ya, za), (xb, yb, zb) = room.geom.bounds()
    box = f"x={xa},y={ya},z={za},dx={xb - xa},dy={yb - ya},dz={zb - za}"
    reply = run(sb, f"kill @e[type=minecraft:item_frame,{box}]")
    assert reply == [f"Killed {room.board.size + len(room.pictures)} entities"], reply


def test_every_frame_killed_comes_back_with_the_hidden_frames_within_2_s_while_players_are_near(
    guarded: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, clock = guarded
    room = pipes_room(daemon)
    assert whole(sb, room)
    kill_every_frame(sb, room)
    assert until_whole(sb, daemon, clock, 2.0) <= 2.0
    assert any(rep.preloads_summoned == len(room.pictures) for rep in room.guard.repairs)


def test_every_frame_killed_comes_back_with_the_hidden_frames_within_11_s_with_nobody_near(
    guarded: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, clock = guarded
    room = pipes_room(daemon)
    sb.leave("Alex")
    step(daemon, clock, 3.0)
    assert not daemon.detector("main").awake
    kill_every_frame(sb, room)
    limit = IDLE_QUICK_CHECK_S + 1.0
    assert until_whole(sb, daemon, clock, limit) <= limit


def test_hidden_frames_killed_alone_come_back_within_one_frame_round(
    guarded: tuple[Sandbox, Daemon, StepClock],
) -> None:
    """No box count sees them (they hang below the room's box): the frame round counts them
    too, every 2 × `liveness_interval_s` while players are near."""
    sb, daemon, clock = guarded
    room = pipes_room(daemon)
    run(sb, cmd.kill_preloads(room.geom, room.frame_kind))
    limit = 2 * room.cfg.liveness_interval_s + 0.5
    assert until_whole(sb, daemon, clock, limit) <= limit


def look_alike(room: PipesRoom, i: int, j: int, pos: tuple[int, int, int], rotation: int) -> str:
    """A frame copying tile (i, j)'s NBT (name, tags, picture) with another UUID."""
    idx = j * room.board.width + i
    tags = ",".join(f'"{t}"' for t in cmd.frame_tags(room.name, room.board.rotations[idx]))
    x, y, z = pos
    return (
        f"summon minecraft:item_frame {x} {y} {z} {{Facing:1b,Invulnerable:1b,Silent:1b,"
        f'ItemRotation:{rotation}b,CustomName:"{frame_name(room.name, i, j)}",Tags:[{tags}],'
        f'Item:{{id:"minecraft:filled_map",count:1,components:{{"minecraft:map_id":'
        f"{room.map_id(idx)}}}}}}}"
    )


def click(sb: Sandbox, room: PipesRoom, i: int, j: int) -> None:
    x, y, z = room.geom.frame_pos(i, j)
    sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
    assert sb.use_entity("Alex", room.uuids[j * room.board.width + i])


@pytest.mark.parametrize("where", ["on_the_tile", "outside_the_box"])
def test_a_look_alike_counts_no_move_and_is_removed_within_1_s_by_the_guard(
    guarded: tuple[Sandbox, Daemon, StepClock], where: str
) -> None:
    """Players click next to a look-alike of tile (1, 1) showing another rotation: the reads
    name it as the tile, the tile's UUID refutes it, no move is counted, and the guard (its
    1 s liveness check, or at once when a read was refuted) removes it."""
    sb, daemon, clock = guarded
    room = pipes_room(daemon)
    idx = room.board.width + 1
    rotation = (room.board.rotations[idx] + 2) % 4
    if where == "on_the_tile":
        pos = room.geom.frame_pos(1, 1)
    else:  # just west of the room's border, within a player's reach of tile (0, 1)
        x, y, z = room.geom.frame_pos(0, 1)
        pos = (x - 3, y, z)
        run(sb, f"setblock {pos[0]} {pos[1] - 1} {pos[2]} minecraft:stone")
    moves, rotations = room.current_state.moves, list(room.board.rotations)
    click(sb, room, 0, 1)  # a real click first, so the look-alike is near a clicker
    reply = run(sb, look_alike(room, 1, 1, pos, rotation))
    assert reply[0].startswith("Summoned new"), reply
    click(sb, room, 1, 2)
    started = clock.now
    named = f'execute if entity @e[type=minecraft:item_frame,name="{frame_name(room.name, 1, 1)}"]'
    while clock.now - started <= 1.0 and parse_count(run(sb, named)[0]) != 1:
        clock.now += STEP
        daemon.step()
    assert clock.now - started <= 1.0, "the look-alike is still there"
    step(daemon, clock, 1.0)
    expected = list(rotations)
    expected[1 * room.board.width + 0] = (expected[room.board.width] + 1) % 4
    expected[2 * room.board.width + 1] = (expected[2 * room.board.width + 1] + 1) % 4
    assert room.board.rotations == expected
    assert room.current_state.moves == moves + 2  # the two clicks, nothing else
    assert whole(sb, room), world_mismatches(sb, room)


def test_repair_fixes_a_tile_behind_a_look_alike_that_keeps_the_counts(
    guarded: tuple[Sandbox, Daemon, StepClock],
) -> None:
    """The tile's own frame lost its tags and shows another picture; a look-alike with the
    right name, tags and picture stands in for it, so every count the reads make is right.
    `pipesctl repair` checks the frames by UUID first: the look-alike goes, the tile's frame
    gets its tags and picture back."""
    sb, daemon, clock = guarded
    room = pipes_room(daemon)
    idx = room.board.width + 1
    uid = room.uuids[idx]
    x, y, z = room.geom.frame_pos(1, 1)
    run(sb, f"data merge entity {uid} {{Tags:[]}}")
    run(sb, f'data modify entity {uid} Item.components."minecraft:map_id" set value 4242')
    run(sb, look_alike(room, 1, 1, (x, y + 1, z), room.board.rotations[idx]))
    moves = room.current_state.moves
    from controller.runtime.requests import RepairRequest

    room.handle_request(daemon.links["main"], RepairRequest())
    assert whole(sb, room), world_mismatches(sb, room)
    assert room.current_state.moves == moves
    step(daemon, clock, 2.0)
    assert whole(sb, room) and room.current_state.moves == moves
