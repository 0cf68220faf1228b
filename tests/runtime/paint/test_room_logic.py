"""The paint room's stroke logic against the engine as an oracle, through a fake server: every
click sequence leaves the engine's canvas, counts the strokes that changed it, and sends one
fill per such stroke (the whole canvas for a clear)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.config import parse_config
from controller.puzzle.paint import Canvas, Stroke, hint, remaining
from controller.runtime.link import Link
from controller.runtime.paint.room import PaintRoom
from controller.runtime.paint.state import PaintState


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


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 6), st.integers(3, 6), st.data())
def test_the_player_hint_names_the_engines_stroke_on_its_brush(
    w: int, h: int, data: st.DataObject
) -> None:
    """Oracle: the engine's hint, and the brush positions of docs/world-format.md ("Brush
    frames": row j's at (W, j), column i's at (i, H))."""
    with tempfile.TemporaryDirectory() as tmp:
        room = _room(Path(tmp), w, h)
        strokes = data.draw(
            st.lists(
                st.one_of(
                    st.builds(Stroke.row, st.integers(0, h - 1)),
                    st.builds(Stroke.col, st.integers(0, w - 1)),
                ),
                max_size=8,
            )
        )
        room.current_state.canvas = room.puzzle.blank().paint(strokes)
        expected = hint(room.puzzle.target, room.canvas)
        given_hint = room.ingame.player_hint()
        if expected is None:
            assert given_hint is None and room.puzzle.is_done(room.canvas)
            return
        assert given_hint is not None
        at = (w, expected.number) if expected.axis == "row" else (expected.number, h)
        assert given_hint.frame == room.uuids[at]
        side = "row" if expected.axis == "row" else "column"
        assert f"the glowing brush of {side} {expected.number + 1} " in given_hint.text
        left = remaining(room.puzzle.target, room.canvas)
        assert given_hint.text.endswith(f"({left} stroke(s) left at best)")


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 9),
    st.integers(3, 9),
    st.sampled_from(["floor", "wall"]),
    st.sampled_from(["above", "left", "none"]),
)
def test_on_win_command_runs_at_the_middle_of_the_brush_layer(
    w: int, h: int, orientation: str, target: str
) -> None:
    cfg = parse_config(
        {
            "servers": {"main": {"password_env": "X"}},
            "worlds": {
                "art": {
                    "kind": "paint",
                    "origin": [10, 64, -20],
                    "size": [w, h],
                    "paint": {"orientation": orientation, "target": target},
                }
            },
        }
    )
    with tempfile.TemporaryDirectory() as tmp:
        room = PaintRoom("art", cfg.worlds["art"], Path(tmp))
        cells = [room.geom.frame_pos(i, j) for i in range(w) for j in range(h)]
        mean = tuple(sum(p[k] for p in cells) / len(cells) + 0.5 for k in range(3))
        assert room.ingame.centre() == pytest.approx(mean)
