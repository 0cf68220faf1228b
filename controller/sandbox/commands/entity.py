"""summon, kill, tag and the entity-argument helpers shared by other commands.

Feedback: docs/server-behaviour.md, "Feedback: summon", "Feedback: kill", "Feedback: tag".
"""

from __future__ import annotations

import uuid as uuidlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from nbtlib import tag as nbt

from ..arguments import Coordinates, parse_compound, parse_identifier, parse_vec3
from ..entities import Entity, Player, create_entity, uuid_from_ints
from ..profile import current_profile
from ..reader import CommandSyntaxError, StringReader
from ..registry import registry, strip_namespace, tr
from ..selectors import EntitySelector, parse_selector
from . import Ctx, Node, Source, arg, lit

if TYPE_CHECKING:
    from ..game import Game

__all__ = [
    "entities_parser",
    "get_entities",
    "get_entity",
    "get_optional_entities",
    "get_players",
    "normalize_entity_nbt",
    "register",
]


def entities_parser(
    single: bool = False, players: bool = False
) -> Callable[[StringReader], EntitySelector]:
    """EntityArgument parsers; `toomany` resets the cursor to 0 ("Single-entity arguments")."""

    def parse(reader: StringReader) -> EntitySelector:
        sel = parse_selector(reader)
        if sel.max_results > 1 and single:
            reader.cursor = 0
            key = "argument.player.toomany" if players else "argument.entity.toomany"
            raise reader.error(tr(key))
        if sel.includes_entities and players and not sel.is_self:
            reader.cursor = 0
            raise reader.error(tr("argument.player.entities"))
        return sel

    return parse


def get_optional_entities(game: Game, source: Source, sel: EntitySelector) -> list[Entity]:
    """EntityArgument.getOptionalEntities."""
    return sel.find(source, game)


def get_entities(game: Game, source: Source, sel: EntitySelector) -> list[Entity]:
    """EntityArgument.getEntities: `No entity was found` when empty."""
    found = sel.find(source, game)
    if not found:
        raise CommandSyntaxError(tr("argument.entity.notfound.entity"))
    return found


def get_entity(game: Game, source: Source, sel: EntitySelector) -> Entity:
    """EntityArgument.getEntity: exactly one."""
    found = sel.find(source, game)
    if not found:
        raise CommandSyntaxError(tr("argument.entity.notfound.entity"))
    if len(found) > 1:
        raise CommandSyntaxError(tr("argument.entity.toomany"))
    return found[0]


def get_players(game: Game, source: Source, sel: EntitySelector) -> list[Player]:
    """EntityArgument.getPlayers: `No player was found` when empty."""
    found = [e for e in sel.find(source, game) if isinstance(e, Player)]
    if not found:
        raise CommandSyntaxError(tr("argument.entity.notfound.player"))
    return found


def normalize_entity_nbt(c: nbt.Compound) -> nbt.Compound:
    """Codec round trips on load: plain names become strings (from 1.21.5, where a name is
    SNBT), items get an Int count."""
    name = c.get("CustomName")
    snbt_names = current_profile().text_form == "snbt"
    if snbt_names and isinstance(name, nbt.Compound) and set(name.keys()) == {"text"}:
        c["CustomName"] = nbt.String(str(name["text"]))
    item = c.get("Item")
    if isinstance(item, nbt.Compound) and "id" in item:
        ident = str(item["id"])
        fixed = nbt.Compound()
        fixed["id"] = nbt.String(ident if ":" in ident else "minecraft:" + ident)
        fixed["count"] = nbt.Int(int(item.get("count", 1)))
        comps = item.get("components")
        if isinstance(comps, nbt.Compound) and len(comps):
            fixed["components"] = comps
        c["Item"] = fixed
    return c


def _entity_type(reader: StringReader) -> str:
    """ResourceArgument<EntityType>: unknown ids fail at parse time."""
    ident = parse_identifier(reader)
    if not ident.startswith("minecraft:") or strip_namespace(ident) not in registry().entities:
        raise reader.error(tr("argument.resource.not_found", ident, "minecraft:entity_type"))
    return ident


