"""The world's entity index gives what a full walk gives: the same entities, in the same order,
with the same cost counts, and the same tick counters as ticking every entity every tick.

Random programs of summons, kills, tag changes, moves, forceloads, players and ticks run
against a game; after each step the indexed answers are checked against brute force (the
level-list walk, the section walk of vanilla's EntitySectionStorage entity by entity, and a
per-tick model of `age` and `checkInterval`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from controller.sandbox.commands import Source
from controller.sandbox.entities import Entity, ItemFrame, Player, uuid_from_ints
from controller.sandbox.game import Game
from controller.sandbox.reader import StringReader
from controller.sandbox.selectors import parse_selector
from controller.sandbox.world import DIMENSIONS, World

TAGS = ("a", "b", "c")
WALKS = (
    "@e",
    "@e[tag=a]",
    "@e[tag=a,tag=b]",
    "@e[type=minecraft:marker]",
    "@e[type=minecraft:item_frame,tag=b]",
    "@e[type=minecraft:glow_item_frame]",
    "@e[tag=a,nbt={Fixed:1b}]",
    "@e[nbt={Invisible:0b},tag=c]",
    "@e[tag=!a,tag=b]",
    "@e[tag=a,limit=2]",
    "@e[type=minecraft:player]",
    "@n[tag=b]",
)
BOXES = (
    "@e[x=-60,y=58,z=-60,dx=120,dy=14,dz=120]",
    "@e[tag=b,x=-60,y=58,z=-60,dx=120,dy=14,dz=120]",
    "@e[type=minecraft:marker,tag=a,x=-60,y=58,z=-60,dx=120,dy=14,dz=120]",
    "@e[type=minecraft:item_frame,x=-20,y=63,z=-20,dx=40,dy=2,dz=40]",
    "@e[tag=a,x=-3,y=60,z=-3,dx=6,dy=8,dz=6]",
    "@e[x=1,y=64,z=1,dx=0,dy=0,dz=0]",
    "@e[tag=b,distance=..3]",
    "@e[type=minecraft:marker,distance=..0.1]",
    "@e[distance=..9]",
    "@e[tag=c,x=-60,y=58,z=-60,dx=120,dy=14,dz=120,limit=1]",
    "@e[tag=a,distance=..60,nbt={Fixed:1b}]",
    "@e[tag=c,tag=b,distance=..70]",
    "@e[tag=b,distance=..70,tag=!a]",
    "@e[type=minecraft:item_frame,tag=a,x=-60,y=58,z=-60,dx=120,dy=14,dz=120,distance=2..]",
)


def uid(n: int) -> str:
    return str(uuid_from_ints([1, 2, 3, n]))


coord = st.integers(-60, 59)  # chunks -4 to 3: some load, some do not
# chunks far enough apart that forcing one loads (level ≤ 33) only its own quarter of the area
CORNERS = ((-3, -3), (-3, 2), (2, -3), (2, 2))
height = st.integers(60, 69)
tags = st.lists(st.sampled_from(TAGS), max_size=3, unique=True)
Step = tuple[str, tuple[Any, ...]]

steps: st.SearchStrategy[Step] = st.one_of(
    st.tuples(
        st.just("frame"),
        st.tuples(coord, height, coord, tags, st.booleans(), st.booleans(), st.booleans()),
    ),
    st.tuples(st.just("marker"), st.tuples(coord, height, coord, tags)),
    st.tuples(st.just("kill"), st.tuples(st.integers(0, 30))),
    st.tuples(st.just("tag"), st.tuples(st.integers(0, 30), st.sampled_from(TAGS), st.booleans())),
    st.tuples(
        st.just("move"),
        st.tuples(st.integers(0, 30), st.floats(-64, 64), st.floats(58, 72), st.floats(-64, 64)),
    ),
    st.tuples(st.just("stone"), st.tuples(coord, height, coord, st.booleans())),
    st.tuples(st.just("forceload"), st.tuples(st.sampled_from(CORNERS), st.booleans())),
    st.tuples(st.just("player"), st.tuples(st.integers(0, 2), coord, coord)),
    st.tuples(st.just("due"), st.tuples(st.integers(0, 30), st.integers(96, 102))),
    st.tuples(st.just("tick"), st.tuples(st.integers(1, 3))),
    st.tuples(st.just("tick"), st.tuples(st.integers(1, 3))),
    st.tuples(st.just("forceload"), st.tuples(st.sampled_from(CORNERS), st.booleans())),
)


@dataclass
class Model:
    """Expected tick counters (age, checkInterval) per entity object."""

    counters: dict[int, tuple[int, int]] = field(default_factory=dict)
    summoned: list[int] = field(default_factory=list)
    seen: list[Entity] = field(default_factory=list)  # keeps the ids above unique

    def pick(self, n: int) -> int:
        """One of the entities summoned so far (perhaps killed since)."""
        return n % len(self.summoned) if self.summoned else n

    def of(self, e: Entity) -> tuple[int, int]:
        if id(e) not in self.counters:
            self.seen.append(e)
            self.counters[id(e)] = (0, 0)
        return self.counters[id(e)]


def entity(game: Game, n: int) -> Entity | None:
    """The n-th summoned entity still in the world, if any."""
    for e in game.world.entities.values():
        if str(e.uuid) == uid(n):
            return e
    return None


def run_step(game: Game, model: Model, step: Step) -> None:
    """Run one step; frames that come back from storage outside a tick (Paper loads a chunk's
    entities with the chunk) start their counter again."""
    stored = [e for e in game.world.entities.values() if e.stored]
    do_step(game, model, step)
    for e in stored:
        if isinstance(e, ItemFrame) and not e.stored and not e.removed and step[0] != "tick":
            model.counters[id(e)] = (model.of(e)[0], 0)


def do_step(game: Game, model: Model, step: Step) -> None:
    kind, args = step
    w = game.world
    if kind == "frame":
        x, y, z, names, fixed, has_map, glow = args
        n = len(model.summoned)
        model.summoned.append(n)
        kind_id = "glow_item_frame" if glow else "item_frame"
        item = ',Item:{id:"minecraft:filled_map",count:1}' if has_map else ""
        quoted = ",".join(f'"{t}"' for t in names)
        game.execute(
            f"summon minecraft:{kind_id} {x} {y} {z} {{Facing:1b,UUID:[I;1,2,3,{n}],"
            f"Fixed:{int(bool(fixed))}b,Tags:[{quoted}]{item}}}"
        )
    elif kind == "marker":
        x, y, z, names = args
        n = len(model.summoned)
        model.summoned.append(n)
        quoted = ",".join(f'"{t}"' for t in names)
        game.execute(f"summon minecraft:marker {x} {y} {z} {{UUID:[I;1,2,3,{n}],Tags:[{quoted}]}}")
    elif kind == "kill":
        game.execute(f"kill {uid(model.pick(args[0]))}")
    elif kind == "tag":
        n, name, add = args
        game.execute(f"tag {uid(model.pick(n))} {'add' if add else 'remove'} {name}")
    elif kind == "move":
        n, x, y, z = args
        target = uid(model.pick(n))
        game.execute(f"data merge entity {target} {{Pos:[{x:.3f}d,{y:.3f}d,{z:.3f}d]}}")
    elif kind == "stone":
        x, y, z, on = args
        game.execute(f"setblock {x} {y} {z} minecraft:{'stone' if on else 'air'}")
    elif kind == "forceload":
        (cx, cz), add = args
        game.execute(f"forceload {'add' if add else 'remove'} {cx * 16} {cz * 16}")
    elif kind == "player":
        p, x, z = args
        name = f"P{p}"
        if name in w.players and p == 2:
            game.leave(name)
        elif name in w.players:
            game.move(name, (float(x) + 0.5, 64.0, float(z) + 0.5))
        else:
            game.join(name, (float(x) + 0.5, 64.0, float(z) + 0.5))
    elif kind == "due":
        n, value = args
        e = entity(game, model.pick(n))
        if isinstance(e, ItemFrame):
            e.check_interval = int(value)
            age, _ = model.of(e)
            model.counters[id(e)] = (age, int(value))
    else:
        for _ in range(int(args[0])):
            tick(game, model)


def tick(game: Game, model: Model) -> None:
    """One game tick, checked against ticking every entity one by one."""
    w = game.world
    before = list(w.entities.values())
    was_stored = {id(e): e.stored for e in before}
    events = len(w.events)
    game.tick()
    ticking = {k for k, level in w.levels.items() if level <= 31 and k in w.entity_status}
    due: list[Entity] = []
    for e in before:
        age, interval = model.of(e)
        if isinstance(e, ItemFrame) and was_stored[id(e)] and not e.stored:
            interval = 0  # reloaded from storage: a new object
        if e.removed:  # popped by its own check
            assert isinstance(e, ItemFrame) and interval == 100 and not e.fixed
            due.append(e)
            continue
        key = (e.dimension, math.floor(e.pos[0]) >> 4, math.floor(e.pos[2]) >> 4)
        if isinstance(e, Player) or e.stored or key not in ticking:
            model.counters[id(e)] = (age, interval)
            continue
        if isinstance(e, ItemFrame) and interval == 100:
            due.append(e)
            interval = -1
            assert e.fixed or w.frame_survives(e)
        model.counters[id(e)] = (age + 1, interval + 1)
    popped = [str(ev["uuid"]) for ev in w.events[events:] if ev["type"] == "frame_popped"]
    assert popped == [str(e.uuid) for e in due if e.removed]  # in level order


def check_counters(game: Game, model: Model) -> None:
    for e in game.world.entities.values():
        age, interval = model.of(e)
        assert e.age == age
        if isinstance(e, ItemFrame):
            assert e.check_interval == interval


def check_index(world: World) -> None:
    """The index's sets hold exactly what a scan of the world finds."""
    index = world.index
    entities = list(world.entities.values())
    assert sorted(entities, key=lambda e: e.__dict__["_order"]) == entities
    assert set(index.stored) == {e for e in entities if e.stored}
    for t in TAGS:
        have = list(index.by_tag[t].ordered()) if t in index.by_tag else []
        assert have == [e for e in entities if t in e.tags]
    by_chunk = {
        e
        for e in entities
        if not (e.stored or isinstance(e, Player))
        and (e.dimension, math.floor(e.pos[0]) >> 4, math.floor(e.pos[2]) >> 4) in index.by_chunk
    }
    assert by_chunk == {e for e in entities if not (e.stored or isinstance(e, Player))}
    assert sum(len(m) for m in index.by_chunk.values()) == len(by_chunk)
    in_cells = 0
    for dim, rows in index.cells.items():
        for bx, row in rows.items():
            for bz, members in row.items():
                assert members
                for e in members:
                    column = (e.dimension, math.floor(e.pos[0]), math.floor(e.pos[2]))
                    assert column == (dim, bx, bz)
                in_cells += len(members)
    assert in_cells == sum(len(s) for s in world.sections.values())


