"""The seed datapack's counter-based ring marking, kept as a reference to compare against.

The seed walked the wet network depth-first from the source, never back along the edge it came by,
trying the neighbours in the data pack's order W, E, N, S. Tiles are unvisited, visiting (on the
DFS stack; the world showed ``ochre_froglight``) or visited. Each tile has a ``ring`` counter and
a ``conflict`` counter:

- reaching a *visiting* tile is a back edge: every visiting tile gets ``ring += 1`` and the tile
  that was hit gets ``conflict += 1``;
- a tile whose ``ring`` is at least 1 is never entered again, nor is a visited one;
- when a tile finishes, its block is set: ``verdant_froglight`` (ring) when its counter is at
  least 1 *at that moment*, else ``jack_o_lantern`` facing its DFS parent; then it stops being
  visiting, and if its conflict ``c`` is positive every still-visiting tile with ``ring >= 1``
  gets ``ring -= c``.

Reading chosen (documented in ``SeedResult.ring``): a tile is on a ring when its counter was at
least 1 when it finished, its own back edges counted before the conflict is handed up. This is
the reading under which the hit tile's ``+1`` matters at all. With it the counter of a tile at its
finish is the number of back edges leaving its DFS subtree towards the tile itself or one of its
ancestors, which is positive exactly when the tile has an incident non-bridge edge, so the seed's
rings are exact; the tests check this against ``compute_flow``. Two other readings are kept for
comparison: "counter was ever positive" (``SeedResult.ever_marked``) also marks the path from the
source to every ring, and "conflict handed up before the block is set" (``self_cleared``) misses
the tile where a ring is entered (and a source on a ring).
"""

from __future__ import annotations

from dataclasses import dataclass

from .flow import ARMS, board_masks, neighbour_table, tile_class
from .model import Board

__all__ = ["SeedResult", "seed_dfs"]

_UNVISITED, _VISITING, _VISITED = 0, 1, 2


@dataclass(frozen=True, slots=True)
class SeedResult:
    """What the seed's DFS leaves behind; lists are flat-indexed."""

    wet: list[bool]
    ring: list[bool]
    """Counter >= 1 when the tile finished: what the seed drew as ``verdant_froglight``."""
    ever_marked: list[bool]
    """Counter >= 1 at any moment (the looser reading)."""
    self_cleared: list[bool]
    """Counter >= 1 after the tile's own conflict is taken off it too: what the seed would have
    drawn had it handed the conflict up (to every visiting tile, itself included) before
    setting the block."""
    counter: list[int]
    """The ring counters at the end."""
    conflict: list[int]
    parent: list[int]
    """Direction from a tile to its DFS parent (-1 for the source and dry tiles)."""
    order: list[int]
    """Tiles in the order the DFS entered them."""
    classes: list[int]
    """TileClass values with the seed's rings."""


# The data pack's neighbour order: west, east, north, south.
_ORDER = (3, 1, 0, 2)
_ARMS_WENS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(arm for d in _ORDER for arm in ARMS[m] if arm[0] == d) for m in range(16)
)


def seed_dfs(board: Board, *, ring_check_first: bool = False) -> SeedResult:
    """Run the seed's counter-based DFS from the source, iteratively (neighbours W, E, N, S).

    ``ring_check_first`` tests "counter at least 1" before "visiting" on reaching a tile, the
    order of the pseudocode the seed was written from; the seed itself tests visiting first.
    """
    n = board.width * board.height
    adj = neighbour_table(board.width, board.height)
    masks = board_masks(board)
    src = board.source_index
    state = [_UNVISITED] * n
    counter = [0] * n
    conflict = [0] * n
    parent = [-1] * n
    ring = [False] * n
    ever = [False] * n
    cleared = [False] * n
    order = [src]
    state[src] = _VISITING
    # The visiting tiles are exactly the stack; a frame is (tile, index of the next arm).
    stack: list[list[int]] = [[src, 0]]
    while stack:
        frame = stack[-1]
        v = frame[0]
        tile_arms = _ARMS_WENS[masks[v]]
        row = adj[v]
        came = parent[v]
        entered = False
        while frame[1] < len(tile_arms):
            d, ob = tile_arms[frame[1]]
            frame[1] += 1
            if d == came:
                continue
            u = row[d]
            if u < 0 or not masks[u] & ob:
                continue
            su = state[u]
            if ring_check_first and counter[u] >= 1:
                continue
            if su == _VISITING:
                for f in stack:
                    w = f[0]
                    counter[w] += 1
                    ever[w] = True
                conflict[u] += 1
            elif su == _UNVISITED and counter[u] < 1:
                state[u] = _VISITING
                parent[u] = (d + 2) & 3
                order.append(u)
                stack.append([u, 0])
                entered = True
                break
        if entered:
            continue
        stack.pop()
        c = conflict[v]
        ring[v] = counter[v] >= 1
        cleared[v] = counter[v] - c >= 1
        state[v] = _VISITED
        if c:
            for f in stack:
                w = f[0]
                if counter[w] >= 1:
                    counter[w] -= c
    wet = [s != _UNVISITED for s in state]
    return SeedResult(
        wet=wet,
        ring=ring,
        ever_marked=ever,
        self_cleared=cleared,
        counter=counter,
        conflict=conflict,
        parent=parent,
        order=order,
        classes=[tile_class(wet[v], ring[v], v == src) for v in range(n)],
    )
