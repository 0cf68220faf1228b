"""Command strings for building, polling, updating and removing a room (pure, no I/O).

Every string here is vanilla grammar (checked by mecha in the tests) and stays under the
1446-byte RCON limit. On Paper the transport adds the `minecraft:` prefix.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from controller.versions import Release
from controller.world import turns
from controller.world.geometry import BORDER, Pos, Room, frame_name, uuid_ints

if TYPE_CHECKING:
    from controller.world.paint.geometry import Placement as PaintPlacement

__all__ = [
    "FILL_LIMIT",
    "FORCELOAD_LIMIT",
    "MAP_ITEM",
    "frame_tags",
    "summon_frame",
    "summon_preload",
    "fill_box",
    "box_without",
    "FIXED_TAG",
    "count_fixed_frames",
    "forceload",
    "gamerule_name",
    "gamerule_query",
    "is_loaded",
    "row_fills",
    "layer_fills",
    "overlay_fills",
    "border_fills",
    "air_fills",
    "base_fills",
    "derive_edge_layers",
    "clear_arm_tags",
    "ARM_TAGS",
    "poll_commands",
    "turn_frame",
    "set_frame",
    "set_map_id",
    "setblock",
    "read_rotations",
    "read_map_ids",
    "read_clicked_by",
    "count_frames",
    "kill_room",
    "kill_frame",
    "kill_preloads",
    "count_rotation_tag",
    "read_rotation",
    "text",
    "objective_add",
    "objective_display",
    "trigger_enable",
    "score_set",
    "score_add",
    "read_scores",
    "title_times",
    "title",
    "playsound_each",
    "tellraw",
    "particle",
    "with_scores",
    "with_name",
    "quoted",
    "count_entities",
    "playsound_at",
    "silence_frames",
    "OWN_TAG",
    "guard_box",
    "count_frames_in_box",
    "hole_fills",
    "count_frames_pictured",
    "fill_volume",
    "mark_own",
    "unmark_own",
    "kill_foreign_frames",
    "kill_foreign_tagged",
    "retag_frame",
    "refill_frame",
    "kill_dropped_maps",
    "summon_if_missing",
    "LEASE",
    "lease_objective",
    "lease_holder",
    "lease_stale_mark",
    "lease_take",
    "lease_adopt",
    "lease_renew",
    "lease_release",
    "lease_read",
    "lease_owner",
    "fenced",
    "writes",
    "always_answers",
    "read_player_uuids",
    "list_players",
    "tell_player",
    "nearest_player_uuid",
    "tag_player",
    "untold_players",
    "LOCKED_TAG",
    "set_glowing",
    "positioned",
    "rectangles",
    "Placed",
    "PAINT_TAG",
    "brush_tags",
    "summon_brush",
    "settle_brush",
    "plane_fills",
    "blocks_are",
]

# Server limits: docs/server-behaviour.md, "Feedback: fill" and "Feedback: forceload".
FILL_LIMIT = 32768  # gamerule max_block_modifications default
FORCELOAD_LIMIT = 256  # chunks per forceload command
MAP_ITEM = "minecraft:filled_map"
ARM_TAGS = ("pipes.an", "pipes.ae", "pipes.as", "pipes.aw")  # build-time only: arms N, E, S, W


class Placed(Protocol):
    """What the room-wide commands need of a room's placement (pipes or paint)."""

    @property
    def name(self) -> str:
        """The room's name."""
        ...

    @property
    def y0(self) -> int:
        """The frames' height."""
        ...

    def bounds(self) -> tuple[Pos, Pos]:
        """The inclusive box the room occupies."""
        ...

    def chunks(self) -> list[tuple[int, int]]:
        """Every chunk (cx, cz) the room touches."""
        ...


def text(value: str) -> str:
    """A text component argument: a JSON string literal, read as the same plain text by every
    release (JSON text before 1.21.5, SNBT from it: docs/server-behaviour.md, "Versions: text
    components"). No builder sends a compound component, whose form would differ."""
    return json.dumps(value, ensure_ascii=False)


def _custom_name_snbt(name: str, release: Release) -> str:
    """The `CustomName` key of a summon: a string holding JSON text before 1.21.5 (a release
    that cannot parse the SNBT form leaves the frame unnamed), the text itself from it
    (docs/server-behaviour.md, "Versions: text components")."""
    if release.text_form == "json":
        inner = json.dumps(name, ensure_ascii=False)  # single-quoted: `\\` and `'` escaped
        return "CustomName:'" + inner.replace("\\", "\\\\").replace("'", "\\'") + "',"
    return f"CustomName:{quoted(name)},"


FIXED_TAG = "pipes.fixed"  # the fixed frames of a sink room (its source and sink)
LOCKED_TAG = "pipes.locked"  # a tile a player locked (docs/world-format.md, "Locked tiles")


def frame_tags(
    room: str,
    rotation: int,
    source: bool = False,
    arms: int = 0,
    fixed: bool = False,
    locked: bool = False,
) -> list[str]:
    """A tile frame's tags: `pipes`, `pipes.<room>`, `pipes.r<rotation>`, maybe source, fixed,
    locked (docs/world-format.md, "Locked tiles") and arms."""
    tags = ["pipes", f"pipes.{room}", f"pipes.r{rotation}"]
    if source:
        tags.append("pipes.source")
    if fixed:
        tags.append(FIXED_TAG)
    if locked:
        tags.append(LOCKED_TAG)
    tags += [ARM_TAGS[d] for d in range(4) if arms >> d & 1]
    return tags


def _invisible_snbt(invisible: bool | None) -> str:
    """The `Invisible` key of a frame merge: written when a lock changes (None leaves it)."""
    return "" if invisible is None else f"Invisible:{int(invisible)}b,"


