"""A simulated player for the demo and the end-to-end tests: turns wrong tiles, water first."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from controller.config import Config, PaintConfig
from controller.puzzle.model import DELTA, Board, bit, opposite
from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.stopping import Stop

if TYPE_CHECKING:
    from controller.runtime.daemon import Daemon
    from controller.runtime.paint.room import PaintRoom
    from controller.runtime.pipes.room import PipesRoom
    from controller.runtime.state import Solve
    from controller.sandbox import Sandbox

__all__ = ["solution_order", "next_click", "play_demo", "play_paint_demo", "demo_config"]


def solution_order(board: Board) -> list[int]:
    """Tiles in breadth-first order from the source along the solution's pipes."""
    w, h = board.width, board.height
    order = [board.source_index]
    seen = {board.source_index}
    queue = deque(order)
    while queue:
        idx = queue.popleft()
        i, j = idx % w, idx // w
        mask = board.solved_mask(idx)
        for d, (di, dj) in enumerate(DELTA):
            ni, nj = i + di, j + dj
            if not (mask & bit(d)) or not (0 <= ni < w and 0 <= nj < h):
                continue
            n = nj * w + ni
            if n not in seen and board.solved_mask(n) & bit(opposite(d)):
                seen.add(n)
                order.append(n)
                queue.append(n)
    order += [idx for idx in range(board.size) if idx not in seen]
    return order


def next_click(board: Board, order: list[int]) -> int | None:
    """The first tile (in `order`) whose arms differ from the solution; None when solved."""
    for idx in order:
        if board.mask(idx) != board.solved_mask(idx):
            return idx
    return None


def play_demo(
    sandbox: Sandbox,
    daemon: Daemon,
    room: PipesRoom,
    *,
    rounds: int,
    click_every: float,
    stop: Stop,
    player: str = "Alex",
    clock: Clock = SYSTEM_CLOCK,
) -> Solve | None:
    """A simulated player walks to each wrong tile and turns it, while the daemon runs the
    room, until `rounds` puzzles are solved or `stop` is set; returns the last solve."""
    x0, y0, z0 = room.geom.origin
    board = room.board
    sandbox.join(player, (x0 + board.width / 2, y0 + 1, z0 + board.height / 2))
    order = solution_order(room.board)
    puzzle = room.current_state.puzzle_number
    next_at = clock.monotonic()
    solved = 0
    while not stop.is_set() and solved < rounds:
        daemon.step()
        state = room.current_state
        if state.puzzle_number != puzzle:
            puzzle, order = state.puzzle_number, solution_order(room.board)
        if state.solved_at is not None:
            solved = len(state.solves)
            continue
        if clock.monotonic() >= next_at:
            idx = next_click(room.board, order)
            if idx is not None:
                i, j = idx % room.board.width, idx // room.board.width
                sandbox.move(player, (x0 + i + 0.5, y0 + 1, z0 + j + 0.5))
                sandbox.use_entity(player, room.uuids[idx])
            next_at = clock.monotonic() + click_every
        clock.sleep(room.cfg.poll_interval_ms / 1000)
    solves = room.current_state.solves
    return solves[-1] if solves else None


def play_paint_demo(
    sandbox: Sandbox,
    daemon: Daemon,
    room: PaintRoom,
    *,
    rounds: int,
    click_every: float,
    stop: Stop,
    player: str = "Alex",
    clock: Clock = SYSTEM_CLOCK,
) -> Solve | None:
    """A simulated player walks to the brush of the engine's next stroke and pulls it, while the
    daemon runs the paint room, until `rounds` puzzles are painted or `stop` is set."""
    from controller.puzzle.paint import hint

    (x0, _, z0), (x1, _, z1) = room.bounds()
    sandbox.join(player, ((x0 + x1) / 2, room.geom.y0 + 1, (z0 + z1) / 2))
    next_at = clock.monotonic()
    while not stop.is_set() and len(room.current_state.solves) < rounds:
        daemon.step()
        state = room.current_state
        if state.solved_at is None and clock.monotonic() >= next_at:
            stroke = hint(state.puzzle.target, state.canvas)
            brush = next(b for b in room.brushes if stroke and (b.axis, b.number) == stroke)
            x, y, z = room.geom.frame_pos(brush.i, brush.j)
            if room.geom.orientation == "floor":
                sandbox.move(player, (x + 0.5, y + 1, z + 0.5))
            else:
                sandbox.move(player, (x + 0.5, y - 1, z + 1.5))
            sandbox.use_entity(player, room.uuids[(brush.i, brush.j)])
            next_at = clock.monotonic() + click_every
        clock.sleep(room.cfg.poll_interval_ms / 1000)
    solves = room.current_state.solves
    return solves[-1] if solves else None


def demo_config(base: Config, size: int, kind: str = "pipes", mode: str = "tree") -> Config:
    """The default configuration with only its `lobby` room, `size`² tiles (a `kind` room; a
    pipes room in `mode` tree or sink), a quick next puzzle."""
    lobby = base.world("lobby")
    update: dict[str, object] = {
        "size": (size, size),
        "on_win": lobby.on_win.model_copy(update={"next_puzzle_after_s": 2.0}),
    }
    if kind == "paint":
        update |= {"kind": "paint", "paint": PaintConfig(generator="strokes")}
    elif mode == "sink":
        update |= {"mode": "sink"}
    return base.model_copy(update={"worlds": {"lobby": lobby.model_copy(update=update)}})
