"""execute: as, at, positioned, anchored, in, align, rotated, if/unless, store, run.

Feedback: docs/server-behaviour.md, "Feedback: execute".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import product, repeat
from typing import TYPE_CHECKING, Any

from nbtlib import tag as nbt

from ..arguments import (
    BlockPredicate,
    Coordinates,
    parse_block_pos,
    parse_block_predicate,
    parse_int_range,
    parse_vec3,
)
from ..entities import ItemFrame, Player
from ..itempredicate import ItemPredicate, parse_item_predicate
from ..lootpredicate import EntityProperties, parse_loot_predicate
from ..packmanager import InstantiationError
from ..profile import current_profile
from ..reader import CommandSyntaxError, StringReader
from ..registry import tr
from ..slots import MAINHAND
from ..world import AIR
from . import Ctx, Frame, Node, Source, arg, lit
from .blocks import get_dimension, loaded_block_pos, parse_dimension
from .data import accessor_for, count_matching, data_sources, parse_path
from .entity import entities_parser, get_entities, get_optional_entities
from .packs import function_ids, function_name
from .scoreboard import compare_scores, get_objective, holders, matches_score, score_holder_parser

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["register"]

Test = Callable[[Ctx, Source], int]  # >0 / 0; boolean tests return 1 / 0


def _swizzle(reader: StringReader) -> str:
    start = reader.cursor
    seen = ""
    while reader.can_read() and reader.peek() != " ":
        c = reader.read()
        if c not in "xyz" or c in seen:
            reader.cursor = start
            raise reader.error(tr("arguments.swizzle.invalid"))
        seen += c
    if not seen:
        raise reader.error(tr("arguments.swizzle.invalid"))
    return seen


def _anchor(reader: StringReader) -> str:
    """EntityAnchorArgument.parse: `feet` or `eyes` (an unquoted string), else
    `argument.anchor.invalid` with the cursor at its start."""
    start = reader.cursor
    name = reader.read_unquoted_string()
    if name not in ("feet", "eyes"):
        reader.cursor = start
        raise reader.error(tr("argument.anchor.invalid", name))
    return name


def _rotation(reader: StringReader) -> tuple[tuple[float, bool], tuple[float, bool]]:
    """RotationArgument: `yaw pitch`, each absolute or `~`."""
    out = []
    start = reader.cursor
    for i in range(2):
        if not reader.can_read():
            raise reader.error(tr("argument.rotation.incomplete"))
        rel = False
        if reader.peek() == "~":
            rel = True
            reader.skip()
        v = reader.read_float() if reader.can_read() and reader.peek() != " " else 0.0
        out.append((v, rel))
        if i == 0:
            if not reader.can_read() or reader.peek() != " ":
                reader.cursor = start
                raise reader.error(tr("argument.rotation.incomplete"))
            reader.skip()
    return out[0], out[1]


def _conditional(
    game: Game, root: Node, node: Node, expected: bool, test: Test, counting: bool
) -> Node:
    """addConditional: a fork that keeps passing sources, and a command when it is last."""

    def modifier(ctx: Ctx, source: Source) -> list[Source]:
        return [source] if (test(ctx, source) > 0) == expected else []

    def run(ctx: Ctx, source: Source) -> int:
        value = test(ctx, source)
        if not counting:
            if (value > 0) == expected:
                game.send(tr("commands.execute.conditional.pass"))
                return 1
            raise CommandSyntaxError(tr("commands.execute.conditional.fail"))
        if expected:
            if value > 0:
                game.send(tr("commands.execute.conditional.pass_count", value))
                return value
            raise CommandSyntaxError(tr("commands.execute.conditional.fail"))
        if value == 0:
            game.send(tr("commands.execute.conditional.pass"))
            return 1
        raise CommandSyntaxError(tr("commands.execute.conditional.fail_count", value))

    node.redirects(root, modifier, fork=True)
    node.command = run
    return node


def _function_condition(game: Game, expected: bool) -> Callable[[Ctx, Source], list[Source]]:
    """ExecuteIfFunctionCustomModifier / scheduleFunctionConditionsAndTest.

    The functions (an unknown id or tag fails with `Unknown function …`; instantiation stops at
    the first that fails, silently, and the ones before it still run) run for each source in
    an isolated frame, with the source silent and
    without callbacks (modifySenderForExecution, clearCallbacks). The frame's value is the
    first `return` of any of them (a `return` ends the others: the calls share the isolated
    frame's control), or failure (0) when none returns (FallthroughTask). `if` keeps the source
    when that value is not 0, `unless` when it is 0. The node forks, so errors print nothing;
    with no functions (an empty tag) nothing runs after it
    (docs/server-behaviour.md, "execute if function").
    """

    def modifier(ctx: Ctx, source: Source) -> list[Source]:
        ids = function_ids(game, ctx)
        if not ids:
            return []  # no functions: nothing is queued, the chain ends
        functions = []
        for fid in ids:
            try:
                functions.append(game.packs.instantiate(fid, None))
            except InstantiationError:
                # ERROR_FUNCTION_CONDITION_INSTANTATION_FAILURE, handled in forked mode (silent);
                # the loop stops there, but the functions instantiated so far still run
                break
        value: list[int] = []

        def consume(success: bool, result: int) -> None:
            if not value:
                value.append(result)

        depth = game.frames[-1].depth + 1 if game.frames else 0
        isolated = Frame(depth, consume, depth)
        function_source = source.copy_with(silent=True, callbacks=())
        game.frames.append(isolated)
        try:
            for chains in functions:
                if isolated.epoch:  # a `return` discarded the isolated frame
                    break
                game.packs.call(chains, function_source, Frame(depth + 1, consume, depth))
        finally:
            game.frames.pop()
        consume(False, 0)  # FallthroughTask when nothing returned
        return [source] if (value[0] != 0) == expected else []

    return modifier


def _slots(reader: StringReader) -> tuple[int, ...]:
    """SlotsArgument: a name of the release's SlotRanges (`contents`, `weapon.mainhand`, …);
    an unknown name fails with the cursor after it (ParserUtils.readWhile)."""
    start = reader.cursor
    while reader.can_read() and reader.peek() != " ":
        reader.skip()
    name = reader.string[start : reader.cursor]
    slots = current_profile().slot_ranges.get(name)
    if slots is None:
        raise reader.error(tr("slot.unknown", name))
    return slots


def _slot_item(e: Any, slot: int) -> Any:
    """Entity.getSlot(slot).get(): slot 0 of an item frame (its item) or a dropped item (its
    stack), a player's main hand (98); every other slot is empty here (not modelled)."""
    if slot == 0 and hasattr(e, "item_rotation"):
        return e.item
    if slot == 0 and e.type_id == "minecraft:item":
        return e.extra.get("Item")
    if slot == MAINHAND and isinstance(e, Player):
        return e.held_item
    return None


def _if_branch(game: Game, execute: Node, expected: bool) -> Node:
    word = "if" if expected else "unless"

    def block_test(ctx: Ctx, source: Source) -> int:
        pos = loaded_block_pos(game, source, ctx["pos"])
        pred: BlockPredicate = ctx["block"]
        return 1 if pred.test(game.world.get_block(source.dimension, pos)) else 0

    def entity_test(ctx: Ctx, source: Source) -> int:
        return len(get_optional_entities(game, source, ctx["entities"]))

    def loaded_test(ctx: Ctx, source: Source) -> int:
        c: Coordinates = ctx["pos"]
        x, _, z = c.block(source.pos, source.rot, source.anchor_pos)
        return 1 if game.world.is_loaded_for_execute(source.dimension, x, z) else 0

    def items_test(ctx: Ctx, source: Source) -> int:
        # ExecuteCommand.countItems over EntityArgument.getEntities (`No entity was found` when
        # none matches): the summed counts of matching stacks, no serialization
        predicate: ItemPredicate = ctx["item_predicate"]
        slots: tuple[int, ...] = ctx["slots"]
        entities = get_entities(game, source, ctx["i_entities"])
        if slots == (0,):  # a frame's item: each picture tested once while it stays (count_held)
            return sum(
                predicate.count_held(e, 0, e.item)
                if isinstance(e, ItemFrame)
                else predicate.count(_slot_item(e, 0))
                for e in entities
            )
        return sum(predicate.count(_slot_item(e, slot)) for e in entities for slot in slots)

    def predicate_test(ctx: Ctx, source: Source) -> int:
        # ExecuteCommand.checkCustomPredicate: THIS_ENTITY is the source's entity; an
        # entity predicate fails without one (docs/sandbox-datapacks.md, "§13 Inline predicates")
        predicate: EntityProperties = ctx["predicate"]
        entity = source.entity
        if not isinstance(entity, Player):
            return 0
        return 1 if game.packs.player_matches(predicate.player, entity) else 0

    def dimension_test(ctx: Ctx, source: Source) -> int:
        return 1 if source.dimension == get_dimension(ctx["dimension"]) else 0

    def score_match(ctx: Ctx, source: Source) -> int:
        return (
            1
            if matches_score(game, source, ctx["target"], ctx["targetObjective"], ctx["range"])
            else 0
        )

    def score_cmp(op: str) -> Test:
        def t(ctx: Ctx, source: Source) -> int:
            ok = compare_scores(
                game,
                source,
                ctx["target"],
                ctx["targetObjective"],
                op,
                ctx["source"],
                ctx["sourceObjective"],
            )
            return 1 if ok else 0

        return t

    def data_test(kind: str) -> Test:
        def t(ctx: Ctx, source: Source) -> int:
            acc = accessor_for(game, ctx, source, kind, prefix="d_")
            return count_matching(ctx["path"], acc.get_data())

        return t

    branch = lit(word)
    branch.then(
        lit(
            "function",
            arg("name", function_name).redirects(
                execute, _function_condition(game, expected), fork=True
            ),
        ),
        lit(
            "block",
            arg(
                "pos",
                parse_block_pos,
                _conditional(
                    game, execute, arg("block", parse_block_predicate), expected, block_test, False
                ),
            ),
        ),
        lit(
            "entity",
            _conditional(
                game, execute, arg("entities", entities_parser()), expected, entity_test, True
            ),
        ),
        lit(
            "loaded",
            _conditional(game, execute, arg("pos", parse_block_pos), expected, loaded_test, False),
        ),
        lit(
            "items",
            lit(
                "entity",
                arg(
                    "i_entities",
                    entities_parser(),
                    arg(
                        "slots",
                        _slots,
                        _conditional(
                            game,
                            execute,
                            arg("item_predicate", parse_item_predicate),
                            expected,
                            items_test,
                            True,
                        ),
                    ),
                    label="entities",
                ),
            ),
        ),
        lit(
            "predicate",
            _conditional(
                game,
                execute,
                arg("predicate", parse_loot_predicate),
                expected,
                predicate_test,
                False,
            ),
        ),
        lit(
            "dimension",
            _conditional(
                game, execute, arg("dimension", parse_dimension), expected, dimension_test, False
            ),
        ),
    )
    single = score_holder_parser(False)
    ops = [
        lit(
            op,
            arg(
                "source",
                single,
                _conditional(
                    game, execute, arg("sourceObjective", _word), expected, score_cmp(op), False
                ),
            ),
        )
        for op in ("<", "<=", "=", ">", ">=")
    ]
    branch.then(
        lit(
            "score",
            arg(
                "target",
                single,
                arg(
                    "targetObjective",
                    _word,
                    lit(
                        "matches",
                        _conditional(
                            game,
                            execute,
                            arg("range", parse_int_range),
                            expected,
                            score_match,
                            False,
                        ),
                    ),
                    *ops,
                ),
            ),
        )
    )
    data = lit("data")
    for kind, parser in data_sources():
        data.then(
            lit(
                kind,
                arg(
                    "d_target",
                    parser,
                    _conditional(
                        game, execute, arg("path", parse_path), expected, data_test(kind), True
                    ),
                ),
            )
        )
    branch.then(data)
    blocks_end = [
        _blocks_conditional(game, execute, lit(mode), expected, mode == "masked")
        for mode in ("all", "masked")
    ]
    branch.then(
        lit(
            "blocks",
            arg(
                "start",
                parse_block_pos,
                arg("end", parse_block_pos, arg("destination", parse_block_pos, *blocks_end)),
            ),
        )
    )
    return branch


def check_regions(game: Game, ctx: Ctx, source: Source, masked: bool) -> int | None:
    """ExecuteCommand.checkRegions: blocks compared when both regions match, else None."""
    a = loaded_block_pos(game, source, ctx["start"])
    b = loaded_block_pos(game, source, ctx["end"])
    d = loaded_block_pos(game, source, ctx["destination"])
    lo = [min(a[i], b[i]) for i in range(3)]
    hi = [max(a[i], b[i]) for i in range(3)]
    area = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1)
    limit = int(game.world.rule("max_block_modifications", 32768))
    if area > limit:
        raise CommandSyntaxError(tr("commands.execute.blocks.toobig", limit, area))
    # every block of the region against its counterpart (the order does not change the
    # answer: one difference fails the test)
    blocks = game.world.blocks.setdefault(source.dimension, {})
    here = product(range(lo[0], hi[0] + 1), range(lo[1], hi[1] + 1), range(lo[2], hi[2] + 1))
    there = product(
        range(d[0], d[0] + hi[0] - lo[0] + 1),
        range(d[1], d[1] + hi[1] - lo[1] + 1),
        range(d[2], d[2] + hi[2] - lo[2] + 1),
    )
    first = list(map(blocks.get, here, repeat(AIR)))
    second = list(map(blocks.get, there, repeat(AIR)))
    if not masked:
        return area if first == second else None
    compared = [(a, b) for a, b in zip(first, second, strict=True) if a != AIR]
    if any(a != b for a, b in compared):
        return None
    return len(compared)


