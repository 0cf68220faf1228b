"""The sandbox world: blocks, chunk tickets and loading, entities, scoreboards, gamerules.

Chunk loading follows docs/server-behaviour.md, "Loaded positions" to "Chunk ticket levels" (the
Paper variant: "Paper: chunk and entity loading"): a forced chunk has level 31, a
player gives level 31 to every chunk within its view distance (Chebyshev distance, derived), and
levels grow by one per chunk outwards. Block commands work where the level is ≤ 33; entities of a
chunk become visible one tick after it reaches ≤ 33 on vanilla (at once on paper); `execute if
loaded` needs level ≤ 31 and loaded entities; entities tick only where the level is ≤ 31.
"""

from __future__ import annotations

import math
import uuid as uuidlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from nbtlib import tag as nbt

from .entities import DIRECTIONS, Entity, ItemFrame, Player, create_entity, item_entity
from .levelindex import LevelIndex, section_order
from .registry import registry

__all__ = [
    "AIR",
    "DIMENSIONS",
    "GAMERULES",
    "GAMERULE_BOUNDS",
    "Objective",
    "World",
    "chunk_of",
]

AIR = "minecraft:air"
DIMENSIONS = ("minecraft:overworld", "minecraft:the_nether", "minecraft:the_end")
_HEIGHT = {
    "minecraft:overworld": (-64, 319),
    "minecraft:the_nether": (0, 255),
    "minecraft:the_end": (0, 255),
}
FORCED_LEVEL = 31
FULL_LEVEL = 33

# Game rules of 1.21.11 (registered as `minecraft:<id>`, snake_case) with their defaults, from
# GameRules.java of a public 1.21.11 decompile; 26.1 is assumed unchanged (unverified).
# `max_minecart_speed` needs an experimental feature flag and is left out.
GAMERULES: dict[str, bool | int] = {
    "advance_time": True,
    "advance_weather": True,
    "allow_entering_nether_using_portals": True,
    "block_drops": True,
    "block_explosion_drop_decay": True,
    "command_blocks_work": True,
    "command_block_output": True,
    "drowning_damage": True,
    "elytra_movement_check": True,
    "ender_pearls_vanish_on_death": True,
    "entity_drops": True,
    "fall_damage": True,
    "fire_damage": True,
    "fire_spread_radius_around_player": 128,
    "forgive_dead_players": True,
    "freeze_damage": True,
    "global_sound_events": True,
    "immediate_respawn": False,
    "keep_inventory": False,
    "lava_source_conversion": False,
    "limited_crafting": False,
    "locator_bar": True,
    "log_admin_commands": True,
    "max_block_modifications": 32768,
    "max_command_forks": 65536,
    "max_command_sequence_length": 65536,
    "max_entity_cramming": 24,
    "max_snow_accumulation_height": 1,
    "mob_drops": True,
    "mob_explosion_drop_decay": True,
    "mob_griefing": True,
    "natural_health_regeneration": True,
    "player_movement_check": True,
    "players_nether_portal_creative_delay": 0,
    "players_nether_portal_default_delay": 80,
    "players_sleeping_percentage": 100,
    "projectiles_can_break_blocks": True,
    "pvp": True,
    "raids": True,
    "random_tick_speed": 3,
    "reduced_debug_info": False,
    "respawn_radius": 10,
    "send_command_feedback": True,
    "show_advancement_messages": True,
    "show_death_messages": True,
    "spawner_blocks_work": True,
    "spawn_mobs": True,
    "spawn_monsters": True,
    "spawn_patrols": True,
    "spawn_phantoms": True,
    "spawn_wandering_traders": True,
    "spawn_wardens": True,
    "spectators_generate_chunks": True,
    "spread_vines": True,
    "tnt_explodes": True,
    "tnt_explosion_drop_decay": False,
    "universal_anger": False,
    "water_source_conversion": True,
}
# IntegerArgumentType bounds of the integer rules (minimum, maximum); others are (0, 2^31-1).
GAMERULE_BOUNDS: dict[str, tuple[int, int]] = {
    "fire_spread_radius_around_player": (-1, 2**31 - 1),
    "max_block_modifications": (1, 2**31 - 1),
    "max_snow_accumulation_height": (0, 8),
}


