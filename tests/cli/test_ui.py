"""The terminal board: tile classes in colour, the tiles on dry loops and in closed islands in
their own style."""

from __future__ import annotations

from controller.cli.ui import CLASS_STYLE, CLOSED_STYLE, board_text
from controller.puzzle.closed import closed_tiles
from controller.puzzle.flow import compute_flow
from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.model import TileClass


def test_board_text_styles_closed_tiles_apart() -> None:
    board = next(
        b for s in range(50) if closed_tiles(b := generate(7, 7, seed=s, params=GeneratorParams()))
    )
    found = closed_tiles(board)
    classes = compute_flow(board).classes
    text = board_text(board, classes, closed=[t in found for t in range(board.size)])
    style_at: dict[int, str] = {}
    for span in text.spans:
        for k in range(span.start, span.end):
            style_at[k] = str(span.style)
    for t in range(board.size):
        offset = t // board.width * (board.width + 1) + t % board.width  # a newline per row
        want = CLOSED_STYLE if t in found else CLASS_STYLE[TileClass(classes[t])]
        assert style_at[offset] == want
    assert CLOSED_STYLE not in CLASS_STYLE.values()
    # the glyphs are the same as without the marks
    assert text.plain == board_text(board, classes).plain
