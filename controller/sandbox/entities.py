"""Entities of the sandbox world: the base Entity, item frames, markers and generic others.

Each entity keeps typed fields and writes/reads its NBT the way vanilla's ``saveWithoutId`` /
``load`` do (docs/server-behaviour.md, "Entity display names" to "Item frames"; sections are
named below in quotes): ``to_nbt()`` builds a compound in vanilla's save order (the printer then
applies Java HashMap order), ``load_nbt()`` reads the keys back (used by /summon and /data
merge|modify, which in vanilla serialize, edit and ``load`` the whole entity). Both follow the
release being played (``current_profile``): `CustomName` as JSON text and `FallDistance`, and a
frame's `TileX`/`TileY`/`TileZ`, before 1.21.5 ("Versions: names inside NBT", "Versions: frame
position").
"""

from __future__ import annotations

import functools
import math
import struct
import uuid as uuidlib
from dataclasses import dataclass, field
from typing import Any

from nbtlib import tag as nbt

from controller.versions import Release

from .jsontext import JsonTextError, decode_component, encode_component, parse_lenient
from .profile import current_profile
from .registry import registry, strip_namespace

__all__ = [
    "DIRECTIONS",
    "Entity",
    "ItemFrame",
    "GAME_MODES",
    "INTERACT_BUFFER",
    "Marker",
    "Player",
    "item_entity",
    "create_entity",
    "java_hash_order",
    "plain_text",
    "uuid_from_ints",
    "uuid_to_ints",
]

# Direction by 3D data value ("Item frames: Facing"): name, step (dx, dy, dz)
DIRECTIONS: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("down", (0, -1, 0)),
    ("up", (0, 1, 0)),
    ("north", (0, 0, -1)),
    ("south", (0, 0, 1)),
    ("west", (-1, 0, 0)),
    ("east", (1, 0, 0)),
)
_NOT_NBT = frozenset(
    {
        "nbt_cache",
        "removed",
        "stored",
        "_age",
        "_check_interval",
        "_box",
        "_box_key",
        "inbox",
        "pending_sounds",
        "pending_log",
        "game_mode",
        "held_item",
        "interaction_range_base",
        "creative_range",
        "attribute_bases",
    }
)
# fields the world's index follows (controller.sandbox.levelindex)
_INDEXED = frozenset({"pos", "dimension", "stored", "removed", "tags", "facing", "item"})
_YAW_2D = {"south": 0.0, "west": 90.0, "north": 180.0, "east": 270.0}
GAME_MODES = ("survival", "creative", "adventure", "spectator")
# docs/server-behaviour.md, "Entity interaction reach"
STANDING_EYE_HEIGHT = 1.6200000047683716  # 1.62f
CREATIVE_RANGE_BONUS = 2.0  # ServerPlayer.CREATIVE_ENTITY_INTERACTION_RANGE_MODIFIER
INTERACT_BUFFER = 3.0  # ServerGamePacketListenerImpl.handleInteract: range + 3.0


def f32(v: float) -> float:
    """A Java float's value as a double (Python floats are doubles)."""
    rounded: float = struct.unpack("<f", struct.pack("<f", v))[0]
    return rounded


def _to_int32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def uuid_to_ints(u: uuidlib.UUID) -> list[int]:
    """UUIDUtil int-array form: four signed ints, most significant first ("UUIDs")."""
    n = u.int
    return [_to_int32(n >> shift) for shift in (96, 64, 32, 0)]


def uuid_from_ints(values: list[int]) -> uuidlib.UUID:
    """Inverse of :func:`uuid_to_ints`."""
    n = 0
    for v in values:
        n = (n << 32) | (int(v) & 0xFFFFFFFF)
    return uuidlib.UUID(int=n)


def _jhash(s: str) -> int:
    """String.hashCode over UTF-16 code units."""
    data = s.encode("utf-16-be", "surrogatepass")
    h = 0
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & 0xFFFFFFFF
    return h