def chunk_of(x: float, z: float) -> tuple[int, int]:
    """The chunk column containing block coordinates x, z."""
    return (math.floor(x) >> 4, math.floor(z) >> 4)


_POP_REACH = 0.5 + 0.375 + 1e-6  # a frame's half size, a pop box's, and a margin for rounding


def _section_range(
    box: tuple[float, float, float, float, float, float],
) -> tuple[int, int, int, int, int, int]:
    """The entity sections EntitySectionStorage.getEntities(aabb) visits: those of the box
    grown by 2 blocks each way (x0, x1, y0, y1, z0, z1)."""
    x0, y0, z0, x1, y1, z1 = box
    return (
        math.floor(x0 - 2.0) >> 4,
        math.floor(x1 + 2.0) >> 4,
        math.floor(y0 - 2.0) >> 4,
        math.floor(y1 + 2.0) >> 4,
        math.floor(z0 - 2.0) >> 4,
        math.floor(z1 + 2.0) >> 4,
    )


def _section_rank(e: Entity) -> tuple[int, int, int, int]:
    """Where `entities_in_box` meets an entity: its section in key order, then its place in
    the section's list."""
    d = e.__dict__
    x, y, z = section_order(d["_section"])
    return (x, y, z, d["_section_seq"])


@dataclass
class Objective:
    """A scoreboard objective."""

    name: str
    criteria: str
    display_name: Any  # a text component (NBT)
    render_type: str = "integer"

    def formatted(self) -> str:
        """getFormattedDisplayName(): the display name in square brackets."""
        from .entities import plain_text

        return "[" + plain_text(self.display_name) + "]"


