"""attribute <target> <attribute> get [<scale>] | base set <value> | base get [<scale>] |
base reset (from 1.21.4): AttributeCommand of the release being played.

Only players have attributes in the sandbox (every other entity it models is not a
LivingEntity); `modifier …` is not modelled. docs/server-behaviour.md, "Versions: the attribute
command".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from controller.nbt._javanum import java_double_str

from ..arguments import parse_identifier
from ..attributes import AttributeType
from ..entities import CREATIVE_RANGE_BONUS, Entity, Player
from ..profile import current_profile
from ..reader import CommandSyntaxError, StringReader
from ..registry import tr
from . import Ctx, Node, Source, arg, lit
from .entity import entities_parser, get_entity

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["base_value", "java_int", "register", "value_of"]

CREATIVE_BLOCK_RANGE_BONUS = 0.5  # ServerPlayer.CREATIVE_BLOCK_INTERACTION_RANGE_MODIFIER
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


def _attribute(reader: StringReader) -> AttributeType:
    """ResourceArgument<Attribute>: the id is looked up while parsing; an unknown one fails with
    the cursor after it."""
    ident = parse_identifier(reader)
    found = current_profile().attributes.get(ident)
    if found is None:
        raise reader.error(tr("argument.resource.not_found", ident, "minecraft:attribute"))
    return found


def _double(reader: StringReader) -> float:
    """DoubleArgumentType.doubleArg(): any double."""
    return reader.read_float()


def java_int(value: float) -> int:
    """A Java `(int)` cast of a double: toward zero, NaN is 0, saturated at the int range."""
    if math.isnan(value):
        return 0
    if value >= _INT_MAX:
        return _INT_MAX
    if value <= _INT_MIN:
        return _INT_MIN
    return int(value)


def _living(target: Entity) -> Player:
    """getLivingEntity: `%s is not a valid entity for this command` for anything else."""
    if not isinstance(target, Player):
        raise CommandSyntaxError(tr("commands.attribute.failed.entity", target.plain_name))
    return target


def _has(player: Player, attribute: AttributeType) -> Player:
    """getEntityWithAttribute / getAttributeInstance: the player must have the attribute."""
    if attribute.id not in current_profile().player_attributes:
        raise CommandSyntaxError(
            tr("commands.attribute.failed.no_attribute", player.plain_name, _name(attribute))
        )
    return player


def _name(attribute: AttributeType) -> str:
    """getAttributeDescription: the attribute's translated name."""
    return tr(attribute.description)


def _is_interaction_range(attribute: AttributeType) -> bool:
    return attribute.id == current_profile().release.interaction_range_attribute


def base_value(player: Player, attribute: AttributeType) -> float:
    """AttributeInstance.getBaseValue."""
    if _is_interaction_range(attribute):
        return player.interaction_range_base
    return player.attribute_bases.get(
        attribute.id, current_profile().player_attributes[attribute.id]
    )


def _set_base(player: Player, attribute: AttributeType, value: float) -> None:
    if _is_interaction_range(attribute):
        player.interaction_range_base = value
    else:
        player.attribute_bases[attribute.id] = value


def value_of(player: Player, attribute: AttributeType) -> float:
    """AttributeInstance.getValue: the base plus the creative modifiers a player carries
    (ServerPlayer.updatePlayerAttributes), sanitized by the attribute's bounds."""
    value = base_value(player, attribute)
    if player.creative_range:
        if _is_interaction_range(attribute):
            value += CREATIVE_RANGE_BONUS
        elif attribute.id.endswith("block_interaction_range"):
            value += CREATIVE_BLOCK_RANGE_BONUS
    return attribute.sanitize(value)


def _target(game: Game, ctx: Ctx, source: Source) -> Entity:
    return get_entity(game, source, ctx["target"])


def _get(game: Game, base: bool) -> Callable[[Ctx, Source], int]:
    key = (
        "commands.attribute.base_value.get.success"
        if base
        else "commands.attribute.value.get.success"
    )

    def run(ctx: Ctx, source: Source) -> int:
        target = _target(game, ctx, source)
        attribute: AttributeType = ctx["attribute"]
        player = _has(_living(target), attribute)
        value = base_value(player, attribute) if base else value_of(player, attribute)
        scale: float = ctx.get("scale", 1.0)
        game.send(tr(key, _name(attribute), target.plain_name, java_double_str(value)))
        return java_int(value * scale)

    return run


def _set(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        target = _target(game, ctx, source)
        attribute: AttributeType = ctx["attribute"]
        value: float = ctx["value"]
        _set_base(_has(_living(target), attribute), attribute, value)
        name = _name(attribute)
        game.send(
            tr(
                "commands.attribute.base_value.set.success",
                name,
                target.plain_name,
                java_double_str(value),
            )
        )
        return 1

    return run


def _reset(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        """AttributeMap.resetBaseValue: back to the player's default base."""
        target = _target(game, ctx, source)
        attribute: AttributeType = ctx["attribute"]
        player = _has(_living(target), attribute)
        _set_base(player, attribute, current_profile().player_attributes[attribute.id])
        value = java_double_str(base_value(player, attribute))
        name = _name(attribute)
        game.send(tr("commands.attribute.base_value.reset.success", name, target.plain_name, value))
        return 1

    return run


def register(root: Node, game: Game) -> None:
    """Add attribute (its `base reset` from 1.21.4)."""
    base = lit(
        "base",
        lit("set", arg("value", _double, run=_set(game))),
        lit("get", arg("scale", _double, run=_get(game, True)), run=_get(game, True)),
    )
    if current_profile().attribute_base_reset:
        base.then(lit("reset", run=_reset(game)))
    root.then(
        lit(
            "attribute",
            arg(
                "target",
                entities_parser(single=True),
                arg(
                    "attribute",
                    _attribute,
                    lit("get", arg("scale", _double, run=_get(game, False)), run=_get(game, False)),
                    base,
                ),
            ),
        )
    )
