"""Entity selectors (`@e[...]`, `@a`, `@p`, `@r`, `@s`, `@n` from 1.21, names, UUIDs) as in 26.1.

Parsing follows ``EntitySelectorParser`` / ``EntitySelectorOptions`` (messages and cursors);
matching follows ``EntitySelector.findEntities``: position-bounded selectors only examine the
entity sections around their box, others every loaded entity; predicates run in option order,
then the box and the distance. Every entity a search looks at is counted in the cost counter.

The sandbox itself skips entities that cannot match (another type, or lacking a tag the selector
asks for before any `nbt=` test, the only predicate with a cost of its own) with the world's
index (controller.sandbox.levelindex), and adds the entities it skipped to the counter, so the
count stays what vanilla examines.
"""

from __future__ import annotations

import functools
import random
import re
import uuid as uuidlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from controller.nbt.path import compare_nbt

from .arguments import MinMax, parse_compound, parse_double_range, parse_identifier, parse_int_range
from .entities import GAME_MODES, Entity, Player
from .profile import current_profile
from .reader import StringReader
from .registry import registry, strip_namespace, tr
from .world import DIMENSIONS

if TYPE_CHECKING:
    from .game import Game, Source
    from .levelindex import LevelIndex, SectionKey

__all__ = ["EntitySelector", "compare_nbt", "parse_selector"]

_MAX = 2**31 - 1
_UNQUOTED = re.compile(r"[0-9A-Za-z_.+\-]*")


def _has_all(held: list[str], wanted: tuple[str, ...] | list[str]) -> bool:
    """Whether an entity's tags hold every wanted tag (a plain loop: the hot test of a search)."""
    for t in wanted:
        if t not in held:
            return False
    return True


def _of_kind_in(
    index: LevelIndex,
    run: tuple[SectionKey, bool],
    group: list[Entity],
    type_id: str | None,
    tags: tuple[str, ...],
) -> list[Entity]:
    """The entities of a section's run (its remembered list of loaded entities, `group`) of
    the type (any when None) holding every tag, in order; remembered with the run. The list of
    the first tag alone is remembered too, so searches that share it walk the section once:
    put the rarest tag first."""
    key, loaded = run
    if not tags:
        if type_id is None:
            return group

        def of_type() -> list[Entity]:
            return [e for e in group if e.type_id == type_id]

        return index.memo(key, ("matching", loaded, type_id, ()), of_type)
    first = tags[0]

    def holding() -> list[Entity]:
        found = index.tagged_in(key, first, group)
        return [e for e in group if first in e.tags] if found is None else found

    base: list[Entity] = index.memo(key, ("matching", loaded, None, (first,)), holding)
    if len(tags) == 1 and type_id is None:
        return base

    def narrowed() -> list[Entity]:
        found = base
        for t in tags[1:]:
            found = [e for e in found if t in e.tags]
        return [e for e in found if e.type_id == type_id] if type_id is not None else found

    return index.memo(key, ("matching", loaded, type_id, tuple(sorted(tags))), narrowed)