def section_walk(
    world: World, dimension: str, box: tuple[float, float, float, float, float, float]
) -> Iterator[Entity]:
    """EntitySectionStorage.getEntities(aabb) entity by entity: every section around the box
    in key order, each list in order, every entity tested."""
    x0, y0, z0, x1, y1, z1 = box
    sx0, sx1 = math.floor(x0 - 2.0) >> 4, math.floor(x1 + 2.0) >> 4
    sy0, sy1 = math.floor(y0 - 2.0) >> 4, math.floor(y1 + 2.0) >> 4
    sz0, sz1 = math.floor(z0 - 2.0) >> 4, math.floor(z1 + 2.0) >> 4
    keys = [
        (sx, sy, sz)
        for d, sx, sy, sz in world.sections
        if d == dimension and sx0 <= sx <= sx1 and sy0 <= sy <= sy1 and sz0 <= sz <= sz1
    ]
    keys.sort(key=lambda k: (k[0], k[2] & 0x3FFFFF, k[1] & 0xFFFFF))
    for sx, sy, sz in keys:
        loaded = (dimension, sx, sz) in world.entity_status
        for e in world.sections[(dimension, sx, sy, sz)]:
            if e.removed or not (isinstance(e, Player) or (loaded and not e.stored)):
                continue
            b = e.bounding_box()
            if b[0] <= x1 and b[3] >= x0 and b[1] <= y1 and b[4] >= y0:
                if b[2] <= z1 and b[5] >= z0:
                    yield e


