"""data get/merge/modify/remove for entities, storage and blocks.

Feedback: docs/server-behaviour.md, "Feedback: data".

Entity data is serialized, edited and loaded back as ``EntityDataAccessor`` does: every get or
edit costs one NBT serialization. NBT paths come from ``controller.nbt.path``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from nbtlib import tag as nbt

from controller.nbt.path import tag_equals
from controller.nbt.printer import compact

from ..arguments import (
    Coordinates,
    parse_block_pos,
    parse_compound,
    parse_identifier,
    parse_nbt_tag,
    pretty,
)
from ..entities import Player
from ..reader import CommandSyntaxError, StringReader
from ..registry import tr
from ..selectors import EntitySelector
from . import Ctx, Node, Source, arg, lit
from .entity import entities_parser, get_entity, normalize_entity_nbt

if TYPE_CHECKING:
    from ..game import Game

__all__ = [
    "Accessor",
    "accessor_for",
    "count_matching",
    "data_sources",
    "parse_path",
    "register",
]

_T = TypeVar("_T")


def data_sources() -> list[tuple[str, Callable[[StringReader], Any]]]:
    """The three data sources (`block <pos>`, `entity <target>`, `storage <id>`) with their
    parsers, as `data`, `execute if data`, `execute store` and `function … with` take them."""
    return [
        ("block", parse_block_pos),
        ("entity", entities_parser(single=True)),
        ("storage", parse_identifier),
    ]


def parse_path(reader: StringReader) -> Any:
    """NbtPathArgument."""
    from controller.nbt import path

    return path.NbtPath.parse(reader)


def count_matching(p: Any, data: Any) -> int:
    """NbtPath.countMatching: like get, but 0 instead of an error."""
    return int(p.count_matching(data))


def _copy(value: _T) -> _T:
    """A deep copy of an nbtlib tag."""
    import copy

    return copy.deepcopy(value)


def merge_compound(target: nbt.Compound, source: nbt.Compound) -> None:
    """CompoundTag.merge: nested compounds merge, everything else is replaced."""
    for k, v in source.items():
        old = target.get(k)
        if isinstance(v, nbt.Compound) and isinstance(old, nbt.Compound):
            merge_compound(old, v)
        else:
            target[k] = _copy(v)


@dataclass
class Accessor:
    """DataAccessor: read, write and name one data holder."""

    game: Game
    kind: str  # entity | storage | block
    entity: Any = None
    storage_id: str = ""
    block_pos: tuple[int, int, int] = (0, 0, 0)

    def get_data(self, mutable: bool = False) -> nbt.Compound:
        """getData (entities: one counted serialization); `mutable` for callers that edit it."""
        if self.kind == "entity":
            return self.game.serialize(self.entity, mutable)
        if self.kind == "storage":
            return _copy(self.game.world.storage.get(self.storage_id, nbt.Compound()))
        raise CommandSyntaxError(tr("commands.data.block.invalid"))

    def set_data(self, data: nbt.Compound) -> None:
        """setData: entities are reloaded keeping their UUID; players are refused."""
        if self.kind == "entity":
            e = self.entity
            if isinstance(e, Player):
                raise CommandSyntaxError(tr("commands.data.entity.invalid"))
            uid = e.uuid
            old = self.game.world.section_key(e)
            e.load_nbt(normalize_entity_nbt(data))
            e.uuid = uid
            self.game.world.resection(e, old)
            self.game.world.flush_sounds(e)  # setItem while loading plays add_item
        elif self.kind == "storage":
            self.game.world.storage[self.storage_id] = data
        else:
            raise CommandSyntaxError(tr("commands.data.block.invalid"))

    def modified(self) -> str:
        """getModifiedSuccess."""
        if self.kind == "entity":
            return tr("commands.data.entity.modified", self.entity.display_name)
        return tr("commands.data.storage.modified", self.storage_id)

    def query(self, value: Any) -> str:
        """getPrintSuccess(tag)."""
        text = pretty(value, self.game.flavour)
        if self.kind == "entity":
            return tr("commands.data.entity.query", self.entity.display_name, text)
        return tr("commands.data.storage.query", self.storage_id, text)

    def scaled(self, path: Any, s: str, value: int) -> str:
        """getPrintSuccess(path, scale, value) with the scale already formatted."""
        if self.kind == "entity":
            return tr("commands.data.entity.get", path, self.entity.display_name, s, value)
        return tr("commands.data.storage.get", path, self.storage_id, s, value)


def accessor_for(game: Game, ctx: Ctx, source: Source, kind: str, prefix: str = "") -> Accessor:
    """Build the accessor of `data <kind> <target>` from parsed arguments."""
    if kind == "entity":
        sel: EntitySelector = ctx[prefix + "target"]
        return Accessor(game, "entity", entity=get_entity(game, source, sel))
    if kind == "storage":
        return Accessor(game, "storage", storage_id=ctx[prefix + "target"])
    from .blocks import loaded_block_pos

    coords: Coordinates = ctx[prefix + "target"]
    return Accessor(game, "block", block_pos=loaded_block_pos(game, source, coords))


def _get(game: Game, kind: str, mode: str) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        from controller.nbt import path as nbtpath

        acc = accessor_for(game, ctx, source, kind)
        data = acc.get_data()
        if mode == "all":
            game.send(acc.query(data))
            return 1
        p = ctx["path"]
        if mode == "scaled":
            scale = float(ctx["scale"])
            result = nbtpath.data_get_scaled(data, p, scale)
            game.send(acc.scaled(p, nbtpath.format_scale(scale), result))
            return result
        value, result = nbtpath.data_get(data, p)
        game.send(acc.query(value))
        return result

    return run


def _merge(game: Game, kind: str) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        from controller.nbt import path as nbtpath

        acc = accessor_for(game, ctx, source, kind)
        if acc.kind == "entity" and isinstance(acc.entity, Player):
            raise CommandSyntaxError(tr("commands.data.entity.invalid"))
        old = acc.get_data()
        if nbtpath.is_too_deep(ctx["nbt"], 0):
            raise CommandSyntaxError(tr("arguments.nbtpath.too_deep"))
        merged = _copy(old)
        merge_compound(merged, ctx["nbt"])
        if tag_equals(old, merged):
            raise CommandSyntaxError(tr("commands.data.merge.failed"))
        acc.set_data(merged)
        game.send(acc.modified())
        return 1

    return run


def _remove(game: Game, kind: str) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        acc = accessor_for(game, ctx, source, kind)
        data = acc.get_data(mutable=True)
        count = int(ctx["path"].remove(data))
        if count == 0:
            raise CommandSyntaxError(tr("commands.data.merge.failed"))
        acc.set_data(data)
        game.send(acc.modified())
        return count

    return run


def _source_values(game: Game, ctx: Ctx, source: Source) -> list[Any]:
    if ctx.has("value"):
        return [ctx["value"]]
    kind = ctx["src_kind"]
    acc = accessor_for(game, ctx, source, kind, prefix="src_")
    data = acc.get_data()
    if ctx.has("src_path"):
        return list(ctx["src_path"].get(data))
    return [data]


def _modify(game: Game, kind: str, op: str) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        acc = accessor_for(game, ctx, source, kind)
        data = acc.get_data(mutable=True)
        p = ctx["path"]
        values = _source_values(game, ctx, source)
        if op == "set":
            if not values:
                raise CommandSyntaxError(tr("arguments.nbtpath.nothing_found", ctx.get("src_path")))
            count = int(p.set(data, _copy(values[-1])))
        elif op == "merge":
            count = 0
            targets = p.get_or_create(data) if hasattr(p, "get_or_create") else p.get(data)
            for t in targets:
                if not isinstance(t, nbt.Compound):
                    raise CommandSyntaxError(tr("commands.data.modify.expected_object", compact(t)))
                before = _copy(t)
                for v in values:
                    if not isinstance(v, nbt.Compound):
                        raise CommandSyntaxError(
                            tr("commands.data.modify.expected_object", compact(v))
                        )
                    merge_compound(t, v)
                count += 0 if tag_equals(before, t) else 1
        else:
            index = {"append": -1, "prepend": 0}.get(op, ctx.get("index", 0))
            count = int(p.insert(index, data, [_copy(v) for v in values]))
        if count == 0:
            raise CommandSyntaxError(tr("commands.data.merge.failed"))
        acc.set_data(data)
        game.send(acc.modified())
        return count

    return run


def _target_node(kind: str, *children: Node) -> Node:
    """`entity <target>`, `storage <id>` or `block <pos>` followed by children."""
    parser: Callable[[StringReader], Any]
    if kind == "entity":
        parser = entities_parser(single=True)
    elif kind == "storage":
        parser = parse_identifier
    else:
        parser = parse_block_pos
    return lit(kind, arg("target", parser, *children))


def _double(reader: StringReader) -> float:
    return reader.read_float()


def _int(reader: StringReader) -> int:
    return reader.read_int()


def _target_parser(kind: str) -> Callable[[StringReader], Any]:
    if kind == "entity":
        return entities_parser(single=True)
    if kind == "storage":
        return parse_identifier
    return parse_block_pos


def register(root: Node, game: Game) -> None:
    """Add the data command."""
    get = lit("get")
    merge = lit("merge")
    modify = lit("modify")
    remove = lit("remove")
    for kind in ("block", "entity", "storage"):
        get.then(
            _target_node(
                kind,
                arg(
                    "path",
                    parse_path,
                    arg("scale", _double, run=_get(game, kind, "scaled")),
                    run=_get(game, kind, "path"),
                ),
            )
        )
        get.children[kind].children["target"].command = _get(game, kind, "all")
        merge.then(_target_node(kind, arg("nbt", parse_compound, run=_merge(game, kind))))
        remove.then(_target_node(kind, arg("path", parse_path, run=_remove(game, kind))))
        ops = [
            lit(op, *_with_src_kind(game, kind, op)) for op in ("append", "merge", "prepend", "set")
        ]
        ops.append(lit("insert", arg("index", _int, *_with_src_kind(game, kind, "insert"))))
        modify.then(_target_node(kind, arg("path", parse_path, *ops)))
    root.then(lit("data", get, merge, modify, remove))


def _with_src_kind(game: Game, kind: str, op: str) -> list[Node]:
    """`from <kind> <target> [<path>]` and `value <nbt>`; the source kind is recorded in ctx."""
    run = _modify(game, kind, op)
    froms = []
    for sk in ("block", "entity", "storage"):

        def wrap(sk: str = sk) -> Callable[[Ctx, Source], int]:
            def inner(ctx: Ctx, source: Source) -> int:
                ctx.args["src_kind"] = sk
                return run(ctx, source)

            return inner

        froms.append(
            lit(
                sk,
                arg(
                    "src_target",
                    _target_parser(sk),
                    arg("src_path", parse_path, run=wrap()),
                    run=wrap(),
                ),
            )
        )
    return [lit("from", *froms), lit("value", arg("value", parse_nbt_tag, run=run))]
