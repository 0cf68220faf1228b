"""The paint room's stroke logic against the engine as an oracle, through a fake server: every
click sequence leaves the engine's canvas, counts the strokes that changed it, and sends one
fill per such stroke (the whole canvas for a clear)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.config import parse_config
from controller.puzzle.paint import Canvas, Stroke
from controller.runtime.link import Link
from controller.runtime.paint_room import PaintRoom
from controller.runtime.paint_state import PaintState


class FakeServer:
    """Answers a settle as applied and everything else with nothing."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def command(self, command: str, *, prefix: bool = False) -> str:
        self.sent.append(command)
        if " run data merge entity @s " in command:
            return "Modified entity data of pipes:art:0:0"
        return ""


def _room(tmp: Path, w: int, h: int) -> PaintRoom:
    cfg = parse_config(
        {
            "servers": {"main": {"password_env": "X"}},
            "worlds": {"art": {"kind": "paint", "origin": [0, 64, 0], "size": [w, h]}},
        }
    )
    room = PaintRoom("art", cfg.worlds["art"], tmp)
    puzzle = room.new_puzzle(1, seed=0)
    room.state = PaintState("art", puzzle, puzzle.blank(), started_at=0.0)
    return room


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 6), st.integers(3, 6), st.data())
def test_clicks_paint_like_the_engine(w: int, h: int, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _check_clicks(Path(tmp), w, h, data)


def _check_clicks(tmp: Path, w: int, h: int, data: st.DataObject) -> None:
    room = _room(tmp, w, h)
    clicks = data.draw(
        st.lists(st.tuples(st.sampled_from(room.brushes), st.integers(1, 7)), max_size=12)
    )
    server = FakeServer()
    link = Link(server)
    canvas, moves, fills = Canvas.blank(w, h), 0, 0
    for brush, value in clicks:
        before = len(server.sent)
        if room.current_state.solved_at is not None:
            break
        assert room.handle_turn(link, brush.i, brush.j, value)
        after = (
            canvas.blank(w, h)
            if brush.axis == "clear"
            else canvas.apply(Stroke(brush.axis, brush.number))
        )
        if after != canvas:
            fills += 1
            moves = 0 if brush.axis == "clear" else moves + 1
            sent = [c for c in server.sent[before:] if c.startswith("fill ")]
            assert len(sent) == 1
        canvas = after
        assert room.canvas == canvas and room.current_state.moves == moves
    assert sum(c.startswith("fill ") for c in server.sent) == fills
    # A settled frame (ItemRotation 0) or a position that is no brush is no turn.
    assert not room.handle_turn(link, 0, 0, 3) and not room.handle_turn(link, w, 0, 0)
