"""scoreboard objectives … and scoreboard players ….

Feedback: docs/server-behaviour.md, "Feedback: scoreboard".
"""

from __future__ import annotations

import uuid as uuidlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nbtlib import tag as nbt

from ..arguments import parse_component, parse_int_range
from ..entities import Entity
from ..reader import CommandSyntaxError, StringReader
from ..registry import tr
from ..selectors import EntitySelector, parse_selector
from ..world import Objective
from . import Ctx, Node, Source, arg, lit

if TYPE_CHECKING:
    from ..game import Game

__all__ = [
    "Holder",
    "get_objective",
    "holders",
    "player_trigger",
    "register",
    "score_holder_parser",
]

_CRITERIA = frozenset(
    "dummy trigger deathCount playerKillCount totalKillCount health xp level food air armor".split()
)
_READONLY = frozenset(
    "health xp level food air armor deathCount playerKillCount totalKillCount".split()
)
_COLORS = (
    "black dark_blue dark_green dark_aqua dark_red dark_purple gold gray dark_gray blue green aqua "
    "red light_purple yellow white"
).split()
_SLOTS = ["list", "sidebar", "below_name"] + ["sidebar.team." + c for c in _COLORS]


@dataclass(frozen=True)
class Holder:
    """A ScoreHolder: scoreboard name and feedback display name."""

    name: str
    display: str


def _entity_holder(e: Entity) -> Holder:
    return Holder(e.score_name, e.display_name)


@dataclass(frozen=True)
class HolderArg:
    """A parsed ScoreHolderArgument: a selector, `*`, or a fixed name."""

    selector: EntitySelector | None
    text: str


def score_holder_parser(multiple: bool) -> Callable[[StringReader], HolderArg]:
    """ScoreHolderArgument.parse."""

    def parse(reader: StringReader) -> HolderArg:
        if reader.can_read() and reader.peek() == "@":
            sel = parse_selector(reader)
            if not multiple and sel.max_results > 1:
                reader.cursor = 0
                raise reader.error(tr("argument.entity.toomany"))
            return HolderArg(sel, "")
        start = reader.cursor
        while reader.can_read() and reader.peek() != " ":
            reader.skip()
        return HolderArg(None, reader.string[start : reader.cursor])

    return parse


def holders(game: Game, source: Source, h: HolderArg) -> list[Holder]:
    """ScoreHolderArgument.getNames (with `*` = every tracked holder)."""
    if h.selector is not None:
        found = h.selector.find(source, game)
        if not found:
            raise CommandSyntaxError(tr("argument.entity.notfound.entity"))
        return [_entity_holder(e) for e in found]
    text = h.text
    if text == "*":
        names = list(game.world.scores)
        if not names:
            raise CommandSyntaxError(tr("argument.scoreHolder.empty"))
        return [Holder(n, _display_of(game, n)) for n in names]
    if text.startswith("#"):
        return [Holder(text, text)]
    try:
        uid = uuidlib.UUID(text) if len(text) == 36 else None
    except ValueError:
        uid = None
    if uid is not None:
        e = game.world.get_entity(uid)
        return [_entity_holder(e)] if e is not None else [Holder(text, text)]
    p = game.world.players.get(text)
    return [_entity_holder(p)] if p is not None else [Holder(text, text)]


def _display_of(game: Game, name: str) -> str:
    p = game.world.players.get(name)
    if p is not None:
        return p.display_name
    try:
        e = game.world.get_entity(uuidlib.UUID(name)) if len(name) == 36 else None
    except ValueError:
        e = None
    return e.display_name if e is not None else name


def _single_holder(game: Game, source: Source, h: HolderArg) -> Holder:
    found = holders(game, source, h)
    if len(found) > 1:
        raise CommandSyntaxError(tr("argument.entity.toomany"))
    return found[0]


def get_objective(game: Game, name: str, writable: bool = False) -> Objective:
    """ObjectiveArgument.getObjective / getWritableObjective."""
    obj = game.world.objectives.get(name)
    if obj is None:
        raise CommandSyntaxError(tr("arguments.objective.notFound", name))
    if writable and obj.criteria in _READONLY:
        raise CommandSyntaxError(tr("arguments.objective.readonly", name))
    return obj


def _word(reader: StringReader) -> str:
    return reader.read_unquoted_string()


def _criteria(reader: StringReader) -> str:
    start = reader.cursor
    while reader.can_read() and reader.peek() != " ":
        reader.skip()
    text = reader.string[start : reader.cursor]
    if text not in _CRITERIA and not text.startswith("minecraft."):
        reader.cursor = start
        raise reader.error(tr("argument.criteria.invalid", text))
    return text


