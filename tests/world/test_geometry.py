"""Room geometry, frame identity and state blocks as the world format prescribes."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from controller.puzzle.model import Direction, TileClass
from controller.world.geometry import (
    Room,
    frame_name,
    frame_uuid,
    preload_uuid,
    state_block,
    uuid_ints,
)


def test_positions_follow_the_world_format() -> None:
    room = Room("lobby", (10, 64, -20), 31, 31)
    assert room.frame_pos(0, 0) == (10, 64, -20)
    assert room.frame_pos(3, 7) == (13, 64, -13)
    assert room.state_pos(3, 7) == (13, 63, -13)
    assert room.east_pos(3, 7) == (13, 62, -13)
    assert room.south_pos(3, 7) == (13, 61, -13)
    assert room.preload_pos(0) == (10, 60, -20)
    assert room.preload_pos(32) == (11, 60, -19)  # k mod W, y0-4, (k div W) mod H


def test_small_rooms_stack_preload_frames_within_the_footprint() -> None:
    room = Room("tiny", (0, 64, 0), 3, 3)
    spots = {room.preload_pos(k) for k in range(20)}
    assert all(0 <= x < 3 and y == 60 and 0 <= z < 3 for x, y, z in spots)


@given(st.integers(-2000, 2000), st.integers(-2000, 2000), st.integers(3, 128), st.integers(3, 128))
def test_chunks_cover_footprint_and_border(x0: int, z0: int, w: int, h: int) -> None:
    room = Room("r", (x0, 64, z0), w, h)
    chunks = set(room.chunks())
    for x in (x0 - 1, x0 + w):
        for z in (z0 - 1, z0 + h):
            assert (x >> 4, z >> 4) in chunks
    assert len(chunks) == len(room.chunks())
    assert all(x0 - 1 - 15 <= cx * 16 <= x0 + w for cx, _ in chunks)


@given(st.uuids())
def test_uuid_ints_are_signed_32_bit_parts(u: uuid.UUID) -> None:
    parts = uuid_ints(u)
    assert all(-(2**31) <= p < 2**31 for p in parts)
    rebuilt = 0
    for p in parts:
        rebuilt = rebuilt << 32 | (p & 0xFFFFFFFF)
    assert rebuilt == u.int


def test_frame_identity_is_deterministic_and_distinct() -> None:
    assert frame_uuid("lobby", 3, 7) == frame_uuid("lobby", 3, 7)
    ids = {frame_uuid("lobby", i, j) for i in range(20) for j in range(20)}
    ids |= {frame_uuid("other", i, j) for i in range(20) for j in range(20)}
    ids |= {preload_uuid("lobby", k) for k in range(25)}
    assert len(ids) == 825
    assert frame_name("lobby", 3, 7) == "pipes:lobby:3:7"


def test_state_blocks() -> None:
    assert state_block(TileClass.DRY, -1) == "minecraft:melon"
    assert state_block(TileClass.DRY, -1, closed=True) == "minecraft:pearlescent_froglight"
    # wet tiles are never closed (their rings are the flow's): the flag changes nothing
    assert state_block(TileClass.RING, Direction.N, closed=True) == "minecraft:verdant_froglight"
    assert state_block(TileClass.WET, Direction.W) == "minecraft:jack_o_lantern[facing=west]"
    assert state_block(TileClass.RING, Direction.N) == "minecraft:verdant_froglight"
    assert state_block(TileClass.SOURCE, -1) == "minecraft:shroomlight"
    assert state_block(TileClass.SOURCE_RING, -1) == "minecraft:shroomlight"


def test_near_selector_spans_the_room() -> None:
    room = Room("lobby", (0, 64, 0), 15, 15, clear_above=3)
    assert room.near_selector(8) == "@a[x=-9,y=50,z=-9,dx=32,dy=25,dz=32]"
