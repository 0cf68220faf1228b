"""Shuffle: the start is never solved and has no loop (wet or dry); shapes and solution stay."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.flow import compute_flow
from controller.puzzle.generators import GENERATORS, GeneratorParams, build_tree
from controller.puzzle.model import Board, Shape, mask_of
from controller.puzzle.shuffle import loop_tiles, matched_edges, quarter_turns, shuffle

STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))


def connections(board: Board) -> list[tuple[int, int]]:
    """Oracle: every matched pair of arms, found tile by tile and direction by direction."""
    w, h = board.width, board.height
    out = set()
    for t in range(board.size):
        i, j = t % w, t // w
        for d in range(4):
            ni, nj = i + STEP[d][0], j + STEP[d][1]
            if not (0 <= ni < w and 0 <= nj < h):
                continue
            u = nj * w + ni
            if board.mask(t) >> d & 1 and board.mask(u) >> ((d + 2) % 4) & 1:
                out.add((min(t, u), max(t, u)))
    return sorted(out)


def has_cycle(n: int, edges: list[tuple[int, int]]) -> bool:
    """Oracle: a graph is a forest iff edges = tiles - components (components by DFS)."""
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    seen = [False] * n
    comps = 0
    for s in range(n):
        if seen[s]:
            continue
        comps += 1
        seen[s] = True
        stack = [s]
        while stack:
            x = stack.pop()
            for y in adj[x]:
                if not seen[y]:
                    seen[y] = True
                    stack.append(y)
    return len(edges) != n - comps


class ScriptedRandom(random.Random):
    """A Random whose first randrange answers come from a script (to force a bad start)."""

    def __init__(self, seed: int, script: list[int]) -> None:
        super().__init__(seed)
        self.script = list(script)

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        if self.script:
            return self.script.pop(0)
        return super().randrange(*args)


@settings(max_examples=120, deadline=None)
@given(
    w=st.integers(3, 14),
    h=st.integers(3, 14),
    seed=st.integers(0, 2**32),
    generator=st.sampled_from(GENERATORS),
    branching=st.floats(0, 1),
)
def test_start_is_loop_free_and_unsolved(
    w: int, h: int, seed: int, generator: str, branching: float
) -> None:
    board = build_tree(
        w, h, seed=seed, params=GeneratorParams(generator=generator, branching=branching)
    )
    shapes, solution = list(board.shapes), list(board.solution)
    shuffle(board, random.Random(seed))
    assert board.shapes == shapes and board.solution == solution
    assert all(0 <= r <= 3 for r in board.rotations)
    edges = connections(board)
    assert edges == sorted(matched_edges(board))
    assert not has_cycle(board.size, edges)
    assert len(edges) < board.size - 1  # a forest short of a spanning tree: not solved
    flow = compute_flow(board)
    assert not flow.solved
    assert not any(flow.ring)
    assert any(board.mask(t) != board.solved_mask(t) for t in range(board.size))


def test_deterministic_for_the_same_rng() -> None:
    a = build_tree(12, 9, seed=4)
    b = build_tree(12, 9, seed=4)
    shuffle(a, random.Random(99))
    shuffle(b, random.Random(99))
    assert a.rotations == b.rotations
    c = build_tree(12, 9, seed=4)
    shuffle(c, random.Random(100))
    assert c.rotations != a.rotations


def test_a_start_that_would_be_solved_is_broken() -> None:
    for seed in range(20):
        board = build_tree(3, 3, seed=seed)
        rng = ScriptedRandom(seed, list(board.solution))  # first draw: exactly the solution
        shuffle(board, rng)
        assert not compute_flow(board).solved
        assert not has_cycle(board.size, connections(board))


def _corner_block(board: Board) -> int:
    """Top-left tile of a 2x2 block of corners, or -1."""
    w = board.width
    for j in range(board.height - 1):
        for i in range(w - 1):
            block = (j * w + i, j * w + i + 1, (j + 1) * w + i, (j + 1) * w + i + 1)
            if all(board.shapes[t] == Shape.CORNER for t in block):
                return block[0]
    return -1


def test_a_start_with_a_ring_is_rerolled() -> None:
    found = 0
    for seed in range(200):
        board = build_tree(
            8, 8, seed=seed, params=GeneratorParams(generator="growing_tree", branching=0.0)
        )
        t = _corner_block(board)
        if t < 0:
            continue
        w = board.width
        # corners at r = 0 {S,E}, 1 {W,S}, 2 {N,W}, 3 {E,N} close a 2x2 ring
        script = list(board.solution)
        script[t], script[t + 1], script[t + w + 1], script[t + w] = 0, 1, 2, 3
        probe = board.copy()
        probe.rotations = list(script)
        assert has_cycle(probe.size, connections(probe))
        assert set(loop_tiles(probe)) & {t, t + 1, t + w, t + w + 1}
        shuffle(board, ScriptedRandom(seed, script))
        assert not has_cycle(board.size, connections(board))
        assert not compute_flow(board).solved
        found += 1
    assert found >= 5


def test_rotations_cover_every_orientation() -> None:
    board = build_tree(20, 20, seed=1)
    shuffle(board, random.Random(1))
    for shape in Shape:
        seen = {
            mask_of(s, r) for s, r in zip(board.shapes, board.rotations, strict=True) if s == shape
        }
        assert len(seen) == (2 if shape == Shape.STRAIGHT else 4)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 300))
def test_quarter_turns_draw_like_randrange(seed: int, count: int) -> None:
    """Property: quarter_turns gives what randrange(4) would, and leaves the generator in the
    same state (so a seed keeps giving the same boards)."""
    fast, slow = random.Random(seed), random.Random(seed)
    assert quarter_turns(fast, count) == [slow.randrange(4) for _ in range(count)]
    assert fast.random() == slow.random()