@dataclass
class World:
    """All mutable game state (no command parsing here)."""

    flavour: str = "vanilla"
    view_distance: int = 10
    tick_count: int = 0
    spawn: tuple[int, int, int] = (0, 64, 0)
    blocks: dict[str, dict[tuple[int, int, int], str]] = field(
        default_factory=lambda: {d: {} for d in DIMENSIONS}
    )
    forced: dict[str, set[tuple[int, int]]] = field(
        default_factory=lambda: {d: set() for d in DIMENSIONS}
    )
    entities: dict[uuidlib.UUID, Entity] = field(default_factory=dict)
    players: dict[str, Player] = field(default_factory=dict)
    objectives: dict[str, Objective] = field(default_factory=dict)
    scores: dict[str, dict[str, int]] = field(default_factory=dict)
    # trigger scores a player may use once (Score.locked false): holder -> objectives
    unlocked: dict[str, set[str]] = field(default_factory=dict)
    display_slots: dict[str, str] = field(default_factory=dict)
    gamerules: dict[str, bool | int] = field(default_factory=lambda: dict(GAMERULES))
    # the sandbox's rule keys (1.21.11 names) → the release's names, for releases before 1.21.11
    rule_names: Mapping[str, str] = field(default_factory=dict)
    storage: dict[str, nbt.Compound] = field(default_factory=dict)
    events: list[dict[str, object]] = field(default_factory=list)
    # per player name: advancement id -> criterion -> tick obtained (players/advancements/*.json)
    advancements: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    # every sound the server played (playsound, entity sounds), audible or not
    sounds: list[dict[str, object]] = field(default_factory=list)
    # what the server would print at WARN or ERROR for what it was sent: (level, message)
    # ("Item frames: summon and block_pos")
    server_log: list[tuple[str, str]] = field(default_factory=list)
    levels: dict[tuple[str, int, int], int] = field(default_factory=dict)
    entity_status: dict[tuple[str, int, int], str] = field(default_factory=dict)
    sections: dict[tuple[str, int, int, int], list[Entity]] = field(default_factory=dict)
    levels_dirty: bool = False
    # server.properties pause-when-empty-seconds: vanilla's default is 60, Paper's -1
    # ("Paper: chunk and entity loading"); the sandbox defaults to -1 (off) so an empty test
    # server keeps ticking.
    pause_when_empty_seconds: int = -1
    empty_ticks: int = 0
    # Paper chunks.delay-chunk-unloads-by (10 s): dropped chunks stay loaded (level 33) a while.
    unload_delay_ticks: int = 200
    delayed_unloads: dict[tuple[str, int, int], int] = field(default_factory=dict)
    # entities by tag, type, cell and chunk, and their tick counters (levelindex)
    index: LevelIndex = field(default_factory=LevelIndex, repr=False, compare=False)
    # is_solid by (registry, block state)
    _solid: dict[tuple[int, str], bool] = field(default_factory=dict, repr=False, compare=False)

    def rule(self, key: str, default: bool | int) -> bool | int:
        """A gamerule by the sandbox's key, under whatever name the release gives it (the
        default when the release has no such rule)."""
        return self.gamerules.get(self.rule_names.get(key, key), default)

    # ------------------------------------------------------------------ blocks
    def height(self, dimension: str) -> tuple[int, int]:
        """Minimum and maximum buildable y."""
        return _HEIGHT.get(dimension, (-64, 319))

    def get_block(self, dimension: str, pos: tuple[int, int, int]) -> str:
        """The full block state string at pos (air when never set)."""
        return self.blocks.setdefault(dimension, {}).get(pos, AIR)

    def set_block(self, dimension: str, pos: tuple[int, int, int], state: str) -> bool:
        """Level.setBlock: False when the state is unchanged."""
        column = self.blocks.setdefault(dimension, {})
        old = column.get(pos, AIR)
        if old == state:
            return False
        if state == AIR:
            del column[pos]
        else:
            column[pos] = state
        return True

    def is_solid(self, dimension: str, pos: tuple[int, int, int]) -> bool:
        """BlockState.isSolid() approximated by the registry's `full` shape (documented)."""
        state = self.get_block(dimension, pos)
        blocks = registry()
        key = (id(blocks), state)
        solid = self._solid.get(key)
        if solid is None:  # once per registry and block state: the lookup
            bt = blocks.block(state.split("[", 1)[0])
            solid = self._solid[key] = bt is not None and bt.solid
        return solid

    # ------------------------------------------------------------------ chunks
    def chunk_level(self, dimension: str, cx: int, cz: int) -> int:
        """The ticket level of a chunk (99 when it has none within reach)."""
        return self.levels.get((dimension, cx, cz), 99)

    def is_block_loaded(self, dimension: str, x: int, z: int) -> bool:
        """hasChunkAt: level ≤ 33 (FULL)."""
        cx, cz = x >> 4, z >> 4
        return self.chunk_level(dimension, cx, cz) <= FULL_LEVEL

    def is_loaded_for_execute(self, dimension: str, x: int, z: int) -> bool:
        """`execute if loaded`: entity ticking (level ≤ 31) and entities loaded."""
        key = (dimension, x >> 4, z >> 4)
        return self.levels.get(key, 99) <= FORCED_LEVEL and self.entity_status.get(key) == "loaded"

    def entities_visible_in(self, dimension: str, cx: int, cz: int) -> bool:
        """Whether a chunk's entities are loaded (accessible to selectors)."""
        return self.entity_status.get((dimension, cx, cz)) == "loaded"

    def compute_levels(self) -> dict[tuple[str, int, int], int]:
        """Chunk levels ≤ 33 from forced chunks and players."""
        levels: dict[tuple[str, int, int], int] = {}
        reach = FULL_LEVEL - FORCED_LEVEL
        for dim, chunks in self.forced.items():
            for cx, cz in chunks:
                for dx in range(-reach, reach + 1):
                    for dz in range(-reach, reach + 1):
                        key = (dim, cx + dx, cz + dz)
                        lvl = FORCED_LEVEL + max(abs(dx), abs(dz))
                        if lvl < levels.get(key, 99):
                            levels[key] = lvl
        vd = self.view_distance
        for p in self.players.values():
            pcx, pcz = chunk_of(p.pos[0], p.pos[2])
            r = vd + reach
            for dx in range(-r, r + 1):
                for dz in range(-r, r + 1):
                    key = (p.dimension, pcx + dx, pcz + dz)
                    lvl = FORCED_LEVEL + max(0, max(abs(dx), abs(dz)) - vd)
                    if lvl < levels.get(key, 99):
                        levels[key] = lvl
        return levels

    def update_levels(self) -> None:
        """Apply the current tickets: load new chunks, unload dropped ones."""
        new = self.compute_levels()
        if self.flavour == "paper":  # delayed unloads keep dropped chunks at level 33
            for key in self.levels:
                if key not in new and key not in self.delayed_unloads:
                    self.delayed_unloads[key] = self.tick_count + self.unload_delay_ticks
            for key, until in list(self.delayed_unloads.items()):
                if key in new or until <= self.tick_count:
                    del self.delayed_unloads[key]
                else:
                    new[key] = FULL_LEVEL
        dropped = {key for key in self.entity_status if key not in new}
        for key in dropped:
            del self.entity_status[key]
        self.index.loading_changed(dropped)
        by_chunk = self.index.by_chunk
        for key in dropped & by_chunk.keys():  # entities of unloaded chunks go to storage
            for e in list(by_chunk[key]):
                e.stored = True
        fresh: set[tuple[str, int, int]] = set()
        for key in new:
            if key not in self.entity_status:
                self.entity_status[key] = "loaded" if self.flavour == "paper" else "pending"
                fresh.add(key)
        self.index.loading_changed(fresh)
        if self.flavour == "paper":
            self._reinsert(fresh)
        self.levels = new
        self.levels_dirty = False
        self._update_ticking()

    def _update_ticking(self) -> None:
        """Tell the index which chunks' entities tick: level ≤ 31 and entities loaded."""
        status = self.entity_status
        self.index.set_ticking(
            k for k, lvl in self.levels.items() if lvl <= FORCED_LEVEL and k in status
        )

    def _promote_pending(self) -> None:
        promoted = {k for k, status in self.entity_status.items() if status == "pending"}
        for key in promoted:
            self.entity_status[key] = "loaded"
        self._reinsert(promoted)
        if promoted:
            self.index.loading_changed(promoted)
            self._update_ticking()

    def _reinsert(self, keys: set[tuple[str, int, int]]) -> None:
        """Entities of newly loaded chunks join the level's entity list at its end."""
        if not keys:
            return
        movers = sorted(
            (e for e in self.index.stored if self._chunk_key(e) in keys),
            key=lambda e: e.__dict__["_order"],
        )
        for e in movers:
            e.stored = False
            if isinstance(e, ItemFrame):  # a reloaded entity is a new object: checkInterval 0
                e.check_interval = 0
            del self.entities[e.uuid]
            self.entities[e.uuid] = e
            self.index.reinserted(e)

    @staticmethod
    def _chunk_key(e: Entity) -> tuple[str, int, int]:
        cx, cz = chunk_of(e.pos[0], e.pos[2])
        return (e.dimension, cx, cz)

    # ------------------------------------------------------------------ entities
    def is_visible(self, e: Entity) -> bool:
        """Accessible to selectors and UUID lookups ("What selectors can see").

        An entity is accessible when its chunk is loaded (level ≤ 33) and it is in memory: an
        entity summoned into a loaded chunk is at once; entities read back from storage (their
        chunk was unloaded, or the world was loaded from disk) come back when the chunk's entity
        load completes — one tick after the chunk loads on vanilla, with it on Paper
        ("Entity loading").
        """
        if e.removed:
            return False
        if isinstance(e, Player):
            return True
        return not e.stored and self._chunk_key(e) in self.entity_status

    def is_ticking(self, e: Entity) -> bool:
        """Entity ticking: level ≤ 31."""
        cx, cz = chunk_of(e.pos[0], e.pos[2])
        return self.levels.get((e.dimension, cx, cz), 99) <= FORCED_LEVEL and self.is_visible(e)

    @staticmethod
    def section_key(e: Entity) -> tuple[str, int, int, int]:
        """The 16³ entity section of an entity."""
        x, y, z = e.pos
        return (e.dimension, math.floor(x) >> 4, math.floor(y) >> 4, math.floor(z) >> 4)

    def add_entity(self, e: Entity) -> None:
        """Insert an entity (its chunk decides visibility)."""
        old = self.entities.get(e.uuid)
        self.entities[e.uuid] = e
        key = self.section_key(e)
        self.sections.setdefault(key, []).append(e)
        self.index.sectioned(e, key)
        if old is None:
            self.index.attach(e)
        elif old is not e:  # the UUID's entry (and its place in the list) passes to `e`
            order = old.__dict__["_order"]
            self.index.shadowed(old)
            self.index.attach(e, order)

    def remove_entity(self, e: Entity) -> None:
        """Discard an entity; a destroyed entity that is not a player loses its scores
        (`Scoreboard.entityRemoved`: docs/server-behaviour.md, "Feedback: scoreboard")."""
        e.removed = True  # the index lets go of it
        popped = self.entities.pop(e.uuid, None)
        if popped is not None and popped is not e:  # another entity held its UUID's entry
            self.index.shadowed(popped)
        if not isinstance(e, Player):
            self.scores.pop(e.score_name, None)
        sec = self.sections.get(self.section_key(e))
        if sec is not None and e in sec:
            sec.remove(e)
            self.index.section_changed(self.section_key(e))
            if not sec:
                del self.sections[self.section_key(e)]

    def move_entity(self, e: Entity, pos: tuple[float, float, float]) -> None:
        """Change an entity's position keeping the section index right."""
        old = self.section_key(e)
        e.pos = pos
        self._resection(e, old)

    def resection(self, e: Entity, old: tuple[str, int, int, int]) -> None:
        """Re-index an entity whose position changed from section `old`."""
        self._resection(e, old)

    def _resection(self, e: Entity, old: tuple[str, int, int, int]) -> None:
        new = self.section_key(e)
        if new == old:
            return
        sec = self.sections.get(old)
        if sec is not None and e in sec:
            sec.remove(e)
            self.index.section_changed(old)
            if not sec:
                del self.sections[old]
        self.sections.setdefault(new, []).append(e)
        self.index.sectioned(e, new)

    def get_entity(self, uid: uuidlib.UUID) -> Entity | None:
        """level.getEntity(uuid): only loaded entities."""
        e = self.entities.get(uid)
        return e if e is not None and self.is_visible(e) else None

    def visible_entities(self) -> Iterator[Entity]:
        """Every loaded entity in level-list order, overworld first."""
        later: dict[str, list[Entity]] = {}
        for e in list(self.entities.values()):
            if e.dimension == DIMENSIONS[0]:
                if self.is_visible(e):
                    yield e
            else:
                later.setdefault(e.dimension, []).append(e)
        for dim in DIMENSIONS[1:]:
            for e in later.get(dim, []):
                if self.is_visible(e):
                    yield e

    def entities_in_box(
        self, dimension: str, box: tuple[float, float, float, float, float, float]
    ) -> Iterator[Entity]:
        """EntitySectionStorage.getEntities(aabb): sections around the box, vanilla key order."""
        for group, _, _ in self.entities_in_box_by_section(dimension, box):
            yield from group

    def entities_in_box_by_section(
        self, dimension: str, box: tuple[float, float, float, float, float, float]
    ) -> Iterator[tuple[list[Entity], tuple[tuple[str, int, int, int], bool] | None, bool]]:
        """`entities_in_box` in runs: one per section (with the section's key and whether its
        chunk's entities are loaded), or one for a small box (None). With each, whether every
        one of its entities' bounding boxes overlaps the box strictly (has a part inside it,
        not just an edge); such a run is the section's entities that selectors see, as the
        index remembers them for (key, loaded) (not to be changed)."""
        x0, y0, z0, x1, y1, z1 = box
        sx0, sx1, sy0, sy1, sz0, sz1 = _section_range(box)
        near = self.index.near_box(dimension, box)
        if near is not None:  # a small box: its columns' entities, put in section order
            ranges = (sx0, sx1, sy0, sy1, sz0, sz1)
            yield self._in_box_of(near, dimension, box, ranges), None, False
            return
        span = (sx1 - sx0 + 1) * (sy1 - sy0 + 1) * (sz1 - sz0 + 1)
        keys: list[tuple[int, int, int]] = []
        if span > len(self.sections):
            for d, sx, sy, sz in self.sections:
                if d == dimension and sx0 <= sx <= sx1 and sy0 <= sy <= sy1 and sz0 <= sz <= sz1:
                    keys.append((sx, sy, sz))
        else:
            for sx in range(sx0, sx1 + 1):
                for sy in range(sy0, sy1 + 1):
                    for sz in range(sz0, sz1 + 1):
                        if (dimension, sx, sy, sz) in self.sections:
                            keys.append((sx, sy, sz))
        # SectionPos.asLong order: x, then z (22-bit unsigned), then y (20-bit unsigned)
        keys.sort(key=lambda k: (k[0], k[2] & 0x3FFFFF, k[1] & 0xFFFFF))
        for sx, sy, sz in keys:
            chunk_loaded = (dimension, sx, sz) in self.entity_status  # section column = chunk
            key = (dimension, sx, sy, sz)
            members = self.sections.get(key, [])

            def loaded(members: list[Entity] = members, chunk_loaded: bool = chunk_loaded) -> Any:
                return [
                    e
                    for e in members
                    if not e.removed and (isinstance(e, Player) or (chunk_loaded and not e.stored))
                ]

            seen: list[Entity] = self.index.memo(key, ("loaded", chunk_loaded), loaded)
            if not seen:
                continue
            b = self.index.bounds(key, members)
            if b[0] < x1 and b[3] > x0 and b[1] < y1 and b[4] > y0 and b[2] < z1 and b[5] > z0:
                yield seen, (key, chunk_loaded), True
                continue
            touching = []
            for e in seen:
                bx = e.bounding_box()
                if bx[0] <= x1 and bx[3] >= x0 and bx[1] <= y1 and bx[4] >= y0:
                    if bx[2] <= z1 and bx[5] >= z0:
                        touching.append(e)
            yield touching, (key, chunk_loaded), False

    def _in_box_of(
        self,
        near: list[Entity],
        dimension: str,
        box: tuple[float, float, float, float, float, float],
        sections: tuple[int, int, int, int, int, int],
    ) -> list[Entity]:
        """The entities of `near` that the section walk of `entities_in_box` would yield, in
        its order: sections by key, each in its list's order."""
        x0, y0, z0, x1, y1, z1 = box
        sx0, sx1, sy0, sy1, sz0, sz1 = sections
        status = self.entity_status
        found: list[Entity] = []
        for e in near:
            key = e.__dict__["_section"]
            if key[0] != dimension or not (
                sx0 <= key[1] <= sx1 and sy0 <= key[2] <= sy1 and sz0 <= key[3] <= sz1
            ):
                continue
            if e.removed or not (
                isinstance(e, Player) or (not e.stored and (dimension, key[1], key[3]) in status)
            ):
                continue
            bx = e.bounding_box()
            if bx[0] <= x1 and bx[3] >= x0 and bx[1] <= y1 and bx[4] >= y0:
                if bx[2] <= z1 and bx[5] >= z0:
                    found.append(e)
        if len(found) > 1:
            found.sort(key=_section_rank)
        return found

    def new_entity(self, type_id: str, dimension: str) -> Entity:
        """A fresh entity with a random UUID (not yet added)."""
        return create_entity(type_id, uuidlib.uuid4(), dimension)

    # ------------------------------------------------------------------ sounds
    def play_sound(
        self,
        dimension: str,
        pos: tuple[float, float, float],
        sound: str,
        source: str = "neutral",
        volume: float = 1.0,
        pitch: float = 1.0,
        entity: Entity | None = None,
    ) -> list[str]:
        """Level.playSound(null, …): every player of the dimension closer than the range hears it.

        The range is SoundEvent.getRange(volume): 16, or 16 × volume above 1
        (docs/sandbox-datapacks.md §9). Returns the names of the players who heard it.
        """
        reach = 16.0 * volume if volume > 1.0 else 16.0
        heard: list[str] = []
        for p in self.players.values():
            if p.dimension != dimension:
                continue
            if sum((pos[i] - p.pos[i]) ** 2 for i in range(3)) < reach * reach:
                heard.append(p.name)
                p.inbox.append(
                    {
                        "type": "sound",
                        "sound": sound,
                        "source": source,
                        "pos": pos,
                        "volume": volume,
                        "pitch": pitch,
                        "tick": self.tick_count,
                    }
                )
        self.sounds.append(
            {
                "sound": sound,
                "source": source,
                "pos": pos,
                "dimension": dimension,
                "volume": volume,
                "pitch": pitch,
                "tick": self.tick_count,
                "entity": str(entity.uuid) if entity is not None else None,
                "heard_by": heard,
            }
        )
        return heard

    def flush_sounds(self, e: Entity) -> None:
        """Play the sounds an entity queued while loading NBT (setItem while reading its data),
        and write the log lines its loading produced to the server log."""
        if e.pending_log:
            logged, e.pending_log = e.pending_log, []
            self.server_log += logged
        if isinstance(e, ItemFrame):
            pending, e.pending_sounds = e.pending_sounds, []
            for sound, pos in pending:
                self.play_sound(e.dimension, pos, sound, entity=e)

    def entity_sound(self, e: Entity, sound: str) -> None:
        """Entity.playSound at the entity: nothing when it is Silent."""
        if not e.silent:
            self.play_sound(e.dimension, e.pos, sound, entity=e)

    # ------------------------------------------------------------------ frames
    @staticmethod
    def pop_box(frame: ItemFrame) -> tuple[float, float, float, float, float, float]:
        """ItemFrame.getPopBox: the box of a frame without a map (0.75 wide), whatever it holds."""
        x, y, z = frame.pos
        dx, dy, dz = DIRECTIONS[frame.facing][1]
        half, depth = 0.375, 0.03125
        ex = depth if dx else half
        ey = depth if dy else half
        ez = depth if dz else half
        return (x - ex, y - ey, z - ez, x + ex, y + ey, z + ez)

    def _box_hits_full_block(
        self, dimension: str, box: tuple[float, float, float, float, float, float]
    ) -> bool:
        """noBlockCollision for full cubes: a full block whose cube the box overlaps (strictly)."""
        x0, y0, z0, x1, y1, z1 = box
        for bx in range(math.floor(x0), math.floor(x1) + 1):
            for by in range(math.floor(y0), math.floor(y1) + 1):
                for bz in range(math.floor(z0), math.floor(z1) + 1):
                    inside = x0 < bx + 1 and x1 > bx and y0 < by + 1 and y1 > by
                    if (
                        inside
                        and z0 < bz + 1
                        and z1 > bz
                        and self.is_solid(dimension, (bx, by, bz))
                    ):
                        return True
        return False

    def frame_survives(self, frame: ItemFrame) -> bool:
        """ItemFrame.survives(): no block in its pop box, a solid block behind, and no other
        hanging entity facing the same way overlapping its pop box (canCoexist(true))."""
        if frame.fixed:
            return True
        if self._box_hits_full_block(frame.dimension, self.pop_box(frame)):
            return False
        if not self.is_solid(frame.dimension, frame.support_pos()):
            return False
        return self.can_coexist(frame)

    def can_coexist(self, frame: ItemFrame) -> bool:
        """HangingEntity.canCoexist(true): an overlapping frame with the same Facing conflicts.

        level.hasEntities(type test, popBox, predicate) looks at entities whose bounding box
        strictly intersects this frame's pop box; for a frame the predicate is "another hanging
        entity with the same direction" (item frames may overlap frames of their own type only
        when facing differently). Glow and plain frames are both hanging entities.
        """
        box = self.pop_box(frame)
        near = self.index.near_box(frame.dimension, box)
        if near is not None:  # only frames facing the same way can conflict: test just those
            x, y, z = frame.pos
            facing = frame.facing
            # a frame's box reaches at most 0.5 from its position, the pop box 0.375: farther
            # apart than 0.875 along any axis, they cannot intersect
            reach = _POP_REACH
            near = [
                e
                for e in near
                if e is not frame
                and isinstance(e, ItemFrame)
                and e.facing == facing
                and abs(e.pos[0] - x) < reach
                and abs(e.pos[1] - y) < reach
                and abs(e.pos[2] - z) < reach
            ]
            return not any(self._overlaps(frame.dimension, e, box) for e in near)
        for other in self.entities_in_box(frame.dimension, box):
            if other is frame or not isinstance(other, ItemFrame) or other.facing != frame.facing:
                continue
            ob = other.bounding_box()
            if (
                ob[0] < box[3]
                and ob[3] > box[0]
                and ob[1] < box[4]
                and ob[4] > box[1]
                and ob[2] < box[5]
                and ob[5] > box[2]
            ):
                return False
        return True

    def _overlaps(
        self, dimension: str, other: Entity, box: tuple[float, float, float, float, float, float]
    ) -> bool:
        """Whether `entities_in_box(dimension, box)` yields `other` and its bounding box
        strictly intersects `box`."""
        ob = other.bounding_box()
        if not (
            ob[0] < box[3]
            and ob[3] > box[0]
            and ob[1] < box[4]
            and ob[4] > box[1]
            and ob[2] < box[5]
            and ob[5] > box[2]
        ):
            return False
        return other in self._in_box_of([other], dimension, box, _section_range(box))

    def spawn_at_frame(self, frame: ItemFrame, item: nbt.Compound) -> Entity:
        """HangingEntity.spawnAtLocation: an item entity 0.15 out along the frame's facing."""
        dx, _, dz = DIRECTIONS[frame.facing][1]
        x, y, z = frame.pos
        pos = (x + dx * 0.15, y, z + dz * 0.15)
        dropped = item_entity(item, pos, frame.dimension, uuidlib.uuid4())
        self.add_entity(dropped)
        return dropped

    def drop_frame_item(
        self, frame: ItemFrame, caused_by: Player | None, with_frame: bool
    ) -> list[Entity]:
        """ItemFrame.dropItem(level, causedBy, withFrame): the item (and the frame) as items.

        Fixed frames drop nothing; the held item is cleared first; with entity_drops off nothing
        drops; a creative player gets nothing; otherwise the frame item (when asked) and the held
        item (when random < ItemDropChance; the sandbox drops when the chance is above 0).
        """
        if frame.fixed:
            return []
        held = frame.item
        frame.item = None
        if not self.rule("entity_drops", True):
            return []
        if caused_by is not None and caused_by.infinite_materials:
            return []
        drops: list[Entity] = []
        if with_frame:
            frame_item = nbt.Compound(
                {"id": nbt.String(frame.frame_item_id()), "count": nbt.Int(1)}
            )
            drops.append(self.spawn_at_frame(frame, frame_item))
        if held is not None and frame.item_drop_chance > 0.0:
            drops.append(self.spawn_at_frame(frame, nbt.Compound(held)))
        return drops

    def break_frame(self, frame: ItemFrame, caused_by: Player | None) -> list[Entity]:
        """ItemFrame.dropItem(level, causedBy): the break sound, then the frame and its item."""
        self.entity_sound(frame, frame.sound("break"))
        return self.drop_frame_item(frame, caused_by, True)

    def pop_frame(self, frame: ItemFrame) -> None:
        """BlockAttachedEntity.tick on a failed survives(): discard, then dropItem(level, null)."""
        self.remove_entity(frame)
        self.break_frame(frame, None)
        self.events.append(
            {"type": "frame_popped", "uuid": str(frame.uuid), "tick": self.tick_count}
        )

    # ------------------------------------------------------------------ ticking
    @property
    def paused(self) -> bool:
        """MinecraftServer.tickServer: empty for pause-when-empty-seconds, so nothing ticks."""
        limit = self.pause_when_empty_seconds * 20
        return limit > 0 and self.empty_ticks >= limit

    def tick(self, before_levels: Callable[[], None] | None = None) -> None:
        """One game tick: `before_levels` (the server's functions), entity loading, tickets,
        entity ticks; nothing while paused (MinecraftServer.tickServer returns early)."""
        if self.pause_when_empty_seconds > 0:
            self.empty_ticks = 0 if self.players else self.empty_ticks + 1
            if self.paused:
                return
        self.tick_count += 1
        if before_levels is not None:
            before_levels()
        self._promote_pending()
        if self.levels_dirty or any(t <= self.tick_count for t in self.delayed_unloads.values()):
            self.update_levels()
        # The entity pass: every entity in the level list, not in storage and not a player,
        # whose chunk is entity-ticking (level ≤ 31, entities loaded) ticks: `age` and a frame's
        # `checkInterval` count up, and a frame whose counter was at 100 checks survives()
        # (BlockAttachedEntity.tick; a Fixed frame does not) and pops when it fails. The index
        # counts the ticks per chunk and hands back only the frames due, in level order.
        for frame in self.index.start_pass():
            if not frame.removed and not frame.fixed and not self.frame_survives(frame):
                self.pop_frame(frame)
        for p in self.players.values():  # ServerPlayer.tick's attribute update
            p.update_attributes()
