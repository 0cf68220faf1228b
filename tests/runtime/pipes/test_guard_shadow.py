"""The tamper guard's block compare against the shadow layers (docs/reliability.md, "Block
check"): the shadow follows every write, any replaced block is found and put back within 5 s
near players, a large tamper is repaired steadily under the budget, and the guard's commands do
not grow with the board."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.runtime.pipes.guard import AIR_EVERY_ROUNDS, REPAIR_BURST
from controller.runtime.pipes.room import AUDIT_IDLE_STRETCH
from controller.sandbox import Sandbox
from controller.world.geometry import SHADOW_DROP
from controller.world.pipes import blockcheck
from tests.support.harness import make_config, world_mismatches
from tests.support.tamper import StepClock, pipes_room, run, until_repaired


@pytest.fixture
def sb(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        monkeypatch.setenv("SANDBOX_PW", sandbox.password)
        yield sandbox


def _started(sb: Sandbox, tmp_path: Path, size: int, **world: object) -> tuple[Daemon, StepClock]:
    clock = StepClock()
    daemon = Daemon(
        make_config(sb, tmp_path, size=size, seed=11, **world), ["lobby"],
        connect=connect_server, clock=clock,
    )  # fmt: skip
    daemon.start()
    sb.join("Alex", (1.5, 101, 1.5))
    step(daemon, clock, 2.0)
    return daemon, clock


def step(daemon: Daemon, clock: StepClock, seconds: float) -> None:
    end = clock.now + seconds
    while clock.now < end - 1e-9:
        clock.now += 0.05
        daemon.step()


def _compares_pass(sb: Sandbox, daemon: Daemon) -> bool:
    geom = pipes_room(daemon).geom
    return all(
        blockcheck.compared(run(sb, blockcheck.compare(geom, cols))[0]) is True
        for cols in blockcheck.chunks(geom)
    )


def test_the_shadow_copies_the_block_map_after_the_build_and_every_move(
    sb: Sandbox, tmp_path: Path
) -> None:
    daemon, clock = _started(sb, tmp_path, 7)
    try:
        room = pipes_room(daemon)
        assert _compares_pass(sb, daemon) and world_mismatches(sb, room) == []
        order = solution_order(room.board)
        for _ in range(12):
            idx = next_click(room.board, order)
            if idx is None:
                break
            x, y, z = room.geom.frame_pos(idx % 7, idx // 7)
            sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
            assert sb.use_entity("Alex", room.uuids[idx])
            step(daemon, clock, 0.3)
            assert world_mismatches(sb, room) == []  # the shadow included
        assert room.guard.blocks_fixed == 0  # nothing for the guard to put back
    finally:
        daemon.close()


# (dx, layer below the frames, dz, in the shadow): a state block, edge blocks, a border log,
# blocks of the shadow itself, the far corner
PLACES = [(3, 1, 3, False), (0, 2, 6, False), (6, 3, 0, False), (-1, 2, 4, False),
          (7, 1, 7, False), (2, 1, 5, True), (-1, 3, -1, True), (5, 2, 1, True)]  # fmt: skip


@pytest.mark.parametrize(("dx", "layer", "dz", "shadow"), PLACES)
def test_a_replaced_block_anywhere_is_put_back_within_5_s(
    sb: Sandbox, tmp_path: Path, dx: int, layer: int, dz: int, shadow: bool
) -> None:
    daemon, clock = _started(sb, tmp_path, 7)
    try:
        room = pipes_room(daemon)
        y = room.geom.y0 - layer - (SHADOW_DROP if shadow else 0)
        run(sb, f"setblock {dx} {y} {dz} minecraft:stone")
        assert not _compares_pass(sb, daemon)
        assert until_repaired(sb, daemon, clock, 5.0) <= 5.0
        assert _compares_pass(sb, daemon)
    finally:
        daemon.close()


def test_a_large_tamper_is_repaired_steadily_within_the_repair_budget(
    sb: Sandbox, tmp_path: Path
) -> None:
    daemon, clock = _started(sb, tmp_path, 15)
    try:
        room = pipes_room(daemon)
        run(sb, f"fill 2 {room.geom.y0 - 2} 2 11 {room.geom.y0 - 1} 11 minecraft:stone")
        link = daemon.links["main"]
        most = 0
        for _ in range(400):
            before = room.guard.commands_sent
            clock.now += 0.05
            daemon.step()
            most = max(most, room.guard.commands_sent - before)
            if not room.guard.pending and not world_mismatches(sb, room):
                break
        assert world_mismatches(sb, room) == []
        # a step spends at most the burst on narrowing (a leaf layer: at most 2 × 4 fills), plus
        # one command of a round
        assert most <= REPAIR_BURST + 2 * blockcheck.LEAF_COLUMNS + 1
        assert room.guard.blocks_fixed >= 200 and link.sent > 0
    finally:
        daemon.close()


def test_guard_commands_near_a_player_do_not_grow_with_the_board(
    sb: Sandbox, tmp_path: Path
) -> None:
    sent = []
    for size in (5, 31):
        daemon, clock = _started(sb, tmp_path / str(size), size)
        try:
            guard = pipes_room(daemon).guard
            began = guard.last_frames
            while guard.last_frames == began:  # the window opens with the step that starts a
                before = guard.commands_sent  # frame round: whole rounds at either size,
                step(daemon, clock, 0.05)  # whenever the start ended
            step(daemon, clock, 20.0 - 0.05)
            sent.append((guard.commands_sent - before) / 20.0)
        finally:
            daemon.close()
            run(sb, "kill @e[type=minecraft:item_frame]")
    assert sent[0] == sent[1] <= 5.0, sent


def test_a_slow_step_earns_no_burst(sb: Sandbox, tmp_path: Path) -> None:
    daemon, clock = _started(sb, tmp_path, 7)
    try:
        guard = pipes_room(daemon).guard
        clock.now += 30.0  # the daemon was stuck for 30 s
        before = guard.commands_sent
        daemon.step()
        one_step = guard.commands_sent - before
        before = guard.commands_sent
        step(daemon, clock, 2.0)
        assert one_step <= 10  # at most one frame round and one block round
        assert guard.commands_sent - before <= 10
    finally:
        daemon.close()


def test_a_sink_room_keeps_its_cauldron_with_a_player_near(sb: Sandbox, tmp_path: Path) -> None:
    daemon, clock = _started(sb, tmp_path, 7, mode="sink")
    try:
        room = pipes_room(daemon)
        before = room.guard.commands_sent
        step(daemon, clock, 10.0)
        assert room.guard.blocks_fixed == 0 and world_mismatches(sb, room) == []
        assert room.guard.commands_sent - before <= 60
    finally:
        daemon.close()


def test_the_rolling_audit_adopts_an_unseen_turn_and_reads_no_more_than_a_slice_a_step(
    sb: Sandbox, tmp_path: Path
) -> None:
    """A rotation set by command with nobody near is adopted within `audit_interval_s` times
    AUDIT_IDLE_STRETCH; no step serializes more than one slice of frames."""
    daemon, clock = _started(sb, tmp_path, 31, audit_interval_s=40)
    try:
        room = pipes_room(daemon)
        sb.leave("Alex")
        step(daemon, clock, 3.0)
        idx = 30 * 31 + 30  # the far corner: the last slice
        seen = room.board.rotations[idx] + 1  # what one click shows (the server counts mod 8)
        turned = seen % 4
        run(sb, f"data merge entity {room.uuids[idx]} {{ItemRotation:{seen}b}}")
        moves = room.current_state.moves
        worst = 0
        for _ in range(int((40 * AUDIT_IDLE_STRETCH + 1) / 0.25)):
            before = sb.call(lambda g: g.total_cost["nbt_serializations"])
            clock.now += 0.25
            daemon.step()
            worst = max(worst, sb.call(lambda g: g.total_cost["nbt_serializations"]) - before)
            if room.board.rotations[idx] == turned:
                break
        assert room.board.rotations[idx] == turned and room.current_state.moves == moves + 1
        assert world_mismatches(sb, room) == []
        assert worst <= 2 * (256 // 31) * 31  # one slice: rotations and pictures
    finally:
        daemon.close()


def test_a_block_built_above_the_frames_is_cleared_every_fifth_block_round(
    sb: Sandbox, tmp_path: Path
) -> None:
    daemon, clock = _started(sb, tmp_path, 7)
    try:
        room = pipes_room(daemon)
        y = room.geom.y0 + 2
        run(sb, f"setblock 3 {y} 3 minecraft:stone")
        limit = AIR_EVERY_ROUNDS * 2 * room.cfg.liveness_interval_s + 0.5
        start = clock.now
        while sb.call(lambda g: g.block(3, y, 3)) != "minecraft:air":
            assert clock.now - start <= limit
            clock.now += 0.05
            daemon.step()
        assert world_mismatches(sb, room) == []
    finally:
        daemon.close()


def test_a_move_made_while_a_leaf_waits_is_never_written_back(sb: Sandbox, tmp_path: Path) -> None:
    """The leaf's fills are computed from the board when they are sent, layer by layer: a
    click on a tile of a leaf already found keeps its new blocks."""
    daemon, clock = _started(sb, tmp_path, 7)
    try:
        room = pipes_room(daemon)
        guard = room.guard
        run(sb, f"setblock 3 {room.geom.y0 - 2} 3 minecraft:stone")
        for _ in range(200):
            clock.now += 0.05
            daemon.step()
            if guard.writes:
                break
        assert guard.writes
        cols = guard.writes[0][0]
        i, j = cols.xa - room.geom.x0, cols.za - room.geom.z0
        i, j = max(0, min(6, i)), max(0, min(6, j))
        x, y, z = room.geom.frame_pos(i, j)
        sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
        assert sb.use_entity("Alex", room.uuids[j * 7 + i])
        step(daemon, clock, 3.0)
        assert not guard.writes and not guard.pending
        assert world_mismatches(sb, room) == [] and _compares_pass(sb, daemon)
    finally:
        daemon.close()
