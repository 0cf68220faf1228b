"""Tampering repaired in seconds: each tamper kind against the sandbox through the real
transport, with the daemon's clock driven by the test (sandbox time, no wall-clock timing)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.pipes.guard import (
    IDLE_BLOCK_CHECK_S,
    IDLE_FRAME_CHECK_S,
    IDLE_QUICK_CHECK_S,
)
from controller.sandbox import Sandbox
from controller.versions import NEWEST
from controller.world import commands as cmd
from controller.world.geometry import SHADOW_DROP
from controller.world.pipes import blockcheck
from tests.support.grammar import assert_valid_commands
from tests.support.harness import make_config, world_mismatches
from tests.support.tamper import (
    KINDS,
    StepClock,
    dropped_maps,
    pipes_room,
    run,
    tamper_commands,
    until_repaired,
)


@pytest.fixture
def sb(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        monkeypatch.setenv("SANDBOX_PW", sandbox.password)
        yield sandbox


@pytest.fixture
def setup(sb: Sandbox, tmp_path: Path) -> Iterator[tuple[Sandbox, Daemon, StepClock]]:
    clock = StepClock()
    cfg = make_config(sb, tmp_path, size=5, seed=11)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, clock=clock)
    daemon.start()
    sb.join("Alex", (2.5, 101, 2.5))
    for _ in range(40):  # settle: the first liveness check and one audit cycle
        clock.now += 0.05
        daemon.step()
    yield sb, daemon, clock
    daemon.close()


@pytest.mark.parametrize("kind", KINDS)
def test_each_tamper_is_repaired_within_5_s_while_players_are_near(
    setup: tuple[Sandbox, Daemon, StepClock], kind: str
) -> None:
    sb, daemon, clock = setup
    room = pipes_room(daemon)
    assert world_mismatches(sb, room) == []
    for command in tamper_commands(room, kind):
        reply = run(sb, command)
        assert reply and "<--[HERE]" not in reply[-1], reply
    if kind not in ("same_named_foreign_frame", "look_alike_frame"):
        assert world_mismatches(sb, room) != [] or kind == "item_rotation_7"
    assert until_repaired(sb, daemon, clock, 5.0) <= 5.0
    failed = [f for rep in room.guard.repairs for f in rep.failed]
    assert failed == []


def test_a_popped_frame_is_summoned_again_and_its_dropped_map_removed(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, clock = setup
    room = pipes_room(daemon)
    for command in tamper_commands(room, "break_state_block"):
        run(sb, command)
    # vanilla checks survival every 100 ticks: the frame pops and drops its map (101 ticks run
    # back to back on the server thread, as a server catching up runs them)
    sb.call(lambda g: [g.tick() for _ in range(101)])
    uid = room.uuids[room.board.width + 1]
    assert sb.call(lambda g: g.entity_nbt(uid)) is None
    assert dropped_maps(sb, room) > 0
    assert until_repaired(sb, daemon, clock, 5.0) <= 5.0
    assert any(rep.summoned and rep.dropped_maps_removed for rep in room.guard.repairs)


def test_a_broken_block_is_put_back_by_the_next_block_round(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    """The hole is closed by the round's `keep` fill, the placeholder found by its compare."""
    sb, daemon, clock = setup
    room = pipes_room(daemon)
    for command in tamper_commands(room, "break_state_block"):
        run(sb, command)
    limit = 2 * room.cfg.liveness_interval_s + 0.5
    assert until_repaired(sb, daemon, clock, limit) <= limit


