"""Command builders: limits respected, coverage exact, every string valid vanilla grammar."""

from __future__ import annotations

import re
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.model import TileClass
from controller.world import commands as cmd
from controller.world.geometry import Room, frame_uuid
from controller.world.paint_geometry import Placement, brush_uuid
from tests.support.grammar import assert_valid_commands

_FILL = re.compile(r"fill (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (\S+)$")


def _boxes(commands: list[str]) -> list[tuple[int, ...]]:
    out = []
    for c in commands:
        m = _FILL.fullmatch(c)
        assert m, c
        out.append(tuple(int(v) for v in m.groups()[:6]))
    return out


@given(
    st.tuples(st.integers(-50, 50), st.integers(-60, 60), st.integers(-50, 50)),
    st.tuples(st.integers(1, 140), st.integers(1, 6), st.integers(1, 140)),
    st.integers(64, 40000),
)
def test_fill_box_covers_exactly_within_the_limit(
    lo: tuple[int, int, int], size: tuple[int, int, int], limit: int
) -> None:
    hi = (lo[0] + size[0] - 1, lo[1] + size[1] - 1, lo[2] + size[2] - 1)
    covered = 0
    for xa, ya, za, xb, yb, zb in _boxes(cmd.fill_box(lo, hi, "minecraft:melon", limit)):
        vol = (xb - xa + 1) * (yb - ya + 1) * (zb - za + 1)
        assert vol <= limit
        assert lo[0] <= xa <= xb <= hi[0] and lo[1] <= ya <= yb <= hi[1]
        assert lo[2] <= za <= zb <= hi[2]
        covered += vol
    assert covered == size[0] * size[1] * size[2]


@given(st.integers(-500, 500), st.integers(-500, 500), st.integers(3, 128), st.integers(3, 128))
def test_forceload_covers_every_chunk_in_commands_of_at_most_256(
    x0: int, z0: int, w: int, h: int
) -> None:
    room = Room("r", (x0, 64, z0), w, h)
    chunks: set[tuple[int, int]] = set()
    for c in cmd.forceload(room):
        xa, za, xb, zb = (int(v) for v in c.split()[2:])
        cs = {
            (cx, cz) for cx in range(xa >> 4, (xb >> 4) + 1) for cz in range(za >> 4, (zb >> 4) + 1)
        }
        assert len(cs) <= cmd.FORCELOAD_LIMIT
        chunks |= cs
    assert chunks == set(room.chunks())


rows_strategy = st.integers(1, 12).flatmap(
    lambda w: st.lists(
        st.lists(st.sampled_from("abc"), min_size=w, max_size=w), min_size=1, max_size=10
    )
)


@given(rows_strategy)
def test_layer_fills_reproduce_the_layer(rows: list[list[str]]) -> None:
    for builder in (cmd.row_fills, cmd.layer_fills):
        grid: dict[tuple[int, int], str] = {}
        for c in builder(7, 100, 200, rows):
            m = _FILL.fullmatch(c)
            assert m
            xa, ya, za, xb, yb, zb = (int(v) for v in m.groups()[:6])
            assert ya == yb == 7
            for x in range(xa, xb + 1):
                for z in range(za, zb + 1):
                    assert (x, z) not in grid  # no overlaps
                    grid[(x, z)] = m.group(7)
        assert grid == {
            (100 + i, 200 + j): b for j, row in enumerate(rows) for i, b in enumerate(row)
        }
    assert len(cmd.layer_fills(7, 0, 0, rows)) <= len(cmd.row_fills(7, 0, 0, rows))