def _blocks_conditional(game: Game, root: Node, node: Node, expected: bool, masked: bool) -> Node:
    """addIfBlocksConditional: `if` counts compared blocks, `unless` fails with the count."""

    def modifier(ctx: Ctx, source: Source) -> list[Source]:
        matched = check_regions(game, ctx, source, masked) is not None
        return [source] if matched == expected else []

    def run(ctx: Ctx, source: Source) -> int:
        result = check_regions(game, ctx, source, masked)
        if expected:
            if result is not None:
                game.send(tr("commands.execute.conditional.pass_count", result))
                return result
            raise CommandSyntaxError(tr("commands.execute.conditional.fail"))
        if result is not None:
            raise CommandSyntaxError(tr("commands.execute.conditional.fail_count", result))
        game.send(tr("commands.execute.conditional.pass"))
        return 1

    node.redirects(root, modifier, fork=True)
    node.command = run
    return node


def _word(reader: StringReader) -> str:
    return reader.read_unquoted_string()


def _double(reader: StringReader) -> float:
    return reader.read_float()


_NUMERIC = {
    "byte": lambda v: nbt.Byte(_wrap(int(v), 8)),
    "short": lambda v: nbt.Short(_wrap(int(v), 16)),
    "int": lambda v: nbt.Int(_wrap(int(v), 32)),
    "long": lambda v: nbt.Long(_wrap(int(v), 64)),
    "float": lambda v: nbt.Float(v),
    "double": lambda v: nbt.Double(v),
}