def test_with_nobody_near_the_idle_checks_repair_within_their_intervals(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, clock = setup
    room = pipes_room(daemon)
    sb.leave("Alex")
    for _ in range(40):
        clock.now += 0.05
        daemon.step()
    assert not daemon.detector("main").awake
    for command in tamper_commands(room, "kill_frame"):
        run(sb, command)
    assert until_repaired(sb, daemon, clock, IDLE_QUICK_CHECK_S + 0.2) <= IDLE_QUICK_CHECK_S + 0.2
    for command in tamper_commands(room, "remove_tags"):  # not counted by the quick check
        run(sb, command)
    # the full counts come with the first quick check after their interval
    limit = IDLE_FRAME_CHECK_S + IDLE_QUICK_CHECK_S
    assert until_repaired(sb, daemon, clock, limit) <= limit
    for command in tamper_commands(room, "break_state_block"):
        run(sb, command)
    assert until_repaired(sb, daemon, clock, IDLE_BLOCK_CHECK_S + 0.2) <= IDLE_BLOCK_CHECK_S + 0.2


def test_with_nobody_near_a_replaced_block_waits_for_the_idle_block_round(
    sb: Sandbox, tmp_path: Path
) -> None:
    clock = StepClock()
    cfg = make_config(sb, tmp_path, size=5, seed=11)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, clock=clock)
    daemon.start()
    try:
        for _ in range(40):
            clock.now += 0.05
            daemon.step()
        assert not daemon.detector("main").awake
        for command in tamper_commands(pipes_room(daemon), "replace_edge_block"):  # no hole
            run(sb, command)
        limit = IDLE_BLOCK_CHECK_S + 1.0
        assert until_repaired(sb, daemon, clock, limit) <= limit
        for command in tamper_commands(pipes_room(daemon), "replace_edge_block"):
            run(sb, command)
        x, y, z = pipes_room(daemon).geom.frame_pos(2, 2)
        sb.join("Alex", (x + 0.5, y + 1, z + 0.5))
        assert until_repaired(sb, daemon, clock, 4.5) <= 4.5  # wake-up, then the near rounds
    finally:
        daemon.close()