def _sample_commands() -> list[str]:
    room = Room("lobby-2_x", (-1234, 70, 5678), 31, 31)
    uid = frame_uuid(room.name, 30, 30)
    out = [
        cmd.summon_frame(
            room,
            30,
            30,
            uid=uid,
            rotation=3,
            map_id=1_000_019,
            source=True,
            kind="glow_item_frame",
            invisible=True,
            arms=15,
        ),
        cmd.summon_preload(room, 17, uid=uid, map_id=1_000_011, kind="item_frame"),
        *cmd.forceload(room),
        *cmd.forceload(room, add=False),
        *cmd.is_loaded(room),
        *cmd.air_fills(room),
        *cmd.border_fills(room),
        *cmd.base_fills(room),
        *cmd.derive_edge_layers(room),
        *cmd.clear_arm_tags(room),
        *cmd.poll_commands(["item_frame"], "near_players", 8),
        *cmd.poll_commands(["item_frame", "glow_item_frame"], "all", 6.5),
        cmd.turn_frame(uid, 7, room=room.name, rotation=3, source=False, map_id=1_000_009),
        cmd.set_frame(uid, room=room.name, rotation=0, source=True, map_id=1_000_012),
        cmd.set_map_id(uid, 1_000_005),
        cmd.setblock(room.state_pos(1, 2), "minecraft:jack_o_lantern[facing=north]"),
        cmd.read_rotations(room, "item_frame"),
        cmd.read_map_ids(room, "item_frame"),
        cmd.count_frames(room, "item_frame"),
        cmd.count_frames(room, "item_frame", preload=True),
        cmd.kill_room(room, "item_frame"),
        cmd.kill_frame(uid),
        *cmd.layer_fills(69, room.x0, room.z0, [["minecraft:melon", "minecraft:pumpkin"]]),
        cmd.read_player_uuids(cmd.with_scores(room.near_selector(), "pipes_hint=1..")),
        cmd.list_players(),
        cmd.tell_player(uid, 'Hint: click the glowing tile twice (column 3, row 5) "quoted"'),
        cmd.set_glowing(uid, True),
        cmd.set_glowing(uid, False),
        cmd.positioned((15.5, 70, -3.5), "setblock ~ ~-5 ~ minecraft:redstone_block"),
        cmd.score_reset("*", "pipes_daily_s"),
        cmd.trigger_enable(str(uid), "pipes_hint"),
        cmd.score_set(str(uid), "pipes_hint", 0),
        *_paint_commands(),
        *_sink_commands(room, uid),
    ]
    return out


def _sink_commands(room: Room, uid: uuid.UUID) -> list[str]:
    """A sink room's own forms: fixed frames, the cauldron, air around it."""
    keep = room.sink_pos(30, 4)
    return [
        cmd.summon_frame(
            room, 0, 3, uid=uid, rotation=1, map_id=1_000_040, source=True, fixed=True
        ),
        cmd.turn_frame(
            uid, 5, room=room.name, rotation=1, source=False, map_id=1_000_041, fixed=True
        ),
        cmd.set_frame(uid, room=room.name, rotation=2, source=False, map_id=1_000_009, fixed=False),
        cmd.count_fixed_frames(room, "glow_item_frame"),
        cmd.setblock(keep, "minecraft:water_cauldron[level=3]"),
        cmd.setblock(keep, "minecraft:cauldron"),
        *cmd.fill_box(keep, keep, "minecraft:water_cauldron[level=3]"),
        *cmd.air_fills(room, keep),
    ]


def _paint_commands() -> list[str]:
    """Every paint-room command form (docs/world-format.md, "Paint rooms")."""
    out: list[str] = []
    for orientation in ("floor", "wall"):
        p = Placement("art", (5, 70, -3), 128, 128, orientation=orientation)  # type: ignore[arg-type]
        uid = brush_uuid("art", 128, 7)
        out += [
            cmd.summon_brush(p, 128, 7, uid=uid, map_id=1_000_032, kind="glow_item_frame"),
            cmd.settle_brush(uid, 7, room="art", map_id=1_000_034),
            *cmd.plane_fills(p, [["minecraft:white_concrete"] * 128] * 128),
            *cmd.plane_fills(p, [["minecraft:oak_log", "minecraft:blue_concrete"]], -1, -130),
            cmd.blocks_are([(p.cell_pos(i, 0), "minecraft:white_concrete") for i in range(24)]),
            *cmd.fill_box(*p.front_box(), "minecraft:air"),
            *cmd.forceload(p),
            *cmd.is_loaded(p),
            cmd.kill_room(p, "item_frame"),
            cmd.count_frames(p, "item_frame"),
            cmd.count_rotation_tag(p, "item_frame", 0),
        ]
    out += [
        cmd.playsound_at("minecraft:entity.glow_item_frame.rotate_item", "neutral", pos, 16)
        for pos in ((3.5, 100.1, -2.5), (-1234.5, 70.1, 5678.5))
    ]
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.sampled_from(["floor", "wall"]),
    st.integers(-3, 0),
    st.data(),
)
def test_paint_plane_fills_cover_each_block_once(
    w: int, h: int, orientation: str, offset: int, data: st.DataObject
) -> None:
    p = Placement("art", (0, 64, 0), w, h, orientation=orientation)  # type: ignore[arg-type]
    blocks = st.sampled_from(["a:x", "a:y", "a:z"])
    rows = data.draw(st.lists(st.lists(blocks, min_size=w, max_size=w), min_size=h, max_size=h))
    covered: dict[tuple[int, int, int], str] = {}
    for c in cmd.plane_fills(p, rows, offset, offset):
        _, xa, ya, za, xb, yb, zb, block = c.split()
        for x in range(int(xa), int(xb) + 1):
            for y in range(min(int(ya), int(yb)), max(int(ya), int(yb)) + 1):
                for z in range(int(za), int(zb) + 1):
                    assert (x, y, z) not in covered
                    covered[(x, y, z)] = block
    want = {p.plane(i + offset, j + offset): rows[j][i] for j in range(h) for i in range(w)}
    assert covered == want


