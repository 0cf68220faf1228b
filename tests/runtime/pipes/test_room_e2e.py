"""End to end against the sandbox, through the real transport: build, play, win, resume, repair."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from controller.puzzle.model import TileClass
from controller.puzzle.solver import par as solver_par
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.runtime.detection import SLOW_INTERVAL_S
from controller.runtime.state import RoomState
from controller.sandbox import Sandbox
from controller.world.replies import parse_count
from tests.support.grammar import assert_valid_commands
from tests.support.harness import Harness, make_config, world_mismatches


def test_build_matches_the_engine_block_by_block(harness: Harness) -> None:
    assert world_mismatches(harness.sb, harness.room) == []
    assert harness.room.path.exists()
    preload = harness.sb.call(
        lambda g: g.execute("execute if entity @e[type=item_frame,tag=pipes.preload]")
    )
    assert preload == ["Test passed. Count: 18"]


def test_a_click_is_applied_and_written_back_exactly(harness: Harness) -> None:
    room, daemon = harness.room, harness.daemon
    idx = next_click(room.board, solution_order(room.board))
    assert idx is not None
    i, j = idx % room.board.width, idx // room.board.width
    before = room.board.rotations[idx]
    harness.click(i, j)
    sent = daemon.links["main"].sent
    assert daemon.poll("main") == 1
    used = daemon.links["main"].sent - sent
    assert room.board.rotations[idx] == (before + 1) % 4
    assert room.state is not None and room.state.moves == 1
    assert world_mismatches(harness.sb, room) == []
    changed = sum(
        1 for a, b in zip(harness.room.shown_class, room.play.classes, strict=True) if a != b
    )
    assert changed == 0
    assert used <= 4 + 2 * room.board.size  # a loose sanity bound; the exact one is below


# Commands of a poll that finds one click: scan (mark near survival and near creative players,
# read, untag); trigger (who is marked,
# take the marks, two to move the near frames into the scan set, read, count, untag).
DETECTION_COMMANDS = {"scan": 4, "trigger": 7}


def test_click_cost_is_at_most_three_per_changed_tile_plus_eleven(
    harness: Harness, detect: str
) -> None:
    room, daemon = harness.room, harness.daemon
    order = solution_order(room.board)
    for _ in range(25):
        idx = next_click(room.board, order)
        if idx is None:
            break
        old_classes = list(room.play.classes)
        old_parents = list(room.play.parents)
        old_rot = list(room.board.rotations)
        harness.click(idx % room.board.width, idx // room.board.width)
        before = daemon.links["main"].sent
        daemon.poll("main")
        used = daemon.links["main"].sent - before - DETECTION_COMMANDS[detect]
        changed = sum(
            1
            for k in range(room.board.size)
            if (old_classes[k], old_parents[k], old_rot[k])
            != (room.play.classes[k], room.play.parents[k], room.board.rotations[k])
        )
        # per changed tile its state block, the block's shadow copy and the frame's picture; at
        # most 4 edge blocks, each with its shadow; the turned frame's settle and two sounds
        assert used <= 3 * changed + 11, (used, changed)
    assert world_mismatches(harness.sb, room) == []


def test_several_clicks_in_one_poll_and_a_frame_turned_many_times(harness: Harness) -> None:
    room, daemon = harness.room, harness.daemon
    before = list(room.board.rotations)
    harness.click(0, 0, times=1)
    harness.click(6, 6, times=3)
    harness.click(3, 0, times=6)  # ItemRotation up to 6: two quarter turns
    harness.sb.join("Bea", (6.5, 101, 0.5))
    harness.click(6, 0, times=2, player="Bea")
    daemon.poll("main")
    w = room.board.width
    assert room.board.rotations[0] == (before[0] + 1) % 4
    assert room.board.rotations[6 * w + 6] == (before[6 * w + 6] + 3) % 4
    assert room.board.rotations[3] == (before[3] + 6) % 4
    assert room.board.rotations[6] == (before[6] + 2) % 4
    assert world_mismatches(harness.sb, room) == []
    # The next idle poll finds nothing: every frame is settled to r in 0..3.
    assert daemon.poll("main") == 0


def _poll_cost(harness: Harness) -> tuple[int, int, int]:
    """Commands, entities examined and NBT serializations of one daemon poll."""
    link, sb = harness.daemon.links["main"], harness.sb
    sent, before = link.sent, dict(sb.total_cost)
    harness.daemon.poll("main")
    after = sb.total_cost
    return (
        link.sent - sent,
        after["entities_examined"] - before["entities_examined"],
        after["nbt_serializations"] - before["nbt_serializations"],
    )


def test_detection_mode_follows_the_data_pack(harness: Harness, detect: str) -> None:
    assert harness.daemon.detector("main").mode == detect


def test_idle_trigger_poll_is_one_command_and_serializes_nothing(
    harness: Harness, detect: str
) -> None:
    if detect != "trigger":
        pytest.skip("trigger mode only")
    sb, daemon = harness.sb, harness.daemon
    daemon.poll("main")
    for players in range(1, 9):
        sb.join(f"P{players}", (1.5 + players % 5, 101, 1.5 + players // 5))
    detector = daemon.detector("main")
    detector.awake, detector.awake_until = True, float("inf")  # presence known: awake
    for _ in range(3):
        assert _poll_cost(harness)[0] == 1 and _poll_cost(harness)[2] == 0


def test_a_trigger_click_reads_only_frames_near_the_clicker_once_each(
    harness: Harness, detect: str
) -> None:
    if detect != "trigger":
        pytest.skip("trigger mode only")
    sb, daemon, room = harness.sb, harness.daemon, harness.room
    daemon.poll("main")
    sb.join("Bea", (3.5, 101, 3.5))  # a second player on the same frames
    detector = daemon.detector("main")
    detector.awake, detector.awake_until = True, float("inf")
    before = list(room.board.rotations)
    harness.click(6, 6)
    count = "execute if entity @e[tag=pipes,tag=pipes.near]"
    near = parse_count(sb.call(lambda g: g.execute(count))[0])
    _, _, serialized = _poll_cost(harness)
    idx = 6 * room.board.width + 6
    assert room.board.rotations[idx] == (before[idx] + 1) % 4
    assert 0 < near < room.board.size
    # each frame near the clicker read once, plus the turned frame's conditional settle (its
    # nbt= check and its data merge)
    assert serialized <= near + 2
    assert world_mismatches(sb, room) == []
    assert sb.call(lambda g: g.execute(count)) == ["Test failed"]


def test_idle_scan_poll_serializes_each_frame_near_players_at_most_once(
    harness: Harness, detect: str
) -> None:
    if detect != "scan":
        pytest.skip("scan mode only")
    sb, daemon = harness.sb, harness.daemon
    daemon.poll("main")  # the first poll reads every frame once (a gap)
    commands, _, serialized = _poll_cost(harness)
    assert commands <= 5  # presence, two marks (survival, creative reach), read, untag
    count = (
        "execute as @a at @s anchored eyes positioned ^ ^ ^ if entity @e[tag=pipes,distance=..6.71]"
    )
    near = parse_count(sb.call(lambda g: g.execute(count))[0])
    assert 0 < serialized <= near
    # Two players on the same frames: still each frame once.
    sb.join("Bea", (3.5, 101, 3.5))
    assert _poll_cost(harness)[2] == serialized


def test_nobody_near_costs_one_command_every_two_seconds_and_no_serialization(
    harness: Harness,
) -> None:
    sb, daemon = harness.sb, harness.daemon
    daemon.poll("main")
    sb.leave("Alex")
    sb.join("Far", (500.5, 101, 500.5))
    detector = daemon.detector("main")
    detector.awake_until = 0.0  # the presence check is due now
    daemon.last_poll["main"] = daemon.clock.monotonic()  # no gap, however slow the machine
    commands, _, serialized = _poll_cost(harness)
    assert (commands, serialized) == (1, 0)
    assert not detector.awake and detector.interval == SLOW_INTERVAL_S == 2.0
    for _ in range(3):
        detector.awake_until = 0.0
        commands, _, serialized = _poll_cost(harness)
        assert commands <= 1 and serialized == 0


def test_solving_triggers_the_win_flow_and_a_new_puzzle(harness: Harness) -> None:
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    start_par = solver_par(room.board)
    harness.solve()
    assert room.play is not None and room.play.solved
    assert room.state is not None and len(room.state.solves) == 1
    titles = [m for m in sb.inbox("Alex") if m.get("type") == "title"]
    assert any("Solved!" in json.dumps(m) for m in titles)
    # the win names the time, the moves (clicks) and par, in clicks too
    par = room.board.meta.get("par")
    assert isinstance(par, int) and par == start_par
    subtitles = [str(m["text"]) for m in sb.inbox("Alex") if m.get("type") == "subtitle"]
    assert any(t.endswith(f" · {room.state.moves} moves (par {par})") for t in subtitles)
    sounds = [m for m in sb.inbox("Alex") if m.get("type") == "sound"]
    assert sounds, sb.inbox("Alex")
    assert all(room.play.classes[k] != TileClass.DRY for k in range(room.board.size))
    # While the solved board waits for the next puzzle, turns are undone, not counted.
    solved_rotations = list(room.board.rotations)
    harness.click(0, 0)
    daemon.poll("main")
    assert (
        room.board.rotations == solved_rotations and room.state.moves == room.state.solves[0].moves
    )
    assert world_mismatches(sb, room) == []
    first_seed = room.board.seed
    room.next_puzzle_at = room.clock.time()
    daemon.step()
    assert room.state.puzzle_number == 2 and room.board.seed != first_seed
    assert world_mismatches(sb, room) == []
    assert len(room.state.solves) == 1


def test_every_command_sent_is_vanilla_grammar(harness: Harness) -> None:
    harness.click(1, 1, times=2)
    harness.daemon.poll("main")
    sent = harness.daemon.links["main"].record
    assert sent
    forms = sorted(set(sent))
    assert_valid_commands(forms)


def _snapshot(sb: Sandbox, room: object) -> tuple[object, ...]:
    from controller.runtime.pipes.room import PipesRoom

    assert isinstance(room, PipesRoom)
    (xa, ya, za), (xb, yb, zb) = room.geom.bounds()

    def read(game: object) -> tuple[object, ...]:
        blocks = tuple(
            game.block(x, y, z)  # type: ignore[attr-defined]
            for x in range(xa, xb + 1)
            for y in range(ya, yb + 1)
            for z in range(za, zb + 1)
        )
        frames = tuple(str(game.entity_nbt(u)) for u in room.uuids)  # type: ignore[attr-defined]
        return blocks + frames

    return sb.call(read)


def test_restarting_on_a_matching_world_changes_nothing(harness: Harness) -> None:
    harness.daemon.close()
    before = _snapshot(harness.sb, harness.room)
    again = Daemon(harness.cfg, ["lobby"], connect=connect_server)
    again.start()
    room = again.rooms["lobby"]
    assert room.state is not None and room.state.moves == 0
    assert _snapshot(harness.sb, room) == before
    again.close()


def test_turns_made_while_the_daemon_was_down_are_adopted(harness: Harness) -> None:
    room = harness.room
    before = list(room.board.rotations)
    harness.daemon.close()
    harness.click(2, 2, times=1)
    harness.click(4, 5, times=2)
    harness.click(1, 0, times=4)  # a full turn: the same rotation, four moves
    again = Daemon(harness.cfg, ["lobby"], connect=connect_server)
    again.start()
    w = room.board.width
    new_room = again.rooms["lobby"]
    assert new_room.board.rotations[2 * w + 2] == (before[2 * w + 2] + 1) % 4
    assert new_room.board.rotations[5 * w + 4] == (before[5 * w + 4] + 2) % 4
    assert new_room.board.rotations[1] == before[1]
    assert new_room.state is not None and new_room.state.moves == 1 + 2 + 4  # moves are clicks
    assert world_mismatches(harness.sb, new_room) == []
    again.close()


def test_tampering_is_repaired_by_the_audit(harness: Harness) -> None:
    room, sb = harness.room, harness.sb
    x, y, z = room.geom.state_pos(1, 1)
    sb.call(lambda g: g.execute(f"setblock {x} {y} {z} minecraft:stone"))
    sb.call(lambda g: g.execute(f"setblock {x + 2} {y - 1} {z} minecraft:diamond_block"))
    sb.call(lambda g: g.execute(f"kill {room.uuids[10]}"))
    sb.call(
        lambda g: g.execute(
            f'data modify entity {room.uuids[11]} Item.components."minecraft:map_id" set value 5'
        )
    )
    assert world_mismatches(sb, room)
    rep = room.reconcile(harness.daemon.links["main"])
    assert rep.frames_summoned == 1 and rep.frames_fixed == 1 and rep.blocks_fixed >= 2
    assert world_mismatches(sb, room) == []


def test_server_restart_loses_no_move(harness: Harness) -> None:
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    before = list(room.board.rotations)
    harness.click(0, 1)
    daemon.poll("main")
    sb.restart()
    sb.join("Alex", (3.5, 101, 3.5))
    harness.click(1, 0)
    for _ in range(20):
        daemon.step()
        if not daemon.down and room.board.rotations[1] != before[1]:
            break
        time.sleep(0.06)  # a poll is due once per poll interval
    w = room.board.width
    assert room.board.rotations[w] == (before[w] + 1) % 4
    assert room.board.rotations[1] == (before[1] + 1) % 4
    assert room.state is not None and room.state.moves == 2
    assert world_mismatches(sb, room) == []


def test_build_cost_at_31x31_is_at_most_1_1_commands_per_tile(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path, size=31)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server)
    daemon.start()
    sent = daemon.links["main"].sent
    assert sent <= 1.1 * 31 * 31, sent
    state = RoomState.load(daemon.rooms["lobby"].path)
    assert state is not None and state.board.width == 31
    daemon.close()


def test_paper_flavour_builds_and_plays_with_prefixed_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the sandbox's Paper answers `minecraft:version` as vanilla does, like real Paper
    # (docs/server-behaviour.md, "Versions: detecting the version")
    with Sandbox(flavour="paper", version="26.1") as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(make_config(sb, tmp_path), ["lobby"], connect=connect_server)
        daemon.start()
        room = daemon.rooms["lobby"]
        assert getattr(daemon.links["main"].client, "flavour", None) == "paper"
        sb.join("Alex", (0.5, 101, 0.5))
        assert sb.use_entity("Alex", room.uuids[0])
        daemon.poll("main")
        assert room.state is not None and room.state.moves == 1
        assert world_mismatches(sb, room) == []
        sent = [e.command for e in sb.log_entries()]
        fence = f"minecraft:execute if score #pipes.lobby.owner pipes_lease matches {daemon.owner}"
        assert any(c.startswith(fence) and " run minecraft:summon " in c for c in sent)
        assert any(" run minecraft:data get entity @s ItemRotation" in c for c in sent)
        daemon.close()


def test_a_click_during_reconcile_is_not_lost(harness: Harness) -> None:
    room, sb = harness.room, harness.sb
    link = harness.daemon.links["main"]
    w = room.board.width
    before = room.board.rotations[3 * w + 3]
    sb.call(lambda g: g.execute(f"tag {room.uuids[0]} remove pipes.r{room.board.rotations[0]}"))
    original = link.send
    clicked: list[str] = []

    def send(command: str) -> str:
        reply = original(command)
        if not clicked and 'Item.components."minecraft:map_id"' in command:
            harness.click(3, 3)  # right after the room was read back
            clicked.append(command)
        return reply

    link.send = send  # type: ignore[method-assign]
    rep = room.reconcile(link)
    link.send = original  # type: ignore[method-assign]
    assert clicked and "rotation tags rewritten" in rep.notes
    harness.daemon.poll("main")
    assert room.board.rotations[3 * w + 3] == (before + 1) % 4
    assert world_mismatches(sb, room) == []


def test_listed_players_can_ask_for_a_new_puzzle_with_a_trigger(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path, reset_by=["Alex"])
    daemon = Daemon(cfg, ["lobby"], connect=connect_server)
    daemon.start()
    room = daemon.rooms["lobby"]
    sandbox.join("Alex", (3.5, 101, 3.5))
    sandbox.join("Mallory", (2.5, 101, 2.5))
    # `/trigger pipes_reset` by a player who may not reset: nothing happens.
    sandbox.call(lambda g: g.execute("scoreboard players set Mallory pipes_reset 1"))
    assert not room.check_reset_requests(daemon.links["main"])
    assert room.state is not None and room.state.puzzle_number == 1
    sandbox.call(lambda g: g.execute("scoreboard players set Alex pipes_reset 1"))
    assert room.check_reset_requests(daemon.links["main"])
    assert room.state.puzzle_number == 2
    assert sandbox.call(lambda g: g.execute("scoreboard players get Alex pipes_reset")) == [
        "Alex has 0 [New pipes puzzle]"
    ]
    assert world_mismatches(sandbox, room) == []
    daemon.close()


def test_a_player_who_clicks_and_walks_away_during_a_gap_is_not_lost(harness: Harness) -> None:
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    daemon.poll("main")  # a regular poll: only frames near players are looked at
    before = room.board.rotations[0]
    harness.click(0, 0)
    sb.move("Alex", (200.5, 101, 200.5))  # walks away before the next poll
    daemon.last_poll["main"] -= 5  # the daemon was busy for a while
    assert daemon.poll("main") == 1
    assert room.board.rotations[0] == (before + 1) % 4
    assert world_mismatches(sb, room) == []


def test_a_room_moved_in_the_config_is_refused_not_half_rebuilt(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    from controller.errors import RoomError

    harness.daemon.close()
    moved = harness.cfg.model_copy(
        update={
            "worlds": {
                "lobby": harness.cfg.worlds["lobby"].model_copy(update={"origin": (50, 100, 0)})
            }
        }
    )
    again = Daemon(moved, ["lobby"], connect=connect_server)
    with pytest.raises(RoomError, match=r"built at \[0, 100, 0\]"):
        again.start()
    again.close()
    assert world_mismatches(harness.sb, harness.room) == []


def test_a_paused_empty_server_is_explained(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from controller.errors import RoomError
    from controller.runtime.pipes.room import PipesRoom
    from controller.world import commands as cmd

    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path)
    # vanilla's pause-when-empty-seconds: nobody online, the server stops ticking
    sandbox.call(lambda g: setattr(g.world, "pause_when_empty_seconds", 0.5))
    time.sleep(1.0)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server)
    room: PipesRoom = daemon.rooms["lobby"]
    link = daemon.links["main"]
    link.send_all(cmd.forceload(room.geom))
    with pytest.raises(RoomError, match="pause-when-empty-seconds"):
        room.wait_loaded(link, timeout=0.5)
    sandbox.join("Alex", (3.5, 101, 3.5))  # someone joins: the server ticks again
    room.wait_loaded(link, timeout=5)
    daemon.close()
