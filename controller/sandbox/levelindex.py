"""Bookkeeping that lets the sandbox world answer selectors and tick without walking every entity
(docs/sandbox-datapacks.md §12).

None of it changes what the world does; it only finds the same entities, in the same order,
faster. The cost counters still count what vanilla examines (docs/server-behaviour.md,
"Selector and NBT cost"): `World` and the selectors add those figures themselves.

- **Level order.** Every entity in the level list gets an order number when it joins the list
  (or rejoins it at the end: `World._reinsert`), so a set of entities can be put in level-list
  order by sorting.
- **Tags and types.** The entities of the level list by tag and by type, each set kept in level
  order, so `@e[tag=…]` and `@e[type=…]` start from the entities that can match.
- **Columns.** Entities by the block column (x, z) their position is in, so a small box finds
  its entities without looking at every entity of the 16³ sections around it. Each entity also
  remembers the section list it was put in and when, which gives vanilla's order within a
  section.
- **Chunks.** The entities that tick where they stand (in the level list, not in storage, not a
  player) by chunk; the count per chunk gives how many entities a full walk sees.
- **Tick counters.** Entities tick only in entity-ticking chunks (docs/server-behaviour.md,
  "Chunk ticket levels"), and a tick only counts up `age` and an item frame's `checkInterval`,
  except every 101st tick of a frame, when it checks `survives()` (docs/sandbox-datapacks.md
  §8). So instead of counting every
  entity up every tick, a clock counts per chunk the entity passes it ticked in, and an entity's
  counters are its value when it last changed chunk (or storage state) plus the passes its chunk
  ticked since. Frames wait in a heap per chunk for the pass at which their check falls due.

Entities call back (`changed`, `tag_added`, `tag_removed`) when a field the index depends on
changes while they are in a world.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .entities import Entity, ItemFrame, Marker, Player
from .registry import registry, strip_namespace

__all__ = ["LevelIndex", "section_order"]

_T = TypeVar("_T")

ChunkKey = tuple[str, int, int]
SectionKey = tuple[str, int, int, int]
CellKey = tuple[str, int, int]
Box = tuple[float, float, float, float, float, float]

# BlockAttachedEntity.tick: `checkInterval++ == 100` → checkInterval = 0 and survives(): a
# frame checks once every 101 ticks it ticks (docs/sandbox-datapacks.md §8)
_CHECK_AT = 100
# a box over more block columns than this is searched section by section instead
_MAX_CELLS = 1024


def section_order(key: SectionKey) -> tuple[int, int, int]:
    """SectionPos.asLong order: x, then z (22-bit unsigned), then y (20-bit unsigned)."""
    return (key[1], key[3] & 0x3FFFFF, key[2] & 0xFFFFF)


_stamps = itertools.count(1)


class _Ordered:
    """Entities in level order: a dict used as an ordered set, re-sorted when an insertion
    came out of order (a tag added to an entity that joined the level earlier). `stamp`
    changes with every change of its members or their order."""

    __slots__ = ("members", "in_order", "stamp")

    def __init__(self) -> None:
        self.members: dict[Entity, None] = {}
        self.in_order = True
        self.stamp = next(_stamps)

    def add(self, e: Entity) -> None:
        members = self.members
        if members and self.in_order and next(reversed(members)).__dict__["_order"] > _order(e):
            self.in_order = False
        members[e] = None
        self.stamp = next(_stamps)

    def discard(self, e: Entity) -> None:
        if self.members.pop(e, 0) is None:
            self.stamp = next(_stamps)

    def move_to_end(self, e: Entity) -> None:
        if e in self.members:
            del self.members[e]
            self.members[e] = None  # its new order number is the highest
            self.stamp = next(_stamps)

    def ordered(self) -> Iterable[Entity]:
        if not self.in_order:
            self.members = dict.fromkeys(sorted(self.members, key=_order))
            self.in_order = True
        return self.members


def _order(e: Entity) -> int:
    order: int = e.__dict__["_order"]
    return order


def _cell(e: Entity) -> CellKey:
    x, _, z = e.pos
    return (e.dimension, math.floor(x), math.floor(z))


def _chunk(e: Entity) -> ChunkKey:
    x, _, z = e.pos
    return (e.dimension, math.floor(x) >> 4, math.floor(z) >> 4)


class LevelIndex:
    """The world's entity indexes and lazy tick counters (see the module docstring)."""

    def __init__(self) -> None:
        self._next_order = 0
        self._next_seq = 0
        self.by_tag: dict[str, _Ordered] = {}
        self.by_type: dict[str, _Ordered] = {}
        # dimension → x → z → the entities standing in that block column
        self.cells: dict[str, dict[int, dict[int, dict[Entity, None]]]] = {}
        self._cell_count = 0  # columns holding entities
        # entities that tick where they stand, by chunk
        self.by_chunk: dict[ChunkKey, dict[Entity, None]] = {}
        # entities in storage (`stored`), for the reload of a chunk's entities
        self.stored: dict[Entity, None] = {}
        # how far a bounding box reaches from the entity's position, at most, over the types
        # seen: sideways, below, above
        self.reach = (0.0, 0.0, 0.0)
        self._type_reach: dict[str, tuple[float, float, float]] = {}
        # per section list: a stamp that changes with its members, their storage state, tags
        # and bounding boxes; and what was worked out from the list, with the stamp it had
        self._section_stamps: dict[SectionKey, int] = {}
        self._memo: dict[tuple[SectionKey, Any], tuple[int, Any]] = {}
        # the clock: entity passes run, and per chunk when it started ticking / passes before
        self.passes = 0
        self._since: dict[ChunkKey, int] = {}
        self._base: dict[ChunkKey, int] = {}
        self.ticking: frozenset[ChunkKey] = frozenset()
        # per chunk, frames by the chunk count at which their check falls due
        self._due: dict[ChunkKey, list[tuple[int, int, int, ItemFrame]]] = {}
        self._pushes = 0
        # changes with whatever decides which entities a walk sees and in what order (joins,
        # leaves, storage, chunks, entity loading); see `walk_stamp`
        self.seen_stamp = next(_stamps)
        # results of simple walks (type and tags only) by what they asked, with their stamp
        self.walks: dict[Any, tuple[tuple[int, ...], list[Entity], int]] = {}
        # entities that lost their level-list entry (`shadowed`): still in their sections, but
        # not in the tag and type sets
        self.shadows: dict[Entity, None] = {}

    # ------------------------------------------------------------------ the clock
    def count(self, key: ChunkKey) -> int:
        """Entity passes chunk `key` has ticked in."""
        since = self._since.get(key)
        base = self._base.get(key, 0)
        return base if since is None else base + self.passes - since

    def set_ticking(self, keys: Iterable[ChunkKey]) -> None:
        """The chunks whose entities tick from the next entity pass on."""
        now = frozenset(keys)
        if now == self.ticking:
            return
        for key in self.ticking - now:
            self._base[key] = self.count(key)
            del self._since[key]
        for key in now - self.ticking:
            self._since[key] = self.passes
        self.ticking = now

    def start_pass(self) -> list[ItemFrame]:
        """Count one entity pass; the frames whose check falls due in it, in level order
        (their counters already read as after the pass: `age` up, `checkInterval` 0)."""
        self.passes += 1
        due: list[ItemFrame] = []
        for key in [k for k in self._due if k in self.ticking]:
            heap = self._due[key]
            now = self.count(key)
            while heap and heap[0][0] <= now:
                _, _, version, frame = heapq.heappop(heap)
                if frame.__dict__["_tick_version"] == version:
                    due.append(frame)
            if not heap:
                del self._due[key]
        due.sort(key=_order)
        for frame in due:
            self.rebase(frame)
            frame.__dict__["_check_interval"] = 0
            self._schedule(frame)
        return due

    def elapsed(self, e: Entity) -> int:
        """Passes `e` has ticked in since its counters were last written."""
        d = e.__dict__
        key = d.get("_tick_key")
        return 0 if key is None else self.count(key) - d["_tick_a0"]

    def rebase(self, e: Entity) -> None:
        """Write the counters' current values into the entity (`age`, `checkInterval`)."""
        d = e.__dict__
        n = self.elapsed(e)
        if n:
            d["_age"] += n
            if "_check_interval" in d:
                d["_check_interval"] += n
        key = d.get("_tick_key")
        d["_tick_a0"] = 0 if key is None else self.count(key)

    def _schedule(self, e: Entity) -> None:
        """Queue a frame's next check from its current counter (none outside a ticking spot,
        and none for a counter past 100, which never comes back to 100)."""
        d = e.__dict__
        d["_tick_version"] += 1
        key = d.get("_tick_key")
        if key is None or not isinstance(e, ItemFrame):
            return
        interval = d["_check_interval"]
        if interval > _CHECK_AT:
            return
        self._pushes += 1
        target = d["_tick_a0"] + _CHECK_AT + 1 - interval
        entry = (target, self._pushes, d["_tick_version"], e)
        heapq.heappush(self._due.setdefault(key, []), entry)

    def counters_set(self, e: Entity) -> None:
        """After `checkInterval` was written: re-queue the frame's check."""
        d = e.__dict__
        key = d.get("_tick_key")
        d["_tick_a0"] = 0 if key is None else self.count(key)
        self._schedule(e)

    def _anchor(self, e: Entity) -> None:
        """Put `e` on the chunk it ticks in (none while removed, stored or a player)."""
        d = e.__dict__
        old = d.get("_tick_key")
        ticks = d["_walk"] and not (e.removed or e.stored or isinstance(e, Player))
        new = _chunk(e) if ticks else None
        if old == new:
            return
        self.seen_stamp = next(_stamps)
        self.rebase(e)
        if old is not None:
            members = self.by_chunk[old]
            del members[e]
            if not members:
                del self.by_chunk[old]
        d["_tick_key"] = new
        if new is not None:
            self.by_chunk.setdefault(new, {})[e] = None
        d["_tick_a0"] = 0 if new is None else self.count(new)
        self._schedule(e)

    # ------------------------------------------------------------------ membership
    def attach(self, e: Entity, order: int | None = None) -> None:
        """`e` joined the level list (with the order number of the entry it replaced, if
        any)."""
        d = e.__dict__
        if order is None:
            self._next_order += 1
            order = self._next_order
        d["_order"] = order
        d["_index"] = self
        self.seen_stamp = next(_stamps)
        d.setdefault("_tick_version", 0)
        d["_tick_key"] = None
        d["_tick_a0"] = 0
        d["_walk"] = True
        self._walkable(e)
        d["_cell"] = _cell(e)
        self._into_cell(e, d["_cell"])
        self._grow_reach(e)
        if e.stored:
            self.stored[e] = None
        self._anchor(e)

    def _walkable(self, e: Entity) -> None:
        tags = set(e.tags)
        e.__dict__["_indexed_tags"] = tags
        for t in tags:
            self.by_tag.setdefault(t, _Ordered()).add(e)
        self.by_type.setdefault(e.type_id, _Ordered()).add(e)

    def _unwalkable(self, e: Entity) -> None:
        for t in e.__dict__.pop("_indexed_tags", ()):
            self._drop_tag(e, t)
        kind = self.by_type.get(e.type_id)
        if kind is not None:
            kind.discard(e)

    def _drop_tag(self, e: Entity, t: str) -> None:
        members = self.by_tag.get(t)
        if members is not None:
            members.discard(e)
            if not members.members:
                del self.by_tag[t]

    def shadowed(self, e: Entity) -> None:
        """`e` lost its level-list entry to another entity with its UUID: it stays in its
        section and cell (boxes still find it) but no longer walks, ticks or counts."""
        e.__dict__["_walk"] = False
        self.seen_stamp = next(_stamps)
        self._unwalkable(e)
        self.stored.pop(e, None)
        self.shadows[e] = None
        self._anchor(e)

    def detach(self, e: Entity) -> None:
        """`e` left the world (removed)."""
        d = e.__dict__
        if d.get("_index") is not self:
            return
        self.seen_stamp = next(_stamps)
        self._anchor(e)  # removed: off its chunk, counters written
        self._unwalkable(e)
        self.stored.pop(e, None)
        self.shadows.pop(e, None)
        cell = d.pop("_cell", None)
        if cell is not None:
            self._out_of_cell(e, cell)
        del d["_index"]

    def reinserted(self, e: Entity) -> None:
        """`e` rejoined the level list at its end."""
        self._next_order += 1
        e.__dict__["_order"] = self._next_order
        self.seen_stamp = next(_stamps)
        for t in e.__dict__.get("_indexed_tags", ()):
            self.by_tag[t].move_to_end(e)
        kind = self.by_type.get(e.type_id)
        if kind is not None:
            kind.move_to_end(e)

    def sectioned(self, e: Entity, key: SectionKey) -> None:
        """`e` was appended to the list of section `key`."""
        self._next_seq += 1
        e.__dict__["_section"] = key
        e.__dict__["_section_seq"] = self._next_seq
        self.section_changed(key)

    def section_changed(self, key: SectionKey | None) -> None:
        """The list of section `key` changed, or one of its entities did."""
        if key is not None:
            self._section_stamps[key] = next(_stamps)

    def memo(self, key: SectionKey, what: Any, compute: Callable[[], _T]) -> _T:
        """`compute()`, remembered for section `key` under `what` until the section changes
        (`compute` may only read the section's list and its entities)."""
        stamp = self._section_stamps.get(key)
        if stamp is None:
            stamp = self._section_stamps[key] = next(_stamps)
        known = self._memo.get((key, what))
        if known is not None and known[0] == stamp:
            value: _T = known[1]
            return value
        value = compute()
        self._memo[(key, what)] = (stamp, value)
        return value

    def bounds(self, key: SectionKey, members: list[Entity]) -> Box:
        """Over the bounding boxes of `members`, the list of section `key`: the highest of
        their low corners and the lowest of their high corners, per axis (x0, y0, z0, x1, y1,
        z1): every one of them overlaps a box whose low corner lies below the latter and whose
        high corner lies above the former."""

        def compute() -> Box:
            boxes = [e.bounding_box() for e in members]
            if math.isnan(sum(sum(b) for b in boxes)):  # min/max would hide it: no answer
                return (math.nan,) * 6
            lows = [max(b[k] for b in boxes) for k in range(3)]
            highs = [min(b[k] for b in boxes) for k in range(3, 6)]
            return (lows[0], lows[1], lows[2], highs[0], highs[1], highs[2])

        return self.memo(key, "bounds", compute)

    # ------------------------------------------------------------------ entity callbacks
    def changed(self, e: Entity, name: str) -> None:
        """A field the index depends on was assigned."""
        self.section_changed(e.__dict__.get("_section"))
        if name == "removed":
            if e.removed:
                self.detach(e)
            return
        if name == "stored":
            if e.stored and e.__dict__["_walk"]:
                self.stored[e] = None
            else:
                self.stored.pop(e, None)
            self._anchor(e)
            return
        if name in ("facing", "item"):  # the bounding box may change
            return
        if name == "tags":
            if not e.__dict__["_walk"]:
                return
            old: set[str] = e.__dict__.get("_indexed_tags", set())
            new = set(e.tags)
            for t in old - new:
                self._drop_tag(e, t)
            for t in new - old:
                self.by_tag.setdefault(t, _Ordered()).add(e)
            e.__dict__["_indexed_tags"] = new
            return
        # pos or dimension
        d = e.__dict__
        cell = _cell(e)
        if cell != d["_cell"]:
            self._out_of_cell(e, d["_cell"])
            self._into_cell(e, cell)
            d["_cell"] = cell
        self._anchor(e)

    def _into_cell(self, e: Entity, cell: CellKey) -> None:
        dimension, bx, bz = cell
        column = self.cells.setdefault(dimension, {}).setdefault(bx, {})
        members = column.get(bz)
        if members is None:
            members = column[bz] = {}
            self._cell_count += 1
        members[e] = None

    def _out_of_cell(self, e: Entity, cell: CellKey) -> None:
        dimension, bx, bz = cell
        column = self.cells[dimension][bx]
        members = column[bz]
        members.pop(e, None)
        if not members:
            del column[bz]
            self._cell_count -= 1
            if not column:
                del self.cells[dimension][bx]

    def tag_added(self, e: Entity, t: str) -> None:
        """`t` was appended to `e.tags`."""
        self.section_changed(e.__dict__.get("_section"))
        if e.__dict__["_walk"]:
            e.__dict__["_indexed_tags"].add(t)
            self.by_tag.setdefault(t, _Ordered()).add(e)

    def tag_removed(self, e: Entity, t: str) -> None:
        """`t` was taken out of `e.tags`."""
        self.section_changed(e.__dict__.get("_section"))
        if e.__dict__["_walk"]:
            e.__dict__["_indexed_tags"].discard(t)
            self._drop_tag(e, t)

    # ------------------------------------------------------------------ queries
    def candidates(self, type_id: str | None, tags: Iterable[str]) -> Iterable[Entity] | None:
        """The level-list entities of that type with all those tags can only be among these
        (in level order); None when neither narrows anything."""
        sets: list[_Ordered] = []
        if type_id is not None:
            kind = self.by_type.get(type_id)
            if kind is None:
                return ()
            sets.append(kind)
        for t in tags:
            members = self.by_tag.get(t)
            if members is None:
                return ()
            sets.append(members)
        if not sets:
            return None
        return min(sets, key=lambda s: len(s.members)).ordered()

    def tagged_in(self, key: SectionKey, tag: str, members: list[Entity]) -> list[Entity] | None:
        """The entities of `members` (entities of section `key`, in its list's order) that
        hold `tag`, from the tag's set when fewer entities hold it than `members` counts; None
        when walking `members` is cheaper, or while an entity not in the tag sets (`shadows`)
        could be among them."""
        if self.shadows:
            return None
        holders = self.by_tag.get(tag)
        if holders is None:
            return []
        if len(holders.members) >= len(members):
            return None
        here = [e for e in holders.members if e.__dict__.get("_section") == key]
        if not here:
            return []
        present = {id(e) for e in members}
        found = [e for e in here if id(e) in present]
        found.sort(key=lambda e: e.__dict__["_section_seq"])  # a section's list: append order
        return found

    def rarest_first(self, tags: Iterable[str]) -> tuple[str, ...]:
        """The tags, those fewest level-list entities hold first (a test order for searches)."""

        def held(t: str) -> int:
            members = self.by_tag.get(t)
            return 0 if members is None else len(members.members)

        return tuple(sorted(tags, key=held))

    def loading_changed(self, keys: Iterable[ChunkKey]) -> None:
        """The entities of these chunks were loaded or unloaded: what walks see changes only
        where entities stand outside storage (players count wherever they are; entities in
        storage change `stored` when they come back)."""
        if any(key in self.by_chunk for key in keys):
            self.seen_stamp = next(_stamps)

    def walk_stamp(self, type_id: str | None, tags: Iterable[str]) -> tuple[int, ...]:
        """Changes whenever a walk for entities of that type with those tags could find
        others, or count others (the entities every walk sees included)."""
        parts = [self.seen_stamp]
        if type_id is not None:
            kind = self.by_type.get(type_id)
            parts.append(kind.stamp if kind is not None else 0)
        for t in tags:
            members = self.by_tag.get(t)
            parts.append(members.stamp if members is not None else 0)
        return tuple(parts)

    def walk_count(self, dimensions: Iterable[str], loaded: Any) -> int:
        """How many non-player level-list entities of those dimensions a full walk sees: not in
        storage, in a chunk whose entities are loaded (`loaded`: the chunks' entity status)."""
        dims = set(dimensions)
        return sum(
            len(members)
            for key, members in self.by_chunk.items()
            if key[0] in dims and key in loaded
        )

    def _grow_reach(self, e: Entity) -> None:
        reach = self._type_reach.get(e.type_id)
        if reach is None:
            if isinstance(e, ItemFrame):
                reach = (0.5, 0.5, 0.5)  # at most half a block each way (a frame with a map)
            elif isinstance(e, Marker):
                reach = (0.0, 0.0, 0.0)
            else:
                et = registry().entities.get(strip_namespace(e.type_id))
                reach = (et.width / 2, 0.0, et.height) if et is not None else (0.0, 0.0, 0.0)
            self._type_reach[e.type_id] = reach
        side, below, above = self.reach
        self.reach = (max(side, reach[0]), max(below, reach[1]), max(above, reach[2]))

    def near_box(self, dimension: str, box: Box) -> list[Entity] | None:
        """Every entity whose bounding box can touch `box` is among these (not in any order),
        with others of the same block columns; None when the box spans too many columns to
        look them up one by one."""
        side, below, above = self.reach
        x0, y0, z0, x1, y1, z1 = box
        bx0, bx1 = math.floor(x0 - side), math.floor(x1 + side)
        bz0, bz1 = math.floor(z0 - side), math.floor(z1 + side)
        n = (bx1 - bx0 + 1) * (bz1 - bz0 + 1)
        if n > _MAX_CELLS or n > 4 * self._cell_count:
            return None
        low, high = y0 - above, y1 + below
        found: list[Entity] = []
        rows = self.cells.get(dimension, {})
        for bx in range(bx0, bx1 + 1):
            row = rows.get(bx)
            if row is None:
                continue
            for bz in range(bz0, bz1 + 1):
                members = row.get(bz)
                if members:
                    for e in members:
                        if low <= e.pos[1] <= high:
                            found.append(e)
        return found
