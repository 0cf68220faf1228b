"""datapack, reload, function, return and advancement (docs/sandbox-datapacks.md).

Messages and errors follow 26.1's DataPackCommand, ReloadCommand, FunctionCommand,
ReturnCommand and AdvancementCommands. ``advancement … everything|from|until|through`` are not
modelled: the sandbox has no vanilla advancements, so their counts could not match a real
server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from nbtlib import tag as nbt

from ..arguments import parse_compound, parse_identifier
from ..entities import Player
from ..packmanager import InstantiationError
from ..reader import CommandSyntaxError, StringReader
from ..registry import tr
from . import Control, Ctx, Custom, Frame, Node, ResultCallback, Source, arg, lit, return_run
from .data import accessor_for, data_sources, parse_path
from .entity import entities_parser, get_players

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["register"]


def _string(reader: StringReader) -> str:
    """StringArgumentType.string(): a quoted string, or an unquoted [0-9A-Za-z_.+-]* word."""
    return reader.read_string()


def _greedy(reader: StringReader) -> str:
    text = reader.remaining
    reader.cursor = len(reader.string)
    return text


def function_name(reader: StringReader) -> tuple[bool, str]:
    """FunctionArgument: `#tag` or an id."""
    tag = reader.can_read() and reader.peek() == "#"
    if tag:
        reader.skip()
    return tag, parse_identifier(reader)


def _pack(game: Game, pid: str, enabling: bool) -> str:
    """DataPackCommand.getPack: unknown / already enabled / not enabled errors."""
    packs = game.packs
    if pid not in packs.available:
        raise CommandSyntaxError(tr("commands.datapack.unknown", pid))
    enabled = pid in packs.selected
    if enabling and enabled:
        raise CommandSyntaxError(tr("commands.datapack.enable.failed", pid))
    if not enabling and not enabled:
        raise CommandSyntaxError(tr("commands.datapack.disable.failed", pid))
    return pid


def _enable(game: Game, where: str) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        pid = _pack(game, ctx["name"], True)
        selected = list(game.packs.selected)
        if where == "first":
            selected.insert(0, pid)
        else:  # world packs insert at the top (Position.TOP), as `last` does
            selected.append(pid)
        game.send(tr("commands.datapack.modify.enable", game.packs.available[pid].chat_link()))
        game.packs.request_reload(selected)
        return len(selected)

    return run


def _disable(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        pid = _pack(game, ctx["name"], False)
        selected = [p for p in game.packs.selected if p != pid]
        game.send(tr("commands.datapack.modify.disable", game.packs.available[pid].chat_link()))
        game.packs.request_reload(selected)
        return len(selected)

    return run


def _list_enabled(game: Game) -> int:
    packs = game.packs
    packs.rescan()
    selected = [packs.available[p] for p in packs.selected]
    if not selected:
        game.send(tr("commands.datapack.list.enabled.none"))
    else:
        links = ", ".join(p.chat_link() for p in selected)
        game.send(tr("commands.datapack.list.enabled.success", len(selected), links))
    return len(selected)


def _list_available(game: Game) -> int:
    packs = game.packs
    packs.rescan()
    rest = [p for pid, p in packs.available.items() if pid not in packs.selected]
    if not rest:
        game.send(tr("commands.datapack.list.available.none"))
    else:
        links = ", ".join(p.chat_link() for p in rest)
        game.send(tr("commands.datapack.list.available.success", len(rest), links))
    return len(rest)


def _list(game: Game, which: str) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        if which == "enabled":
            return _list_enabled(game)
        if which == "available":
            return _list_available(game)
        return _list_enabled(game) + _list_available(game)

    return run


def _reload(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        selected = game.packs.discover_new()
        game.send(tr("commands.reload.success"))
        game.packs.request_reload(selected)
        return 0

    return run


def _no_arguments(game: Game, ctx: Ctx, source: Source) -> nbt.Compound | None:
    return None


def _compound_arguments(game: Game, ctx: Ctx, source: Source) -> nbt.Compound | None:
    """`function <name> <arguments>`: CompoundTagArgument."""
    value: nbt.Compound = ctx["arguments"]
    return value


def _data_arguments(kind: str, with_path: bool) -> Callable[[Game, Ctx, Source], nbt.Compound]:
    """`function <name> with <kind> <target> [<path>]`: the data, or the one tag at the path."""

    def arguments(game: Game, ctx: Ctx, source: Source) -> nbt.Compound:
        from controller.nbt import path as nbtpath

        data = accessor_for(game, ctx, source, kind, prefix="w_").get_data()
        if not with_path:
            return data
        tag, _ = nbtpath.data_get(data, ctx["path"])
        if not isinstance(tag, nbt.Compound):
            # TagType.getName of the tag (unverified wording of the type name)
            raise CommandSyntaxError(
                tr("commands.function.error.argument_not_compound", _tag_type_name(tag))
            )
        return tag

    return arguments


_TAG_TYPE_NAMES = {
    nbt.Byte: "BYTE",
    nbt.Short: "SHORT",
    nbt.Int: "INT",
    nbt.Long: "LONG",
    nbt.Float: "FLOAT",
    nbt.Double: "DOUBLE",
    nbt.ByteArray: "BYTE[]",
    nbt.String: "STRING",
    nbt.List: "LIST",
    nbt.IntArray: "INT[]",
    nbt.LongArray: "LONG[]",
}


def _tag_type_name(tag: Any) -> str:
    for cls, name in _TAG_TYPE_NAMES.items():
        if isinstance(tag, cls):
            return name
    return "END"


def function_ids(game: Game, ctx: Ctx) -> list[str]:
    """The functions FunctionArgument `name` names (an id, or a tag's); an unknown one is
    `Unknown function %s` / `Unknown function tag '%s'`."""
    is_tag, name = ctx["name"]
    try:
        return list(game.packs.function_ids(name, is_tag))
    except KeyError:
        key = "arguments.function.tag.unknown" if is_tag else "arguments.function.unknown"
        raise CommandSyntaxError(tr(key, name)) from None


def _function(game: Game, arguments: Callable[[Game, Ctx, Source], nbt.Compound | None]) -> Custom:
    """FunctionCommand.FunctionCustomExecutor: `Running function …`, then queue the calls."""

    def run(ctx: Ctx, source: Source, control: Control) -> None:
        name = ctx["name"][1]
        ids = function_ids(game, ctx)
        if not ids:
            raise CommandSyntaxError(tr("commands.function.scheduled.no_functions", name))
        args = arguments(game, ctx, source)
        if len(ids) == 1:
            game.send(tr("commands.function.scheduled.single", ids[0]))
        else:
            game.send(tr("commands.function.scheduled.multiple", ", ".join(ids)))
        _queue_functions(game, ids, args, source, control)

    return Custom(run)


def _queue_functions(
    game: Game, ids: list[str], args: nbt.Compound | None, source: Source, control: Control
) -> None:
    """FunctionCommand.queueFunctions: instantiate each function and queue its call.

    The function source is the caller's, silent and without callbacks
    (modifySenderForExecution, clearCallbacks). A caller that is not silent is told each
    function's return value (`Function … returned …`) when the function returns; a function
    that ends without `return` reports nothing. Inside `return run` the calls share the
    caller's frame control and the caller returns what they return (or fails when none does).
    """
    function_source = replace(source, silent=True, callbacks=())
    out = game.out  # where the caller's messages go (signalResult sends to the caller)
    frame = control.frame

    def original(success: bool, result: int) -> None:
        for cb in source.callbacks:
            cb(success, result)

    def decorate(fid: str, then: ResultCallback) -> ResultCallback:
        """decorateOutputIfNeeded."""
        if source.silent:
            return then

        def signal(success: bool, result: int) -> None:
            out.append(tr("commands.function.result", fid, result))
            then(success, result)

        return signal

    def enqueue(fid: str, collector: ResultCallback, return_parent: bool) -> None:
        try:
            chains = game.packs.instantiate(fid, args)
        except InstantiationError as ex:
            raise CommandSyntaxError(
                tr("commands.function.instantiationFailure", fid, ex.message)
            ) from None
        depth = frame.depth + 1
        callee = Frame(depth, collector, frame.control if return_parent else depth)
        control.queue(lambda: game.packs.call(chains, function_source, callee))

    if control.returning:

        def returned(success: bool, result: int) -> None:
            original(success, result)
            frame.on_return(success, result)

        for fid in ids:
            enqueue(fid, decorate(fid, returned), True)
        control.queue(control.fallthrough)
        return
    if len(ids) == 1 or not source.callbacks:
        for fid in ids:
            enqueue(fid, decorate(fid, original), False)
        return
    total = [False, 0]  # several functions and a callback: the sum of their results

    def add(success: bool, result: int) -> None:
        total[0] = True
        total[1] += result

    for fid in ids:
        enqueue(fid, decorate(fid, add), False)

    def report() -> None:
        if total[0]:
            original(True, int(total[1]))

    control.queue(report)


def _return_value(ctx: Ctx, source: Source, control: Control) -> None:
    """ReturnValueCustomExecutor: the callbacks get the value, the frame returns it and ends."""
    value: int = ctx["value"]
    for cb in source.callbacks:
        cb(True, value)
    control.frame.on_return(True, value)
    control.discard()


def _return_fail(ctx: Ctx, source: Source, control: Control) -> None:
    """ReturnFailCustomExecutor: failure to the callbacks and the frame, which ends."""
    for cb in source.callbacks:
        cb(False, 0)
    control.frame.on_return(False, 0)
    control.discard()


def _int(reader: StringReader) -> int:
    """IntegerArgumentType.integer()."""
    return reader.read_int()


def _target(players: list[Player]) -> tuple[str, object]:
    """`one` and the player's name, or `many` and the count (AdvancementCommands.perform)."""
    if len(players) == 1:
        return "one", players[0].display_name
    return "many", len(players)


def _advancement(game: Game, grant: bool, with_criterion: bool) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        players = get_players(game, source, ctx["targets"])
        aid: str = ctx["advancement"]
        adv = game.packs.content.advancements.get(aid)
        if adv is None:
            raise CommandSyntaxError(tr("advancement.advancementNotFound", aid))
        key = "commands.advancement." + ("grant" if grant else "revoke")
        packs = game.packs
        kind, who = _target(players)
        changed = 0
        if with_criterion:
            criterion: str = ctx["criterion"]
            if criterion not in adv.criteria:
                raise CommandSyntaxError(
                    tr("commands.advancement.criterionNotFound", aid, criterion)
                )
            for p in players:
                ok = packs.award(p, adv, criterion) if grant else packs.revoke(p, adv, criterion)
                changed += int(ok)
            if changed == 0:
                raise CommandSyntaxError(
                    tr(f"{key}.criterion.to.{kind}.failure", criterion, aid, who)
                )
            game.send(tr(f"{key}.criterion.to.{kind}.success", criterion, aid, who))
            return changed
        for p in players:
            obtained = packs.progress(p).get(aid, {})
            if grant:
                if packs.is_done(p, adv):
                    continue
                for name in [c for c in adv.criteria if c not in obtained]:
                    packs.award(p, adv, name)
            else:
                if not obtained:
                    continue
                for name in list(obtained):
                    packs.revoke(p, adv, name)
            changed += 1
        if changed == 0:
            raise CommandSyntaxError(tr(f"{key}.one.to.{kind}.failure", aid, who))
        game.send(tr(f"{key}.one.to.{kind}.success", aid, who))
        return changed

    return run


def register(root: Node, game: Game) -> None:
    """Add datapack, reload, function and advancement."""
    root.then(
        lit(
            "datapack",
            lit(
                "enable",
                arg(
                    "name",
                    _string,
                    lit("first", run=_enable(game, "first")),
                    lit("last", run=_enable(game, "last")),
                    run=_enable(game, "default"),
                ),
            ),
            lit("disable", arg("name", _string, run=_disable(game))),
            lit(
                "list",
                lit("available", run=_list(game, "available")),
                lit("enabled", run=_list(game, "enabled")),
                run=_list(game, "all"),
            ),
        )
    )
    root.then(lit("reload", run=_reload(game)))
    sources = lit("with")
    for kind, parser in data_sources():
        sources.then(
            lit(
                kind,
                arg(
                    "w_target",
                    parser,
                    arg("path", parse_path, run=_function(game, _data_arguments(kind, True))),
                    run=_function(game, _data_arguments(kind, False)),
                ),
            )
        )
    root.then(
        lit(
            "function",
            arg(
                "name",
                function_name,
                arg("arguments", parse_compound, run=_function(game, _compound_arguments)),
                sources,
                run=_function(game, _no_arguments),
            ),
        )
    )
    root.then(
        lit(
            "return",
            arg("value", _int, run=Custom(_return_value)),
            lit("fail", run=Custom(_return_fail)),
            lit("run").redirects(root, return_run),
        )
    )
    players = entities_parser(players=True)
    advancement = lit("advancement")
    for action, grant in (("grant", True), ("revoke", False)):
        advancement.then(
            lit(
                action,
                arg(
                    "targets",
                    players,
                    lit(
                        "only",
                        arg(
                            "advancement",
                            parse_identifier,
                            arg("criterion", _greedy, run=_advancement(game, grant, True)),
                            run=_advancement(game, grant, False),
                        ),
                    ),
                ),
            )
        )
    root.then(advancement)
