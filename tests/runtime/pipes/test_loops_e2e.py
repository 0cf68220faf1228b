"""Dry loops and closed islands in a room, end to end against the sandbox (world format 7):
clicks that close a loop write its tiles' blocks and nothing else, a click that breaks it writes
them back, the tamper guard restores a loop block, and a room of format 6 shows its closed tiles
after its next start (docs/world-format.md, "Tile states")."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.puzzle.closed import closed_tiles
from controller.puzzle.flow import compute_flow
from controller.puzzle.model import Board, Direction, Shape, bit, mask_of
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.state import LOOP_FORMAT, RoomState
from controller.sandbox import Sandbox
from controller.world.geometry import CLOSED_BLOCK, Pos, shadow_of, state_block
from tests.support.harness import make_config, world_mismatches
from tests.support.tamper import StepClock, pipes_room, run, until_repaired

SIZE = 7
Looped = tuple[Daemon, StepClock, list[tuple[int, int]]]
SETBLOCK = re.compile(r"setblock (-?\d+) (-?\d+) (-?\d+) ")

# the arms each corner of a 2x2 square needs, pointing into the square: NW, NE, SW, SE
INWARD = (
    bit(Direction.E) | bit(Direction.S),
    bit(Direction.S) | bit(Direction.W),
    bit(Direction.N) | bit(Direction.E),
    bit(Direction.N) | bit(Direction.W),
)


def loop_plan(board: Board) -> list[tuple[int, int]] | None:
    """(tile, rotation) for the four tiles of a 2x2 square of corners and tees that turns them
    into a dry loop, the tile that closes it last; None when the board has no such square."""
    for j in range(board.height - 1):
        for i in range(board.width - 1):
            square = [board.index(i, j), board.index(i + 1, j)]
            square += [board.index(i, j + 1), board.index(i + 1, j + 1)]
            if board.source_index in square:
                continue
            plan = []
            for v, need in zip(square, INWARD, strict=True):
                if board.shapes[v] not in (Shape.CORNER, Shape.TEE):
                    break
                # the fewest clockwise clicks to a rotation with both inward arms
                fits = [r for r in range(4) if mask_of(board.shapes[v], r) & need == need]
                r = min(fits, key=lambda r: (r - board.rotations[v]) % 4)  # noqa: B023
                plan.append((v, r))
            else:
                after = board.copy()
                for v, r in plan:
                    after.rotations[v] = r
                last = plan[-1]
                before_last = board.copy()
                for v, r in plan[:-1]:
                    before_last.rotations[v] = r
                if (
                    set(square) <= closed_tiles(after)
                    and not set(square) <= closed_tiles(before_last)
                    and before_last.rotations[last[0]] != last[1]
                ):
                    return plan
    return None


def shown_blocks(board: Board) -> dict[int, str]:
    """The state-layer block of every tile, from full recomputes."""
    flow = compute_flow(board)
    closed = closed_tiles(board)
    return {v: state_block(flow.classes[v], flow.parent[v], v in closed) for v in range(board.size)}


def expected_writes(room: PipesRoom, before: Board, after: Board) -> set[Pos]:
    """The blocks a move must set: the state blocks that differ, the edge blocks that differ,
    each with its shadow."""
    geom = room.geom
    old, new = shown_blocks(before), shown_blocks(after)
    out: set[Pos] = set()
    for v in range(after.size):
        i, j = v % after.width, v // after.width
        if old[v] != new[v]:
            out.add(geom.state_pos(i, j))
        if before.connected(v, Direction.E) != after.connected(v, Direction.E):
            out.add(geom.east_pos(i, j))
        if before.connected(v, Direction.S) != after.connected(v, Direction.S):
            out.add(geom.south_pos(i, j))
    return out | {shadow_of(p) for p in out}


@pytest.fixture
def sb(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        monkeypatch.setenv("SANDBOX_PW", sandbox.password)
        yield sandbox


def start(sb: Sandbox, tmp_path: Path, clock: StepClock) -> Daemon:
    daemon = Daemon(
        make_config(sb, tmp_path, size=SIZE, seed=11), ["lobby"],
        connect=connect_server, clock=clock, record=True,
    )  # fmt: skip
    daemon.start()
    return daemon


def step(daemon: Daemon, clock: StepClock, seconds: float) -> None:
    end = clock.now + seconds
    while clock.now < end - 1e-9:
        clock.now += 0.05
        daemon.step()


def click(sb: Sandbox, daemon: Daemon, clock: StepClock, v: int, times: int) -> list[str]:
    """Alex clicks tile v `times` times; the commands the daemon sent until it settled."""
    room = pipes_room(daemon)
    x, y, z = room.geom.frame_pos(v % SIZE, v // SIZE)
    sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
    record = daemon.links["main"].record
    assert record is not None
    first = len(record)
    for _ in range(times):
        assert sb.use_entity("Alex", room.uuids[v])
    step(daemon, clock, 0.3)
    return record[first:]


def block(sb: Sandbox, pos: Pos) -> str:
    """The block at pos, with its state (`minecraft:pearlescent_froglight[axis=y]`)."""
    found: str = sb.call(lambda g: g.block(*pos))
    return found


def set_positions(commands: list[str]) -> list[Pos]:
    """Where the commands set a block, one entry per `setblock`."""
    out: list[Pos] = []
    for c in commands:
        for m in SETBLOCK.finditer(c):
            out.append((int(m[1]), int(m[2]), int(m[3])))
    return out


@pytest.fixture
def looped(
    sb: Sandbox, tmp_path: Path
) -> Iterator[tuple[Daemon, StepClock, list[tuple[int, int]]]]:
    """A started room on a puzzle with a square that four turns make a dry loop, the first three
    made (the last one is the test's)."""
    clock = StepClock()
    daemon = start(sb, tmp_path, clock)
    try:
        sb.join("Alex", (1.5, 101, 1.5))
        step(daemon, clock, 1.0)
        room = pipes_room(daemon)
        seed = next(s for s in range(1, 200) if loop_plan(room.new_board(2, s)) is not None)
        room.reset(daemon.links["main"], seed)
        plan = loop_plan(room.board)
        assert plan is not None
        for v, r in plan[:-1]:
            clicks = (r - room.board.rotations[v]) % 4
            if clicks:
                click(sb, daemon, clock, v, clicks)
        assert world_mismatches(sb, room) == []
        yield daemon, clock, plan
    finally:
        daemon.close()


def test_a_click_that_closes_a_loop_writes_its_tiles_and_one_that_breaks_it_writes_them_back(
    sb: Sandbox, looped: Looped
) -> None:
    daemon, clock, plan = looped
    room = pipes_room(daemon)
    square = [v for v, _ in plan]
    last, rotation = plan[-1]
    before = room.board.copy()
    sent = click(sb, daemon, clock, last, (rotation - before.rotations[last]) % 4)
    assert room.board.rotations[last] == rotation
    for v in square:
        pos = room.geom.state_pos(v % SIZE, v // SIZE)
        assert block(sb, pos).startswith(CLOSED_BLOCK)
        assert block(sb, shadow_of(pos)).startswith(CLOSED_BLOCK)
    assert world_mismatches(sb, room) == []
    # the click writes exactly the blocks that changed, each once, and nothing else
    writes = set_positions(sent)
    assert sorted(writes) == sorted(expected_writes(room, before, room.board))
    assert {room.geom.state_pos(v % SIZE, v // SIZE) for v in square} <= set(writes)

    # one more click on the same tile breaks the loop: its tiles show their water state again
    looped_board = room.board.copy()
    sent = click(sb, daemon, clock, last, 1)
    assert not set(square) <= closed_tiles(room.board)
    assert world_mismatches(sb, room) == []
    assert sorted(set_positions(sent)) == sorted(expected_writes(room, looped_board, room.board))
    pos = room.geom.state_pos(last % SIZE, last // SIZE)
    assert not block(sb, pos).startswith(CLOSED_BLOCK)


@pytest.mark.parametrize("tamper", ["minecraft:air", "minecraft:melon"])
def test_the_guard_puts_a_loop_block_back(sb: Sandbox, looped: Looped, tamper: str) -> None:
    daemon, clock, plan = looped
    room = pipes_room(daemon)
    last, rotation = plan[-1]
    click(sb, daemon, clock, last, (rotation - room.board.rotations[last]) % 4)
    v = plan[0][0]
    x, y, z = room.geom.state_pos(v % SIZE, v // SIZE)
    # a hole, or the dry block that the tile showed before format 7: both differ from the shadow
    run(sb, f"setblock {x} {y} {z} {tamper}")
    assert world_mismatches(sb, room) != []
    assert until_repaired(sb, daemon, clock, 5.0) <= 5.0
    assert block(sb, (x, y, z)).startswith(CLOSED_BLOCK)


def test_a_format_6_room_shows_its_closed_tiles_after_its_next_start(
    sb: Sandbox,
    tmp_path: Path,
    looped: Looped,
    caplog: pytest.LogCaptureFixture,
) -> None:
    daemon, clock, plan = looped
    room = pipes_room(daemon)
    last, rotation = plan[-1]
    click(sb, daemon, clock, last, (rotation - room.board.rotations[last]) % 4)
    closed = closed_tiles(room.board)
    assert closed
    # the room as format 6 left it: every dry tile melon, in the block map and its shadow
    for v in closed:
        pos = room.geom.state_pos(v % SIZE, v // SIZE)
        for x, y, z in (pos, shadow_of(pos)):
            run(sb, f"setblock {x} {y} {z} minecraft:melon")
    room.current_state.world_format = 6
    room.save()
    daemon.close()
    with caplog.at_level(logging.INFO, logger="controller.runtime"):
        again = start(sb, tmp_path, clock)
    try:
        room = pipes_room(again)
        assert room.current_state.world_format == LOOP_FORMAT == 7
        saved = RoomState.load(room.path)
        assert saved is not None and saved.world_format == LOOP_FORMAT
        assert world_mismatches(sb, room) == []
        for v in closed:
            assert block(sb, room.geom.state_pos(v % SIZE, v // SIZE)).startswith(CLOSED_BLOCK)
        lines = [r.getMessage() for r in caplog.records]
        assert any("world format 7: tiles on dry loops" in m and CLOSED_BLOCK in m for m in lines)
    finally:
        again.close()