def brute_find(game: Game, text: str, source: Source) -> tuple[list[Entity], int, int]:
    """The selector's matches, examined count and serializations by a walk over every
    candidate."""
    sel = parse_selector(StringReader(text))
    game.cost = {"entities_examined": 0, "nbt_serializations": 0}
    base = source.pos
    pos = (
        base[0] if sel.x is None else sel.x,
        base[1] if sel.y is None else sel.y,
        base[2] if sel.z is None else sel.z,
    )
    rel = sel._aabb()
    box = None if rel is None else tuple(rel[i] + pos[i % 3] for i in range(6))
    limit = sel.max_results if sel.order == "arbitrary" else 2**31 - 1
    if not sel.includes_entities:
        walk: Iterator[Entity] = iter(game.world.players.values())
    elif box is not None:
        dims = [source.dimension] if sel.world_limited else list(game.world.blocks)
        walk = (e for d in dims for e in section_walk(game.world, d, box))
    else:
        walk = (
            e
            for e in game.world.visible_entities()
            if not sel.world_limited or e.dimension == source.dimension
        )
    found: list[Entity] = []
    for e in walk:
        if sel._matches(e, game, pos, box):
            found.append(e)
            if len(found) >= limit:
                break
    if sel.order == "nearest" and len(found) > 1:
        found.sort(key=lambda e: sum((e.pos[i] - pos[i]) ** 2 for i in range(3)))
    return found[: sel.max_results], game.cost["entities_examined"], game.cost["nbt_serializations"]