def _wrap(v: int, bits: int) -> int:
    m = 1 << bits
    v &= m - 1
    return v - m if v >= m >> 1 else v


def _store_branch(game: Game, execute: Node) -> Node:
    store = lit("store")
    for mode in ("result", "success"):
        want_result = mode == "result"

        def score_mod(ctx: Ctx, source: Source, want_result: bool = want_result) -> list[Source]:
            targets = holders(game, source, ctx["targets"])
            obj = get_objective(game, ctx["objective"], writable=True)

            def cb(success: bool, result: int) -> None:
                value = result if want_result else (1 if success else 0)
                for h in targets:
                    game.world.scores.setdefault(h.name, {})[obj.name] = value

            return [source.copy_with(callbacks=source.callbacks + (cb,))]

        def data_mod(
            kind: str, type_name: str, want_result: bool = want_result
        ) -> Callable[[Ctx, Source], list[Source]]:
            def mod(ctx: Ctx, source: Source) -> list[Source]:
                acc = accessor_for(game, ctx, source, kind, prefix="s_")
                path = ctx["path"]
                make: Callable[[float], Any] = _NUMERIC[type_name]
                scale = float(ctx["scale"])

                def cb(success: bool, result: int) -> None:
                    value = result if want_result else (1 if success else 0)
                    data = acc.get_data(mutable=True)
                    try:
                        path.set(data, make(value * scale))
                        acc.set_data(data)
                    except CommandSyntaxError:
                        pass

                return [source.copy_with(callbacks=source.callbacks + (cb,))]

            return mod

        branch = lit(mode)
        branch.then(
            lit(
                "score",
                arg(
                    "targets",
                    score_holder_parser(True),
                    arg("objective", _word).redirects(execute, score_mod),
                ),
            )
        )
        for kind, parser in data_sources():
            types = [
                lit(t, arg("scale", _double).redirects(execute, data_mod(kind, t)))
                for t in _NUMERIC
            ]
            branch.then(lit(kind, arg("s_target", parser, arg("path", parse_path, *types))))
        store.then(branch)
    return store


