"""Shuffle a board's rotations so that the start is never solved and contains no loop.

As in Simon Tatham's Net: turn every tile at random, then re-roll tiles on loops until no loop is
left, and make sure at least one pair of arms mismatches. Loops are looked for in the whole
connection graph (wet or dry), which is stricter than "no ring": a dry loop would become a ring
as soon as the player connects it to the source.
"""

from __future__ import annotations

import random

from controller.puzzle.model import Board, mask_of

__all__ = ["MAX_ROUNDS", "loop_tiles", "matched_edges", "quarter_turns", "shuffle"]

MAX_ROUNDS = 10_000
_MASK_OF: tuple[int, ...] = tuple(mask_of(s, r) for s in range(4) for r in range(4))


def _find(parent: list[int], a: int) -> int:
    """Union-find root with path halving."""
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


def matched_edges(board: Board) -> list[tuple[int, int]]:
    """Every pair of neighbouring tiles (a, b), a < b, whose arms face each other now."""
    w, h = board.width, board.height
    masks = [mask_of(s, r) for s, r in zip(board.shapes, board.rotations, strict=True)]
    edges: list[tuple[int, int]] = []
    for j in range(h):
        row = j * w
        for i in range(w):
            a = row + i
            m = masks[a]
            if i + 1 < w and m & 2 and masks[a + 1] & 8:  # east arm meets west arm
                edges.append((a, a + 1))
            if j + 1 < h and m & 4 and masks[a + w] & 1:  # south arm meets north arm
                edges.append((a, a + w))
    return edges


def loop_tiles(board: Board, edges: list[tuple[int, int]] | None = None) -> list[int]:
    """Both ends of every connection that closes a loop (union-find order); empty when acyclic."""
    parent = list(range(board.size))
    hits: list[int] = []
    for a, b in matched_edges(board) if edges is None else edges:
        ra, rb = _find(parent, a), _find(parent, b)
        if ra == rb:
            hits.extend((a, b))
        else:
            parent[ra] = rb
    return hits


def _loops_and_edges(masks: list[int], w: int, h: int) -> tuple[list[int], int]:
    """``loop_tiles`` and the number of matched edges of these arm masks, in one pass."""
    n = w * h
    parent = list(range(n))
    hits: list[int] = []
    edges = 0
    last = w - 1
    for a in range(n):
        m = masks[a]
        if not m & 6:
            continue
        if m & 2 and a % w != last and masks[a + 1] & 8:  # east arm meets west arm
            edges += 1
            ra = a
            while parent[ra] != ra:
                parent[ra] = ra = parent[parent[ra]]
            rb = a + 1
            while parent[rb] != rb:
                parent[rb] = rb = parent[parent[rb]]
            if ra == rb:
                hits.append(a)
                hits.append(a + 1)
            else:
                parent[ra] = rb
        if m & 4 and a + w < n and masks[a + w] & 1:  # south arm meets north arm
            edges += 1
            ra = a
            while parent[ra] != ra:
                parent[ra] = ra = parent[parent[ra]]
            rb = a + w
            while parent[rb] != rb:
                parent[rb] = rb = parent[parent[rb]]
            if ra == rb:
                hits.append(a)
                hits.append(a + w)
            else:
                parent[ra] = rb
    return hits, edges


def quarter_turns(rng: random.Random, count: int) -> list[int]:
    """``[rng.randrange(4) for _ in range(count)]``, drawing the same bits from the generator
    (``randrange(4)`` takes the top 3 bits of one 32-bit output and draws again while they make
    4 or more). The outputs are drawn in blocks: one ``getrandbits(32 * k)`` is k outputs, lowest
    first, and a block never holds more outputs than the draws still to come need, so the
    generator ends where the one-by-one draws leave it."""
    out: list[int] = []
    while len(out) < count:
        k = count - len(out)
        block = rng.getrandbits(32 * k).to_bytes(4 * k, "little")
        top = block[3::4]  # the high byte of each output, in order
        out.extend(b >> 5 for b in top if b < 128)
    return out


def shuffle(board: Board, rng: random.Random) -> None:
    """Randomise ``board.rotations`` in place: no loop anywhere, and not solved.

    Rotations are drawn uniformly from 0..3, which is uniform over each shape's distinct
    orientations too (a straight's r and r + 2 look the same). With no loop, the board is solved
    exactly when it has W*H - 1 connections (a forest with n - 1 edges is a spanning tree).
    """
    n = board.size
    w, h = board.width, board.height
    rot = board.rotations
    shapes = board.shapes
    rot[:] = quarter_turns(rng, n)
    table = _MASK_OF
    masks = [table[s << 2 | r] for s, r in zip(shapes, rot, strict=True)]
    for _ in range(MAX_ROUNDS):
        hits, edges = _loops_and_edges(masks, w, h)
        if hits:
            for idx, r in zip(hits, quarter_turns(rng, len(hits)), strict=True):
                rot[idx] = r
                masks[idx] = table[shapes[idx] << 2 | r]
            continue
        if edges == n - 1:  # solved: break one tile (any quarter turn changes its arms)
            idx = rng.randrange(n)
            rot[idx] = (rot[idx] + 1) & 3
            masks[idx] = mask_of(shapes[idx], rot[idx])
            continue
        return
    raise RuntimeError(f"shuffle: no loop-free unsolved start after {MAX_ROUNDS} rounds")
