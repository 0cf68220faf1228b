"""Everything the terminal shows: the board in unicode pipes, colours, the live view."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from controller.puzzle.model import Board, TileClass

if TYPE_CHECKING:
    from rich.console import Console, Group
    from rich.text import Text

    from controller.puzzle.paint import Canvas
    from controller.runtime.room import Room

__all__ = [
    "CLASS_STYLE",
    "CLOSED_STYLE",
    "PIPE_GLYPHS",
    "board_text",
    "canvas_text",
    "room_panel",
    "console",
    "err_console",
    "use_colour",
]

# Index = arm mask (bit 0 N, 1 E, 2 S, 3 W).
PIPE_GLYPHS = " ╵╶└╷│┌├╴┘─┴┐┤┬┼"

CLASS_STYLE = {
    TileClass.DRY: "grey50",
    TileClass.WET: "bold bright_blue",
    TileClass.RING: "bold bright_green",
    TileClass.SOURCE: "bold bright_red",
    TileClass.SOURCE_RING: "bold magenta",
}
# a dry tile on a dry loop or in a closed island (docs/puzzle.md, "Loops and closed islands"):
# pink, as the pearlescent froglight under it
CLOSED_STYLE = "bold hot_pink"


def use_colour(stream: object = None) -> bool:
    """Colour only on a terminal, and never with NO_COLOR set."""
    stream = stream if stream is not None else sys.stdout
    return "NO_COLOR" not in os.environ and bool(getattr(stream, "isatty", lambda: False)())


def console() -> Console:
    """The stdout console (plain text when not a terminal)."""
    from rich.console import Console

    return Console(no_color=not use_colour(), highlight=False)


def err_console() -> Console:
    """The stderr console."""
    from rich.console import Console

    return Console(stderr=True, no_color=not use_colour(sys.stderr), highlight=False)


def board_text(
    board: Board,
    classes: Sequence[int] | None = None,
    width: int | None = None,
    closed: Sequence[bool] | None = None,
) -> Text:
    """The board as unicode pipes, one line per row, coloured by tile class when given (a tile
    `closed` says is on a dry loop or in a closed island in CLOSED_STYLE); rows wider than
    `width` columns are cut, ending in `…`."""
    shown = board.width if width is None or width >= board.width else max(width - 1, 0)
    from rich.text import Text

    out = Text(no_wrap=True, overflow="crop")
    for j in range(board.height):
        for i in range(shown):
            idx = j * board.width + i
            glyph = PIPE_GLYPHS[board.mask(idx)]
            style = CLASS_STYLE[TileClass(classes[idx])] if classes is not None else ""
            if closed is not None and closed[idx]:
                style = CLOSED_STYLE
            out.append(glyph, style=style)
        if shown < board.width:
            out.append("…")
        out.append("\n")
    return out


def canvas_text(canvas: Canvas, target: Canvas, width: int | None = None) -> Text:
    """A paint room's canvas and, after two spaces, its target: `█` colour 1, `·` colour 0;
    canvas cells that differ from the target are red. Lines are cut at `width` columns."""
    from rich.text import Text

    out = Text(no_wrap=True, overflow="crop")
    for j in range(canvas.height):
        line = Text(no_wrap=True, overflow="crop")
        for i in range(canvas.width):
            right = canvas[i, j] == target[i, j]
            line.append("█" if canvas[i, j] else "·", style="" if right else "bold red")
        line.append("  ")
        line.append("".join("█" if target[i, j] else "·" for i in range(target.width)))
        if width is not None:
            line.truncate(width, overflow="crop")
        out.append_text(line)
        out.append("\n")
    return out


def room_panel(room: Room, now: float, width: int | None = None) -> Group:
    """One room in the live view: its progress line and, for pipes rooms, the board; no line
    is wider than `width` columns (so the view never wraps)."""
    from rich.console import Group
    from rich.text import Text

    from controller.runtime.paint.room import PaintRoom
    from controller.runtime.pipes.room import PipesRoom

    status = room.status()
    if status is None:
        return Group(Text(f"{room.name}: starting…", no_wrap=True, overflow="ellipsis"))
    elapsed = int(now - status.started_at)
    head = Text(
        f"{room.name}  #{status.puzzle}  {'cells' if room.kind == 'paint' else 'water'} "
        f"{status.progress}/{status.total}  "
        f"{'strokes' if room.kind == 'paint' else 'moves'} {status.moves}  "
        f"{elapsed // 60}:{elapsed % 60:02d}" + ("  SOLVED!" if status.solved else ""),
        style="bold",
        no_wrap=True,
        overflow="ellipsis",
    )
    if width is not None:
        head.truncate(width, overflow="ellipsis")
    if isinstance(room, PipesRoom) and room.play is not None:
        return Group(head, board_text(room.board, room.play.classes, width, room.play.closed))
    if isinstance(room, PaintRoom) and room.state is not None:
        return Group(head, canvas_text(room.canvas, room.puzzle.target, width))
    return Group(head)
