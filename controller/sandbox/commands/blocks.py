"""setblock, fill and forceload.

Sources: docs/server-behaviour.md, "Feedback: fill", "Feedback: setblock", "Feedback: forceload",
"Loaded positions", "Forceload" and "Chunk ticket levels".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..arguments import (
    BlockInput,
    BlockPredicate,
    Coordinates,
    parse_block_pos,
    parse_block_predicate,
    parse_block_state,
    parse_column_pos,
)
from ..reader import CommandSyntaxError
from ..registry import tr
from ..world import AIR
from . import Ctx, Node, Source, arg, lit

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["loaded_block_pos", "register"]

_WORLD_LIMIT = 30_000_000


def _fail(key: str, *args: object) -> CommandSyntaxError:
    return CommandSyntaxError(tr(key, *args))


def loaded_block_pos(game: Game, source: Source, coords: Coordinates) -> tuple[int, int, int]:
    """BlockPosArgument.getLoadedBlockPos: loaded chunk, then build height ("Loaded positions")."""
    x, y, z = coords.block(source.pos, source.rot, source.anchor_pos)
    if not game.world.is_block_loaded(source.dimension, x, z):
        raise _fail("argument.pos.unloaded")
    lo, hi = game.world.height(source.dimension)
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
        limit = int(game.world.gamerules["max_block_modifications"])
        if volume > limit:
            raise _fail("commands.fill.toobig", limit, volume)
        block: BlockInput = ctx["block"]
        state = block.state()
        flt: BlockPredicate | None = ctx.get("filter") if filtered else None
        world = game.world
        dim = source.dimension
        count = 0
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
    """Add setblock, fill and forceload to the tree."""
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
                    lit("strict", run=_setblock(game, "strict")),
                    run=_setblock(game, "replace"),
                ),
            ),
        )
    )

    def modes(filtered: bool) -> list[Node]:
        return [
            lit(m, run=_fill(game, m, filtered)) for m in ("destroy", "hollow", "outline", "strict")
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