def java_hash_order(keys: list[str], capacity: int = 16) -> list[str]:
    """Iteration order of a java.util.HashMap/HashSet filled with `keys` in this order."""
    n = max(16, capacity)
    while len(keys) > n * 0.75:
        n *= 2
    decorated = []
    for i, k in enumerate(keys):
        h = _jhash(k)
        decorated.append((((h ^ (h >> 16)) & (n - 1)), i, k))
    return [k for _, _, k in sorted(decorated)]


@functools.lru_cache(maxsize=4096)
def _tag_order(tags: tuple[str, ...], capacity: int) -> tuple[str, ...]:
    """java_hash_order of a tag set (the same few sets come back for every entity)."""
    return tuple(java_hash_order(list(tags), capacity))


@functools.cache
def _forms(release: Release) -> tuple[str, str]:
    """The release's text form and frame position form (each reads the release's number)."""
    return release.text_form, release.attached_position


def plain_text(component: Any) -> str:
    """The plain string of a text component given as NBT (string, compound or list)."""
    if isinstance(component, str):
        return str(component)
    if isinstance(component, list):
        return "".join(plain_text(c) for c in component)
    if isinstance(component, dict):
        if len(component) == 1 and "" in component:  # NbtOps' wrapper in a mixed list
            return plain_text(component[""])
        out = ""
        if "text" in component:
            out = str(component["text"])
        elif "translate" in component:
            args = [plain_text(a) for a in component.get("with", [])]
            fallback = component.get("fallback")
            key = str(component["translate"])
            if key in registry().lang or fallback is None:
                out = registry().tr(key, *args)
            else:
                out = str(fallback)
        elif "selector" in component or "score" in component or "nbt" in component:
            out = ""  # resolved only for players; the sandbox leaves them empty (unverified)
        elif "keybind" in component:
            out = str(component["keybind"])
        for extra in component.get("extra", []):
            out += plain_text(extra)
        return out
    return str(component)