def register(root: Node, game: Game) -> None:
    """Add the execute command."""
    execute = lit("execute")

    def as_mod(ctx: Ctx, source: Source) -> list[Source]:
        return [source.with_entity(e) for e in get_optional_entities(game, source, ctx["targets"])]

    def at_mod(ctx: Ctx, source: Source) -> list[Source]:
        return [source.at(e) for e in get_optional_entities(game, source, ctx["targets"])]

    def positioned_mod(ctx: Ctx, source: Source) -> list[Source]:
        # withPosition(...).withAnchor(FEET); `positioned as` keeps the anchor
        c: Coordinates = ctx["pos"]
        pos = c.resolve(source.pos, source.rot, source.anchor_pos)
        return [source.copy_with(pos=pos, anchor="feet")]

    def anchored_mod(ctx: Ctx, source: Source) -> list[Source]:
        return [source.copy_with(anchor=ctx["anchor"])]

    def positioned_as_mod(ctx: Ctx, source: Source) -> list[Source]:
        return [
            source.copy_with(pos=e.pos) for e in get_optional_entities(game, source, ctx["targets"])
        ]

    def in_mod(ctx: Ctx, source: Source) -> list[Source]:
        return [source.copy_with(dimension=get_dimension(ctx["dimension"]))]

    def align_mod(ctx: Ctx, source: Source) -> list[Source]:
        axes: str = ctx["axes"]
        x, y, z = (
            float(math.floor(v)) if a in axes else v for a, v in zip("xyz", source.pos, strict=True)
        )
        return [source.copy_with(pos=(x, y, z))]

    def rotated_mod(ctx: Ctx, source: Source) -> list[Source]:
        (yaw, ry), (pitch, rp) = ctx["rot"]
        return [
            source.copy_with(
                rot=(source.rot[0] + yaw if ry else yaw, source.rot[1] + pitch if rp else pitch),
            )
        ]

    def rotated_as_mod(ctx: Ctx, source: Source) -> list[Source]:
        return [
            source.copy_with(rot=e.rotation)
            for e in get_optional_entities(game, source, ctx["targets"])
        ]

    execute.then(
        lit("run").redirects(root),
        lit("as", arg("targets", entities_parser()).redirects(execute, as_mod, fork=True)),
        lit("at", arg("targets", entities_parser()).redirects(execute, at_mod, fork=True)),
        lit(
            "positioned",
            arg("pos", parse_vec3).redirects(execute, positioned_mod),
            lit(
                "as",
                arg("targets", entities_parser()).redirects(execute, positioned_as_mod, fork=True),
            ),
        ),
        lit("in", arg("dimension", parse_dimension).redirects(execute, in_mod)),
        lit("align", arg("axes", _swizzle).redirects(execute, align_mod)),
        lit(
            "rotated",
            arg("rot", _rotation).redirects(execute, rotated_mod),
            lit(
                "as",
                arg("targets", entities_parser()).redirects(execute, rotated_as_mod, fork=True),
            ),
        ),
        lit("anchored", arg("anchor", _anchor).redirects(execute, anchored_mod)),
        _if_branch(game, execute, True),
        _if_branch(game, execute, False),
        _store_branch(game, execute),
    )
    root.then(execute)
