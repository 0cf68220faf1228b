"""The block map's shadow compare: boxes within the limit, halves that partition, replies read,
leaf writes that put the board's blocks into both copies."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from controller.world.commands import FILL_LIMIT, fill_volume
from controller.world.geometry import BORDER, SHADOW_DROP, Room
from controller.world.pipes import blockcheck
from controller.world.pipes.blockcheck import Columns
from tests.support.grammar import assert_valid_commands


def _columns(cols: Columns) -> set[tuple[int, int]]:
    return {(x, z) for x in range(cols.xa, cols.xb + 1) for z in range(cols.za, cols.zb + 1)}


@given(
    xa=st.integers(-50, 50),
    za=st.integers(-50, 50),
    w=st.integers(1, 40),
    h=st.integers(1, 40),
)
def test_halves_partition_a_box_of_two_or_more_columns(xa: int, za: int, w: int, h: int) -> None:
    cols = Columns(xa, za, xa + w - 1, za + h - 1)
    if cols.count < 2:
        return
    a, b = cols.halves()
    assert a.count > 0 and b.count > 0
    assert _columns(a) | _columns(b) == _columns(cols)
    assert not _columns(a) & _columns(b)
    assert max(a.count, b.count) <= (cols.count + max(w, h)) // 2 + 1  # about half each


@given(w=st.integers(3, 128), h=st.integers(3, 128))
def test_chunks_cover_the_layers_and_border_within_the_block_limit(w: int, h: int) -> None:
    room = Room("r", (10, 64, -20), w, h)
    chunks = blockcheck.chunks(room)
    covered: set[tuple[int, int]] = set()
    for cols in chunks:
        assert cols.count * 3 <= FILL_LIMIT
        assert not covered & _columns(cols)
        covered |= _columns(cols)
    (xa, _, za), (xb, _, zb) = room.layers_box()
    assert covered == {(x, z) for x in range(xa, xb + 1) for z in range(za, zb + 1)}
    rows = FILL_LIMIT // ((w + 2) * 3)
    assert len(chunks) == -(-(h + 2) // rows)  # as few slabs of whole rows as fit


def test_compare_names_the_three_layers_and_their_shadow() -> None:
    room = Room("r", (0, 64, 0), 5, 5)
    assert blockcheck.compare(room, Columns(-1, -1, 5, 5)) == (
        f"execute if blocks -1 61 -1 5 63 5 -1 {61 - SHADOW_DROP} -1 all"
    )
    assert_valid_commands([blockcheck.compare(room, c) for c in blockcheck.chunks(room)])


def test_compared_reads_pass_fail_and_refuses_anything_else() -> None:
    assert blockcheck.compared("Test passed. Count: 147") is True
    assert blockcheck.compared("Test failed") is False
    assert blockcheck.compared("") is None
    assert blockcheck.compared("Test passed. Count: 147There are 0 of a max of 20 players") is None
    assert blockcheck.compared("That position is not loaded") is None


def test_leaf_fills_write_the_board_into_both_copies_and_the_border_as_logs() -> None:
    room = Room("r", (0, 64, 0), 3, 3)

    def block_at(layer: int, i: int, j: int) -> str:
        return f"minecraft:b{layer}_{i}_{j}"

    cols = Columns(-1, 0, 0, 1)  # the west border and column 0, rows 0..1
    solid, shadow = blockcheck.leaf_fills(room, cols, block_at)
    written: dict[tuple[int, int, int], str] = {}
    for command in solid + shadow:
        words = command.split()
        xa, ya, za, xb, yb, zb = (int(v) for v in words[1:7])
        for x in range(xa, xb + 1):
            for y in range(ya, yb + 1):
                for z in range(za, zb + 1):
                    written[(x, y, z)] = words[7]
    for layer in range(3):
        for drop in (0, SHADOW_DROP):
            y = 63 - layer - drop
            for z in (0, 1):
                assert written[(-1, y, z)] == BORDER
                assert written[(0, y, z)] == f"minecraft:b{layer}_0_{z}"
    assert len(written) == 2 * 3 * cols.count
    assert sum(fill_volume(c) for c in solid) == 3 * cols.count