@dataclass(eq=False)
class Entity:
    """A generic entity with the keys of Entity.saveWithoutId."""

    type_id: str
    uuid: uuidlib.UUID
    dimension: str = "minecraft:overworld"
    pos: tuple[float, float, float] = (0.0, 0.0, 0.0)
    motion: tuple[float, float, float] = (0.0, 0.0, 0.0)
    rotation: tuple[float, float] = (0.0, 0.0)
    fall_distance: float = 0.0
    # remainingFireTicks starts at -1: public `data get` dumps of mobs and end crystals show
    # `Fire: -1s`; not yet seen for an item frame
    fire: int = -1
    air: int = 300
    on_ground: bool = False
    invulnerable: bool = False
    portal_cooldown: int = 0
    custom_name: Any = None
    custom_name_visible: bool = False
    silent: bool = False
    no_gravity: bool = False
    glowing: bool = False
    tags: list[str] = field(default_factory=list)
    tag_capacity: int = 16
    extra: dict[str, Any] = field(default_factory=dict)
    removed: bool = False
    stored: bool = False
    # Entity.tickCount as of the last time the world wrote it; `age` adds the ticks since
    _age: int = field(default=0, repr=False)
    # log lines (level, message) written while loading NBT, moved to the world's server log
    pending_log: list[tuple[str, str]] = field(default_factory=list, repr=False)
    nbt_cache: nbt.Compound | None = field(default=None, repr=False, compare=False)

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name not in _NOT_NBT:  # any saved field changed: drop the cached serialization
            object.__setattr__(self, "nbt_cache", None)
        if name in _INDEXED:
            index = self.__dict__.get("_index")
            if index is not None:  # in a world: keep its indexes right
                index.changed(self, name)

    # -- ticking ----------------------------------------------------------------------------
    @property
    def age(self) -> int:
        """Entity.tickCount: ticks this entity has ticked (the world counts them lazily:
        controller.sandbox.levelindex)."""
        index = self.__dict__.get("_index")
        base: int = self.__dict__["_age"]
        return base if index is None else base + index.elapsed(self)

    @age.setter
    def age(self, value: int) -> None:
        index = self.__dict__.get("_index")
        if index is not None:
            index.rebase(self)
        self.__dict__["_age"] = value

    # -- naming -----------------------------------------------------------------------------
    @property
    def type_name(self) -> str:
        """The en_us name of the entity type."""
        return registry().entity_name(self.type_id)

    @property
    def display_name(self) -> str:
        """getDisplayName().getString(): custom name, else type name ("Entity display names")."""
        if self.custom_name is not None:
            return plain_text(self.custom_name)
        return self.type_name

    @property
    def plain_name(self) -> str:
        """getName().getString(), what `name=` matches: no team decoration."""
        return self.display_name

    @property
    def score_name(self) -> str:
        """getScoreboardName(): the UUID string for non-players."""
        return str(self.uuid)

    # -- geometry ---------------------------------------------------------------------------
    def bounding_box(self) -> tuple[float, float, float, float, float, float]:
        """An axis-aligned box (x0, y0, z0, x1, y1, z1) from the type's size."""
        et = registry().entities.get(strip_namespace(self.type_id))
        w = et.width if et else 0.0
        h = et.height if et else 0.0
        x, y, z = self.pos
        return (x - w / 2, y, z - w / 2, x + w / 2, y + h, z + w / 2)

    @property
    def eye_height(self) -> float:
        """getEyeHeight(): EntityDimensions' default, 0.85 × the type's height as a float (types
        that set their own with `eyeHeight(...)` differ: unverified for the generic entity)."""
        et = registry().entities.get(strip_namespace(self.type_id))
        return f32(f32(et.height) * f32(0.85)) if et else 0.0

    def block_pos(self) -> tuple[int, int, int]:
        """BlockPos.containing(pos)."""
        return (math.floor(self.pos[0]), math.floor(self.pos[1]), math.floor(self.pos[2]))

    def place(self, x: float, y: float, z: float) -> None:
        """snapTo/setPos: move the entity (hanging entities recentre on their block)."""
        self.pos = (x, y, z)

    # -- tags -------------------------------------------------------------------------------
    def add_tag(self, tag_name: str) -> bool:
        """Entity.addTag: False when present or at the 1024 limit."""
        if tag_name in self.tags or len(self.tags) >= 1024:
            return False
        self.tags.append(tag_name)
        self._grow()
        self.nbt_cache = None
        index = self.__dict__.get("_index")
        if index is not None:
            index.tag_added(self, tag_name)
        return True

    def remove_tag(self, tag_name: str) -> bool:
        """Entity.removeTag."""
        if tag_name in self.tags:
            self.tags.remove(tag_name)
            self.nbt_cache = None
            index = self.__dict__.get("_index")
            if index is not None:
                index.tag_removed(self, tag_name)
            return True
        return False

    def _grow(self) -> None:
        while len(self.tags) > self.tag_capacity * 0.75:
            self.tag_capacity *= 2

    # -- NBT --------------------------------------------------------------------------------
    def to_nbt(self) -> nbt.Compound:
        """saveWithoutId: the full entity compound in vanilla's write order."""
        profile = current_profile()
        c = nbt.Compound()
        c["Pos"] = nbt.List[nbt.Double]([nbt.Double(v) for v in self.pos])
        c["Motion"] = nbt.List[nbt.Double]([nbt.Double(v) for v in self.motion])
        c["Rotation"] = nbt.List[nbt.Float]([nbt.Float(v) for v in self.rotation])
        if profile.fall_distance_double:
            c["fall_distance"] = nbt.Double(self.fall_distance)
        else:
            c["FallDistance"] = nbt.Float(self.fall_distance)
        c["Fire"] = nbt.Short(self.fire)
        c["Air"] = nbt.Short(self.air)
        c["OnGround"] = nbt.Byte(int(self.on_ground))
        c["Invulnerable"] = nbt.Byte(int(self.invulnerable))
        c["PortalCooldown"] = nbt.Int(self.portal_cooldown)
        c["UUID"] = nbt.IntArray(uuid_to_ints(self.uuid))
        if self.custom_name is not None:
            if _forms(profile.release)[0] == "json":  # Component.Serializer.toJson
                c["CustomName"] = nbt.String(encode_component(self.custom_name))
            else:
                c["CustomName"] = self.custom_name
        if self.custom_name_visible:
            c["CustomNameVisible"] = nbt.Byte(1)
        if self.silent:
            c["Silent"] = nbt.Byte(1)
        if self.no_gravity:
            c["NoGravity"] = nbt.Byte(1)
        if self.glowing:
            c["Glowing"] = nbt.Byte(1)
        if self.tags:
            ordered = _tag_order(tuple(self.tags), self.tag_capacity)
            c["Tags"] = nbt.List[nbt.String]([nbt.String(t) for t in ordered])
        self.save_additional(c)
        return c

    def save_additional(self, c: nbt.Compound) -> None:
        """addAdditionalSaveData: the generic entity keeps what it was given."""
        for k, v in self.extra.items():
            c[k] = v

    def load_nbt(self, c: nbt.Compound) -> None:
        """Entity.load: read the base keys (UUID handling is up to the caller)."""
        if "Pos" in c and len(c["Pos"]) == 3:
            self.pos = (float(c["Pos"][0]), float(c["Pos"][1]), float(c["Pos"][2]))
        if "Motion" in c and len(c["Motion"]) == 3:
            self.motion = tuple(float(v) for v in c["Motion"])  # type: ignore[assignment]
        if "Rotation" in c and len(c["Rotation"]) == 2:
            self.rotation = (float(c["Rotation"][0]), float(c["Rotation"][1]))
        profile = current_profile()
        fall = "fall_distance" if profile.fall_distance_double else "FallDistance"
        self.fall_distance = float(c.get(fall, 0.0))
        self.fire = int(c.get("Fire", self.fire))
        self.air = int(c.get("Air", self.air))
        self.on_ground = bool(int(c.get("OnGround", 0)))
        self.invulnerable = bool(int(c.get("Invulnerable", 0)))
        self.portal_cooldown = int(c.get("PortalCooldown", 0))
        if profile.text_form == "json":
            self._load_json_name(c.get("CustomName"))
        else:
            self.custom_name = c.get("CustomName")
        self.custom_name_visible = bool(int(c.get("CustomNameVisible", 0)))
        self.silent = bool(int(c.get("Silent", 0)))
        self.no_gravity = bool(int(c.get("NoGravity", 0)))
        self.glowing = bool(int(c.get("Glowing", 0)))
        if "Tags" in c:
            tags: list[str] = []
            for t in list(c["Tags"])[:1024]:
                if isinstance(t, str) and t not in tags:
                    tags.append(str(t))
            self.tags = tags
            self._grow()
        self.load_additional(c)

    def _load_json_name(self, value: Any) -> None:
        """Entity.load before 1.21.5: a string `CustomName` is JSON text; one that does not
        parse is logged and leaves the name as it was; no string at all clears it."""
        if not isinstance(value, nbt.String):
            self.custom_name = None
            return
        try:
            self.custom_name = decode_component(parse_lenient(str(value)))
        except JsonTextError:
            self.pending_log.append(("WARN", f"Failed to parse entity custom name {value}"))

    _BASE_KEYS = frozenset(
        "Pos Motion Rotation fall_distance FallDistance Fire Air OnGround Invulnerable "
        "PortalCooldown UUID CustomName CustomNameVisible Silent NoGravity Glowing Tags id".split()
    )

    def load_additional(self, c: nbt.Compound) -> None:
        """readAdditionalSaveData: the generic entity keeps unknown keys verbatim (unverified)."""
        self.extra = {k: v for k, v in c.items() if k not in self._BASE_KEYS}