def indexed_find(game: Game, text: str, source: Source) -> tuple[list[Entity], int, int]:
    sel = parse_selector(StringReader(text))
    game.cost = {"entities_examined": 0, "nbt_serializations": 0}
    found = sel.find(source, game)
    return found, game.cost["entities_examined"], game.cost["nbt_serializations"]


def check_selectors(game: Game, at: tuple[float, float, float]) -> None:
    sources = [
        Source(None, (0.0, 64.0, 0.0), (0.0, 0.0), DIMENSIONS[0]),
        Source(None, at, (0.0, 0.0), DIMENSIONS[0]),
    ]
    for source in sources:
        for text in WALKS + BOXES:
            for _ in range(2):  # the second time from what the index remembered
                assert indexed_find(game, text, source) == brute_find(game, text, source), text


def new_game(flavour: str = "vanilla") -> Game:
    game = Game(flavour)
    game.world.view_distance = 1
    game.execute("forceload add 32 32")
    game.execute("forceload add -48 -48")
    return game


FRAME_AT_40 = ("frame", (40, 64, 40, ["a"], False, True, False))


@pytest.mark.parametrize("flavour", ["vanilla", "paper"])
@settings(max_examples=60, deadline=None)
@example(  # a frame's chunk unloads and loads again: it comes back with checkInterval 0
    program=[
        ("stone", (40, 63, 40, True)),
        FRAME_AT_40,
        ("tick", (3,)),
        ("forceload", ((2, 2), False)),
        ("tick", (1,)),
        ("forceload", ((2, 2), True)),
        ("tick", (2,)),
    ],
    at=(40.0, 64.0, 40.0),
)
@example(  # two unsupported frames and a supported one fall due in the same tick (queued in
    # the opposite order: they still check and pop in level order)
    program=[
        ("stone", (41, 63, 40, True)),
        ("frame", (42, 64, 40, ["b"], False, False, False)),
        ("frame", (41, 64, 40, ["b"], False, False, False)),
        FRAME_AT_40,
        ("due", (2, 99)),
        ("due", (1, 99)),
        ("due", (0, 99)),
        ("tick", (2,)),
    ],
    at=(41.0, 64.0, 40.0),
)
@example(  # an entity summoned where entities are not loaded shows once its chunk loads
    program=[
        ("marker", (-40, 64, -40, ["a", "b"])),
        ("forceload", ((-3, -3), True)),
        ("tick", (1,)),
        ("forceload", ((-3, -3), False)),
        ("tick", (1,)),
    ],
    at=(-40.0, 64.0, -40.0),
)
@given(
    st.lists(steps, min_size=1, max_size=60),
    st.tuples(st.floats(-60, 60), st.floats(58, 70), st.floats(-60, 60)),
)
def test_index_agrees_with_walking_every_entity(
    flavour: str, program: list[Step], at: tuple[float, float, float]
) -> None:
    game = new_game(flavour)
    model = Model()
    with_release = game.profile
    from controller.sandbox.profile import playing

    for step in program:
        run_step(game, model, step)
        with playing(with_release):
            check_index(game.world)
            check_counters(game, model)
            check_selectors(game, at)


