"""End to end against the sandbox, through the real transport, in both detection modes: a sink
room (`mode: sink`) is built, played by its hints to a win, resumed and repaired."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.puzzle.model import TileClass
from controller.puzzle.sink import sink_hint, sink_par_report
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.ingame import HINT
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.state import SINK_WORLD_FORMAT
from controller.sandbox import Sandbox
from controller.world.geometry import SINK_EMPTY, SINK_FULL
from tests.support.grammar import assert_valid_commands
from tests.support.harness import Harness, make_config, world_mismatches


@pytest.fixture
def sink(sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path / "state", mode="sink", coverage=0.4)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, record=True)
    daemon.start()
    sandbox.join("Alex", (3.5, 101, 3.5))
    yield Harness(sandbox, cfg, daemon)
    daemon.close()


def _block(h: Harness, pos: tuple[int, int, int]) -> str:
    return str(h.sb.call(lambda g: g.block(*pos)))


def _sink_block(h: Harness) -> str:
    board = h.room.board
    assert board.sink is not None
    return _block(h, h.room.geom.sink_pos(*board.sink))


def _nbt(h: Harness, idx: int) -> dict[str, object]:
    return dict(h.sb.call(lambda g: g.entity_nbt(h.room.uuids[idx])))


def _sink_index(room: PipesRoom) -> int:
    assert room.board.sink is not None
    return room.board.index(*room.board.sink)


def _play_hints(h: Harness) -> tuple[int, int]:
    """Follow the room's hints (clicking as told, one poll each) until the sink is wet; the
    hints and the clicks made."""
    room, link = h.room, h.daemon.links["main"]
    hints = clicks = 0
    for _ in range(4 * room.board.size):
        if room.current_state.solved_at is not None:
            break
        given = room.hint(link)
        assert given.tile is not None
        h.click(*given.tile, times=given.clicks)
        h.daemon.poll("main")
        clicks += given.clicks
        hints += 1
    return hints, clicks


def test_a_sink_room_is_built_with_its_cauldron_and_fixed_frames(sink: Harness) -> None:
    room = sink.room
    board = room.board
    assert board.mode == "sink" and board.fixed == {board.source_index, _sink_index(room)}
    assert world_mismatches(sink.sb, room) == []
    assert _sink_block(sink) == SINK_EMPTY
    for idx in range(board.size):
        assert int(_nbt(sink, idx)["Fixed"]) == (idx in board.fixed)  # type: ignore[call-overload]
    preload = sink.sb.call(
        lambda g: g.execute("execute if entity @e[type=item_frame,tag=pipes.preload]")
    )
    assert preload == ["Test passed. Count: 21"]  # the 18 pipe pictures and the 3 fixed ones
    assert room.current_state.world_format == SINK_WORLD_FORMAT == 8
    assert isinstance(board.meta.get("par"), int)


def test_following_the_hints_fills_the_sink_wins_and_moves_on(sink: Harness) -> None:
    room, sb = sink.room, sink.sb
    start = room.board.copy()
    report = sink_par_report(start)
    link = sink.daemon.links["main"]
    assert link.record is not None
    recorded = len(link.record)
    hints, clicks = _play_hints(sink)
    state = room.current_state
    # The win: water reaches the sink (not every tile is wet), in par clicks when par is exact.
    assert state.solved_at is not None and len(state.solves) == 1
    assert room.play_state.classes[_sink_index(room)] != TileClass.DRY
    assert room.play_state.wet_count < room.board.size
    # Moves are clicks: a frame clicked several times before a poll counts each click.
    assert report.exact and hints > 0 and state.moves == clicks == report.clicks
    assert _sink_block(sink) == SINK_FULL
    # The sink block was written once, when the water arrived.
    during = link.record[recorded:]
    assert sum("cauldron" in c for c in during) == 1
    titles = [m for m in sb.inbox("Alex") if m.get("type") == "title"]
    assert any("Solved!" in json.dumps(m) for m in titles)
    subtitles = [str(m["text"]) for m in sb.inbox("Alex") if m.get("type") == "subtitle"]
    assert any(s.endswith(f"moves (par {start.meta['par']})") for s in subtitles), subtitles
    assert world_mismatches(sb, room) == []
    old_sink = room.geom.sink_pos(*(room.board.sink or (0, 0)))
    room.next_puzzle_at = room.clock.time()
    sink.daemon.step()
    assert state.puzzle_number == 1 and room.current_state.puzzle_number == 2
    assert room.board.mode == "sink" and room.current_state.solved_at is None
    assert world_mismatches(sb, room) == []
    new_sink = room.geom.sink_pos(*(room.board.sink or (0, 0)))
    if new_sink != old_sink:
        assert _block(sink, old_sink) == "minecraft:air"
    assert _block(sink, new_sink) == SINK_EMPTY


def test_a_players_hint_trigger_names_the_next_tile_toward_the_sink(sink: Harness) -> None:
    room, sb, link = sink.room, sink.sb, sink.daemon.links["main"]
    now = room.clock.time()
    room.ingame.periodic(link, now, True)  # the triggers are enabled for the players near
    assert sb.trigger("Alex", HINT) == "Triggered [Pipes hint]"
    room.ingame.last_check = -1e18
    room.ingame.periodic(link, now, True)
    told = [str(m["text"]) for m in sb.inbox("Alex") if m.get("type") == "tellraw"]
    found = sink_hint(room.board)
    assert found is not None and found[0] not in room.board.fixed
    w = room.board.width
    assert any(f"(column {found[0] % w + 1}, row {found[0] // w + 1})" in t for t in told), told


def test_fixed_frames_cannot_be_turned_and_a_forced_turn_is_undone(sink: Harness) -> None:
    room, sb, link = sink.room, sink.sb, sink.daemon.links["main"]
    src = room.board.source_index
    w = room.board.width
    x, y, z = room.geom.frame_pos(src % w, src // w)
    sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
    assert not sb.use_entity("Alex", room.uuids[src])  # Fixed: the click passes
    assert sink.daemon.poll("main") == 0
    # A turn that arrives anyway (a command) is no move: the frame is turned back.
    before = room.board.rotations[src]
    turned = (before + 1) % 4
    sb.call(lambda g: g.execute(f"data merge entity {room.uuids[src]} {{ItemRotation:{turned}b}}"))
    assert room.handle_turn(link, src % w, src // w, turned)
    assert room.board.rotations[src] == before and room.current_state.moves == 0
    assert world_mismatches(sb, room) == []


def test_restart_adopts_turns_but_not_of_fixed_frames(sink: Harness) -> None:
    room, sb = sink.room, sink.sb
    board = room.board
    free = [k for k in range(board.size) if k not in board.fixed][:2]
    before = list(board.rotations)
    sink.daemon.close()
    w = board.width
    sink.click(free[0] % w, free[0] // w, times=1)
    sink.click(free[1] % w, free[1] // w, times=2)
    fixed = _sink_index(room)
    forced = (before[fixed] + 1) % 4 + 4
    sb.call(
        lambda g: g.execute(f"data merge entity {room.uuids[fixed]} {{ItemRotation:{forced}b}}")
    )
    again = Daemon(sink.cfg, ["lobby"], connect=connect_server)
    again.start()
    new_room = again.rooms["lobby"]
    assert isinstance(new_room, PipesRoom)
    assert new_room.board.rotations[free[0]] == (before[free[0]] + 1) % 4
    assert new_room.board.rotations[free[1]] == (before[free[1]] + 2) % 4
    assert new_room.board.rotations[fixed] == before[fixed]
    assert new_room.current_state.moves == 1 + 2  # moves are clicks; the fixed frame counts none
    assert world_mismatches(sb, new_room) == []
    # A second start on the matching world repairs nothing.
    rep = new_room.reconcile(again.links["main"])
    assert rep.total == 0 and rep.blocks_fixed == 0
    again.close()


def test_tampering_with_the_sink_block_and_fixed_flag_is_repaired(sink: Harness) -> None:
    room, sb = sink.room, sink.sb
    x, y, z = room.geom.sink_pos(*(room.board.sink or (0, 0)))
    sb.call(lambda g: g.execute(f"setblock {x} {y} {z} minecraft:water_cauldron[level=1]"))
    src = room.board.source_index
    sb.call(lambda g: g.execute(f"data merge entity {room.uuids[src]} {{Fixed:0b}}"))
    sink_uid = room.uuids[_sink_index(room)]
    sb.call(lambda g: g.execute(f"tag {sink_uid} remove pipes.fixed"))
    assert world_mismatches(sb, room)
    rep = room.reconcile(sink.daemon.links["main"])
    assert rep.blocks_fixed == 1 and "fixed frames made Fixed again" in rep.notes
    assert world_mismatches(sb, room) == []
    assert _sink_block(sink) == SINK_EMPTY


def test_every_command_of_a_sink_room_is_vanilla_grammar(sink: Harness) -> None:
    _play_hints(sink)
    sent = sink.daemon.links["main"].record
    assert sent and any("water_cauldron" in c for c in sent)
    assert_valid_commands(sorted(set(sent)))


def test_a_saved_tree_puzzle_is_refused_by_a_sink_config_not_rebuilt(
    harness: Harness, tmp_path: Path
) -> None:
    from controller.errors import RoomError

    harness.daemon.close()
    cfg = make_config(harness.sb, tmp_path / "state", mode="sink")
    again = Daemon(cfg, ["lobby"], connect=connect_server)
    with pytest.raises(RoomError, match="a tree puzzle but the config says mode: sink"):
        again.start()
    again.close()
    assert world_mismatches(harness.sb, harness.room) == []  # the tree room is untouched


def test_win_waves_leave_the_fixed_frames_alone(sink: Harness) -> None:
    room = sink.room
    on_win = room.cfg.on_win.model_copy(update={"waves_s": 1.0})
    room.ingame.cfg = room.cfg.model_copy(update={"on_win": on_win})
    shown = list(room.shown_class)
    room.ingame.schedule_waves(room.clock.time(), [])
    written = " ".join(c for _, commands in room.ingame.waves for c in commands)
    assert room.ingame.waves and "set value" in written
    for idx in room.board.fixed:
        assert str(room.uuids[idx]) not in written and room.shown_class[idx] == shown[idx]


def test_repair_from_world_rebuilds_a_sink_room_from_its_frames(sink: Harness) -> None:
    from dataclasses import replace

    from controller.puzzle.flow import sink_reached
    from controller.runtime.pipes.recover import state_from_world

    room = sink.room
    sink.click(*_free_tile(room))  # a turn the state must carry
    sink.daemon.poll("main")
    board = room.board
    state = state_from_world(room, sink.daemon.links["main"], {"moves": 1})
    got = state.board
    assert (got.mode, got.sink, got.fixed, got.source) == (
        "sink",
        board.sink,
        board.fixed,
        board.source,
    )
    assert got.shapes == board.shapes and got.rotations == board.rotations
    assert sink_reached(replace(got, rotations=list(got.solution)))
    assert state.moves == 1 and got.meta["recovered"]
    assert state.start is None  # turned, and the broken file kept no deal: no restart
    dealt = room.current_state.start
    again = state_from_world(room, sink.daemon.links["main"], {"moves": 1, "start": dealt})
    assert again.start == dealt  # a deal the broken file still holds is kept
    bad = state_from_world(room, sink.daemon.links["main"], {"moves": 1, "start": [9]})
    assert bad.start is None


def test_repair_from_world_refuses_a_sink_room_without_its_sink_picture(sink: Harness) -> None:
    from controller.errors import RoomError
    from controller.runtime.pipes.recover import state_from_world

    room = sink.room
    k = room.board.index(*room.board.sink)  # type: ignore[misc]
    pipe = room.cfg.map_id_base + room.board.shapes[k]
    path = 'Item.components."minecraft:map_id"'
    sink.sb.call(lambda g: g.execute(f"data modify entity {room.uuids[k]} {path} set value {pipe}"))
    with pytest.raises(RoomError, match="0 sink tiles found, not one"):
        state_from_world(room, sink.daemon.links["main"], {})


def _free_tile(room: PipesRoom) -> tuple[int, int]:
    """A tile that is neither the source nor the sink."""
    k = next(t for t in range(room.board.size) if t not in room.board.fixed)
    return k % room.board.width, k // room.board.width