def _slot(reader: StringReader) -> str:
    start = reader.cursor
    text = reader.read_unquoted_string()
    if text not in _SLOTS:
        reader.cursor = start
        raise reader.error(tr("argument.scoreboardDisplaySlot.invalid", text))
    return text


def _int(reader: StringReader) -> int:
    return reader.read_int()


def _operation(reader: StringReader) -> str:
    start = reader.cursor
    while reader.can_read() and reader.peek() != " ":
        reader.skip()
    text = reader.string[start : reader.cursor]
    if text not in ("=", "+=", "-=", "*=", "/=", "%=", "<", ">", "><"):
        raise reader.error(tr("arguments.operation.invalid"))
    return text


def _i32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def _objectives_add(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        name: str = ctx["objective"]
        if name in game.world.objectives:
            raise CommandSyntaxError(tr("commands.scoreboard.objectives.add.duplicate"))
        display: Any = ctx.get("displayName", nbt.String(name))
        obj = Objective(name, ctx["criteria"], display)
        game.world.objectives[name] = obj
        game.send(tr("commands.scoreboard.objectives.add.success", obj.formatted()))
        return len(game.world.objectives)

    return run


def _modify_name(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        obj = get_objective(game, ctx["objective"])
        if obj.display_name == ctx["displayName"]:
            return 0  # unchanged: no feedback
        obj.display_name = ctx["displayName"]
        game.send(
            tr("commands.scoreboard.objectives.modify.displayname", obj.name, obj.formatted())
        )
        return 0

    return run


def _objectives_remove(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        obj = get_objective(game, ctx["objective"])
        del game.world.objectives[obj.name]
        for scores in game.world.scores.values():
            scores.pop(obj.name, None)
        for opened in game.world.unlocked.values():
            opened.discard(obj.name)
        for slot, name in list(game.world.display_slots.items()):
            if name == obj.name:
                del game.world.display_slots[slot]
        game.send(tr("commands.scoreboard.objectives.remove.success", obj.formatted()))
        return len(game.world.objectives)

    return run


def _objectives_list(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        objs = list(game.world.objectives.values())
        if not objs:
            game.send(tr("commands.scoreboard.objectives.list.empty"))
        else:
            text = ", ".join(o.formatted() for o in objs)
            game.send(tr("commands.scoreboard.objectives.list.success", len(objs), text))
        return len(objs)

    return run


def _setdisplay(game: Game, with_objective: bool) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        slot: str = ctx["slot"]
        slots = game.world.display_slots
        if not with_objective:
            if slot not in slots:
                raise CommandSyntaxError(tr("commands.scoreboard.objectives.display.alreadyEmpty"))
            del slots[slot]
            game.send(tr("commands.scoreboard.objectives.display.cleared", slot))
            return 0
        obj = get_objective(game, ctx["objective"])
        if slots.get(slot) == obj.name:
            raise CommandSyntaxError(tr("commands.scoreboard.objectives.display.alreadySet"))
        slots[slot] = obj.name
        game.send(tr("commands.scoreboard.objectives.display.set", slot, obj.formatted()))
        return 0

    return run


def _change(game: Game, how: str) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        targets = holders(game, source, ctx["targets"])
        obj = get_objective(game, ctx["objective"], writable=True)
        value: int = ctx["score"]
        total = 0
        last = 0
        for h in targets:
            scores = game.world.scores.setdefault(h.name, {})
            if how == "set":
                scores[obj.name] = value
            elif how == "add":
                scores[obj.name] = _i32(scores.get(obj.name, 0) + value)
            else:
                scores[obj.name] = _i32(scores.get(obj.name, 0) - value)
            last = scores[obj.name]
            total += last
        key = "commands.scoreboard.players." + how + ".success."
        if how == "set":
            if len(targets) == 1:
                game.send(tr(key + "single", obj.formatted(), targets[0].display, value))
            else:
                game.send(tr(key + "multiple", obj.formatted(), len(targets), value))
            return value * len(targets)
        if len(targets) == 1:
            game.send(tr(key + "single", value, obj.formatted(), targets[0].display, last))
        else:
            game.send(tr(key + "multiple", value, obj.formatted(), len(targets)))
        return total

    return run


def _get(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        h = _single_holder(game, source, ctx["target"])
        obj = get_objective(game, ctx["objective"])
        scores = game.world.scores.get(h.name, {})
        if obj.name not in scores:
            raise CommandSyntaxError(
                tr("commands.scoreboard.players.get.null", obj.name, h.display)
            )
        value = scores[obj.name]
        game.send(tr("commands.scoreboard.players.get.success", h.display, value, obj.formatted()))
        return value

    return run


def _reset(game: Game, specific: bool) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        targets = holders(game, source, ctx["targets"])
        if specific:
            obj = get_objective(game, ctx["objective"])
            for h in targets:
                scores = game.world.scores.get(h.name)
                game.world.unlocked.get(h.name, set()).discard(obj.name)
                if scores is not None:
                    scores.pop(obj.name, None)
                    if not scores:
                        del game.world.scores[h.name]
            if len(targets) == 1:
                game.send(
                    tr(
                        "commands.scoreboard.players.reset.specific.single",
                        obj.formatted(),
                        targets[0].display,
                    )
                )
            else:
                game.send(
                    tr(
                        "commands.scoreboard.players.reset.specific.multiple",
                        obj.formatted(),
                        len(targets),
                    )
                )
        else:
            for h in targets:
                game.world.scores.pop(h.name, None)
                game.world.unlocked.pop(h.name, None)
            if len(targets) == 1:
                game.send(tr("commands.scoreboard.players.reset.all.single", targets[0].display))
            else:
                game.send(tr("commands.scoreboard.players.reset.all.multiple", len(targets)))
        return len(targets)

    return run


def _operation_run(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        targets = holders(game, source, ctx["targets"])
        obj = get_objective(game, ctx["targetObjective"], writable=True)
        op: str = ctx["operation"]
        sources = holders(game, source, ctx["source"])
        src_obj = get_objective(game, ctx["sourceObjective"])
        total = 0
        for t in targets:
            tscores = game.world.scores.setdefault(t.name, {})
            for s in sources:
                sscores = game.world.scores.setdefault(s.name, {})
                a = tscores.get(obj.name, 0)
                b = sscores.setdefault(src_obj.name, 0)  # getOrCreatePlayerScore, as the target
                if op == "=":
                    a = b
                elif op == "+=":
                    a = _i32(a + b)
                elif op == "-=":
                    a = _i32(a - b)
                elif op == "*=":
                    a = _i32(a * b)
                elif op in ("/=", "%="):
                    if b == 0:
                        raise CommandSyntaxError(tr("arguments.operation.div0"))
                    a = _i32(a // b) if op == "/=" else a % b  # Mth.floorDiv / floorMod
                elif op == "<":
                    a = min(a, b)
                elif op == ">":
                    a = max(a, b)
                else:
                    sscores[src_obj.name] = a
                    a = b
                tscores[obj.name] = a
            total += tscores[obj.name]
        if len(targets) == 1:
            game.send(
                tr(
                    "commands.scoreboard.players.operation.success.single",
                    obj.formatted(),
                    targets[0].display,
                    total,
                )
            )
        else:
            game.send(
                tr(
                    "commands.scoreboard.players.operation.success.multiple",
                    obj.formatted(),
                    len(targets),
                )
            )
        return total

    return run


def _list(game: Game, with_target: bool) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        if not with_target:
            names = [n for n, s in game.world.scores.items() if s]
            if not names:
                game.send(tr("commands.scoreboard.players.list.empty"))
            else:
                text = ", ".join(_display_of(game, n) for n in names)
                game.send(tr("commands.scoreboard.players.list.success", len(names), text))
            return len(names)
        h = _single_holder(game, source, ctx["target"])
        scores = game.world.scores.get(h.name, {})
        if not scores:
            game.send(tr("commands.scoreboard.players.list.entity.empty", h.display))
            return 0
        game.send(tr("commands.scoreboard.players.list.entity.success", h.display, len(scores)))
        for name, value in scores.items():
            obj = game.world.objectives[name]
            game.send(tr("commands.scoreboard.players.list.entity.entry", obj.formatted(), value))
        return len(scores)

    return run


def _enable(game: Game) -> Callable[[Ctx, Source], int]:
    """ScoreboardCommand.enableTrigger: getOrCreatePlayerScore (a new score is 0 and locked),
    unlock the locked ones; nothing unlocked fails."""

    def run(ctx: Ctx, source: Source) -> int:
        targets = holders(game, source, ctx["targets"])
        obj = get_objective(game, ctx["objective"])
        if obj.criteria != "trigger":
            raise CommandSyntaxError(tr("commands.scoreboard.players.enable.invalid"))
        changed = 0
        for h in targets:
            game.world.scores.setdefault(h.name, {}).setdefault(obj.name, 0)
            opened = game.world.unlocked.setdefault(h.name, set())
            if obj.name not in opened:
                opened.add(obj.name)
                changed += 1
        if changed == 0:
            raise CommandSyntaxError(tr("commands.scoreboard.players.enable.failed"))
        game.send(
            tr(
                "commands.scoreboard.players.enable.success.single",
                obj.formatted(),
                targets[0].display,
            )
            if len(targets) == 1
            else tr(
                "commands.scoreboard.players.enable.success.multiple", obj.formatted(), len(targets)
            )
        )
        return changed

    return run


def player_trigger(game: Game, player: str, objective: str, value: int | None = None) -> str:
    """A player runs `/trigger <objective> [set <value>]` (TriggerCommand): the objective must
    be a trigger the player's score is unlocked for; the score is locked again. Returns the
    message the player sees."""
    p = game.world.players.get(player)
    if p is None:
        raise KeyError(player)
    obj = game.world.objectives.get(objective)
    if obj is None:
        return tr("arguments.objective.notFound", objective)
    if obj.criteria != "trigger":
        return tr("commands.trigger.failed.invalid")
    scores = game.world.scores.get(p.score_name, {})
    opened = game.world.unlocked.get(p.score_name, set())
    if obj.name not in scores or obj.name not in opened:
        return tr("commands.trigger.failed.unprimed")
    opened.discard(obj.name)
    if value is None:
        scores[obj.name] = _i32(scores[obj.name] + 1)
        return tr("commands.trigger.simple.success", obj.formatted())
    scores[obj.name] = value
    return tr("commands.trigger.set.success", obj.formatted(), value)


def register(root: Node, game: Game) -> None:
    """Add the scoreboard command."""
    multi = score_holder_parser(True)
    single = score_holder_parser(False)
    objectives = lit(
        "objectives",
        lit("list", run=_objectives_list(game)),
        lit(
            "add",
            arg(
                "objective",
                _word,
                arg(
                    "criteria",
                    _criteria,
                    arg("displayName", parse_component, run=_objectives_add(game)),
                    run=_objectives_add(game),
                ),
            ),
        ),
        lit("remove", arg("objective", _word, run=_objectives_remove(game))),
        lit(
            "modify",
            arg(
                "objective",
                _word,
                lit("displayname", arg("displayName", parse_component, run=_modify_name(game))),
            ),
        ),
        lit(
            "setdisplay",
            arg(
                "slot",
                _slot,
                arg("objective", _word, run=_setdisplay(game, True)),
                run=_setdisplay(game, False),
            ),
        ),
    )

    def change(how: str) -> Node:
        return lit(
            how,
            arg(
                "targets",
                multi,
                arg("objective", _word, arg("score", _int, run=_change(game, how))),
            ),
        )

    players = lit(
        "players",
        lit("list", arg("target", single, run=_list(game, True)), run=_list(game, False)),
        change("set"),
        change("add"),
        change("remove"),
        lit(
            "reset",
            arg(
                "targets",
                multi,
                arg("objective", _word, run=_reset(game, True)),
                run=_reset(game, False),
            ),
        ),
        lit("get", arg("target", single, arg("objective", _word, run=_get(game)))),
        lit("enable", arg("targets", multi, arg("objective", _word, run=_enable(game)))),
        lit(
            "operation",
            arg(
                "targets",
                multi,
                arg(
                    "targetObjective",
                    _word,
                    arg(
                        "operation",
                        _operation,
                        arg(
                            "source", multi, arg("sourceObjective", _word, run=_operation_run(game))
                        ),
                    ),
                ),
            ),
        ),
    )
    root.then(lit("scoreboard", objectives, players))


def matches_score(game: Game, source: Source, target: HolderArg, objective: str, rng: Any) -> bool:
    """`execute if score <target> <objective> matches <range>`."""
    h = _single_holder(game, source, target)
    obj = get_objective(game, objective)
    scores = game.world.scores.get(h.name, {})
    return obj.name in scores and bool(rng.matches(scores[obj.name]))


def compare_scores(
    game: Game, source: Source, target: HolderArg, tobj: str, op: str, other: HolderArg, oobj: str
) -> bool:
    """`execute if score <target> <obj> <op> <source> <obj>`: false when either score is unset."""
    a = _single_holder(game, source, target)
    b = _single_holder(game, source, other)
    o1 = get_objective(game, tobj)
    o2 = get_objective(game, oobj)
    sa = game.world.scores.get(a.name, {})
    sb = game.world.scores.get(b.name, {})
    if o1.name not in sa or o2.name not in sb:
        return False
    x, y = sa[o1.name], sb[o2.name]
    return {"<": x < y, "<=": x <= y, "=": x == y, ">": x > y, ">=": x >= y}[op]


__all__ += ["compare_scores", "matches_score", "parse_int_range"]
