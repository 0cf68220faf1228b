"""Tampering repaired in seconds: each tamper kind against the sandbox through the real
transport, with the daemon's clock driven by the test (sandbox time, no wall-clock timing)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.pipes_room import PipesRoom
from controller.sandbox import Sandbox
from controller.world import commands as cmd
from controller.world.geometry import frame_name
from controller.world.replies import parse_count
from tests.grammar import assert_valid_commands
from tests.runtime.conftest import make_config, world_mismatches


class StepClock:
    """Time that moves only when the test says so (sleeping moves it too)."""

    def __init__(self) -> None:
        self.now = 0.0

    def time(self) -> float:
        return 1_800_000_000.0 + self.now

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def sb(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        monkeypatch.setenv("SANDBOX_PW", sandbox.password)
        yield sandbox


@pytest.fixture
def setup(sb: Sandbox, tmp_path: Path) -> Iterator[tuple[Sandbox, Daemon, StepClock]]:
    clock = StepClock()
    cfg = make_config(sb, tmp_path, size=5, seed=11, block_audit_cycle_s=4)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, clock=clock)
    daemon.start()
    sb.join("Alex", (2.5, 101, 2.5))
    for _ in range(40):  # settle: the first liveness check and one audit cycle
        clock.now += 0.05
        daemon.step()
    yield sb, daemon, clock
    daemon.close()


def _room(daemon: Daemon) -> PipesRoom:
    room = daemon.rooms["lobby"]
    assert isinstance(room, PipesRoom)
    return room


def _run(sb: Sandbox, command: str) -> list[str]:
    return sb.call(lambda g: g.execute(command))


def _frames_in_box(sb: Sandbox, room: PipesRoom) -> int:
    both = [cmd.count_frames_in_box(room.geom, kind) for kind in cmd.FRAME_KINDS]
    return sum(parse_count(_run(sb, c)[0]) for c in both)


def _dropped_maps(sb: Sandbox, room: PipesRoom) -> int:
    box = cmd.guard_box(room.geom, grow=2)
    reply = _run(
        sb, f"execute if items entity @e[type=minecraft:item,{box}] contents {cmd.MAP_ITEM}"
    )
    return parse_count(reply[0])


def _until_repaired(sb: Sandbox, daemon: Daemon, clock: StepClock, limit: float) -> float:
    """Step the daemon in 50 ms of its time until the room equals its state; the time taken."""
    room = _room(daemon)
    start = clock.now
    while clock.now - start <= limit:
        clock.now += 0.05
        daemon.step()
        if (
            not world_mismatches(sb, room)
            and _frames_in_box(sb, room) == room.board.size
            and _dropped_maps(sb, room) == 0
        ):
            return clock.now - start
    raise AssertionError(f"not repaired in {limit} s: {world_mismatches(sb, room)}")


def _tamper(room: PipesRoom, kind: str) -> list[str]:
    """The console commands of one tamper kind (on tile (1, 1) or its blocks)."""
    i, j = 1, 1
    idx = j * room.board.width + i
    uid = room.uuids[idx]
    x, y, z = room.geom.frame_pos(i, j)
    rotation = room.board.rotations[idx]
    if kind == "kill_frame":
        return [f"kill {uid}"]
    if kind == "break_state_block":
        sx, sy, sz = room.geom.state_pos(i, j)
        return [f"setblock {sx} {sy} {sz} minecraft:air"]
    if kind == "replace_edge_block":
        ex, ey, ez = room.geom.east_pos(i, j)
        return [f"setblock {ex} {ey} {ez} minecraft:stone"]
    if kind == "empty_frame":
        return [f"data remove entity {uid} Item"]
    if kind == "remove_tags":
        return [f"data merge entity {uid} {{Tags:[]}}"]
    if kind == "same_named_foreign_frame":
        bx, by, bz = room.geom.x0 - 1, room.geom.y0, room.geom.z0  # on the border log
        return [
            f"summon minecraft:item_frame {bx} {by} {bz} "
            f'{{Facing:1b,CustomName:"{frame_name(room.name, i, j)}"}}'
        ]
    if kind == "look_alike_frame":
        tags = ",".join(f'"{t}"' for t in cmd.frame_tags(room.name, rotation))
        return [
            f"summon minecraft:item_frame {x} {y} {z} {{Facing:1b,Invulnerable:1b,"
            f'CustomName:"{frame_name(room.name, i, j)}",Tags:[{tags}],'
            f'Item:{{id:"minecraft:filled_map",count:1,components:{{"minecraft:map_id":'
            f"{room.map_id(idx)}}}}}}}"
        ]
    if kind == "item_rotation_7":
        return [f"data merge entity {uid} {{ItemRotation:7b}}"]
    if kind == "foreign_map_id":
        return [f'data modify entity {uid} Item.components."minecraft:map_id" set value 4242']
    raise AssertionError(kind)


KINDS = [
    "kill_frame",
    "break_state_block",
    "replace_edge_block",
    "empty_frame",
    "remove_tags",
    "same_named_foreign_frame",
    "look_alike_frame",
    "item_rotation_7",
    "foreign_map_id",
]


@pytest.mark.parametrize("kind", KINDS)
def test_each_tamper_is_repaired_within_5_s_while_players_are_near(
    setup: tuple[Sandbox, Daemon, StepClock], kind: str
) -> None:
    sb, daemon, clock = setup
    room = _room(daemon)
    assert world_mismatches(sb, room) == []
    for command in _tamper(room, kind):
        reply = _run(sb, command)
        assert reply and "<--[HERE]" not in reply[-1], reply
    if kind not in ("same_named_foreign_frame", "look_alike_frame"):
        assert world_mismatches(sb, room) != [] or kind == "item_rotation_7"
    assert _until_repaired(sb, daemon, clock, 5.0) <= 5.0
    failed = [f for rep in room.guard.repairs for f in rep.failed]
    assert failed == []


def test_a_popped_frame_is_summoned_again_and_its_dropped_map_removed(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, clock = setup
    room = _room(daemon)
    for command in _tamper(room, "break_state_block"):
        _run(sb, command)
    sb.tick(101)  # vanilla checks survival every 100 ticks: the frame pops and drops its map
    uid = room.uuids[room.board.width + 1]
    assert sb.call(lambda g: g.entity_nbt(uid)) is None
    assert _dropped_maps(sb, room) > 0
    assert _until_repaired(sb, daemon, clock, 5.0) <= 5.0
    assert any(rep.summoned and rep.dropped_maps_removed for rep in room.guard.repairs)


def test_a_broken_block_is_closed_by_the_quick_check_within_a_second(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, clock = setup
    room = _room(daemon)
    for command in _tamper(room, "break_state_block"):
        _run(sb, command)
    assert _until_repaired(sb, daemon, clock, 1.1) <= 1.1


def test_with_nobody_near_frames_are_back_in_5_s_and_blocks_in_10_s(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, clock = setup
    room = _room(daemon)
    sb.leave("Alex")
    for _ in range(40):
        clock.now += 0.05
        daemon.step()
    assert not daemon.detector("main").awake
    for command in _tamper(room, "kill_frame"):
        _run(sb, command)
    assert _until_repaired(sb, daemon, clock, 5.2) <= 5.2
    for command in _tamper(room, "break_state_block"):
        _run(sb, command)
    assert _until_repaired(sb, daemon, clock, 5.2) <= 5.2


def test_with_nobody_near_a_replaced_block_is_found_by_the_slow_cycle(
    sb: Sandbox, tmp_path: Path
) -> None:
    clock = StepClock()
    cfg = make_config(sb, tmp_path, size=5, seed=11, block_audit_cycle_s=1)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, clock=clock)
    daemon.start()
    try:
        for _ in range(40):
            clock.now += 0.05
            daemon.step()
        assert not daemon.detector("main").awake
        for command in _tamper(_room(daemon), "replace_edge_block"):  # no hole: only the audit
            _run(sb, command)
        assert _until_repaired(sb, daemon, clock, 10.1) <= 10.1  # the idle cycle: 10 × 1 s
    finally:
        daemon.close()


def test_a_frame_turned_while_untagged_counts_as_a_move_once_retagged(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, clock = setup
    room = _room(daemon)
    idx = room.board.width + 1
    for command in _tamper(room, "remove_tags"):
        _run(sb, command)
    moves = room.current_state.moves
    x, y, z = room.geom.frame_pos(1, 1)
    sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
    assert sb.use_entity("Alex", room.uuids[idx])
    _until_repaired(sb, daemon, clock, 5.0)
    assert room.current_state.moves == moves + 1


def test_liveness_costs_four_commands_and_no_serialization(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, _ = setup
    room = _room(daemon)
    link = daemon.links["main"]
    before = link.sent

    def cost(game: object) -> tuple[int, int]:
        sent = 0
        for command in room.guard.liveness_commands():
            game.execute(command)  # type: ignore[attr-defined]
            sent += game.last_cost["nbt_serializations"]  # type: ignore[attr-defined]
        return len(room.guard.liveness_commands()), sent

    count, serialized = sb.call(cost)
    assert (count, serialized) == (4, 0)
    assert room.guard.alive(link)
    assert link.sent - before == 4


def test_a_refused_summon_is_reported_not_counted(
    setup: tuple[Sandbox, Daemon, StepClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    sb, daemon, _ = setup
    room = _room(daemon)
    _run(sb, f"kill {room.uuids[0]}")
    real: Callable[[int], str] = room.summon
    monkeypatch.setattr(room, "summon", lambda idx, **kw: real(idx).replace("Facing:1b", "Facing:"))
    rep = room.guard.repair_frames(daemon.links["main"])
    assert rep.summoned == 0 and rep.failed


def test_guard_commands_are_vanilla_grammar() -> None:
    from controller.world.geometry import Room, frame_uuid

    geom = Room("lobby-2_x", (-1234, 70, 5678), 31, 31)
    uid = frame_uuid(geom.name, 3, 4)
    assert_valid_commands(
        [
            cmd.count_frames_in_box(geom, "item_frame"),
            cmd.count_filled_frames(geom, "glow_item_frame"),
            *cmd.hole_fills(geom),
            cmd.count_frames_showing(geom, "item_frame", 1_000_003),
            cmd.mark_own(uid),
            cmd.unmark_own("item_frame"),
            cmd.kill_foreign_frames(geom, "glow_item_frame"),
            cmd.summon_if_missing(uid, "summon minecraft:item_frame 1 2 3 {Facing:1b}"),
            cmd.retag_frame(uid, room=geom.name, rotation=2, source=False),
            cmd.retag_frame(uid, room=geom.name, rotation=0, source=True),
            cmd.refill_frame(uid, 1_000_017),
            cmd.kill_dropped_maps(geom, 1_000_017),
        ]
    )


def test_reconcile_retags_an_untagged_frame_instead_of_a_refused_summon(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, _ = setup
    room = _room(daemon)
    for command in _tamper(room, "remove_tags"):
        _run(sb, command)
    repairs = room.reconcile(daemon.links["main"])
    assert repairs.frames_summoned == 0
    assert any("re-tagged" in note for note in repairs.notes)
    assert not any("could not be summoned" in note for note in repairs.notes)
    assert world_mismatches(sb, room) == []
