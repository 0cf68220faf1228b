"""Command builders: limits respected, coverage exact, every string valid vanilla grammar."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbtlib.tag import Compound, Int, IntArray, String

from controller.nbt.snbt import parse_compound_fully, parse_tag_fully
from controller.puzzle.model import TileClass
from controller.versions import NEWEST, RELEASES, Release, release
from controller.world import commands as cmd
from controller.world.geometry import CLOSED_BLOCK, Room, frame_uuid, shadow_of, state_block
from controller.world.paint.geometry import Placement, brush_uuid
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


# One release of each set of forms: JSON text and TileX (1.20.5, 1.21.4), SNBT text and block_pos
# with camelCase gamerules (1.21.5), snake_case gamerules (1.21.11), the newest.
FORM_RELEASES = [release(n) for n in ("1.20.5", "1.21.4", "1.21.5", "1.21.11")] + [NEWEST]


def _sample_commands(version: Release = NEWEST) -> list[str]:
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
            release=version,
        ),
        cmd.summon_preload(room, 17, uid=uid, map_id=1_000_011, kind="item_frame", release=version),
        # mecha knows the snake_case gamerules only: the older names are checked below
        *(
            cmd.gamerule_query(rule, release=version)
            for rule in cmd.GAMERULES
            if version.snake_case_gamerules
        ),
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
        cmd.setblock(room.state_pos(1, 2), state_block(TileClass.DRY, -1, closed=True)),
        cmd.setblock(shadow_of(room.state_pos(1, 2)), CLOSED_BLOCK),
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
        *_paint_commands(version),
        *_sink_commands(room, uid, version),
    ]
    return out


def _sink_commands(room: Room, uid: uuid.UUID, version: Release) -> list[str]:
    """A sink room's own forms: fixed frames, the cauldron, air around it."""
    keep = room.sink_pos(30, 4)
    return [
        cmd.summon_frame(
            room,
            0,
            3,
            uid=uid,
            rotation=1,
            map_id=1_000_040,
            source=True,
            fixed=True,
            release=version,
        ),  # fmt: skip
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


def _paint_commands(version: Release) -> list[str]:
    """Every paint-room command form (docs/world-format.md, "Paint rooms")."""
    out: list[str] = []
    for orientation in ("floor", "wall"):
        p = Placement("art", (5, 70, -3), 128, 128, orientation=orientation)  # type: ignore[arg-type]
        uid = brush_uuid("art", 128, 7)
        out += [
            cmd.summon_brush(
                p, 128, 7, uid=uid, map_id=1_000_032, kind="glow_item_frame", release=version
            ),
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


@pytest.mark.parametrize("version", FORM_RELEASES, ids=str)
def test_commands_fit_the_rcon_limit(version: Release) -> None:
    assert all(len(c.encode()) <= 1446 for c in _sample_commands(version))


@pytest.mark.parametrize("version", FORM_RELEASES, ids=str)
def test_fenced_commands_fit_the_rcon_limit(version: Release) -> None:
    # The longest room name, the largest owner id and a non-overworld dimension.
    fenced = [
        cmd.fenced(c, "a" * 32, 2**31 - 2, "minecraft:the_nether")
        for c in _sample_commands(version)
        if cmd.writes(c)
    ]
    assert fenced and max(len(c.encode()) for c in fenced) <= 1446


@pytest.mark.parametrize("version", FORM_RELEASES, ids=str)
def test_commands_are_valid_vanilla_grammar(version: Release) -> None:
    # mecha's SNBT grammar takes the older NBT forms too (a string CustomName, TileX ints); what
    # an older release makes of them is checked by the summon tests below.
    assert_valid_commands(_sample_commands(version))


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
    c = cmd.summon_frame(
        room, 0, 3, uid=uid, rotation=1, map_id=1_000_040, source=True, fixed=True, release=NEWEST
    )
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
    c = cmd.summon_frame(
        room, 3, 7, uid=uid, rotation=2, map_id=1_000_005, source=False, release=NEWEST
    )
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


# -- the forms of each release (docs/server-behaviour.md, "Versions: what changes where") ------
def _summon_nbt(command: str) -> Compound:
    """The NBT compound of a `summon <kind> x y z {…}` command."""
    head = " ".join(command.split(" ", 5)[:5]) + " "
    assert command.startswith("summon minecraft:")
    value = parse_compound_fully(command[len(head) :])
    assert isinstance(value, Compound)
    return value


def _brigadier_quoted(text: str, quote: str) -> str:
    """What brigadier's `StringReader.readStringUntil` (the SNBT reader of every release before
    1.21.5) makes of the body of a quoted string: only `\\\\` and `\\<quote>` are escapes."""
    out, escaped = [], False
    for ch in text:
        if escaped:
            assert ch in ("\\", quote), f"invalid escape \\{ch}"
            out.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        else:
            assert ch != quote, "unescaped quote"
            out.append(ch)
    assert not escaped
    return "".join(out)


def _tile_summons(version: Release) -> list[tuple[str, tuple[int, int, int], str | None]]:
    """(command, block, custom name) of each summon form: tile, preload, brush."""
    room = Room("lobby", (-20, 64, 300), 15, 15)
    uid = frame_uuid("lobby", 3, 7)
    p = Placement("art", (5, 70, -3), 8, 8, orientation="wall")
    return [
        (
            cmd.summon_frame(
                room, 3, 7, uid=uid, rotation=2, map_id=1_000_005, source=False, release=version
            ),
            room.frame_pos(3, 7),
            "pipes:lobby:3:7",
        ),
        (
            cmd.summon_preload(
                room, 4, uid=uid, map_id=1_000_011, kind="item_frame", release=version
            ),
            room.preload_pos(4),
            None,
        ),
        (
            cmd.summon_brush(p, 2, 5, uid=brush_uuid("art", 2, 5), map_id=1, release=version),
            p.frame_pos(2, 5),
            "pipes:art:2:5",
        ),
    ]


@pytest.mark.parametrize("version", RELEASES, ids=str)
def test_summons_carry_the_name_and_block_in_the_releases_forms(version: Release) -> None:
    for command, (x, y, z), name in _tile_summons(version):
        nbt = _summon_nbt(command)
        assert [float(v) for v in nbt["Pos"]] == [x + 0.5, float(y), z + 0.5]
        if version.at_least((1, 21, 5)):  # block_pos, read with BlockPos.CODEC
            assert "TileX" not in nbt and list(nbt["block_pos"]) == [x, y, z]
            assert isinstance(nbt["block_pos"], IntArray)
        else:  # TileX/TileY/TileZ ints; block_pos would be ignored
            assert "block_pos" not in nbt
            assert [int(nbt[k]) for k in ("TileX", "TileY", "TileZ")] == [x, y, z]
            assert all(isinstance(nbt[k], Int) for k in ("TileX", "TileY", "TileZ"))
        if name is None:
            assert "CustomName" not in nbt
        elif version.at_least((1, 21, 5)):  # the text component itself: a plain string
            assert nbt["CustomName"] == String(name)
        else:  # a string holding JSON text (Component.Serializer.fromJson)
            assert isinstance(nbt["CustomName"], String)
            assert json.loads(str(nbt["CustomName"])) == name


def test_summon_forms_switch_exactly_at_1_21_5() -> None:
    old, new = release("1.21.4"), release("1.21.5")
    room = Room("lobby", (0, 64, 0), 15, 15)
    uid = frame_uuid("lobby", 3, 7)
    args = {"uid": uid, "rotation": 2, "map_id": 1_000_005, "source": False}
    before = cmd.summon_frame(room, 3, 7, release=old, **args)  # type: ignore[arg-type]
    after = cmd.summon_frame(room, 3, 7, release=new, **args)  # type: ignore[arg-type]
    assert "CustomName:'\"pipes:lobby:3:7\"'," in before and "TileX:3,TileY:64,TileZ:7," in before
    assert 'CustomName:"pipes:lobby:3:7",' in after and "block_pos:[I;3,64,7]," in after
    # The 26.x form is no JSON: a release before 1.21.5 leaves such a frame unnamed.
    with pytest.raises(ValueError):
        json.loads("pipes:lobby:3:7")
    assert cmd.summon_frame(room, 3, 7, release=NEWEST, **args) == after  # type: ignore[arg-type]


@given(st.text(max_size=40), st.sampled_from(RELEASES))
def test_a_custom_name_reads_back_as_itself_in_every_release(name: str, version: Release) -> None:
    snbt = cmd._custom_name_snbt(name, version)
    assert snbt.startswith("CustomName:") and snbt.endswith(",")
    literal = snbt[len("CustomName:") : -1]
    value = parse_tag_fully(literal)  # the 26.x SNBT reader
    assert isinstance(value, String)
    if version.text_form == "json":
        assert literal[0] == literal[-1] == "'"
        assert json.loads(_brigadier_quoted(literal[1:-1], "'")) == name  # the old reader
    else:
        assert str(value) == name
        assert literal[0] == literal[-1] == '"'
        assert _brigadier_quoted(literal[1:-1], '"') == name


def test_gamerules_are_queried_by_the_releases_names() -> None:
    # The camelCase names registered by GameRules up to 1.21.10 ([C1214], 1.20.5 source) and the
    # snake_case ones from 1.21.11 (GameRuleRegistryFix): docs/server-behaviour.md, "Versions:
    # gamerule names".
    old = {"commandModificationBlockLimit", "maxCommandForkCount", "sendCommandFeedback"}
    new = {"max_block_modifications", "max_command_forks", "send_command_feedback"}
    for version in RELEASES:
        names = {cmd.gamerule_name(rule, release=version) for rule in cmd.GAMERULES}
        assert names == (new if version.at_least((1, 21, 11)) else old), version
        queries = {cmd.gamerule_query(rule, release=version) for rule in cmd.GAMERULES}
        assert queries == {f"gamerule {n}" for n in names}
    assert not cmd.writes("gamerule commandModificationBlockLimit")