def _fixed_snbt(fixed: bool | None) -> str:
    """The `Fixed` key of a frame merge: only in sink rooms (None leaves it out)."""
    return "" if fixed is None else f"Fixed:{int(fixed)}b,"


def _tags_snbt(tags: Sequence[str]) -> str:
    return "[" + ",".join(f'"{t}"' for t in tags) + "]"


def _item_snbt(map_id: int) -> str:
    return f'{{id:"{MAP_ITEM}",count:1,components:{{"minecraft:map_id":{map_id}}}}}'


def _placed_snbt(x: int, y: int, z: int, release: Release) -> str:
    """`Pos` and the attached block of a frame summoned at block (x, y, z): the point `summon x
    y z` resolves to (x and z centred) and the block it contains, as `block_pos` from 1.21.5 and
    as `TileX`/`TileY`/`TileZ` before. Without both the server logs `Block-attached entity at
    invalid position` (`Hanging entity …` before 1.21) at ERROR while it loads the NBT, before it
    moves the frame into place (docs/server-behaviour.md, "Item frames: summon and block_pos",
    "Versions: frame position")."""
    pos = f"Pos:[{x + 0.5}d,{float(y)}d,{z + 0.5}d],"
    if release.attached_position == "tile":
        return f"{pos}TileX:{x},TileY:{y},TileZ:{z},"
    return f"{pos}block_pos:[I;{x},{y},{z}],"


def summon_frame(
    room: Room,
    i: int,
    j: int,
    *,
    uid: uuid.UUID,
    rotation: int,
    map_id: int,
    source: bool,
    release: Release,
    kind: str = "item_frame",
    invisible: bool = False,
    arms: int = 0,
    fixed: bool = False,
    locked: bool = False,
) -> str:
    """Summon one tile frame carrying the full NBT the world format prescribes, in the forms of
    the server's `release` (`fixed`: a sink room's source or sink, which players cannot turn;
    `locked`: a tile a player locked, whose frame shows the other `Invisible`)."""
    x, y, z = room.frame_pos(i, j)
    a, b, c, d = uuid_ints(uid)
    return (
        f"summon minecraft:{kind} {x} {y} {z} {{{_placed_snbt(x, y, z, release)}"
        f"Facing:1b,Invulnerable:1b,Fixed:{int(fixed)}b,Invisible:{int(invisible != locked)}b,"
        f"Silent:1b,ItemRotation:{rotation}b,UUID:[I;{a},{b},{c},{d}],"
        f"{_custom_name_snbt(frame_name(room.name, i, j), release)}"
        f"Tags:{_tags_snbt(frame_tags(room.name, rotation, source, arms, fixed, locked))},"
        f"Item:{_item_snbt(map_id)}}}"
    )


def summon_preload(
    room: Room, k: int, *, uid: uuid.UUID, map_id: int, kind: str, release: Release
) -> str:
    """Summon the k-th hidden picture frame (Fixed, Invisible, Silent, facing down, in the
    ground), in the forms of the server's `release`."""
    x, y, z = room.preload_pos(k)
    a, b, c, d = uuid_ints(uid)
    return (
        f"summon minecraft:{kind} {x} {y} {z} {{{_placed_snbt(x, y, z, release)}"
        f"Facing:0b,Fixed:1b,Invisible:1b,Silent:1b,Invulnerable:1b,UUID:[I;{a},{b},{c},{d}],"
        f'Tags:["pipes.{room.name}","pipes.preload"],Item:{_item_snbt(map_id)}}}'
    )