@dataclass(eq=False)
class Marker(Entity):
    """minecraft:marker: only a `data` compound besides the base keys."""

    data: Any = None

    def save_additional(self, c: nbt.Compound) -> None:
        """Marker.addAdditionalSaveData."""
        c["data"] = self.data if self.data is not None else nbt.Compound()

    def load_additional(self, c: nbt.Compound) -> None:
        """Marker.readAdditionalSaveData."""
        data = c.get("data")
        self.data = data if isinstance(data, nbt.Compound) else nbt.Compound()

    def bounding_box(self) -> tuple[float, float, float, float, float, float]:
        """A marker has a zero-size box."""
        x, y, z = self.pos
        return (x, y, z, x, y, z)


@dataclass(eq=False)
class ItemFrame(Entity):
    """minecraft:item_frame / glow_item_frame ("Item frames")."""

    facing: int = 0
    attached: tuple[int, int, int] = (0, 0, 0)
    item: Any = None
    item_rotation: int = 0
    item_drop_chance: float = 1.0
    invisible: bool = False
    fixed: bool = False
    # BlockAttachedEntity.checkInterval as last written; `check_interval` adds the ticks since
    _check_interval: int = field(default=0, repr=False)
    # sounds played while loading NBT (setItem), emitted by the world once it knows the level
    pending_sounds: list[tuple[str, tuple[float, float, float]]] = field(
        default_factory=list, repr=False
    )
    _box_key: Any = field(default=None, repr=False)
    _box: tuple[float, float, float, float, float, float] = field(
        default=(0.0, 0.0, 0.0, 0.0, 0.0, 0.0), repr=False
    )

    def set_direction(self, facing: int) -> None:
        """ItemFrame.setDirection: rotation follows the facing; the box is recomputed."""
        self.facing = facing
        name = DIRECTIONS[facing][0]
        if name in _YAW_2D:
            self.rotation = (_YAW_2D[name], 0.0)
        else:
            self.rotation = (0.0, -90.0 if name == "up" else 90.0)
        self._recentre()

    def _recentre(self) -> None:
        dx, dy, dz = DIRECTIONS[self.facing][1]
        bx, by, bz = self.attached
        d = -0.46875
        self.pos = (bx + 0.5 + dx * d, by + 0.5 + dy * d, bz + 0.5 + dz * d)

    def place(self, x: float, y: float, z: float) -> None:
        """BlockAttachedEntity.setPos: the block containing the point, then recentre."""
        self.attached = (math.floor(x), math.floor(y), math.floor(z))
        self._recentre()

    def set_rotation(self, r: int) -> None:
        """ItemFrame.setRotation: r % 8, Java remainder semantics ("Item frames: ItemRotation")."""
        self.item_rotation = int(math.fmod(r, 8))

    def sound(self, event: str) -> str:
        """The frame's sound id: glow frames have their own (GlowItemFrame)."""
        return f"minecraft:entity.{strip_namespace(self.type_id)}.{event}"

    def queue_sound(self, event: str) -> None:
        """Entity.playSound: nothing when Silent, else queued at the current position."""
        if not self.silent:
            self.pending_sounds.append((self.sound(event), self.pos))

    def set_item(self, item: Any) -> None:
        """ItemFrame.setItem: a copy of count 1; a non-empty item plays `add_item`."""
        if item is None or not len(item):
            self.item = None
            return
        copy = nbt.Compound(item)
        copy["count"] = nbt.Int(1)
        self.item = copy
        self.queue_sound("add_item")

    def frame_item_id(self) -> str:
        """getFrameItemStack: the item the frame drops as (item_frame or glow_item_frame)."""
        return self.type_id

    def has_map(self) -> bool:
        """Whether the held item is a filled map."""
        return self.item is not None and str(self.item.get("id", "")) in (
            "minecraft:filled_map",
            "filled_map",
        )

    def bounding_box(self) -> tuple[float, float, float, float, float, float]:
        """ItemFrame.calculateBoundingBox: 1/16 deep, 0.75 (1.0 with a map) wide (cached)."""
        key = (self.pos, self.facing, id(self.item))
        if self._box_key == key:
            return self._box
        self._box_key = key
        self._box = self._compute_box()
        return self._box

    @property
    def eye_height(self) -> float:
        """EntityType.ITEM_FRAME / GLOW_ITEM_FRAME: `eyeHeight(0.0f)`."""
        return 0.0

    def _compute_box(self) -> tuple[float, float, float, float, float, float]:
        half = 0.5 if self.has_map() else 0.375
        depth = 0.03125
        x, y, z = self.pos
        dx, dy, dz = DIRECTIONS[self.facing][1]
        ex = depth if dx else half
        ey = depth if dy else half
        ez = depth if dz else half
        return (x - ex, y - ey, z - ez, x + ex, y + ey, z + ez)

    def support_pos(self) -> tuple[int, int, int]:
        """The block behind the frame: pos.relative(facing.opposite)."""
        dx, dy, dz = DIRECTIONS[self.facing][1]
        bx, by, bz = self.attached
        return (bx - dx, by - dy, bz - dz)

    def save_additional(self, c: nbt.Compound) -> None:
        """BlockAttachedEntity + ItemFrame.addAdditionalSaveData of the release being played
        (before 1.21.5: TileX/TileY/TileZ, and ItemRotation and ItemDropChance only with an
        item)."""
        profile = current_profile()
        if _forms(profile.release)[1] == "tile":
            for key, v in zip(("TileX", "TileY", "TileZ"), self.attached, strict=True):
                c[key] = nbt.Int(v)
        else:
            c["block_pos"] = nbt.IntArray(list(self.attached))
        if self.item is not None:
            c["Item"] = self.item
        if self.item is not None or profile.frame_rotation_always_saved:
            c["ItemRotation"] = nbt.Byte(self.item_rotation)
            c["ItemDropChance"] = nbt.Float(self.item_drop_chance)
        c["Facing"] = nbt.Byte(self.facing)
        c["Invisible"] = nbt.Byte(int(self.invisible))
        c["Fixed"] = nbt.Byte(int(self.fixed))

    def load_additional(self, c: nbt.Compound) -> None:
        """ItemFrame.readAdditionalSaveData: missing Facing → down (0).

        Entity.load has already put the frame on the block containing `Pos` (reapplyPosition,
        `Pos` defaulting to 0 0 0); the saved block (`block_pos`, or before 1.21.5
        `TileX`/`TileY`/`TileZ`, each 0 when missing) is kept only when it lies closer than 16
        blocks to that block, otherwise the server logs an ERROR ("Item frames: summon and
        block_pos", "Versions: frame position"). Before 1.21.5 ItemRotation and
        ItemDropChance are read only with an item.
        """
        profile = current_profile()
        self.attached = self.block_pos()
        cand: tuple[int, int, int] | None = None
        if profile.attached_position == "tile":
            cand = (_int_or_zero(c, "TileX"), _int_or_zero(c, "TileY"), _int_or_zero(c, "TileZ"))
        else:
            bp = c.get("block_pos")
            if isinstance(bp, nbt.IntArray | nbt.List) and len(bp) == 3:  # BlockPos.CODEC
                cand = (int(bp[0]), int(bp[1]), int(bp[2]))
        here = self.block_pos()
        if cand is None or sum((cand[i] - here[i]) ** 2 for i in range(3)) >= 256:
            shown = "null" if cand is None else f"BlockPos{{x={cand[0]}, y={cand[1]}, z={cand[2]}}}"
            self.pending_log.append(
                ("ERROR", f"{profile.attached_log} at invalid position: {shown}")
            )
        else:
            self.attached = cand
        item = c.get("Item")
        self.set_item(item if isinstance(item, nbt.Compound) and len(item) else None)
        if self.item is not None or profile.frame_rotation_always_saved:
            self.set_rotation(int(c.get("ItemRotation", 0)))
            self.item_drop_chance = float(c.get("ItemDropChance", 1.0))
        facing = int(c.get("Facing", 0))
        self.invisible = bool(int(c.get("Invisible", 0)))
        self.fixed = bool(int(c.get("Fixed", 0)))
        self.set_direction(abs(int(math.fmod(facing, 6))))  # Direction.from3DDataValue

    @property
    def check_interval(self) -> int:
        """BlockAttachedEntity.checkInterval: ticks since the last survives() check (counted
        up each tick; at 100 the next tick checks and starts again at 0)."""
        index = self.__dict__.get("_index")
        base: int = self.__dict__["_check_interval"]
        return base if index is None else base + index.elapsed(self)

    @check_interval.setter
    def check_interval(self, value: int) -> None:
        index = self.__dict__.get("_index")
        if index is not None:
            index.rebase(self)
        self.__dict__["_check_interval"] = value
        if index is not None:
            index.counters_set(self)


