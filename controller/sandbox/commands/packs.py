"""datapack, reload, function and advancement (docs/sandbox-datapacks.md).

Messages and errors follow 26.1's DataPackCommand, ReloadCommand, FunctionCommand and
AdvancementCommands. ``advancement … everything|from|until|through`` are not modelled: the
sandbox has no vanilla advancements, so their counts could not match a real server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..arguments import parse_identifier
from ..entities import Player
from ..reader import CommandSyntaxError, StringReader
from ..registry import tr
from . import Ctx, Node, Source, arg, lit
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


def _function_name(reader: StringReader) -> tuple[bool, str]:
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


def _function(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        is_tag, name = ctx["name"]
        try:
            ids = game.packs.function_ids(name, is_tag)
        except KeyError:
            key = "arguments.function.tag.unknown" if is_tag else "arguments.function.unknown"
            raise CommandSyntaxError(tr(key, name)) from None
        if not ids:
            raise CommandSyntaxError(tr("commands.function.scheduled.no_functions", name))
        if len(ids) == 1:
            game.send(tr("commands.function.scheduled.single", ids[0]))
        else:
            game.send(tr("commands.function.scheduled.multiple", ", ".join(ids)))
        ran = 0
        for fid in ids:
            ran += game.packs.run_function(fid, source)
        return ran

    return run


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
    root.then(lit("function", arg("name", _function_name, run=_function(game))))
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