@dataclass
class EntitySelector:
    """A parsed selector."""

    max_results: int = 1
    includes_entities: bool = True
    world_limited: bool = False
    predicates: list[Callable[[Entity, Game], bool]] = field(default_factory=list)
    distance: MinMax = field(default_factory=lambda: MinMax(None, None))
    x: float | None = None
    y: float | None = None
    z: float | None = None
    dx: float | None = None
    dy: float | None = None
    dz: float | None = None
    order: str = "arbitrary"
    current_entity: bool = False
    player_name: str | None = None
    entity_uuid: uuidlib.UUID | None = None
    type_id: str | None = None
    uses_selector: bool = False
    type_limited: bool = False
    type_inverse: bool = False
    limited: bool = False
    sorted: bool = False
    name_eq: bool = False
    name_neq: bool = False
    gamemode_eq: bool = False
    gamemode_neq: bool = False
    # tags every match has, asked for before any `nbt=` test: entities without them fail
    # before anything with a cost of its own runs, so the search may skip them
    required_tags: list[str] = field(default_factory=list)
    has_nbt: bool = False
    # every predicate is one the index answers (alive, its type, a tag it must have): an
    # entity of the type with the tags passes them all
    simple: bool = True

    @functools.cached_property
    def _plain_self(self) -> bool:
        """No box and no distance: where the search stands does not matter (asked once the
        selector is parsed)."""
        return self._aabb() is None and self.distance.is_any

    @property
    def is_self(self) -> bool:
        """`@s`."""
        return self.current_entity

    def _aabb(self) -> tuple[float, float, float, float, float, float] | None:
        if self.dx is None and self.dy is None and self.dz is None:
            if self.distance.high is not None:
                d = self.distance.high
                return (-d, -d, -d, d + 1.0, d + 1.0, d + 1.0)
            return None
        dx, dy, dz = self.dx or 0.0, self.dy or 0.0, self.dz or 0.0
        return (
            min(dx, 0.0),
            min(dy, 0.0),
            min(dz, 0.0),
            max(dx, 0.0) + 1.0,
            max(dy, 0.0) + 1.0,
            max(dz, 0.0) + 1.0,
        )

    def _matches(
        self,
        e: Entity,
        game: Game,
        pos: tuple[float, float, float],
        box: tuple[float, float, float, float, float, float] | None,
    ) -> bool:
        game.cost["entities_examined"] += 1
        return self._test(e, game, pos, box)

    def _test(
        self,
        e: Entity,
        game: Game,
        pos: tuple[float, float, float],
        box: tuple[float, float, float, float, float, float] | None,
    ) -> bool:
        """The selector's predicates, then its box and distance (uncounted)."""
        if self.type_id is not None and e.type_id != self.type_id:
            return False
        for p in self.predicates:
            if not p(e, game):
                return False
        if box is not None:
            b = e.bounding_box()
            if not (b[0] < box[3] and b[3] > box[0] and b[1] < box[4] and b[4] > box[1]):
                return False
            if not (b[2] < box[5] and b[5] > box[2]):
                return False
        if not self.distance.is_any:
            d2 = sum((e.pos[i] - pos[i]) ** 2 for i in range(3))
            if not self.distance.matches_sqr(d2):
                return False
        return True

    def find(self, source: Source, game: Game) -> list[Entity]:
        """EntitySelector.findEntities (players-only selectors use the player list)."""
        world = game.world
        if self.player_name is not None:
            game.cost["entities_examined"] += 1
            p = world.players.get(self.player_name)
            return [p] if p is not None else []
        if self.entity_uuid is not None:
            game.cost["entities_examined"] += 1
            e = world.get_entity(self.entity_uuid)
            if e is None:
                return []
            if not self.includes_entities and not isinstance(e, Player):
                return []
            return [e]
        if self.current_entity and self._plain_self:  # `@s` with no position options
            e = source.entity
            if e is None or e.removed:
                return []
            if not self.includes_entities and not isinstance(e, Player):
                return []
            return [e] if self._matches(e, game, source.pos, None) else []
        base = source.pos
        pos = (
            self.x if self.x is not None else base[0],
            self.y if self.y is not None else base[1],
            self.z if self.z is not None else base[2],
        )
        rel = self._aabb()
        box = None
        if rel is not None:
            box = (
                rel[0] + pos[0],
                rel[1] + pos[1],
                rel[2] + pos[2],
                rel[3] + pos[0],
                rel[4] + pos[1],
                rel[5] + pos[2],
            )
        if self.current_entity:
            e = source.entity
            if e is None or e.removed:
                return []
            if not self.includes_entities and not isinstance(e, Player):
                return []
            return [e] if self._matches(e, game, pos, box) else []
        limit = self.max_results if self.order == "arbitrary" else _MAX
        result: list[Entity] = []
        if not self.includes_entities:
            for p in world.players.values():
                if self.world_limited and p.dimension != source.dimension:
                    continue
                if self._matches(p, game, pos, box):
                    result.append(p)
                    if len(result) >= limit:
                        break
        elif box is not None:
            dims = [source.dimension] if self.world_limited else list(world.blocks)
            self._find_in_box(game, dims, pos, box, limit, result)
        elif limit < _MAX or not self._walk_indexed(game, source, pos, result):
            candidates = (
                e
                for e in world.visible_entities()
                if not self.world_limited or e.dimension == source.dimension
            )
            for e in candidates:
                if self._matches(e, game, pos, box):
                    result.append(e)
                    if len(result) >= limit:
                        break
        if len(result) > 1:
            if self.order in ("nearest", "furthest"):
                result.sort(
                    key=lambda e: sum((e.pos[i] - pos[i]) ** 2 for i in range(3)),
                    reverse=self.order == "furthest",
                )
            elif self.order == "random":
                random.shuffle(result)
        return result[: self.max_results]

    def _find_in_box(
        self,
        game: Game,
        dims: list[str],
        pos: tuple[float, float, float],
        box: tuple[float, float, float, float, float, float],
        limit: int,
        result: list[Entity],
    ) -> None:
        """The box search: every entity the sections around the box hold whose bounding box
        touches it is examined (and counted); those of another type, or without a required
        tag, fail at once. Of a whole section whose entities all overlap the box, a search
        without a limit counts every entity and tests only those of its type and tags (the
        index remembers them per section); a simple selector takes them at once."""
        simple = self.simple and self.distance.is_any
        type_id, tags = self.type_id, tuple(self.required_tags)
        narrowed = simple or type_id is not None or bool(tags)
        index = game.world.index
        rarest = index.rarest_first(tags)
        for d in dims:
            for group, run, overlap in game.world.entities_in_box_by_section(d, box):
                if not (overlap and narrowed and limit == _MAX) or run is None:
                    self._examine(game, group, pos, box, limit, result)
                    if len(result) >= limit:
                        return
                    continue
                game.cost["entities_examined"] += len(group)
                found = _of_kind_in(index, run, group, type_id, rarest)
                if simple:
                    result.extend(found)
                else:  # the other predicates in order (an `nbt=` test counts), then the distance
                    result.extend(e for e in found if self._test(e, game, pos, box))

    def _examine(
        self,
        game: Game,
        group: list[Entity],
        pos: tuple[float, float, float],
        box: tuple[float, float, float, float, float, float],
        limit: int,
        result: list[Entity],
    ) -> None:
        """Examine entities of the box search one at a time (each counted), up to the limit."""
        cost = game.cost
        type_id, tags = self.type_id, self.required_tags
        simple = self.simple and self.distance.is_any
        x0, y0, z0, x1, y1, z1 = box
        for e in group:
            cost["entities_examined"] += 1
            if type_id is not None and e.type_id != type_id:
                continue
            if tags and not _has_all(e.tags, tags):
                continue
            if simple:  # the predicates hold: only the box is left to test
                b = e.bounding_box()
                if not (b[0] < x1 and b[3] > x0 and b[1] < y1 and b[4] > y0):
                    continue
                if not (b[2] < z1 and b[5] > z0):
                    continue
            elif not self._test(e, game, pos, box):
                continue
            result.append(e)
            if len(result) >= limit:
                return

    def _walk_indexed(
        self,
        game: Game,
        source: Source,
        pos: tuple[float, float, float],
        result: list[Entity],
    ) -> bool:
        """The walk over every loaded entity, for a search without a limit that the world's
        index narrows (by type or required tags): the candidates are tested in level order,
        overworld first, and every loaded entity of the walk's dimensions is counted as
        examined. False when the index does not narrow the search."""
        world = game.world
        index = world.index
        candidates = index.candidates(self.type_id, self.required_tags)
        if candidates is None:
            return False
        dims = [source.dimension] if self.world_limited else list(DIMENSIONS)
        dims = [d for d in dims if d in DIMENSIONS]
        simple = self.simple and self.distance.is_any
        asked = (self.type_id, tuple(self.required_tags), tuple(dims))
        stamp = index.walk_stamp(self.type_id, self.required_tags)
        if simple:  # the same walk again with nothing it depends on changed: the same answer
            known = index.walks.get(asked)
            if known is not None and known[0] == stamp:
                game.cost["entities_examined"] += known[2]
                result.extend(known[1])
                return True
        status = world.entity_status
        players = sum(
            1
            for p in world.players.values()
            if p.dimension in dims and not p.removed and world.entities.get(p.uuid) is p
        )
        examined = players + index.walk_count(dims, status)
        game.cost["entities_examined"] += examined
        later: dict[str, list[Entity]] = {}
        overworld = DIMENSIONS[0]
        if simple:  # the type and tags decide
            type_id, tags = self.type_id, self.required_tags

            def test(e: Entity, game: Game, pos: tuple[float, float, float], box: None) -> bool:
                return (type_id is None or e.type_id == type_id) and _has_all(e.tags, tags)

        else:
            test = self._test
        for e in candidates:
            key = e.__dict__["_tick_key"]
            if key is None:
                if not isinstance(e, Player) or e.removed:
                    continue
            elif key not in status:
                continue
            if e.dimension == overworld:
                if overworld in dims and test(e, game, pos, None):
                    result.append(e)
            elif e.dimension in dims:
                later.setdefault(e.dimension, []).append(e)
        for d in DIMENSIONS[1:]:
            for e in later.get(d, ()):
                if test(e, game, pos, None):
                    result.append(e)
        if simple:
            index.walks[asked] = (stamp, list(result), examined)
        return True