@dataclass(eq=False)
class Player(Entity):
    """A simulated player (no NBT editing; `data modify` on players is refused)."""

    name: str = ""
    held_item: Any = None
    inbox: list[dict[str, object]] = field(default_factory=list)
    display: str = ""  # a team prefix/suffix makes the display name differ from the name
    game_mode: str = "survival"
    team_prefix: str = ""  # PlayerTeam prefix/suffix: part of the display name, not the name
    team_suffix: str = ""
    # attribute minecraft:entity_interaction_range: its base (Player.createAttributes: 3.0) and
    # whether the transient creative_mode_entity_range modifier (+2.0) is on
    interaction_range_base: float = 3.0
    creative_range: bool = False
    # the base of every other attribute `attribute … base set` changed (id → value)
    attribute_bases: dict[str, float] = field(default_factory=dict)

    @property
    def infinite_materials(self) -> bool:
        """Player.hasInfiniteMaterials / abilities.instabuild: creative mode."""
        return self.game_mode == "creative"

    @property
    def eye_height(self) -> float:
        """Avatar.STANDING_DIMENSIONS: 1.62f (the sandbox models no crouching or swimming pose,
        whose eye heights are 1.27f and 0.4f)."""
        return STANDING_EYE_HEIGHT

    def update_attributes(self) -> None:
        """ServerPlayer.updatePlayerAttributes, run by the player's tick: the creative modifier
        follows the game mode from the next tick on, not at the moment the mode changes."""
        self.creative_range = self.game_mode == "creative"

    def entity_interaction_range(self) -> float:
        """Player.entityInteractionRange: the attribute's value, base plus the creative modifier,
        clamped to the attribute's 0..64 (AttributeInstance.calculateValue, RangedAttribute)."""
        value = self.interaction_range_base + (CREATIVE_RANGE_BONUS if self.creative_range else 0.0)
        return 0.0 if math.isnan(value) else min(max(value, 0.0), 64.0)

    def within_entity_interaction_range(
        self, box: tuple[float, float, float, float, float, float], buffer: float
    ) -> bool:
        """Player.isWithinEntityInteractionRange(AABB, buffer): the box's distance from the eyes
        (AABB.distanceToSqr) is below range + buffer."""
        eye = (self.pos[0], self.pos[1] + self.eye_height, self.pos[2])
        d2 = 0.0
        for k in range(3):
            d = max(box[k] - eye[k], eye[k] - box[k + 3], 0.0)
            d2 += d * d
        reach = self.entity_interaction_range() + buffer
        return d2 < reach * reach

    @property
    def display_name(self) -> str:
        """getDisplayName(): the name formatted by its team (prefix + name + suffix); `display`
        stands for a whole decorated name when set."""
        return self.display or self.team_prefix + self.name + self.team_suffix

    @property
    def plain_name(self) -> str:
        """A player's account name."""
        return self.name

    @property
    def score_name(self) -> str:
        """Players are scored by name."""
        return self.name


def _int_or_zero(c: nbt.Compound, key: str) -> int:
    """CompoundTag.getInt before 1.21.5: any number's int value, else 0."""
    value = c.get(key)
    return int(value) if isinstance(value, int | float) and not isinstance(value, str) else 0


def item_entity(
    item: nbt.Compound, pos: tuple[float, float, float], dimension: str, uid: uuidlib.UUID
) -> Entity:
    """A dropped item (ItemEntity save keys: Health 5, Age 0, PickupDelay 10, Item)."""
    e = Entity("minecraft:item", uid, dimension)
    e.pos = pos
    e.extra = {
        "Health": nbt.Short(5),
        "Age": nbt.Short(0),
        "PickupDelay": nbt.Short(10),
        "Item": nbt.Compound(item),
    }
    return e


def create_entity(type_id: str, uid: uuidlib.UUID, dimension: str) -> Entity:
    """A fresh entity of the given (namespaced) type."""
    short = strip_namespace(type_id)
    full = "minecraft:" + short
    if short in ("item_frame", "glow_item_frame"):
        return ItemFrame(full, uid, dimension)
    if short == "marker":
        return Marker(full, uid, dimension)
    return Entity(full, uid, dimension)