RARE = (
    "@e[tag=r,distance=..70]",
    "@e[tag=r,tag=a,distance=..70]",
    "@e[tag=a,tag=r,x=20,y=50,z=20,dx=40,dy=30,dz=40]",
    '@e[tag=r,distance=..70,nbt={Tags:["a"]}]',
)
crowd = st.lists(st.tuples(st.integers(0, 15), st.integers(0, 15), st.booleans()), min_size=8)
changes = st.lists(
    st.tuples(st.sampled_from(["tag", "untag", "kill", "move", "forceload"]), st.integers(0, 60)),
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(crowd, changes)
def test_a_rare_tag_in_a_crowded_section_is_found_as_a_walk_finds_it(
    members: list[tuple[int, int, bool]], program: list[tuple[str, int]]
) -> None:
    """A section search for a tag fewer entities hold than the section has members takes
    them from the tag's set (`LevelIndex.tagged_in`): the same entities, in the section's
    order, at the same cost, through tags added out of order, kills, moves between sections
    and the chunk's entities unloading."""
    game = new_game()
    for n, (x, z, a) in enumerate(members):
        tags = '"crowd","a"' if a else '"crowd"'
        game.execute(
            f"summon minecraft:marker {32 + x}.5 64 {32 + z}.5 {{UUID:[I;1,2,3,{n}],Tags:[{tags}]}}"
        )
    game.tick()
    source = Source(None, (40.0, 64.0, 40.0), (0.0, 0.0), DIMENSIONS[0])
    forced = True
    for kind, k in program:
        target = uid(k % len(members))
        if kind == "tag":
            game.execute(f"tag {target} add r")
        elif kind == "untag":
            game.execute(f"tag {target} remove r")
        elif kind == "kill":
            game.execute(f"kill {target}")
        elif kind == "move":
            game.execute(
                f"data merge entity {target} {{Pos:[{32 + k % 16}.5d,64d,{48 + k % 5}.5d]}}"
            )
        else:
            forced = not forced
            game.execute(f"forceload {'add' if forced else 'remove'} 32 32")
            game.tick()
        for text in RARE:
            for _ in range(2):  # the second time from what the sections remember
                assert indexed_find(game, text, source) == brute_find(game, text, source), text