def _invert(reader: StringReader) -> bool:
    reader.skip_whitespace()
    if reader.can_read() and reader.peek() == "!":
        reader.skip()
        reader.skip_whitespace()
        return True
    return False


def _option(sel: EntitySelector, reader: StringReader, key: str, start: int) -> None:
    """EntitySelectorOptions: applicability check and value parsing for one option."""
    applicable = {
        "name": not sel.name_eq,
        "distance": sel.distance.is_any,
        "x": sel.x is None,
        "y": sel.y is None,
        "z": sel.z is None,
        "dx": sel.dx is None,
        "dy": sel.dy is None,
        "dz": sel.dz is None,
        "limit": not sel.current_entity and not sel.limited,
        "sort": not sel.current_entity and not sel.sorted,
        "type": not sel.type_limited,
        "tag": True,
        "nbt": True,
        "scores": True,
        "team": True,
        "gamemode": not sel.gamemode_eq,
    }
    if key not in applicable:
        reader.cursor = start
        raise reader.error(tr("argument.entity.options.unknown", key))
    if not applicable[key]:
        reader.cursor = start
        raise reader.error(tr("argument.entity.options.inapplicable", key))
    reader.skip_whitespace()
    if not reader.can_read() or reader.peek() != "=":
        reader.cursor = start
        raise reader.error(tr("argument.entity.options.valueless", key))
    reader.skip()
    reader.skip_whitespace()
    vstart = reader.cursor
    if key == "name":
        inv = _invert(reader)
        name = reader.read_string()
        if sel.name_neq and not inv:
            reader.cursor = vstart
            raise reader.error(tr("argument.entity.options.inapplicable", key))
        if inv:
            sel.name_neq = True
        else:
            sel.name_eq = True
        sel.simple = False
        sel.predicates.append(lambda e, g: (e.plain_name == name) != inv)
    elif key == "distance":
        rng = parse_double_range(reader)
        if (rng.low is not None and rng.low < 0) or (rng.high is not None and rng.high < 0):
            reader.cursor = vstart
            raise reader.error(tr("argument.entity.options.distance.negative"))
        sel.distance = rng
        sel.world_limited = True
    elif key in ("x", "y", "z", "dx", "dy", "dz"):
        setattr(sel, key, reader.read_float())
        sel.world_limited = True
    elif key == "limit":
        n = reader.read_int()
        if n < 1:
            reader.cursor = vstart
            raise reader.error(tr("argument.entity.options.limit.toosmall"))
        sel.max_results = n
        sel.limited = True
    elif key == "sort":
        word = reader.read_unquoted_string()
        if word not in ("nearest", "furthest", "random", "arbitrary"):
            reader.cursor = vstart
            raise reader.error(tr("argument.entity.options.sort.irreversible", word))
        sel.order = word
        sel.sorted = True
    elif key == "type":
        inv = _invert(reader)
        if sel.type_inverse and not inv:
            reader.cursor = vstart
            raise reader.error(tr("argument.entity.options.inapplicable", key))
        if inv:
            sel.type_inverse = True
        if reader.can_read() and reader.peek() == "#":
            reader.skip()
            ident = parse_identifier(reader)
            sel.simple = False
            sel.predicates.append(lambda e, g: inv)  # no entity tag data (unverified)
            return
        ident = parse_identifier(reader)
        short = strip_namespace(ident)
        if not ident.startswith("minecraft:") or short not in registry().entities:
            reader.cursor = vstart
            raise reader.error(tr("argument.entity.options.type.invalid", ident))
        if short == "player" and not inv:
            sel.includes_entities = False
        sel.predicates.append(lambda e, g: (e.type_id == ident) != inv)
        if not inv:
            sel.type_limited = True
            sel.type_id = ident
        else:
            sel.simple = False
    elif key == "tag":
        inv = _invert(reader)
        tag = reader.read_unquoted_string()
        if tag == "":
            sel.predicates.append(lambda e, g: (len(e.tags) == 0) != inv)
            sel.simple = False
        else:
            sel.predicates.append(lambda e, g: (tag in e.tags) != inv)
            if not inv and not sel.has_nbt:
                sel.required_tags.append(tag)
            else:
                sel.simple = False
    elif key == "team":
        inv = _invert(reader)
        team = reader.read_unquoted_string()
        sel.simple = False
        sel.predicates.append(lambda e, g: (team == "") != inv)  # no teams in the sandbox
    elif key == "gamemode":
        # players only; `gamemode=!a,gamemode=!b` may repeat, a plain one only once and not
        # after an inverted one
        inv = _invert(reader)
        if sel.gamemode_neq and not inv:
            reader.cursor = vstart
            raise reader.error(tr("argument.entity.options.inapplicable", key))
        mode = reader.read_unquoted_string()
        if mode not in GAME_MODES:
            reader.cursor = vstart
            raise reader.error(tr("argument.entity.options.mode.invalid", mode))
        sel.includes_entities = False
        sel.simple = False
        sel.predicates.append(lambda e, g: isinstance(e, Player) and (e.game_mode == mode) != inv)
        if inv:
            sel.gamemode_neq = True
        else:
            sel.gamemode_eq = True
    elif key == "nbt":
        inv = _invert(reader)
        text_start = reader.cursor
        expected = parse_compound(reader)
        text = reader.string[text_start : reader.cursor]

        def nbt_pred(e: Entity, g: Game) -> bool:
            # the serialization counts every time; the comparison of this same SNBT with the
            # same (cached, unchanged) compound is remembered on the entity
            data = g.serialize(e)
            tests = e.__dict__.setdefault("_nbt_tests", {})
            seen = tests.get(text)
            if seen is not None and seen[0] is data:
                matched: bool = seen[1]
            else:
                matched = compare_nbt(expected, data)
                tests[text] = (data, matched)
            return matched != inv

        sel.predicates.append(nbt_pred)
        sel.has_nbt = True
        sel.simple = False
    elif key == "scores":
        _parse_scores(sel, reader)