def test_commands_fit_the_rcon_limit() -> None:
    assert all(len(c.encode()) <= 1446 for c in _sample_commands())


def test_fenced_commands_fit_the_rcon_limit() -> None:
    # The longest room name, the largest owner id and a non-overworld dimension.
    fenced = [
        cmd.fenced(c, "a" * 32, 2**31 - 2, "minecraft:the_nether")
        for c in _sample_commands()
        if cmd.writes(c)
    ]
    assert fenced and max(len(c.encode()) for c in fenced) <= 1446


def test_commands_are_valid_vanilla_grammar() -> None:
    assert_valid_commands(_sample_commands())


@settings(max_examples=150, deadline=None)
@given(
    st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3)),
    st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4)),
    st.tuples(st.integers(-4, 8), st.integers(-4, 8), st.integers(-4, 8)),
)
def test_box_without_covers_the_box_but_the_hole_exactly_once(
    lo: tuple[int, int, int], size: tuple[int, int, int], hole: tuple[int, int, int]
) -> None:
    hi = (lo[0] + size[0], lo[1] + size[1], lo[2] + size[2])
    seen: list[tuple[int, int, int]] = []
    for a, b in cmd.box_without(lo, hi, hole):
        seen += [
            (x, y, z)
            for x in range(a[0], b[0] + 1)
            for y in range(a[1], b[1] + 1)
            for z in range(a[2], b[2] + 1)
        ]
    want = {
        (x, y, z)
        for x in range(lo[0], hi[0] + 1)
        for y in range(lo[1], hi[1] + 1)
        for z in range(lo[2], hi[2] + 1)
    } - {hole}
    assert len(seen) == len(set(seen)) and set(seen) == want


def test_sink_frames_and_merges_carry_fixed_only_in_sink_rooms() -> None:
    room = Room("lobby", (0, 64, 0), 7, 7)
    uid = frame_uuid("lobby", 0, 3)
    c = cmd.summon_frame(room, 0, 3, uid=uid, rotation=1, map_id=1_000_040, source=True, fixed=True)
    assert (
        "Fixed:1b," in c
        and 'Tags:["pipes","pipes.lobby","pipes.r1","pipes.source","pipes.fixed"]' in c
    )
    tree = cmd.set_frame(uid, room="lobby", rotation=1, source=False, map_id=1)
    assert "Fixed" not in tree  # tree rooms write exactly what they wrote before
    assert "Fixed:0b," in cmd.set_frame(
        uid, room="lobby", rotation=1, source=False, map_id=1, fixed=False
    )
    merge = cmd.turn_frame(uid, 5, room="lobby", rotation=1, source=True, map_id=1, fixed=True)
    assert "{ItemRotation:1b,Silent:1b,Fixed:1b,Tags:" in merge and "pipes.fixed" in merge
    assert room.sink_pos(3, 0) == (3, 64, -1) and room.sink_pos(3, 6) == (3, 64, 7)
    assert room.sink_pos(0, 3) == (-1, 64, 3) and room.sink_pos(6, 3) == (7, 64, 3)
    with pytest.raises(ValueError, match="not on the board's edge"):
        room.sink_pos(3, 3)


def test_summon_carries_the_full_frame_nbt() -> None:
    room = Room("lobby", (0, 64, 0), 15, 15)
    uid = frame_uuid("lobby", 3, 7)
    c = cmd.summon_frame(room, 3, 7, uid=uid, rotation=2, map_id=1_000_005, source=False)
    assert c.startswith(
        "summon minecraft:item_frame 3 64 7 {Pos:[3.5d,64.0d,7.5d],block_pos:[I;3,64,7],"
        "Facing:1b,Invulnerable:1b,Fixed:0b,"
    )
    assert 'CustomName:"pipes:lobby:3:7"' in c
    assert 'Tags:["pipes","pipes.lobby","pipes.r2"]' in c
    assert 'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":1000005}}' in c
    assert "ItemRotation:2b" in c
    assert int(TileClass.DRY) == 0


def test_hole_fills_cover_the_state_layer_within_the_fill_limit() -> None:
    room = Room("big", (0, 64, 0), 63, 63)
    fills = cmd.hole_fills(room)
    assert all(c.endswith(" keep") for c in fills)
    volume = 0
    for c in fills:
        xa, ya, za, xb, yb, zb = (int(v) for v in c.split()[1:7])
        size = (xb - xa + 1) * (yb - ya + 1) * (zb - za + 1)
        assert size <= cmd.FILL_LIMIT
        assert ya == yb == 63
        volume += size
    assert volume == 65 * 65
