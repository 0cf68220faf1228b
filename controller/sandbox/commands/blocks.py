"""setblock, fill, clone and forceload.

Sources: docs/server-behaviour.md, "Feedback: fill", "Feedback: setblock", "Feedback: clone",
"Feedback: forceload", "Loaded positions", "Forceload" and "Chunk ticket levels".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import product
from typing import TYPE_CHECKING

from ..arguments import (
    BlockInput,
    BlockPredicate,
    Coordinates,
    parse_block_pos,
    parse_block_predicate,
    parse_block_state,
    parse_column_pos,
    parse_identifier,
    state_string,
)
from ..reader import CommandSyntaxError, StringReader
from ..registry import registry, tr
from ..world import AIR, DIMENSIONS, World
from . import Ctx, Node, Source, arg, lit

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["get_dimension", "loaded_block_pos", "parse_dimension", "register"]

_WORLD_LIMIT = 30_000_000


def _fail(key: str, *args: object) -> CommandSyntaxError:
    return CommandSyntaxError(tr(key, *args))


def parse_dimension(reader: StringReader) -> str:
    """DimensionArgument: an id, looked up when the command runs."""
    return parse_identifier(reader)


def get_dimension(ident: str) -> str:
    """DimensionArgument.getDimension: `Unknown dimension '…'` for a level the server lacks."""
    if ident not in DIMENSIONS:
        raise _fail("argument.dimension.invalid", ident)
    return ident


def loaded_block_pos(
    game: Game, source: Source, coords: Coordinates, dimension: str | None = None
) -> tuple[int, int, int]:
    """BlockPosArgument.getLoadedBlockPos: loaded chunk, then build height ("Loaded positions").

    The level is the source's unless `dimension` names another (clone's `from`/`to` forms)."""
    level = source.dimension if dimension is None else dimension
    x, y, z = coords.block(source.pos, source.rot, source.anchor_pos)
    if not game.world.is_block_loaded(level, x, z):
        raise _fail("argument.pos.unloaded")
    lo, hi = game.world.height(level)
    if not (lo <= y <= hi) or abs(x) >= _WORLD_LIMIT or abs(z) >= _WORLD_LIMIT:
        raise _fail("argument.pos.outofworld")
    return x, y, z


def _setblock(game: Game, mode: str) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        pos = loaded_block_pos(game, source, ctx["pos"])
        block: BlockInput = ctx["block"]
        world = game.world
        if mode == "keep" and world.get_block(source.dimension, pos) != AIR:
            raise _fail("commands.setblock.failed")
        if mode == "destroy":
            world.set_block(source.dimension, pos, AIR)
        if not world.set_block(source.dimension, pos, block.state()):
            raise _fail("commands.setblock.failed")
        game.send(tr("commands.setblock.success", *pos))
        return 1

    return run


def _fill(game: Game, mode: str, filtered: bool) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        a = loaded_block_pos(game, source, ctx["from"])
        b = loaded_block_pos(game, source, ctx["to"])
        lo = tuple(min(a[i], b[i]) for i in range(3))
        hi = tuple(max(a[i], b[i]) for i in range(3))
        volume = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1)
        limit = int(game.world.rule("max_block_modifications", 32768))
        if volume > limit:
            raise _fail("commands.fill.toobig", limit, volume)
        block: BlockInput = ctx["block"]
        state = block.state()
        flt: BlockPredicate | None = ctx.get("filter") if filtered else None
        world = game.world
        dim = source.dimension
        count = 0
        if mode in ("replace", "keep", "strict"):  # every block alike: the loop below, inlined
            blocks = world.blocks.setdefault(dim, {})
            xs, ys, zs = (range(lo[i], hi[i] + 1) for i in range(3))
            for pos in product(xs, ys, zs):
                current = blocks.get(pos, AIR)
                if flt is not None and not flt.test(current):
                    continue
                if (mode == "keep" and current != AIR) or current == state:
                    continue
                if state == AIR:  # World.set_block
                    del blocks[pos]
                else:
                    blocks[pos] = state
                count += 1
            if count == 0:
                raise _fail("commands.fill.failed")
            game.send(tr("commands.fill.success", count))
            return count
        for x in range(lo[0], hi[0] + 1):
            for y in range(lo[1], hi[1] + 1):
                for z in range(lo[2], hi[2] + 1):
                    pos = (x, y, z)
                    edge = x in (lo[0], hi[0]) or y in (lo[1], hi[1]) or z in (lo[2], hi[2])
                    target = state
                    if mode == "outline" and not edge:
                        continue
                    if mode == "hollow" and not edge:
                        target = AIR
                    current = world.get_block(dim, pos)
                    if flt is not None and not flt.test(current):
                        continue
                    if mode == "keep" and current != AIR:
                        continue
                    if mode == "destroy":
                        world.set_block(dim, pos, AIR)
                        if current != AIR and target == current:
                            world.set_block(dim, pos, target)
                            count += 1
                            continue
                    if world.set_block(dim, pos, target):
                        count += 1
        if count == 0:
            raise _fail("commands.fill.failed")
        game.send(tr("commands.fill.success", count))
        return count

    return run


# ------------------------------------------------------------------------------ clone
# The blocks whose state isAir() (BlockBehaviour.Properties.air() in Blocks.java): what `masked`
# (CloneCommands.FILTER_AIR) leaves out. None of them has properties.
_AIR_BLOCKS = frozenset({"minecraft:air", "minecraft:cave_air", "minecraft:void_air"})


def _default_state(name: str) -> str:
    """A block's defaultBlockState() as the sandbox writes states."""
    bt = registry().block(name)
    assert bt is not None, name
    return state_string(bt.name, bt.default)