def _parse_scores(sel: EntitySelector, reader: StringReader) -> None:
    reader.expect("{")
    reader.skip_whitespace()
    wanted: dict[str, MinMax] = {}
    while reader.can_read() and reader.peek() != "}":
        reader.skip_whitespace()
        obj = reader.read_unquoted_string()
        reader.skip_whitespace()
        reader.expect("=")
        reader.skip_whitespace()
        wanted[obj] = parse_int_range(reader)
        reader.skip_whitespace()
        if reader.can_read() and reader.peek() == ",":
            reader.skip()
    reader.expect("}")

    def pred(e: Entity, g: Game) -> bool:
        held = g.world.scores.get(e.score_name, {})
        for obj, rng in wanted.items():
            if obj not in g.world.objectives or obj not in held or not rng.matches(held[obj]):
                return False
        return True

    sel.predicates.append(pred)
    sel.simple = False


def parse_selector(reader: StringReader) -> EntitySelector:
    """EntitySelectorParser.parse."""
    sel = EntitySelector()
    if reader.can_read() and reader.peek() == "@":
        reader.skip()
        sel.uses_selector = True
        if not reader.can_read():
            raise reader.error(tr("argument.entity.selector.missing"))
        start = reader.cursor
        kind = reader.read()
        alive = False
        if kind == "a":
            sel.max_results, sel.includes_entities = _MAX, False
            sel.type_id, sel.type_limited = "minecraft:player", True
        elif kind == "e":
            sel.max_results, alive = _MAX, True
        elif kind == "n" and current_profile().nearest_selector:  # from 1.21
            sel.max_results, sel.order, alive = 1, "nearest", True
        elif kind == "p":
            sel.max_results, sel.includes_entities, sel.order = 1, False, "nearest"
            sel.type_id, sel.type_limited = "minecraft:player", True
        elif kind == "r":
            sel.max_results, sel.includes_entities, sel.order = 1, False, "random"
            sel.type_id, sel.type_limited = "minecraft:player", True
        elif kind == "s":
            sel.max_results, sel.current_entity = 1, True
        else:
            reader.cursor = start
            raise reader.error(tr("argument.entity.selector.unknown", "@" + kind))
        if alive:
            sel.predicates.append(lambda e, g: not e.removed)
        if reader.can_read() and reader.peek() == "[":
            reader.skip()
            reader.skip_whitespace()
            while reader.can_read() and reader.peek() != "]":
                reader.skip_whitespace()
                ostart = reader.cursor
                key = reader.read_string()
                _option(sel, reader, key, ostart)
                reader.skip_whitespace()
                if not reader.can_read():
                    continue
                if reader.peek() == ",":
                    reader.skip()
                    continue
                if reader.peek() != "]":
                    raise reader.error(tr("argument.entity.options.unterminated"))
                break
            if not reader.can_read():
                raise reader.error(tr("argument.entity.options.unterminated"))
            reader.skip()
        return sel
    start = reader.cursor
    if reader.can_read() and reader.peek() in "\"'":
        text = reader.read_string()
    else:  # Brigadier readUnquotedString, with a regex for speed
        m = _UNQUOTED.match(reader.string, start)
        text = m.group(0) if m else ""
        reader.cursor = start + len(text)
    try:
        if len(text) != 36:
            raise ValueError(text)
        sel.entity_uuid = uuidlib.UUID(text)
        sel.includes_entities = True
    except ValueError:
        if not text or len(text) > 16:
            reader.cursor = start
            raise reader.error(tr("argument.entity.invalid")) from None
        sel.includes_entities = False
        sel.player_name = text
    sel.max_results = 1
    return sel