def test_a_frame_turned_while_untagged_counts_as_a_move_once_retagged(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, clock = setup
    room = pipes_room(daemon)
    idx = room.board.width + 1
    for command in tamper_commands(room, "remove_tags"):
        run(sb, command)
    moves = room.current_state.moves
    x, y, z = room.geom.frame_pos(1, 1)
    sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
    assert sb.use_entity("Alex", room.uuids[idx])
    until_repaired(sb, daemon, clock, 5.0)
    assert room.current_state.moves == moves + 1


def test_liveness_costs_four_commands_and_no_serialization(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    sb, daemon, _ = setup
    room = pipes_room(daemon)
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
    assert link.sent - before == 5  # and the hidden picture frames' count


def test_a_refused_summon_is_reported_not_counted(
    setup: tuple[Sandbox, Daemon, StepClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    sb, daemon, _ = setup
    room = pipes_room(daemon)
    run(sb, f"kill {room.uuids[0]}")
    real: Callable[..., str] = room.summon
    monkeypatch.setattr(
        room, "summon", lambda idx, **kw: real(idx, **kw).replace("Facing:1b", "Facing:")
    )
    rep = room.guard.repair_frames(daemon.links["main"])
    assert rep.summoned == 0 and rep.failed


def test_guard_commands_are_vanilla_grammar() -> None:
    from controller.world.geometry import Room, frame_uuid

    geom = Room("lobby-2_x", (-1234, 70, 5678), 31, 31)
    uid = frame_uuid(geom.name, 3, 4)
    assert_valid_commands(
        [
            cmd.count_frames_in_box(geom, "item_frame"),
            *cmd.hole_fills(geom),
            cmd.count_frames_pictured(geom, "item_frame", [1_000_003, 1_000_004, 1_000_017]),
            *blockcheck.copies(geom),
            *(blockcheck.compare(geom, cols) for cols in blockcheck.chunks(geom)),
            cmd.mark_own(uid),
            cmd.unmark_own("item_frame"),
            cmd.kill_foreign_frames(geom, "glow_item_frame"),
            cmd.kill_foreign_tagged(geom.name, "item_frame"),
            cmd.summon_if_missing(
                uid,
                cmd.summon_preload(
                    geom, 3, uid=uid, map_id=1_000_017, kind="item_frame", release=NEWEST
                ),
            ),
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
    room = pipes_room(daemon)
    for command in tamper_commands(room, "remove_tags"):
        run(sb, command)
    repairs = room.reconcile(daemon.links["main"])
    assert repairs.frames_summoned == 0
    assert any("re-tagged" in note for note in repairs.notes)
    assert not any("could not be summoned" in note for note in repairs.notes)
    assert world_mismatches(sb, room) == []


def test_a_spoiled_count_reply_starts_no_repair(setup: tuple[Sandbox, Daemon, StepClock]) -> None:
    """Another RCON connection may empty or replace a reply: an unreadable count is asked again,
    never taken for a missing frame (a repair costs about three commands per tile)."""
    sb, daemon, clock = setup
    room = pipes_room(daemon)
    guard = room.guard
    link = daemon.links["main"]
    real_send = link.send
    link.send = lambda command: "" if "execute if" in command else real_send(command)  # type: ignore[method-assign]
    try:
        assert guard.alive(link) is None
        before = len(guard.repairs)
        for _ in range(40):
            clock.now += 0.05
            daemon.step()
        assert len(guard.repairs) == before
    finally:
        link.send = real_send  # type: ignore[method-assign]
    assert guard.alive(link) is True


def _layer_fills(sb: Sandbox, since: int) -> list[str]:
    """The fills of the block map's solid layers sent since command `since`."""
    solid = ("minecraft:melon", "minecraft:pumpkin", "minecraft:jack_o_lantern")
    return [
        e.command
        for e in list(sb.command_log)[since:]
        if " fill " in f" {e.command}" and e.command.rstrip().endswith(solid)
    ]


def test_reconciling_an_intact_room_rewrites_no_block(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    """Every frame as the board says and the block map equal to its shadow: a reconcile (start,
    reconnect) compares, and writes only holes, the sink and the air (docs/reliability.md,
    "Block check")."""
    sb, daemon, _ = setup
    room = pipes_room(daemon)
    since = len(sb.command_log)
    repairs = room.reconcile(daemon.links["main"])
    assert repairs.total == 0 and _layer_fills(sb, since) == []
    compares = [
        e for e in list(sb.command_log)[since:] if e.command.startswith("execute if blocks")
    ]
    assert len(compares) == len(blockcheck.chunks(room.geom))
    assert world_mismatches(sb, room) == []


def test_reconciling_a_replaced_block_rewrites_the_layers(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    """A block replaced in the room (not its shadow) fails the compare: every block rewritten."""
    sb, daemon, _ = setup
    room = pipes_room(daemon)
    for command in tamper_commands(room, "replace_edge_block"):
        run(sb, command)
    since = len(sb.command_log)
    repairs = room.reconcile(daemon.links["main"])
    assert repairs.blocks_fixed == 1 and _layer_fills(sb, since) != []
    assert world_mismatches(sb, room) == []


def test_repair_rewrites_a_block_changed_in_both_copies(
    setup: tuple[Sandbox, Daemon, StepClock],
) -> None:
    """A block changed alike in the room and its shadow passes the compare (the reconcile's
    blind spot); `pipesctl repair` rewrites every block whatever the compare says."""
    sb, daemon, _ = setup
    room = pipes_room(daemon)
    ex, ey, ez = room.geom.east_pos(1, 1)
    run(sb, f"setblock {ex} {ey} {ez} minecraft:stone")
    run(sb, f"setblock {ex} {ey - SHADOW_DROP} {ez} minecraft:stone")
    link = daemon.links["main"]
    assert room.reconcile(link).blocks_fixed == 0
    assert world_mismatches(sb, room) != []
    assert room.reconcile(link, every_block=True).blocks_fixed >= 1
    assert world_mismatches(sb, room) == []