def _summon(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        type_id: str = ctx["entity"]
        et = registry().entities[strip_namespace(type_id)]
        if not et.summonable:
            raise CommandSyntaxError(tr("entity.not_summonable", type_id))
        coords: Coordinates | None = ctx.get("pos")
        pos = (
            coords.resolve(source.pos, source.rot, source.anchor_pos)
            if coords is not None
            else source.pos
        )
        if abs(pos[0]) >= 30_000_000 or abs(pos[2]) >= 30_000_000 or abs(pos[1]) >= 20_000_000:
            raise CommandSyntaxError(tr("commands.summon.invalidPosition"))
        data = nbt.Compound(ctx.get("nbt") or nbt.Compound())
        world = game.world
        uid: uuidlib.UUID = uuidlib.uuid4()
        given = data.get("UUID")
        if isinstance(given, nbt.IntArray) and len(given) == 4:
            uid = uuid_from_ints([int(v) for v in given])
        e = create_entity(type_id, uid, source.dimension)
        e.load_nbt(normalize_entity_nbt(data))
        e.place(*pos)
        if uid in world.entities:
            raise CommandSyntaxError(tr("commands.summon.failed.uuid"))
        world.add_entity(e)
        world.flush_sounds(e)  # played while loading, before the entity was moved into place
        game.send(tr("commands.summon.success", e.display_name))
        return 1

    return run


def _kill(game: Game, default_self: bool) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        if default_self:
            if source.entity is None:
                raise CommandSyntaxError(tr("permissions.requires.entity"))
            targets = [source.entity]
        else:
            targets = get_entities(game, source, ctx["targets"])
        for e in targets:
            if not isinstance(e, Player):
                game.world.remove_entity(e)
        if len(targets) == 1:
            game.send(tr("commands.kill.success.single", targets[0].display_name))
        else:
            game.send(tr("commands.kill.success.multiple", len(targets)))
        return len(targets)

    return run


def _word(reader: StringReader) -> str:
    return reader.read_unquoted_string()


def _tag_change(game: Game, add: bool) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        targets = get_entities(game, source, ctx["targets"])
        name: str = ctx["name"]
        changed = sum(1 for e in targets if (e.add_tag(name) if add else e.remove_tag(name)))
        if changed == 0:
            raise CommandSyntaxError(
                tr("commands.tag.add.failed" if add else "commands.tag.remove.failed")
            )
        word = "add" if add else "remove"
        if len(targets) == 1:
            game.send(tr(f"commands.tag.{word}.success.single", name, targets[0].display_name))
        else:
            game.send(tr(f"commands.tag.{word}.success.multiple", name, len(targets)))
        return changed

    return run


def _tag_list(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        from ..entities import java_hash_order

        targets = get_entities(game, source, ctx["targets"])
        tags: list[str] = []
        for e in targets:
            for t in e.tags:
                if t not in tags:
                    tags.append(t)
        text = ", ".join(java_hash_order(tags))
        if len(targets) == 1:
            name = targets[0].display_name
            if not tags:
                game.send(tr("commands.tag.list.single.empty", name))
            else:
                game.send(tr("commands.tag.list.single.success", name, len(tags), text))
        elif not tags:
            game.send(tr("commands.tag.list.multiple.empty", len(targets)))
        else:
            game.send(tr("commands.tag.list.multiple.success", len(targets), len(tags), text))
        return len(tags)

    return run


def register(root: Node, game: Game) -> None:
    """Add summon, kill and tag."""
    root.then(
        lit(
            "summon",
            arg(
                "entity",
                _entity_type,
                arg(
                    "pos",
                    parse_vec3,
                    arg("nbt", parse_compound, run=_summon(game)),
                    run=_summon(game),
                ),
                run=_summon(game),
            ),
        )
    )
    root.then(
        lit(
            "kill", arg("targets", entities_parser(), run=_kill(game, False)), run=_kill(game, True)
        )
    )
    root.then(
        lit(
            "tag",
            arg(
                "targets",
                entities_parser(),
                lit("add", arg("name", _word, run=_tag_change(game, True))),
                lit("remove", arg("name", _word, run=_tag_change(game, False))),
                lit("list", run=_tag_list(game)),
            ),
        )
    )
