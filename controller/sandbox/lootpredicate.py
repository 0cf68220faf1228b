"""Inline loot predicates, as `execute if|unless predicate <inline>` reads and tests them.

`ResourceOrIdArgument.lootPredicate` reads an SNBT value: a compound is an inline predicate,
decoded by the `LootItemCondition` codec (its `condition` key picks the type); a bare
identifier names a predicate file of a data pack. The sandbox models what pipesctl sends:
one inline `minecraft:entity_properties` condition on `this` (the command's source entity)
with an entity predicate of `flags` (and `equipment.mainhand.items`), the same parts the
sandbox evaluates in advancement criteria. Testing it reads the entity's pose and held item
only: nothing is serialized (`EntityFlagsPredicate.matches`). Predicate files, other
condition types and other entity predicate parts are not modelled (unverified): the command
fails with a message that says so. docs/sandbox-datapacks.md, "§13 Inline predicates".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.nbt import snbt

from .datapacks import PlayerCondition, _player_condition
from .profile import current_profile
from .reader import CommandSyntaxError, StringReader

__all__ = ["EntityProperties", "parse_loot_predicate"]

_ENTITY_PROPERTIES = "minecraft:entity_properties"


@dataclass(frozen=True)
class EntityProperties:
    """`entity_properties` on `this`: the entity predicate's checked parts."""

    player: PlayerCondition


def _plain(value: Any) -> Any:
    """NBT as the codec reads it through NbtOps: a compound as a dict, a list as a list, a
    byte 0/1 as a boolean (NbtOps.getBooleanValue reads any number: not 0 is true), a string
    as itself."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int | float):
        return value != 0
    return value


def _not_modelled(reader: StringReader, what: str) -> CommandSyntaxError:
    return reader.error(f"Sandbox: {what} in a loot predicate is not modelled (unverified)")


def parse_loot_predicate(reader: StringReader) -> EntityProperties:
    """Read one inline predicate (ResourceOrIdArgument.parseInlineOrId, then the codec)."""
    if not reader.can_read() or reader.peek() != "{":
        raise _not_modelled(reader, "a predicate file")
    start = reader.cursor
    doc = _plain(snbt.parse_tag(reader))
    condition = doc.get("condition")
    if isinstance(condition, str) and ":" not in condition:
        condition = "minecraft:" + condition
    if condition != _ENTITY_PROPERTIES:
        reader.cursor = start
        raise _not_modelled(reader, f"condition {condition!r}")
    if doc.get("entity") != "this" or set(doc) - {"condition", "entity", "predicate"}:
        reader.cursor = start
        raise _not_modelled(reader, "an entity_properties target other than `this`")
    try:
        player = _player_condition(doc.get("predicate", {}), {}, current_profile().release)
    except ValueError as exc:
        reader.cursor = start
        raise _not_modelled(reader, str(exc)) from None
    if player.unsupported:
        reader.cursor = start
        raise _not_modelled(reader, ", ".join(player.unsupported))
    return EntityProperties(player)
