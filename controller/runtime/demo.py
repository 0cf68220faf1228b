"""A simulated player for the demo and the end-to-end tests: turns wrong tiles, water first."""

from __future__ import annotations

from collections import deque

from controller.puzzle.model import DELTA, Board, bit, opposite

__all__ = ["solution_order", "next_click"]


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
