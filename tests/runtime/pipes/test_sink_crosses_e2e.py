"""End to end against the sandbox, in both detection modes: a sink room with crosses
(`crosses: 1.0`), and one with holes too (`holes: true`), is built, its route played from the
source to the sink, the water crossing the crosses, and won; every command is vanilla
grammar."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.puzzle.model import CROSS, HOLE, TileClass
from controller.puzzle.sink import route_steps
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.state import SINK_WORLD_FORMAT
from controller.sandbox import Sandbox
from controller.world.geometry import HOLE_BLOCK
from tests.support.grammar import assert_valid_commands
from tests.support.harness import Harness, make_config, world_mismatches

BASE = 1_000_000


@pytest.fixture
def crossing(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Harness]:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path / "state", seed=15, mode="sink", coverage=0.5, crosses=1.0)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, record=True)
    daemon.start()
    sandbox.join("Alex", (3.5, 101, 3.5))
    yield Harness(sandbox, cfg, daemon)
    daemon.close()


def _map(h: Harness, idx: int) -> int:
    nbt = h.sb.call(lambda g: g.entity_nbt(h.room.uuids[idx]))
    return int(nbt["Item"]["components"]["minecraft:map_id"])


def test_a_room_with_crosses_is_built_with_fixed_cross_frames(crossing: Harness) -> None:
    room, sb = crossing.room, crossing.sb
    board = room.board
    crosses = [t for t in range(board.size) if board.shapes[t] == CROSS]
    assert len(crosses) == 2 and set(crosses) <= board.fixed
    assert world_mismatches(sb, room) == []
    for t in crosses:
        assert _map(crossing, t) == BASE + 20 + room.play_state.axes[t]
    preload = sb.call(
        lambda g: g.execute("execute if entity @e[type=item_frame,tag=pipes.preload]")
    )
    assert preload == ["Test passed. Count: 26"]  # 18 pipes, 3 fixed, 5 crosses
    assert room.current_state.world_format == SINK_WORLD_FORMAT == 8
    # a click on a cross turns nothing: its frame is Fixed
    x, y, z = room.geom.frame_pos(*board.coords(crosses[0]))
    sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
    assert not sb.use_entity("Alex", room.uuids[crosses[0]])
    crossing.daemon.poll("main")
    assert room.current_state.moves == 0 and world_mismatches(sb, room) == []


def test_water_runs_through_the_crosses_to_the_sink(crossing: Harness) -> None:
    room, sb, link = crossing.room, crossing.sb, crossing.daemon.links["main"]
    assert link.record is not None
    board = room.board
    steps = route_steps(board)
    seen_axes: dict[int, set[int]] = {}
    crosses = [t for t in range(board.size) if board.shapes[t] == CROSS]
    for t, _ in steps:
        if t in board.fixed:
            if board.shapes[t] == CROSS:
                seen_axes.setdefault(t, set()).add(room.play_state.axes[t])
                assert _map(crossing, t) == BASE + 20 + room.play_state.axes[t]
            continue
        clicks = (board.solution[t] - board.rotations[t]) % 4
        if clicks:
            before = list(room.play_state.axes)
            sent = len(link.record)
            crossing.click(*board.coords(t), times=clicks)
            crossing.daemon.poll("main")
            # a cross's picture is written once when its wet axes change, never otherwise
            for c in crosses:
                writes = [x for x in link.record[sent:] if str(room.uuids[c]) in x]
                changed = before[c] != room.play_state.axes[c]
                assert len(writes) == int(changed), (c, writes)
        if room.current_state.solved_at is not None:
            break
        assert world_mismatches(sb, room) == []
    state = room.current_state
    assert state.solved_at is not None
    sink = board.index(*board.sink)  # type: ignore[misc]
    assert room.play_state.classes[sink] != TileClass.DRY
    # Each cross was first met with water along one axis, and ends with both wet.
    for t, shown in seen_axes.items():
        assert room.play_state.axes[t] == 0b11, t
        assert shown & {0b01, 0b10}, shown
    progress = room.rules.progress(board, room.play_state)
    assert progress is not None and progress.sink and progress.reached == len(steps)
    assert_valid_commands(sorted(set(link.record)))


@pytest.fixture
def holey(sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(
        sandbox, tmp_path / "state", seed=15, mode="sink", coverage=0.5, crosses=1.0, holes=True
    )
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, record=True)
    daemon.start()
    sandbox.join("Alex", (3.5, 101, 3.5))
    yield Harness(sandbox, cfg, daemon)
    daemon.close()


def _frames(h: Harness) -> int:
    reply = h.sb.call(
        lambda g: g.execute("execute if entity @e[type=item_frame,tag=pipes.lobby,tag=pipes]")
    )
    return int(reply[0].rsplit(" ", 1)[1])


def test_holes_have_no_frame_and_their_own_floor_and_the_room_is_won(holey: Harness) -> None:
    room, sb, link = holey.room, holey.sb, holey.daemon.links["main"]
    assert link.record is not None
    board = room.board
    holes = [t for t in range(board.size) if board.shapes[t] == HOLE]
    assert holes and _frames(holey) == board.size - len(holes) == room.frame_count
    assert world_mismatches(sb, room) == []
    for t in holes:
        assert sb.call(lambda g, t=t: g.entity_nbt(room.uuids[t])) is None
        assert sb.call(lambda g, t=t: g.block(*room.geom.state_pos(*board.coords(t)))) == HOLE_BLOCK
    # the guard's counts and a reconcile find nothing to repair
    assert room.guard.alive(link) is True
    rep = room.reconcile(link)
    assert rep.total == 0 and not rep.notes, rep.describe()
    for t, _ in route_steps(board):
        clicks = (board.solution[t] - board.rotations[t]) % 4
        if clicks and t not in board.fixed:
            holey.click(*board.coords(t), times=clicks)
            holey.daemon.poll("main")
    assert room.current_state.solved_at is not None
    assert world_mismatches(sb, room) == []
    # the next puzzle: frames removed where holes are now, summoned where they left
    room.next_puzzle_at = room.clock.time()
    holey.daemon.step()
    assert room.current_state.puzzle_number == 2
    assert _frames(holey) == room.frame_count
    assert world_mismatches(sb, room) == []
    assert_valid_commands(sorted(set(link.record)))


def test_a_frame_summoned_on_a_hole_is_removed(holey: Harness) -> None:
    room, sb, link = holey.room, holey.sb, holey.daemon.links["main"]
    board = room.board
    hole = next(t for t in range(board.size) if board.shapes[t] == HOLE)
    stray = room.summon(hole, release=link.release)
    sb.call(lambda g: g.execute(stray))
    assert _frames(holey) == room.frame_count + 1
    assert room.guard.alive(link) is False
    room.reconcile(link)
    assert _frames(holey) == room.frame_count
    assert world_mismatches(sb, room) == []


def test_status_gives_the_route_progress_and_counts_frames_without_holes(holey: Harness) -> None:
    from controller.runtime.admin.status import room_health

    room = holey.room
    health = room_health(holey.cfg, "lobby", connect_server)
    assert health.frames == health.frames_expected == room.frame_count < room.board.size
    want = room.rules.progress(room.board, room.play_state)
    assert want is not None and not want.sink
    route = health.to_json()["route"]
    assert (route["reached"], route["length"], route["sink"]) == (
        want.reached,
        want.length,
        False,
    )
    assert route["connectivity"] == round(want.reached / want.length, 4)