def fill_box(lo: Pos, hi: Pos, block: str, limit: int = FILL_LIMIT) -> list[str]:
    """`fill` commands covering a box exactly, each at most `limit` blocks (z slabs first)."""
    (xa, ya, za), (xb, yb, zb) = lo, hi
    xa, xb = min(xa, xb), max(xa, xb)
    ya, yb = min(ya, yb), max(ya, yb)
    za, zb = min(za, zb), max(za, zb)
    dx = min(xb - xa + 1, limit)
    dy = min(yb - ya + 1, max(1, limit // dx))
    dz = max(1, limit // (dx * dy))
    return [
        f"fill {x} {y} {z} "
        f"{min(xb, x + dx - 1)} {min(yb, y + dy - 1)} {min(zb, z + dz - 1)} {block}"
        for x in range(xa, xb + 1, dx)
        for y in range(ya, yb + 1, dy)
        for z in range(za, zb + 1, dz)
    ]


def forceload(room: Placed, add: bool = True) -> list[str]:
    """`forceload add|remove` over every chunk of the room, ≤ 256 chunks per command."""
    (xa, _, za), (xb, _, zb) = room.bounds()
    verb = "add" if add else "remove"
    cx_a, cx_b, cz_a, cz_b = xa >> 4, xb >> 4, za >> 4, zb >> 4
    rows_per = max(1, FORCELOAD_LIMIT // (cx_b - cx_a + 1))
    out = []
    for cz in range(cz_a, cz_b + 1, rows_per):
        cz_end = min(cz_b, cz + rows_per - 1)
        out.append(f"forceload {verb} {cx_a * 16} {cz * 16} {cx_b * 16 + 15} {cz_end * 16 + 15}")
    return out


def forceload_query(cx: int, cz: int) -> str:
    """Whether chunk (cx, cz) is marked for force loading (read only)."""
    return f"forceload query {cx * 16} {cz * 16}"


def forceload_chunk(cx: int, cz: int, add: bool) -> str:
    """`forceload add|remove` of one chunk."""
    return f"forceload {'add' if add else 'remove'} {cx * 16} {cz * 16}"


# The gamerules pipesctl reads, by their snake_case name (1.21.11 on) and their camelCase name
# before it (docs/server-behaviour.md, "Versions: gamerule names").
GAMERULES = {
    "max_block_modifications": "commandModificationBlockLimit",
    "max_command_forks": "maxCommandForkCount",
    "send_command_feedback": "sendCommandFeedback",
}


def gamerule_name(rule: str, *, release: Release) -> str:
    """The name `release` knows a gamerule by (`rule`: its snake_case name, a key of
    GAMERULES)."""
    return rule if release.snake_case_gamerules else GAMERULES[rule]


def gamerule_query(rule: str, *, release: Release) -> str:
    """Read a gamerule (`Gamerule <name> is currently set to: <value>`) by the name `release`
    knows it by."""
    return f"gamerule {gamerule_name(rule, release=release)}"


def count_foreign_entities(lo: Pos, hi: Pos, room_tag: str) -> str:
    """`execute if entity` counting the non-player entities in a box that are not the room's."""
    (xa, ya, za), (xb, yb, zb) = lo, hi
    return (
        f"execute if entity @e[x={xa},y={ya},z={za},dx={xb - xa},dy={yb - ya},dz={zb - za},"
        f"type=!minecraft:player,tag=!{room_tag}]"
    )


def blocks_match(lo: Pos, hi: Pos, dest: Pos) -> str:
    """`execute if blocks … all`: passes when the box equals the one at `dest` (read only)."""
    return (
        f"execute if blocks {lo[0]} {lo[1]} {lo[2]} {hi[0]} {hi[1]} {hi[2]} "
        f"{dest[0]} {dest[1]} {dest[2]} all"
    )


def is_loaded(room: Placed) -> list[str]:
    """`execute if loaded` for one block of every chunk of the room."""
    y = room.y0
    return [f"execute if loaded {cx * 16} {y} {cz * 16}" for cx, cz in room.chunks()]


def row_fills(y: int, x0: int, z0: int, rows: Sequence[Sequence[str]]) -> list[str]:
    """One `fill` per run of equal blocks in each row (row j at z0 + j, column i at x0 + i)."""
    out = []
    for j, row in enumerate(rows):
        start = 0
        for i in range(1, len(row) + 1):
            if i == len(row) or row[i] != row[start]:
                z = z0 + j
                out.append(f"fill {x0 + start} {y} {z} {x0 + i - 1} {y} {z} {row[start]}")
                start = i
    return out


def rectangles(rows: Sequence[Sequence[str]]) -> list[tuple[int, int, int, int, str]]:
    """Rectangles (i0, j0, i1, j1, block) covering a grid of blocks (`rows[j][i]`): equal runs
    of consecutive rows are merged into one rectangle."""
    out: list[tuple[int, int, int, int, str]] = []
    open_rects: dict[tuple[int, int, str], int] = {}  # (i0, i1, block) -> first row

    def close(key: tuple[int, int, str], last_row: int) -> None:
        i0, i1, block = key
        out.append((i0, open_rects.pop(key), i1, last_row, block))

    for j, row in enumerate(rows):
        runs: set[tuple[int, int, str]] = set()
        start = 0
        for i in range(1, len(row) + 1):
            if i == len(row) or row[i] != row[start]:
                runs.add((start, i - 1, row[start]))
                start = i
        for key in [k for k in open_rects if k not in runs]:
            close(key, j - 1)
        for key in sorted(runs):
            open_rects.setdefault(key, j)
    for key in sorted(open_rects):
        close(key, len(rows) - 1)
    return out


def layer_fills(y: int, x0: int, z0: int, rows: Sequence[Sequence[str]]) -> list[str]:
    """Fills covering a layer: equal runs of consecutive rows are merged into one rectangle."""
    return [
        f"fill {x0 + i0} {y} {z0 + j0} {x0 + i1} {y} {z0 + j1} {block}"
        for i0, j0, i1, j1, block in rectangles(rows)
    ]


def overlay_fills(y: int, x0: int, z0: int, rows: Sequence[Sequence[str]], base: str) -> list[str]:
    """The writes that turn a layer that is all `base` into `rows`: the rectangles of
    `layer_fills` that are not `base`, a single block as a `setblock`."""
    return [
        setblock((x0 + i0, y, z0 + j0), block)
        if (i0, j0) == (i1, j1)
        else f"fill {x0 + i0} {y} {z0 + j0} {x0 + i1} {y} {z0 + j1} {block}"
        for i0, j0, i1, j1, block in rectangles(rows)
        if block != base
    ]


def border_fills(room: Room) -> list[str]:
    """The oak log ring one block outside the footprint, on the three layers."""
    x0, y0, z0, w, h = room.x0, room.y0, room.z0, room.width, room.height
    log = BORDER
    return [
        f"fill {x0 - 1} {y0 - 3} {z0 - 1} {x0 + w} {y0 - 1} {z0 - 1} {log}",
        f"fill {x0 - 1} {y0 - 3} {z0 + h} {x0 + w} {y0 - 1} {z0 + h} {log}",
        f"fill {x0 - 1} {y0 - 3} {z0} {x0 - 1} {y0 - 1} {z0 + h - 1} {log}",
        f"fill {x0 + w} {y0 - 3} {z0} {x0 + w} {y0 - 1} {z0 + h - 1} {log}",
    ]


def air_fills(room: Room, keep: Pos | None = None) -> list[str]:
    """Air at the frames' level and `clear_above` blocks over it (footprint + border), all but
    the block `keep` (a sink room's sink block) when given."""
    (xa, _, za), (xb, yb, zb) = room.bounds()
    if keep is None:
        return fill_box((xa, room.y0, za), (xb, yb, zb), "minecraft:air")
    return [
        c for lo, hi in box_without((xa, room.y0, za), (xb, yb, zb), keep)
        for c in fill_box(lo, hi, "minecraft:air")
    ]  # fmt: skip


def box_without(lo: Pos, hi: Pos, hole: Pos) -> list[tuple[Pos, Pos]]:
    """At most six boxes covering the box lo..hi (inclusive) except the block `hole`."""
    (xa, ya, za), (xb, yb, zb), (hx, hy, hz) = lo, hi, hole
    if not (xa <= hx <= xb and ya <= hy <= yb and za <= hz <= zb):
        return [(lo, hi)]
    boxes = [
        ((xa, ya, za), (hx - 1, yb, zb)),
        ((hx + 1, ya, za), (xb, yb, zb)),
        ((hx, ya, za), (hx, hy - 1, zb)),
        ((hx, hy + 1, za), (hx, yb, zb)),
        ((hx, hy, za), (hx, hy, hz - 1)),
        ((hx, hy, hz + 1), (hx, hy, zb)),
    ]
    return [(a, b) for a, b in boxes if all(a[k] <= b[k] for k in range(3))]


def base_fills(room: Room) -> list[str]:
    """Melon in all three layers of the footprint: the look of a board with nothing connected."""
    x0, y0, z0 = room.origin
    return fill_box(
        (x0, y0 - 3, z0), (x0 + room.width - 1, y0 - 1, z0 + room.height - 1), "minecraft:melon"
    )


def derive_edge_layers(room: Room, kind: str = "item_frame") -> list[str]:
    """Two commands that set every connected edge to pumpkin from the frames' arm tags.

    A frame hangs at (x+0.5, y0+0.03125, z+0.5); `positioned ~1 ~ ~` lands exactly on the east
    neighbour's frame, so `distance=..0.1` finds it; `~-1 ~-2 ~` is then the tile's east-edge block.
    """
    sel = f"type=minecraft:{kind},tag=pipes.{room.name}"
    return [
        f"execute at @e[{sel},tag=pipes.ae] positioned ~1 ~ ~ "
        f"if entity @e[{sel},tag=pipes.aw,distance=..0.1] run setblock ~-1 ~-2 ~ minecraft:pumpkin",
        f"execute at @e[{sel},tag=pipes.as] positioned ~ ~ ~1 "
        f"if entity @e[{sel},tag=pipes.an,distance=..0.1] run setblock ~ ~-3 ~-1 minecraft:pumpkin",
    ]


def clear_arm_tags(room: Room, kind: str = "item_frame") -> list[str]:
    """Remove the build-time arm tags again."""
    return [f"tag @e[type=minecraft:{kind},tag=pipes.{room.name}] remove {t}" for t in ARM_TAGS]


def poll_commands(kinds: Sequence[str], scope: str, reach: float) -> list[str]:
    """The ≤ 4 commands of one poll: frames whose ItemRotation differs from their `pipes.r<r>` tag.

    Nothing changed → every reply is empty. With scope `near_players` only frames within `reach`
    of a player are examined (and serialized by `nbt=`), so an idle poll costs almost nothing.
    """
    type_filter = f"type=minecraft:{kinds[0]}," if len(set(kinds)) == 1 else ""
    reach_txt = f"{reach:g}"
    out = []
    for r in range(4):
        sel = f"@e[{type_filter}tag=pipes,tag=pipes.r{r}"
        if scope == "near_players":
            head = f"execute at @a as {sel},distance=..{reach_txt}]"
        else:
            head = f"execute as {sel}]"
        check = f"unless entity @s[nbt={{ItemRotation:{r}b}}]"
        out.append(f"{head} {check} run data get entity @s ItemRotation")
    return out


def turn_frame(
    uid: uuid.UUID,
    seen: int,
    *,
    room: str,
    rotation: int,
    source: bool,
    map_id: int,
    fixed: bool | None = None,
    locked: bool = False,
    invisible: bool | None = None,
) -> str:
    """Settle a turned frame — rotation r mod 4, its tags, its picture — only if it still shows
    the ItemRotation we read (a click in between is then seen by the next poll instead).
    `fixed` (sink rooms only) also writes the frame's `Fixed` flag; `locked` keeps the lock's
    tag, `invisible` (when a lock changes) writes the frame's `Invisible` flag."""
    tags = _tags_snbt(frame_tags(room, rotation, source, fixed=bool(fixed), locked=locked))
    return (
        f"execute as {uid} if entity @s[nbt={{ItemRotation:{seen}b}}] run data merge entity @s "
        f"{{ItemRotation:{rotation}b,Silent:1b,{_fixed_snbt(fixed)}{_invisible_snbt(invisible)}"
        f"Tags:{tags},"
        f"Item:{_item_snbt(map_id)}}}"
    )


def set_frame(
    uid: uuid.UUID,
    *,
    room: str,
    rotation: int,
    source: bool,
    map_id: int,
    fixed: bool | None = None,
    locked: bool = False,
    invisible: bool | None = None,
) -> str:
    """Unconditionally set a frame's rotation, tags and picture (repairs, new puzzles);
    `fixed` (sink rooms only) also writes the frame's `Fixed` flag, `locked` and `invisible`
    as in `turn_frame`."""
    tags = _tags_snbt(frame_tags(room, rotation, source, fixed=bool(fixed), locked=locked))
    return (
        f"data merge entity {uid} "
        f"{{ItemRotation:{rotation}b,Silent:1b,{_fixed_snbt(fixed)}{_invisible_snbt(invisible)}"
        f"Tags:{tags},"
        f"Item:{_item_snbt(map_id)}}}"
    )


def count_fixed_frames(room: Placed, kind: str) -> str:
    """`execute if entity` counting the room's fixed-tagged frames that are `Fixed:1b`."""
    sel = f"type=minecraft:{kind},tag=pipes.{room.name},tag={FIXED_TAG}"
    return f"execute if entity @e[{sel},nbt={{Fixed:1b}}]"


def set_map_id(uid: uuid.UUID, map_id: int) -> str:
    """Change the picture of a frame."""
    return f'data modify entity {uid} Item.components."minecraft:map_id" set value {map_id}'


def setblock(pos: Pos, block: str) -> str:
    """Set one block."""
    x, y, z = pos
    return f"setblock {x} {y} {z} {block}"


def _tile_frames(room: Placed, kind: str, rows: tuple[int, int] | None) -> str:
    """The room's tile frames, all or those of rows j0..j1 (a box over their blocks)."""
    box = ""
    if rows is not None:
        (xa, _, za), (xb, _, _) = room.bounds()
        j0, j1 = rows
        box = f",x={xa + 1},y={room.y0},z={za + 1 + j0},dx={xb - xa - 2},dy=0,dz={j1 - j0}"
    return f"@e[type=minecraft:{kind},tag=pipes.{room.name},tag=pipes{box}]"


def read_rotations(room: Placed, kind: str, rows: tuple[int, int] | None = None) -> str:
    """One command whose reply lists every tile frame's ItemRotation by name (of rows j0..j1
    only, when given)."""
    return f"execute as {_tile_frames(room, kind, rows)} run data get entity @s ItemRotation"


def read_clicked_by(room: Placed, kind: str, number: int) -> str:
    """The tile frames whose last click was by the player the data pack numbered `number`,
    each reporting by name how many marks in a row that player gave it (no serialization;
    docs/datapack.md, "Who clicked")."""
    frames = _tile_frames(room, kind, None)[:-1] + f",scores={{{turns.WHO}={number}}}]"
    return f"execute as {frames} run scoreboard players get @s {turns.RUN}"


def read_map_ids(room: Placed, kind: str, rows: tuple[int, int] | None = None) -> str:
    """One command whose reply lists every tile frame's map id by name (of rows j0..j1 only,
    when given)."""
    return (
        f"execute as {_tile_frames(room, kind, rows)} "
        f'run data get entity @s Item.components."minecraft:map_id"'
    )


def count_frames(room: Placed, kind: str, preload: bool = False) -> str:
    """`execute if entity` counting a room's tile frames (or preload frames)."""
    tag = "pipes.preload" if preload else "pipes"
    return f"execute if entity @e[type=minecraft:{kind},tag=pipes.{room.name},tag={tag}]"


def kill_room(room: Placed, kind: str) -> str:
    """Remove every frame of the room (tiles and preloads)."""
    return f"kill @e[type=minecraft:{kind},tag=pipes.{room.name}]"


def kill_frame(uid: uuid.UUID) -> str:
    """Remove one frame."""
    return f"kill {uid}"


def kill_preloads(room: Room, kind: str) -> str:
    """Remove the room's hidden picture frames."""
    return f"kill @e[type=minecraft:{kind},tag=pipes.{room.name},tag=pipes.preload]"


def count_rotation_tag(room: Placed, kind: str, rotation: int) -> str:
    """`execute if entity` counting the room's frames tagged `pipes.r<rotation>`."""
    sel = f"@e[type=minecraft:{kind},tag=pipes.{room.name},tag=pipes.r{rotation}]"
    return f"execute if entity {sel}"


def read_rotation(uid: uuid.UUID) -> str:
    """Read one frame's ItemRotation (the reply names the frame)."""
    return f"data get entity {uid} ItemRotation"


# -- scoreboards ----------------------------------------------------------------------------
def objective_add(name: str, criterion: str, display: str) -> str:
    """Create an objective (an existing one answers with an error, which is harmless)."""
    return f"scoreboard objectives add {name} {criterion} {text(display)}"


def objective_remove(name: str) -> str:
    """Delete an objective and every score in it."""
    return f"scoreboard objectives remove {name}"


def score_reset(holder: str, objective: str) -> str:
    """Forget one holder's score in one objective."""
    return f"scoreboard players reset {holder} {objective}"


def objective_display(slot: str, name: str) -> str:
    """Show an objective in a display slot (`sidebar`, `list`, …)."""
    return f"scoreboard objectives setdisplay {slot} {name}"


def trigger_enable(holder: str, objective: str) -> str:
    """Let a player use `/trigger <objective>` (once, until enabled again)."""
    return f"scoreboard players enable {holder} {objective}"


def score_set(holder: str, objective: str, value: int) -> str:
    """Set a score."""
    return f"scoreboard players set {holder} {objective} {value}"


def score_add(holder: str, objective: str, value: int) -> str:
    """Add to a score."""
    return f"scoreboard players add {holder} {objective} {value}"


def read_scores(targets: str, objective: str) -> str:
    """Every matched player's score, one `<name> has <n> [<objective>]` message each."""
    return f"execute as {targets} run scoreboard players get @s {objective}"


def triggered_any(near: str, objectives: Sequence[str]) -> str:
    """`Test passed` once per player of `near` with a score above 0, or none, in any of
    `objectives` (who used a trigger, or is not armed yet: a missing score fails the filter);
    an empty reply when there is nobody, as a forked condition's failures print nothing. Reads
    scores only: no serialization (docs/in-game.md, "Triggers")."""
    unused = ",".join(f"{o}=..0" for o in objectives)
    return f"execute as {near} unless entity @s[scores={{{unused}}}]"


def with_scores(selector: str, scores: str) -> str:
    """A `@a[...]` selector narrowed by a `scores={...}` filter, e.g. `pipes_reset=1..`."""
    return selector[:-1] + f",scores={{{scores}}}]"


def quoted(value: str) -> str:
    """A Brigadier quoted string: `"` and `\\` escaped, nothing else can end it."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def with_name(selector: str, name: str) -> str:
    """A `@a[...]` selector narrowed to one account name (matched by the server, exactly)."""
    return selector[:-1] + f",name={quoted(name)}]"


def count_entities(selector: str) -> str:
    """`execute if entity`: the reply `Test passed. Count: N` counts what the selector finds."""
    return f"execute if entity {selector}"


# -- what players see and hear --------------------------------------------------------------
def title_times(targets: str, fade_in: int, stay: int, fade_out: int) -> str:
    """Title timing in ticks."""
    return f"title {targets} times {fade_in} {stay} {fade_out}"


def title(targets: str, slot: str, message: str) -> str:
    """Show `message` (plain text) as a `title`, `subtitle` or `actionbar`."""
    return f"title {targets} {slot} {text(message)}"


def playsound_each(targets: str, sound: str, source: str = "master") -> str:
    """Play a sound to each target at its own position."""
    return f"execute as {targets} at @s run playsound {sound} {source} @s"


def tellraw(targets: str, message: str) -> str:
    """A chat message (plain text)."""
    return f"tellraw {targets} {text(message)}"


def particle(
    name: str,
    at: tuple[float, float, float],
    spread: tuple[float, float, float],
    speed: float,
    count: int,
) -> str:
    """Particles shown to everyone in range (`force`: even with reduced particle settings)."""
    x, y, z = at
    dx, dy, dz = spread
    return f"particle {name} {x:g} {y:g} {z:g} {dx:g} {dy:g} {dz:g} {speed:g} {count} force"


def playsound_at(sound: str, source: str, pos: tuple[float, float, float], hear: float) -> str:
    """Play a sound at a position for the players within `hear` blocks of it."""
    x, y, z = pos
    near = f"@a[x={x:g},y={y:g},z={z:g},distance=..{hear:g}]"
    return f"playsound {sound} {source} {near} {x:g} {y:g} {z:g}"


def silence_frames(room: Room, kind: str) -> str:
    """Make every frame of the room Silent (rooms built before world format 2)."""
    frames = f"@e[type=minecraft:{kind},tag=pipes.{room.name}]"
    return f"execute as {frames} run data merge entity @s {{Silent:1b}}"


# -- tamper guard (docs/reliability.md, tampering) ---------------------------------------------
OWN_TAG = "pipes.own"  # a repair's short-lived mark on the frames whose UUID is the room's
FRAME_KINDS = ("item_frame", "glow_item_frame")


def guard_box(room: Room, grow: int = 0) -> str:
    """Selector box arguments for the room's frame layer and the air above it, border included
    (the hidden picture frames below the floor are outside it)."""
    (xa, _, za), (xb, yb, zb) = room.bounds()
    ya = room.y0
    return (
        f"x={xa - grow},y={ya - grow},z={za - grow},"
        f"dx={xb - xa + 2 * grow},dy={yb - ya + 2 * grow},dz={zb - za + 2 * grow}"
    )


def count_frames_in_box(room: Room, kind: str) -> str:
    """Every frame of one kind in the room's box, tagged or not (no serialization)."""
    return f"execute if entity @e[type=minecraft:{kind},{guard_box(room)}]"


def count_frames_pictured(room: Room, kind: str, map_ids: Sequence[int]) -> str:
    """How many frames in the room's box hold one of the room's pictures (alternatives joined
    by `|` in one item predicate: docs/server-behaviour.md, "Item predicates"); no
    serialization."""
    ids = "|".join(f"minecraft:map_id={mid}" for mid in map_ids)
    frames = f"@e[type=minecraft:{kind},{guard_box(room)}]"
    return f"execute if items entity {frames} contents {MAP_ITEM}[{ids}]"


def fill_volume(command: str) -> int:
    """How many blocks a `fill x1 y1 z1 x2 y2 z2 …` command covers (0 for another command)."""
    words = command.split()
    if len(words) < 7 or words[0] != "fill":
        return 0
    a, b = [int(w) for w in words[1:4]], [int(w) for w in words[4:7]]
    return (abs(a[0] - b[0]) + 1) * (abs(a[1] - b[1]) + 1) * (abs(a[2] - b[2]) + 1)


def hole_fills(room: Room) -> list[str]:
    """Fill only the air in the room's state layer, border included (`keep`): the reply counts
    broken blocks (0 when none), and the holes under the frames are closed at once so that no
    frame pops (the shadow compare finds the placeholder and the rest)."""
    (xa, _, za), (xb, _, zb) = room.bounds()
    lo, hi = (xa, room.y0 - 1, za), (xb, room.y0 - 1, zb)
    return [f"{c} keep" for c in fill_box(lo, hi, "minecraft:melon")]


def mark_own(uid: uuid.UUID) -> str:
    """Mark the frame with this UUID as the room's own (`No entity was found` when missing)."""
    return f"tag {uid} add {OWN_TAG}"


def unmark_own(kind: str) -> str:
    """Drop the repair's marks."""
    return f"tag @e[type=minecraft:{kind},tag={OWN_TAG}] remove {OWN_TAG}"


def kill_foreign_frames(room: Room, kind: str) -> str:
    """Kill every frame in the room's box that is not marked as the room's own (by UUID)."""
    return f"kill @e[type=minecraft:{kind},{guard_box(room)},tag=!{OWN_TAG}]"


def kill_foreign_tagged(room: str, kind: str) -> str:
    """Kill every frame carrying the room's tile tags that is not marked as the room's own (by
    UUID), wherever it hangs (a look-alike outside the room's box)."""
    return f"kill @e[type=minecraft:{kind},tag=pipes.{room},tag=pipes,tag=!{OWN_TAG}]"


def summon_if_missing(uid: uuid.UUID, summon: str) -> str:
    """Summon a tile frame only if no entity has its UUID."""
    return f"execute unless entity {uid} run {summon}"


def retag_frame(
    uid: uuid.UUID,
    *,
    room: str,
    rotation: int,
    source: bool,
    fixed: bool = False,
    locked: bool = False,
) -> str:
    """Give a frame its tags back when any is missing (its rotation is left alone, so a turn
    made while it was untagged is seen by the next poll); `fixed`: a sink room's fixed frame,
    `locked`: a locked tile's."""
    tags = frame_tags(room, rotation, source, fixed=fixed, locked=locked)
    want = ",".join(f"tag={t}" for t in tags) + ("" if source else ",tag=!pipes.source")
    return (
        f"execute as {uid} unless entity @s[{want}] run data merge entity @s "
        f"{{Tags:{_tags_snbt(tags)}}}"
    )


def refill_frame(uid: uuid.UUID, map_id: int) -> str:
    """Put the right picture back into a frame that is empty or holds another map (an item
    test, no serialization, unless it writes)."""
    return (
        f"execute as {uid} unless items entity @s contents "
        f"{MAP_ITEM}[minecraft:map_id={map_id}] "
        f"run data merge entity @s {{Item:{_item_snbt(map_id)}}}"
    )


def kill_dropped_maps(room: Room, map_id: int) -> str:
    """Remove dropped map items showing one of the room's pictures near the room (a popped frame
    drops its map)."""
    return (
        f"execute as @e[type=minecraft:item,{guard_box(room, grow=2)}] if items entity @s "
        f"contents {MAP_ITEM}[minecraft:map_id={map_id}] run kill @s"
    )


# -- the room lease (docs/reliability.md, one owner per room) -----------------------------------
LEASE = "pipes_lease"


def lease_objective() -> str:
    """The scoreboard holding every room's lease."""
    return objective_add(LEASE, "dummy", "pipesctl room leases")


def lease_holder(room: str, part: str) -> str:
    """A lease's fake player, `#pipes.<room>.<part>` (`owner`, `renewed`); `#` keeps it off the
    sidebar, and room names are `[a-z0-9_-]`, so the holder is one word."""
    return f"#pipes.{room}.{part}"


def _stale(me: int) -> str:
    return f"#pipes.stale.{me}"


def lease_stale_mark(me: int, ticks: int) -> list[str]:
    """Two commands leaving `game time - ticks` in this daemon's own scratch holder."""
    return [
        f"execute store result score {_stale(me)} {LEASE} run time query gametime",
        f"scoreboard players remove {_stale(me)} {LEASE} {ticks}",
    ]


def lease_take(room: str, me: int) -> list[str]:
    """Become the owner unless the lease was renewed after the stale mark: the check and the
    write are one command, so no other daemon's command can run between them. Then the
    scratch holder is dropped."""
    renewed, owner = lease_holder(room, "renewed"), lease_holder(room, "owner")
    return [
        f"execute unless score {renewed} {LEASE} > {_stale(me)} {LEASE} "
        f"run scoreboard players set {owner} {LEASE} {me}",
        f"scoreboard players reset {_stale(me)} {LEASE}",
    ]


def lease_adopt(room: str, previous: int, me: int) -> str:
    """Take the lease over from `previous` at once, only if it still owns it (one command): a
    daemon restarted on the same state directory, whose lock proves `previous` is dead."""
    owner = lease_holder(room, "owner")
    return (
        f"execute if score {owner} {LEASE} matches {previous} "
        f"run scoreboard players set {owner} {LEASE} {me}"
    )


def lease_renew(room: str, me: int) -> str:
    """Stamp the lease with the game time, only while `me` is its owner (one command); the
    reply carries the game time only when it ran."""
    owner, renewed = lease_holder(room, "owner"), lease_holder(room, "renewed")
    return (
        f"execute if score {owner} {LEASE} matches {me} "
        f"store result score {renewed} {LEASE} run time query gametime"
    )


def lease_release(room: str, me: int) -> str:
    """Give the lease up at a clean stop (only if still ours), so the next owner need not
    wait for it to expire."""
    owner, renewed = lease_holder(room, "owner"), lease_holder(room, "renewed")
    return (
        f"execute if score {owner} {LEASE} matches {me} "
        f"run scoreboard players reset {renewed} {LEASE}"
    )


def lease_read(room: str) -> list[str]:
    """The owner, its last renewal and the game time now (two `get` replies, one query)."""
    return [
        f"scoreboard players get {lease_holder(room, 'owner')} {LEASE}",
        f"scoreboard players get {lease_holder(room, 'renewed')} {LEASE}",
        "time query gametime",
    ]


def lease_owner(room: str) -> str:
    """The lease's owner id alone: `#pipes.<room>.owner has N [pipes_lease]`, or `Can't get
    value of …; none is set`, or `Unknown scoreboard objective …` when the lease is gone."""
    return f"scoreboard players get {lease_holder(room, 'owner')} {LEASE}"


# -- the fence: a write runs only while its room's lease is held (docs/reliability.md) --------
OVERWORLD = "minecraft:overworld"

# Roots whose commands never change the world (an `execute` chain is judged by what it runs).
_READ_ROOTS = ("list",)
_READ_PREFIXES = (
    "data get ",
    "scoreboard players get ",
    "scoreboard objectives list",
    "forceload query",
    "time query ",
    "datapack list",
    "list ",
)
# Roots that may answer nothing on vanilla even when they ran (docs/server-behaviour.md,
# "Empty replies"): an empty reply to them says nothing about the fence.
_SILENT_ROOTS = frozenset({"execute", "tellraw", "say", "function", "tell", "msg", "w", "me"})


def writes(command: str) -> bool:
    """Whether a vanilla-form command can change the world (and so goes behind the fence).

    Reads: `data get`, `scoreboard players get`, `forceload query`, `time query`, `list`,
    `datapack list`, a `gamerule` query, and an `execute` chain that ends in a test (no `run`)
    or runs a read, without `store`. Anything else, unknown commands included, is a write."""
    body = command
    while body.startswith("execute "):
        head, sep, rest = body.partition(" run ")
        if " store " in f"{head} ":
            return True
        if not sep:
            return False  # a test: `Test passed` or `Test failed`
        body = rest
    if body in _READ_ROOTS or body.startswith(_READ_PREFIXES):
        return False
    words = body.split()
    return not (len(words) == 2 and words[0] == "gamerule")


def always_answers(command: str) -> bool:
    """Whether vanilla always replies something to the command when it runs unfenced, so that
    an empty reply to it fenced means refused, wiped by another RCON connection, or the write's
    own failure (whose message a fenced, forked chain drops: docs/server-behaviour.md, "Errors
    while running")."""
    return command.split(" ", 1)[0] not in _SILENT_ROOTS


def fenced(command: str, room: str, owner: int, dimension: str = OVERWORLD) -> str:
    """`command` run only while `owner` holds the room's lease, in the room's dimension: one
    `execute` chain (`execute if score #pipes.<room>.owner pipes_lease matches <owner> [in
    <dimension>] run <command>`; an `execute` command is merged into the chain). When the
    condition fails the server runs nothing and replies "" (docs/server-behaviour.md,
    "A failed condition before run")."""
    head = f"execute if score {lease_holder(room, 'owner')} {LEASE} matches {owner}"
    if dimension != OVERWORLD:
        head += f" in {dimension}"
    if command.startswith("execute "):
        return f"{head} {command.removeprefix('execute ')}"
    return f"{head} run {command}"


# -- players by UUID (docs/server-behaviour.md, "Player display names") ----------------------
def read_player_uuids(targets: str) -> str:
    """Each matched player's UUID: `<display name> has the following entity data: [I; …]`."""
    return f"execute as {targets} run data get entity @s UUID"


def list_players() -> str:
    """Every online player's account name and UUID (`list uuids`)."""
    return "list uuids"


def nearest_player_uuid(frame: uuid.UUID, radius: float) -> str:
    """The UUID of the player nearest to a frame within `radius` of it (spectators click
    nothing): who clicked it, when no data pack says so (docs/in-game.md, "Locking a tile")."""
    return (
        f"execute at {frame} as @p[gamemode=!spectator,distance=..{radius:g}] "
        "run data get entity @s UUID"
    )


def tag_player(uid: uuid.UUID, tag: str, add: bool = True) -> str:
    """Add a tag to (or remove it from) one player, named by UUID."""
    return f"tag {uid} {'add' if add else 'remove'} {tag}"


def untold_players(selector: str, tag: str, limit: int) -> str:
    """The UUIDs of up to `limit` players of `selector` without `tag` (none matching: an empty
    reply, nothing serialized)."""
    return read_player_uuids(selector[:-1] + f",tag=!{tag},limit={limit}]")


def tell_player(uid: uuid.UUID, message: str) -> str:
    """A chat message (plain text) to one player, named by UUID."""
    return f"execute as {uid} run tellraw @s {text(message)}"


def set_glowing(uid: uuid.UUID, on: bool) -> str:
    """Outline one entity (the Glowing flag); a `data merge` serializes the entity once."""
    return f"data merge entity {uid} {{Glowing:{int(on)}b}}"


def positioned(pos: tuple[float, float, float], command: str) -> str:
    """Run a command at a position (`~ ~ ~` and `@p` then mean that place)."""
    x, y, z = pos
    return f"execute positioned {x:g} {y:g} {z:g} run {command}"


# -- paint rooms (docs/world-format.md, "Paint rooms") --------------------------------------
PAINT_TAG = "pipes.paint"


def brush_tags(room: str) -> list[str]:
    """A brush frame's tags: the tile-frame tags detection looks for (settled rotation 0), and
    `pipes.paint`."""
    return ["pipes", f"pipes.{room}", "pipes.r0", PAINT_TAG]


def summon_brush(
    placement: PaintPlacement,
    i: int,
    j: int,
    *,
    uid: uuid.UUID,
    map_id: int,
    release: Release,
    kind: str = "item_frame",
    invisible: bool = False,
) -> str:
    """Summon the brush frame in front of plane (i, j) with the full NBT of the format, in the
    forms of the server's `release`."""
    x, y, z = placement.frame_pos(i, j)
    a, b, c, d = uuid_ints(uid)
    return (
        f"summon minecraft:{kind} {x} {y} {z} {{{_placed_snbt(x, y, z, release)}"
        f"Facing:{placement.facing}b,Invulnerable:1b,Fixed:0b,Invisible:{int(invisible)}b,"
        f"Silent:1b,ItemRotation:0b,UUID:[I;{a},{b},{c},{d}],"
        f"{_custom_name_snbt(frame_name(placement.name, i, j), release)}"
        f"Tags:{_tags_snbt(brush_tags(placement.name))},Item:{_item_snbt(map_id)}}}"
    )


def settle_brush(uid: uuid.UUID, seen: int, *, room: str, map_id: int) -> str:
    """Turn a clicked brush back to ItemRotation 0 (with its tags and picture) only if it still
    shows the ItemRotation we read."""
    return (
        f"execute as {uid} if entity @s[nbt={{ItemRotation:{seen}b}}] run data merge entity @s "
        f"{{ItemRotation:0b,Silent:1b,Tags:{_tags_snbt(brush_tags(room))},"
        f"Item:{_item_snbt(map_id)}}}"
    )


def plane_fills(
    placement: PaintPlacement, rows: Sequence[Sequence[str]], i0: int = 0, j0: int = 0
) -> list[str]:
    """Fills writing a grid of blocks (`rows[j][i]`) at plane (i0 + i, j0 + j), equal
    rectangles merged (one fill each, split only past the fill limit)."""
    out: list[str] = []
    for a, b, c, d, block in rectangles(rows):
        lo, hi = placement.plane_box(i0 + a, j0 + b, i0 + c, j0 + d)
        out += fill_box(lo, hi, block)
    return out


def blocks_are(cells: Sequence[tuple[Pos, str]]) -> str:
    """`execute if block … if block …`: passes when every listed block is as given (read
    only; keep it under the RCON limit, about 24 blocks)."""
    tests = " ".join(f"if block {x} {y} {z} {block}" for (x, y, z), block in cells)
    return f"execute {tests}"
