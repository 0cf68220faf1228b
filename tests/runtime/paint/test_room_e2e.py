"""Paint rooms end to end against the sandbox, through the real transport and daemon, in both
turn-detection modes: build, brush clicks, several strokes in one poll, a stroke while the daemon
is down, tampering repaired, win and the next puzzle. The world is checked cell by cell against
the engine."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config, parse_config
from controller.puzzle.paint import Canvas, Stroke, hint
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.paint.room import PaintRoom
from controller.runtime.paint.state import PaintState
from controller.runtime.requests import CanvasRead, HintGiven, HintRequest, ShowRequest
from controller.sandbox import Sandbox
from controller.world.paint.geometry import Brush
from tests.support.fence import unfenced
from tests.support.grammar import assert_valid_commands
from tests.support.harness import make_config
from tests.support.paint_harness import paint_config, paint_data, world_mismatches

WHITE, BLUE = "minecraft:white_concrete", "minecraft:blue_concrete"


@dataclass
class PaintHarness:
    """A sandbox plus a daemon running one paint room."""

    sb: Sandbox
    cfg: Config
    daemon: Daemon

    @property
    def room(self) -> PaintRoom:
        room = self.daemon.rooms["lobby"]
        assert isinstance(room, PaintRoom)
        return room

    @property
    def link(self) -> Any:
        return self.daemon.links["main"]

    def brush(self, axis: str, number: int = -1) -> Brush:
        return next(b for b in self.room.brushes if (b.axis, b.number) == (axis, number))

    def click(self, brush: Brush, times: int = 1, player: str = "Alex") -> None:
        """The player pulls a brush, standing right in front of it."""
        x, y, z = self.room.geom.frame_pos(brush.i, brush.j)
        if self.room.geom.orientation == "floor":
            self.sb.move(player, (x + 0.5, y + 1, z + 0.5))
        else:
            self.sb.move(player, (x + 0.5, y - 1, z + 1.5))
        for _ in range(times):
            assert self.sb.use_entity(player, self.room.uuids[(brush.i, brush.j)])

    def pull(self, stroke: Stroke) -> None:
        self.click(self.brush(stroke.axis, stroke.number))


def start(sb: Sandbox, cfg: Config) -> PaintHarness:
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, record=True)
    daemon.start()
    x, y, z = daemon.rooms["lobby"].bounds()[0]
    sb.join("Alex", (x + 3.5, 101, z + 3.5))
    return PaintHarness(sb, cfg, daemon)


@pytest.fixture
def paint(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[PaintHarness]:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    harness = start(sandbox, paint_config(sandbox, tmp_path / "state"))
    yield harness
    harness.daemon.close()


def test_build_matches_the_engine_cell_by_cell(paint: PaintHarness) -> None:
    room = paint.room
    assert room.canvas == room.puzzle.blank() and room.puzzle.par == 6
    assert world_mismatches(paint.sb, room) == []
    assert len(room.brushes) == 5 + 4 + 1
    assert PaintState.load(room.path) is not None


def test_a_stroke_is_one_fill_and_the_brush_is_settled(paint: PaintHarness) -> None:
    room, daemon = paint.room, paint.daemon
    daemon.poll("main")
    paint.click(paint.brush("row", 2))
    sent = paint.link.sent
    assert daemon.poll("main") == 1
    record = [unfenced(c) for c in paint.link.record[sent - paint.link.sent :]]
    fills = [c for c in record if c.startswith("fill ")]
    assert fills == ["fill 0 99 2 4 99 2 minecraft:blue_concrete"]
    assert room.canvas == Canvas.blank(5, 4).apply(Stroke.row(2))
    assert room.current_state.moves == 1
    assert world_mismatches(paint.sb, room) == []
    # The same brush again changes nothing: settled, not painted, not counted.
    paint.click(paint.brush("row", 2))
    sent = paint.link.sent
    assert daemon.poll("main") == 1
    record = [unfenced(c) for c in paint.link.record[sent - paint.link.sent :]]
    assert not [c for c in record if c.startswith("fill ")]
    assert room.current_state.moves == 1
    assert world_mismatches(paint.sb, room) == []
    assert daemon.poll("main") == 0


def test_several_strokes_in_one_poll_are_applied_in_order(paint: PaintHarness) -> None:
    room, daemon = paint.room, paint.daemon
    daemon.poll("main")
    strokes = [Stroke.row(0), Stroke.row(3), Stroke.col(1)]
    paint.pull(strokes[0])
    paint.pull(strokes[1])
    paint.click(paint.brush("col", 1), times=3)
    paint.sb.join("Bea", (6.5, 101, 0.5))
    paint.click(paint.brush("row", 1), player="Bea")
    strokes.append(Stroke.row(1))
    daemon.poll("main")
    blank = Canvas.blank(5, 4)
    possible = {blank.paint(order) for order in itertools.permutations(strokes)}
    assert room.canvas in possible
    assert room.current_state.moves == 4
    assert world_mismatches(paint.sb, room) == []
    assert daemon.poll("main") == 0


def test_a_stroke_while_the_daemon_is_down_is_adopted(paint: PaintHarness) -> None:
    room = paint.room
    paint.pull(Stroke.row(1))
    paint.daemon.poll("main")
    paint.daemon.close()
    paint.click(paint.brush("col", 3), times=2)  # ItemRotation 2: two clicks, one stroke
    again = Daemon(paint.cfg, ["lobby"], connect=connect_server)
    again.start()
    resumed = again.rooms["lobby"]
    assert isinstance(resumed, PaintRoom)
    assert resumed.canvas == Canvas.blank(5, 4).apply(Stroke.row(1)).apply(Stroke.col(3))
    assert resumed.current_state.moves == 2
    assert world_mismatches(paint.sb, resumed) == []
    assert room.path == resumed.path
    again.close()


def test_tampering_with_canvas_target_and_brushes_is_repaired(paint: PaintHarness) -> None:
    room, sb = paint.room, paint.sb
    paint.pull(Stroke.row(0))
    paint.daemon.poll("main")
    x, y, z = room.geom.cell_pos(2, 0)
    sb.call(lambda g: g.execute(f"setblock {x} {y} {z} minecraft:white_concrete"))
    tx, ty, tz = room.geom.cell_pos(4, 3)
    sb.call(lambda g: g.execute(f"setblock {tx} {ty} {tz} minecraft:stone"))
    px, py, pz = room.geom.target_pos(0, 0)
    sb.call(lambda g: g.execute(f"setblock {px} {py} {pz} minecraft:diamond_block"))
    row3 = paint.brush("row", 3)
    sb.call(lambda g: g.execute(f"kill {room.uuids[(row3.i, row3.j)]}"))
    clear = paint.brush("clear")
    uid = room.uuids[(clear.i, clear.j)]
    wrong_picture = f'data modify entity {uid} Item.components."minecraft:map_id" set value 5'
    sb.call(lambda g: g.execute(wrong_picture))
    assert world_mismatches(sb, room)
    shown = room.read_canvas(paint.link)
    assert shown.rows[0] == 0b11011  # the tampered cell reads back as colour 0
    rep = room.reconcile(paint.link)
    assert (rep.frames_summoned, rep.frames_fixed, rep.blocks_fixed) == (1, 1, 3)
    assert rep.adopted_moves == 0 and room.current_state.moves == 1
    assert world_mismatches(sb, room) == []
    assert room.read_canvas(paint.link).rows == room.canvas.rows


def test_clear_starts_a_new_attempt(paint: PaintHarness) -> None:
    room, daemon = paint.room, paint.daemon
    paint.pull(Stroke.row(0))
    daemon.poll("main")
    paint.click(paint.brush("clear"))
    daemon.poll("main")
    assert room.canvas == Canvas.blank(5, 4)
    assert (room.current_state.moves, room.current_state.clears) == (0, 1)
    assert world_mismatches(paint.sb, room) == []


def test_hint_names_the_engine_stroke_and_following_hints_wins_at_par(
    paint: PaintHarness,
) -> None:
    room, daemon, sb = paint.room, paint.daemon, paint.sb
    paint.pull(Stroke.col(0))  # a wasted stroke: nothing to clear yet, so not even counted
    paint.pull(Stroke.row(2))  # maybe a mistake
    daemon.poll("main")
    first_seed = room.puzzle.seed
    for _ in range(20):
        expected = hint(room.puzzle.target, room.canvas)
        if expected is None:
            break
        answer = room.handle_request(paint.link, HintRequest())
        assert isinstance(answer, HintGiven) and answer.heard
        assert answer.stroke == (expected.axis, expected.number)
        paint.pull(expected)
        daemon.poll("main")
    state = room.current_state
    assert state.solved_at is not None and len(state.solves) == 1
    said = json.dumps(sb.inbox("Alex"))
    assert "Hint: pull the glowing brush of" in said
    assert f"strokes (par {room.puzzle.par})" in said and "Solved!" in said
    # While the solved canvas waits for the next puzzle, clicks are settled, not painted.
    paint.pull(Stroke.col(1))
    daemon.poll("main")
    assert room.puzzle.is_done(room.canvas)
    assert world_mismatches(sb, room) == []
    room.next_puzzle_at = room.clock.time()
    daemon.step()
    assert room.current_state.puzzle_number == 2 and room.puzzle.seed != first_seed
    assert room.canvas == room.puzzle.blank() and len(room.current_state.solves) == 1
    assert world_mismatches(sb, room) == []


def test_show_reads_the_canvas_back(paint: PaintHarness) -> None:
    room = paint.room
    paint.pull(Stroke.row(1))
    paint.daemon.poll("main")
    answer = room.handle_request(paint.link, ShowRequest())
    assert isinstance(answer, CanvasRead) and answer.rows == room.canvas.rows


def test_every_command_sent_is_vanilla_grammar(paint: PaintHarness) -> None:
    paint.pull(Stroke.row(1))
    paint.pull(Stroke.col(2))
    paint.daemon.poll("main")
    paint.click(paint.brush("clear"))
    paint.daemon.poll("main")
    paint.room.handle_request(paint.link, HintRequest())
    paint.room.handle_request(paint.link, ShowRequest())
    paint.room.reconcile(paint.link)
    paint.room.remove(paint.link)
    assert_valid_commands(sorted(set(paint.link.record)))


def test_a_wall_room_with_the_target_on_the_left(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = paint_config(sandbox, tmp_path / "state", orientation="wall", target="left")
    harness = start(sandbox, cfg)
    try:
        room = harness.room
        assert room.geom.facing == 3
        assert world_mismatches(sandbox, room) == []
        harness.daemon.poll("main")
        harness.pull(Stroke.row(0))
        harness.daemon.poll("main")  # scan mode reads only frames near the player
        harness.pull(Stroke.col(4))
        harness.daemon.poll("main")
        assert room.current_state.moves == 2
        assert world_mismatches(sandbox, room) == []
        assert_valid_commands(sorted(set(harness.link.record)))
    finally:
        harness.daemon.close()


def test_remove_clears_every_block_and_frame(paint: PaintHarness) -> None:
    room, sb = paint.room, paint.sb
    archived = room.remove(paint.link)
    assert archived is not None and archived.exists() and not room.path.exists()
    (xa, ya, za), (xb, yb, zb) = room.bounds()

    def leftovers(game: Any) -> list[Any]:
        blocks = [
            (x, y, z)
            for x in range(xa, xb + 1)
            for y in range(ya, yb + 1)
            for z in range(za, zb + 1)
            if game.block(x, y, z) != "minecraft:air"
        ]
        frames = [u for u in room.uuids.values() if game.entity_nbt(u) is not None]
        return blocks + frames

    assert sb.call(leftovers) == []


def test_a_daemon_runs_a_pipes_room_and_a_paint_room_side_by_side(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from controller.runtime.pipes.room import PipesRoom

    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    data = paint_data(sandbox, tmp_path / "state")
    data["worlds"]["pipes"] = {"origin": [30, 100, 0], "size": [4, 4], "seed": 2}
    cfg = parse_config(data)
    daemon = Daemon(cfg, ["lobby", "pipes"], connect=connect_server)
    daemon.start()
    try:
        paint_room, pipes_room = daemon.rooms["lobby"], daemon.rooms["pipes"]
        assert isinstance(paint_room, PaintRoom) and isinstance(pipes_room, PipesRoom)
        daemon.poll("main")
        harness = PaintHarness(sandbox, cfg, daemon)
        sandbox.join("Alex", (2.5, 101, 2.5))
        harness.pull(Stroke.row(1))
        sandbox.join("Bea", (30.5, 101, 0.5))
        before = pipes_room.board.rotations[0]
        assert sandbox.use_entity("Bea", pipes_room.uuids[0])
        assert daemon.poll("main") == 2
        assert paint_room.canvas == Canvas.blank(5, 4).apply(Stroke.row(1))
        assert pipes_room.board.rotations[0] == (before + 1) % 4
        assert world_mismatches(sandbox, paint_room) == []
    finally:
        daemon.close()


def test_following_the_hints_paints_every_puzzle_at_par(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from controller.config import default_config
    from controller.runtime.demo import demo_config, play_paint_demo

    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    base = demo_config(default_config(), 5, "paint")
    lobby = base.world("lobby")
    lobby = lobby.model_copy(
        update={"seed": 1, "on_win": lobby.on_win.model_copy(update={"next_puzzle_after_s": 0})}
    )
    server = make_config(sandbox, tmp_path).servers
    cfg = base.model_copy(
        update={"servers": server, "worlds": {"lobby": lobby}, "state_dir": str(tmp_path)}
    )
    daemon = Daemon(cfg, ["lobby"], connect=connect_server)
    daemon.start()
    room = daemon.rooms["lobby"]
    assert isinstance(room, PaintRoom)
    pars = [room.puzzle.par]
    room.listeners.append(lambda r: pars.append(room.puzzle.par))
    try:
        last = play_paint_demo(
            sandbox, daemon, room, rounds=2, click_every=0.0, stop=threading.Event()
        )
    finally:
        daemon.close()
    solves = room.current_state.solves
    assert last is not None and len(solves) == 2
    assert [s.moves for s in solves] == [pars[0], room.puzzle.par]


def test_resuming_on_a_matching_world_changes_nothing(paint: PaintHarness) -> None:
    paint.pull(Stroke.row(2))
    paint.daemon.poll("main")
    paint.daemon.close()
    again = Daemon(paint.cfg, ["lobby"], connect=connect_server, record=True)
    again.start()
    try:
        room = again.rooms["lobby"]
        assert isinstance(room, PaintRoom)
        assert room.current_state.moves == 1
        sent = again.links["main"].record or []
        assert not any(unfenced(c).startswith(("summon ", "kill ")) for c in sent)
        repairs = room.reconcile(again.links["main"])
        assert repairs.total == 0 and not repairs.notes
        assert world_mismatches(paint.sb, room) == []
    finally:
        again.close()


def test_a_server_restart_loses_no_stroke(paint: PaintHarness) -> None:
    room, daemon, sb = paint.room, paint.daemon, paint.sb
    paint.pull(Stroke.row(0))
    daemon.poll("main")
    sb.restart()
    sb.join("Alex", (2.5, 101, 2.5))
    paint.pull(Stroke.col(2))
    for _ in range(40):
        daemon.step()
        if not daemon.down and room.current_state.moves == 2:
            break
        time.sleep(0.06)  # a poll is due once per poll interval
    assert room.canvas == Canvas.blank(5, 4).apply(Stroke.row(0)).apply(Stroke.col(2))
    assert world_mismatches(sb, room) == []


def test_paper_flavour_builds_and_paints_with_prefixed_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the sandbox's Paper answers `minecraft:version` as vanilla does, like real Paper
    # (docs/server-behaviour.md, "Versions: detecting the version")
    with Sandbox(flavour="paper", version="26.1") as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        harness = start(sb, paint_config(sb, tmp_path / "state"))
        try:
            assert getattr(harness.link.client, "flavour", None) == "paper"
            harness.daemon.poll("main")
            harness.pull(Stroke.row(3))
            harness.daemon.poll("main")
            assert harness.room.current_state.moves == 1
            assert world_mismatches(sb, harness.room) == []
            sent = [unfenced(e.command) for e in sb.log_entries()]
            assert "minecraft:fill 0 99 3 4 99 3 minecraft:blue_concrete" in sent
        finally:
            harness.daemon.close()
