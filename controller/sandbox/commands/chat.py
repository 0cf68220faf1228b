"""title, tellraw, playsound, particle, say, list, gamerule, time query.

Feedback: docs/server-behaviour.md, "Feedback: title and tellraw" and "Empty replies".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..arguments import Coordinates, nbt_to_json, parse_component, parse_identifier, parse_vec3
from ..entities import plain_text
from ..reader import CommandSyntaxError, StringReader
from ..registry import registry, strip_namespace, tr
from . import Ctx, Custom, Node, Source, arg, lit
from .entity import entities_parser, get_players

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["register"]

_SOUND_SOURCES = (
    "master",
    "music",
    "record",
    "weather",
    "block",
    "hostile",
    "neutral",
    "player",
    "ambient",
    "voice",
    "ui",
)
_MAX_PLAYERS = 20


def _text(component: Any) -> str:
    return plain_text(nbt_to_json(component))


def _time(minimum: int) -> Callable[[StringReader], int]:
    """TimeArgument: a number with an optional unit t, s or d."""

    def parse(reader: StringReader) -> int:
        value = reader.read_float()
        unit = reader.read_unquoted_string()
        mult = {"": 1, "t": 1, "s": 20, "d": 24000}.get(unit)
        if mult is None:
            raise reader.error(tr("argument.time.invalid_unit"))
        ticks = round(value * mult)
        if ticks < minimum:
            raise reader.error(tr("argument.time.tick_count_too_low", minimum, ticks))
        return ticks

    return parse


def _title(game: Game, kind: str) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        players = get_players(game, source, ctx["targets"])
        entry: dict[str, object] = {"type": kind, "tick": game.world.tick_count}
        if kind in ("title", "subtitle", "actionbar"):
            entry["text"] = _text(ctx["title"])
            key = f"commands.title.show.{kind}."
        elif kind == "times":
            entry.update(fade_in=ctx["fadeIn"], stay=ctx["stay"], fade_out=ctx["fadeOut"])
            key = "commands.title.times."
        elif kind == "clear":
            key = "commands.title.cleared."
        else:
            key = "commands.title.reset."
        for p in players:
            p.inbox.append(dict(entry))
        if len(players) == 1:
            game.send(tr(key + "single", players[0].display_name))
        else:
            game.send(tr(key + "multiple", len(players)))
        return len(players)

    return run


def _tellraw(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        players = get_players(game, source, ctx["targets"])
        text = _text(ctx["message"])
        for p in players:
            p.inbox.append({"type": "tellraw", "text": text, "tick": game.world.tick_count})
        return len(players)

    return run


def _playsound(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        players = get_players(game, source, ctx["targets"])
        sound: str = ctx["sound"]
        coords: Coordinates | None = ctx.get("pos")
        pos = (
            coords.resolve(source.pos, source.rot, source.anchor_pos)
            if coords is not None
            else source.pos
        )
        volume = float(ctx.get("volume", 1.0))
        pitch = float(ctx.get("pitch", 1.0))
        min_volume = float(ctx.get("minVolume", 0.0))
        reach = 16.0 * volume if volume > 1.0 else 16.0
        heard = 0
        names: list[str] = []
        for p in players:
            d2 = sum((pos[i] - p.pos[i]) ** 2 for i in range(3))
            if d2 > reach * reach and min_volume <= 0.0:
                continue
            p.inbox.append(
                {
                    "type": "sound",
                    "sound": sound,
                    "source": ctx["source"],
                    "pos": pos,
                    "volume": volume if d2 <= reach * reach else min_volume,
                    "pitch": pitch,
                    "tick": game.world.tick_count,
                }
            )
            heard += 1
            names.append(p.name)
        game.world.sounds.append(
            {
                "sound": sound,
                "source": ctx["source"],
                "pos": pos,
                "dimension": source.dimension,
                "volume": volume,
                "pitch": pitch,
                "tick": game.world.tick_count,
                "entity": None,
                "heard_by": names,
            }
        )
        if heard == 0:
            raise CommandSyntaxError(tr("commands.playsound.failed"))
        if len(players) == 1:
            game.send(tr("commands.playsound.success.single", sound, players[0].display_name))
        else:
            game.send(tr("commands.playsound.success.multiple", sound, len(players)))
        return heard

    return run


def _particle_id(reader: StringReader) -> str:
    ident = parse_identifier(reader)
    if not ident.startswith("minecraft:") or strip_namespace(ident) not in registry().particles:
        raise reader.error(tr("particle.notFound", ident))
    return ident


def _particle(game: Game, force: bool = False) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        coords: Coordinates | None = ctx.get("pos")
        pos = (
            coords.resolve(source.pos, source.rot, source.anchor_pos)
            if coords is not None
            else source.pos
        )
        viewers = list(game.world.players.values())
        if ctx.has("viewers"):
            viewers = get_players(game, source, ctx["viewers"])
        limit = 512.0 if force else 32.0
        seen = 0
        for p in viewers:
            if p.dimension != source.dimension:
                continue
            if sum((pos[i] - p.pos[i]) ** 2 for i in range(3)) <= limit * limit:
                seen += 1
        if seen == 0:
            raise CommandSyntaxError(tr("commands.particle.failed"))
        game.send(tr("commands.particle.success", ctx["name"]))
        return seen

    return run


def _say(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        name = source.entity.display_name if source.entity is not None else "Rcon"
        text = tr("chat.type.announcement", name, ctx["message"])
        for p in game.world.players.values():
            p.inbox.append({"type": "chat", "text": text, "tick": game.world.tick_count})
        game.world.events.append({"type": "say", "text": text, "tick": game.world.tick_count})
        return 1

    return run


def _greedy(reader: StringReader) -> str:
    text = reader.remaining
    reader.cursor = len(reader.string)
    return text


def _list(game: Game, uuids: bool) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        players = list(game.world.players.values())
        if uuids:
            names = [tr("commands.list.nameAndId", p.name, str(p.uuid)) for p in players]
        else:
            names = [p.display_name for p in players]
        game.send(tr("commands.list.players", len(players), _MAX_PLAYERS, ", ".join(names)))
        return len(players)

    return run


def _gamerule(game: Game, rule: str, setting: bool) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        rules = game.world.gamerules
        if setting:
            rules[rule] = ctx["value"]
            value = rules[rule]
            game.send(tr("commands.gamerule.set", rule, _rule_str(value)))
        else:
            value = rules[rule]
            game.send(tr("commands.gamerule.query", rule, _rule_str(value)))
        return int(value)

    return run


def _rule_str(value: bool | int) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _bool(reader: StringReader) -> bool:
    start = reader.cursor
    text = reader.read_unquoted_string()
    if not text:
        raise reader.error(tr("parsing.bool.expected"))
    if text not in ("true", "false"):
        reader.cursor = start
        raise reader.error(tr("parsing.bool.invalid", text))
    return text == "true"


def _int_min(minimum: int) -> Callable[[StringReader], int]:
    def parse(reader: StringReader) -> int:
        start = reader.cursor
        v = reader.read_int()
        if v < minimum:
            reader.cursor = start
            raise reader.error(tr("argument.integer.low", minimum, v))
        return v

    return parse


def _int_range(low: int, high: int) -> Callable[[StringReader], int]:
    """IntegerArgumentType.integer(low, high)."""

    def parse(reader: StringReader) -> int:
        start = reader.cursor
        v = reader.read_int()
        if v < low:
            reader.cursor = start
            raise reader.error(tr("argument.integer.low", low, v))
        if v > high:
            reader.cursor = start
            raise reader.error(tr("argument.integer.big", high, v))
        return v

    return parse


def _float(reader: StringReader) -> float:
    return reader.read_float()


def _time_query(game: Game, what: str) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        t = game.world.tick_count
        if what == "gametime":
            value = t
            # TimeCommand: its own key in 26.1, `commands.time.query` in releases without it
            key = "commands.time.query.gametime"
            game.send(
                tr(key if key in game.profile.registry.lang else "commands.time.query", value)
            )
        elif what == "daytime":
            value = t % 24000
            game.send(tr("commands.time.query", value))
        else:
            value = t // 24000
            game.send(tr("commands.time.query", value))
        return value

    return run


def register(root: Node, game: Game) -> None:
    """Add the chat/feedback commands, list, gamerule and time."""
    players = entities_parser(players=True)
    root.then(
        lit(
            "title",
            arg(
                "targets",
                players,
                lit("clear", run=_title(game, "clear")),
                lit("reset", run=_title(game, "reset")),
                lit("title", arg("title", parse_component, run=_title(game, "title"))),
                lit("subtitle", arg("title", parse_component, run=_title(game, "subtitle"))),
                lit("actionbar", arg("title", parse_component, run=_title(game, "actionbar"))),
                lit(
                    "times",
                    arg(
                        "fadeIn",
                        _time(0),
                        arg("stay", _time(0), arg("fadeOut", _time(0), run=_title(game, "times"))),
                    ),
                ),
            ),
        )
    )
    root.then(
        lit("tellraw", arg("targets", players, arg("message", parse_component, run=_tellraw(game))))
    )
    run_sound = _playsound(game)
    sources = [
        lit(
            s,
            arg(
                "targets",
                players,
                arg(
                    "pos",
                    parse_vec3,
                    arg(
                        "volume",
                        _float,
                        arg(
                            "pitch", _float, arg("minVolume", _float, run=run_sound), run=run_sound
                        ),
                        run=run_sound,
                    ),
                    run=run_sound,
                ),
                run=run_sound,
            ),
        )
        for s in _SOUND_SOURCES
    ]
    for node in sources:
        node.command = None
    sound_arg = arg("sound", parse_identifier, *sources)

    root.then(lit("playsound", sound_arg))
    for node in sources:
        _tag_source(node)
    run_particle = _particle(game)
    root.then(
        lit(
            "particle",
            arg(
                "name",
                _particle_id,
                arg(
                    "pos",
                    parse_vec3,
                    arg(
                        "delta",
                        lambda r: parse_vec3(r, center=False),
                        arg(
                            "speed",
                            _float,
                            arg(
                                "count",
                                _int_min(0),
                                lit(
                                    "force",
                                    arg("viewers", players, run=_particle(game, True)),
                                    run=_particle(game, True),
                                ),
                                lit(
                                    "normal",
                                    arg("viewers", players, run=run_particle),
                                    run=run_particle,
                                ),
                                run=run_particle,
                            ),
                        ),
                    ),
                    run=run_particle,
                ),
                run=run_particle,
            ),
        )
    )
    root.then(lit("say", arg("message", _greedy, run=_say(game))))
    root.then(lit("list", lit("uuids", run=_list(game, True)), run=_list(game, False)))
    rules = lit("gamerule")
    profile = game.profile
    for rule in profile.gamerules:  # the release's rules ("Versions: gamerule names")
        name = rule.name
        parser = _bool if isinstance(rule.default, bool) else _int_range(rule.low, rule.high)
        literals = (name, "minecraft:" + name) if profile.namespaced_gamerules else (name,)
        for literal in literals:
            rules.then(
                lit(
                    literal,
                    arg("value", parser, run=_gamerule(game, name, True)),
                    run=_gamerule(game, name, False),
                )
            )
    root.then(rules)
    root.then(
        lit(
            "time",
            lit(
                "query",
                lit("daytime", run=_time_query(game, "daytime")),
                lit("gametime", run=_time_query(game, "gametime")),
                lit("day", run=_time_query(game, "day")),
            ),
        )
    )


def _tag_source(node: Node) -> None:
    """Record the sound source literal in the context when its subtree runs."""
    name = node.name

    def wrap(cmd: Callable[[Ctx, Source], int]) -> Callable[[Ctx, Source], int]:
        def inner(ctx: Ctx, source: Source) -> int:
            ctx.args["source"] = name
            return cmd(ctx, source)

        return inner

    stack = list(node.children.values())
    seen: set[int] = set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if n.command is not None and not isinstance(n.command, Custom):
            n.command = wrap(n.command)
        stack.extend(n.children.values())