def _java_int(v: int) -> int:
    """The low 32 bits of `v`, signed: Java int arithmetic wraps."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def _has_chunks_at(
    world: World, dimension: str, pos0: tuple[int, int, int], pos1: tuple[int, int, int]
) -> bool:
    """LevelReader.hasChunksAt(pos0, pos1): the y range meets the world and every chunk from
    pos0's to pos1's is loaded. The corners are not sorted: along an axis where pos0 lies beyond
    pos1 the loop runs zero times and nothing is checked."""
    lo, hi = world.height(dimension)
    if pos1[1] < lo or pos0[1] > hi:
        return False
    for cx in range(pos0[0] >> 4, (pos1[0] >> 4) + 1):
        for cz in range(pos0[2] >> 4, (pos1[2] >> 4) + 1):
            if not world.is_block_loaded(dimension, cx << 4, cz << 4):
                return False
    return True


class UnloadedSourceBlock(RuntimeError):
    """clone read a source block in a chunk that is not loaded.

    BlockInWorld(level, pos, false).getState() is then null and CloneCommands.clone fails with a
    NullPointerException (in the filter, or at isSolidRender) before it changes anything, which
    vanilla reports as `command.failed`. Possible only where hasChunksAt skipped an axis
    (derived from the code, not seen live).
    """


def _clone(game: Game, mask: str, mode: str, strict: bool) -> Callable[[Ctx, Source], int]:
    """CloneCommands.clone (docs/server-behaviour.md, "Feedback: clone").

    `mask` is replace | masked | filtered, `mode` force | move | normal. `strict` only changes
    the update flags (no neighbour or shape updates, no onPlace), none of which the sandbox
    models, so it changes nothing here. There are no block entities and no scheduled block ticks
    in the sandbox, so there is nothing of them to copy.
    """

    def run(ctx: Ctx, source: Source) -> int:
        world = game.world
        # the positions resolve in the order clone() takes them: begin, end, destination
        from_dim = (
            get_dimension(ctx["sourceDimension"])
            if ctx.has("sourceDimension")
            else source.dimension
        )
        begin = loaded_block_pos(game, source, ctx["begin"], from_dim)
        end = loaded_block_pos(game, source, ctx["end"], from_dim)
        to_dim = (
            get_dimension(ctx["targetDimension"])
            if ctx.has("targetDimension")
            else source.dimension
        )
        dest = loaded_block_pos(game, source, ctx["destination"], to_dim)
        lo = (min(begin[0], end[0]), min(begin[1], end[1]), min(begin[2], end[2]))
        hi = (max(begin[0], end[0]), max(begin[1], end[1]), max(begin[2], end[2]))
        offset = (dest[0] - lo[0], dest[1] - lo[1], dest[2] - lo[2])
        dest_end = (hi[0] + offset[0], hi[1] + offset[1], hi[2] + offset[2])
        if (
            mode == "normal"
            and from_dim == to_dim
            and all(dest_end[i] >= lo[i] and dest[i] <= hi[i] for i in range(3))
        ):
            raise _fail("commands.clone.overlap")
        area = _java_int((hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1))
        limit = int(world.rule("max_block_modifications", 32768))
        if area > limit:
            raise _fail("commands.clone.toobig", limit, area)
        if not _has_chunks_at(world, from_dim, begin, end) or not _has_chunks_at(
            world, to_dim, dest, dest_end
        ):
            raise _fail("argument.pos.unloaded")
        flt: BlockPredicate | None = ctx["filter"] if mask == "filtered" else None
        picked: list[tuple[tuple[int, int, int], tuple[int, int, int], str]] = []
        source_blocks = world.blocks.setdefault(from_dim, {})
        loaded: dict[tuple[int, int], bool] = {}  # is_block_loaded, once per chunk
        for z in range(lo[2], hi[2] + 1):
            for y in range(lo[1], hi[1] + 1):
                for x in range(lo[0], hi[0] + 1):
                    chunk = (x >> 4, z >> 4)
                    ok = loaded.get(chunk)
                    if ok is None:
                        ok = loaded[chunk] = world.is_block_loaded(from_dim, x, z)
                    if not ok:
                        raise UnloadedSourceBlock(f"clone source {x} {y} {z} is not loaded")
                    state = source_blocks.get((x, y, z), AIR)  # World.get_block
                    if mask == "masked" and state in _AIR_BLOCKS:
                        continue
                    if flt is not None and not flt.test(state):
                        continue
                    dst = (x + offset[0], y + offset[1], z + offset[2])
                    picked.append(((x, y, z), dst, state))
        barrier = _default_state("barrier")
        if mode == "move":  # the source blocks go first: barrier, then air
            for src, _, _ in picked:
                world.set_block(from_dim, src, barrier)
            for src, _, _ in picked:
                world.set_block(from_dim, src, AIR)
        # Level.setBlock does nothing (false) outside the build height; the destination's
        # corner is checked, its far end is not
        min_y, max_y = world.height(to_dim)
        placed = [(dst, state) for _, dst, state in picked if min_y <= dst[1] <= max_y]
        for dst, _ in placed:  # every destination becomes a barrier first
            world.set_block(to_dim, dst, barrier)
        count = 0
        for dst, state in placed:
            # counted when setBlock changed the block: every block but a (default) barrier,
            # which finds its own state already there
            if world.set_block(to_dim, dst, state):
                count += 1
        if count == 0:
            raise _fail("commands.clone.failed")
        game.send(tr("commands.clone.success", count))
        return count

    return run


def _clone_masks(game: Game, strict: bool) -> list[Node]:
    """modeSuffix: `replace`, `masked` or `filtered <filter>`, each optionally followed by
    `force`, `move` or `normal` (wrapWithCloneMode)."""

    def modes(mask: str) -> list[Node]:
        return [lit(m, run=_clone(game, mask, m, strict)) for m in ("force", "move", "normal")]

    return [
        lit("replace", *modes("replace"), run=_clone(game, "replace", "normal", strict)),
        lit("masked", *modes("masked"), run=_clone(game, "masked", "normal", strict)),
        lit(
            "filtered",
            arg(
                "filter",
                parse_block_predicate,
                *modes("filtered"),
                run=_clone(game, "filtered", "normal", strict),
            ),
        ),
    ]


def _clone_destination(game: Game) -> Node:
    """destinationAndStrictSuffix: `<destination> [strict] [mask [mode]]` (`strict` from
    1.21.5: docs/server-behaviour.md, "Versions: commands")."""
    strict = lit("strict", *_clone_masks(game, True), run=_clone(game, "replace", "normal", True))
    return arg(
        "destination",
        parse_block_pos,
        *([strict] if game.profile.block_strict_mode else []),
        *_clone_masks(game, False),
        run=_clone(game, "replace", "normal", False),
    )


def _clone_region(game: Game) -> Node:
    """beginEndDestinationAndModeSuffix: `<begin> <end> [to <targetDimension>] <destination> …`."""
    return arg(
        "begin",
        parse_block_pos,
        arg(
            "end",
            parse_block_pos,
            _clone_destination(game),
            lit("to", arg("targetDimension", parse_dimension, _clone_destination(game))),
        ),
    )


def _chunk_str(cx: int, cz: int) -> str:
    return f"[{cx}, {cz}]"


def _column_of(source: Source, c: Coordinates) -> tuple[int, int]:
    x, _, z = c.resolve(source.pos, source.rot, source.anchor_pos)
    return math.floor(x), math.floor(z)


def _forceload_change(game: Game, add: bool, two: bool) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        x0, z0 = _column_of(source, ctx["from"])
        x1, z1 = _column_of(source, ctx["to"]) if two else (x0, z0)
        min_x, max_x, min_z, max_z = min(x0, x1), max(x0, x1), min(z0, z1), max(z0, z1)
        if (
            min_x < -_WORLD_LIMIT
            or min_z < -_WORLD_LIMIT
            or max_x >= _WORLD_LIMIT
            or max_z >= _WORLD_LIMIT
        ):
            raise _fail("argument.pos.outofworld")
        cx0, cx1, cz0, cz1 = min_x >> 4, max_x >> 4, min_z >> 4, max_z >> 4
        count = (cx1 - cx0 + 1) * (cz1 - cz0 + 1)
        if count > 256:
            raise _fail("commands.forceload.toobig", 256, count)
        forced = game.world.forced.setdefault(source.dimension, set())
        first: tuple[int, int] | None = None
        changed = 0
        for cx in range(cx0, cx1 + 1):
            for cz in range(cz0, cz1 + 1):
                if add and (cx, cz) not in forced:
                    forced.add((cx, cz))
                elif not add and (cx, cz) in forced:
                    forced.discard((cx, cz))
                else:
                    continue
                changed += 1
                if first is None:
                    first = (cx, cz)
        if changed == 0:
            raise _fail(
                "commands.forceload.added.failure" if add else "commands.forceload.removed.failure"
            )
        if add:
            game.world.update_levels()  # setChunkForced + getChunk: synchronous load ("Forceload")
        else:
            game.world.levels_dirty = True  # tickets are dropped at the next tick
        word = "added" if add else "removed"
        assert first is not None
        if changed == 1:
            game.send(tr(f"commands.forceload.{word}.single", _chunk_str(*first), source.dimension))
        else:
            game.send(
                tr(
                    f"commands.forceload.{word}.multiple",
                    changed,
                    source.dimension,
                    _chunk_str(cx0, cz0),
                    _chunk_str(cx1, cz1),
                )
            )
        return changed

    return run


def _chunk_sort_key(c: tuple[int, int]) -> int:
    """ChunkPos.toLong as a signed long: z in the high half, x in the low half."""
    v = (c[0] & 0xFFFFFFFF) | ((c[1] & 0xFFFFFFFF) << 32)
    return v - (1 << 64) if v & (1 << 63) else v


def _forceload_list(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        forced = game.world.forced.get(source.dimension, set())
        if not forced:
            game.send(tr("commands.forceload.added.none", source.dimension))
            return 0
        text = ", ".join(_chunk_str(*c) for c in sorted(forced, key=_chunk_sort_key))
        if len(forced) == 1:
            game.send(tr("commands.forceload.list.single", source.dimension, text))
        else:
            game.send(tr("commands.forceload.list.multiple", len(forced), source.dimension, text))
        return len(forced)

    return run


def _forceload_query(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        x, z = _column_of(source, ctx["pos"])
        c = (x >> 4, z >> 4)
        if c in game.world.forced.get(source.dimension, set()):
            game.send(tr("commands.forceload.query.success", _chunk_str(*c), source.dimension))
            return 1
        raise _fail("commands.forceload.query.failure", _chunk_str(*c), source.dimension)

    return run


def _forceload_remove_all(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        game.world.forced[source.dimension] = set()
        game.world.levels_dirty = True
        game.send(tr("commands.forceload.removed.all", source.dimension))
        return 0

    return run


def register(root: Node, game: Game) -> None:
    """Add setblock, fill, clone and forceload to the tree (the release's modes: `strict`, and
    fill's modes after `replace <filter>`, from 1.21.5; "Versions: commands")."""
    profile = game.profile
    strict = ("strict",) if profile.block_strict_mode else ()
    root.then(
        lit(
            "setblock",
            arg(
                "pos",
                parse_block_pos,
                arg(
                    "block",
                    parse_block_state,
                    lit("destroy", run=_setblock(game, "destroy")),
                    lit("keep", run=_setblock(game, "keep")),
                    lit("replace", run=_setblock(game, "replace")),
                    *[lit(m, run=_setblock(game, m)) for m in strict],
                    run=_setblock(game, "replace"),
                ),
            ),
        )
    )

    def modes(filtered: bool) -> list[Node]:
        if filtered and not profile.fill_mode_after_filter:
            return []
        return [
            lit(m, run=_fill(game, m, filtered)) for m in ("destroy", "hollow", "outline", *strict)
        ]

    root.then(
        lit(
            "fill",
            arg(
                "from",
                parse_block_pos,
                arg(
                    "to",
                    parse_block_pos,
                    arg(
                        "block",
                        parse_block_state,
                        lit(
                            "replace",
                            arg(
                                "filter",
                                parse_block_predicate,
                                *modes(True),
                                run=_fill(game, "replace", True),
                            ),
                            run=_fill(game, "replace", False),
                        ),
                        lit("keep", run=_fill(game, "keep", False)),
                        *modes(False),
                        run=_fill(game, "replace", False),
                    ),
                ),
            ),
        )
    )
    root.then(
        lit(
            "clone",
            _clone_region(game),
            lit("from", arg("sourceDimension", parse_dimension, _clone_region(game))),
        )
    )
    root.then(
        lit(
            "forceload",
            lit(
                "add",
                arg(
                    "from",
                    parse_column_pos,
                    arg("to", parse_column_pos, run=_forceload_change(game, True, True)),
                    run=_forceload_change(game, True, False),
                ),
            ),
            lit(
                "remove",
                lit("all", run=_forceload_remove_all(game)),
                arg(
                    "from",
                    parse_column_pos,
                    arg("to", parse_column_pos, run=_forceload_change(game, False, True)),
                    run=_forceload_change(game, False, False),
                ),
            ),
            lit(
                "query",
                arg("pos", parse_column_pos, run=_forceload_query(game)),
                run=_forceload_list(game),
            ),
        )
    )
