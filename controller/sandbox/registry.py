"""Game data of Minecraft 26.1 (blocks, entities, items, en_us strings) and its lookups.

Everything comes from ``data/registry-26.1.json`` (PrismarineJS/minecraft-data 26.1 plus the 26.1
decompile), so that block states, entity names and feedback strings are never hand-typed. An
older release plays with the same data minus the ids it does not have and with its own strings
(:meth:`Registry.restricted`, built once per release by ``controller.sandbox.profile``).
:func:`registry` and :func:`tr` answer for the release the running game plays
(``controller.sandbox.current``), 26.1 outside a game.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.lang import translate

from .current import CURRENT

__all__ = [
    "BlockType",
    "EntityType",
    "Registry",
    "base_registry",
    "registry",
    "tr",
    "strip_namespace",
]

_DATA = Path(__file__).with_name("data") / "registry-26.1.json"


def strip_namespace(ident: str) -> str:
    """`minecraft:melon` → `melon`; other namespaces are kept."""
    return ident[10:] if ident.startswith("minecraft:") else ident


@dataclass(frozen=True)
class BlockType:
    """A block id with its properties (allowed values in registry order) and default state."""

    name: str
    properties: tuple[tuple[str, tuple[str, ...]], ...]
    default: tuple[tuple[str, str], ...]
    shape: str

    @property
    def solid(self) -> bool:
        """Approximation of BlockState.isSolid(): a full collision cube (registry shape `full`)."""
        return self.shape == "full"

    def values(self, prop: str) -> tuple[str, ...] | None:
        """The allowed values of a property, or None when the block has no such property."""
        for name, vals in self.properties:
            if name == prop:
                return vals
        return None


@dataclass(frozen=True)
class EntityType:
    """An entity type id with its size and whether /summon accepts it."""

    name: str
    width: float
    height: float
    summonable: bool


class Registry:
    """The loaded 26.1 game data."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.lang: dict[str, str] = data["lang"]
        self.items: frozenset[str] = frozenset(data["items"])
        self.particles: frozenset[str] = frozenset(data["particles"])
        self.components: frozenset[str] = frozenset(data["components"])
        self.blocks: dict[str, BlockType] = {}
        for name, info in data["blocks"].items():
            props = tuple((p, tuple(vals)) for p, vals in info["p"])
            self.blocks[name] = BlockType(
                name, props, _decode_default(props, info["d"]), info["shape"]
            )
        self.entities: dict[str, EntityType] = {
            name: EntityType(name, float(e["w"]), float(e["h"]), bool(e["summon"]))
            for name, e in data["entities"].items()
        }

    def restricted(
        self,
        lang: Mapping[str, str],
        blocks: Iterable[str] = (),
        entities: Iterable[str] = (),
        particles: Iterable[str] = (),
    ) -> Registry:
        """This data without the given block, entity and particle ids, with another table."""
        other = copy.copy(self)
        other.lang = dict(lang)
        gone = set(blocks)
        other.blocks = {k: v for k, v in self.blocks.items() if k not in gone}
        gone = set(entities)
        other.entities = {k: v for k, v in self.entities.items() if k not in gone}
        other.particles = self.particles - frozenset(particles)
        return other

    def tr(self, key: str, *args: object) -> str:
        """Translate a lang key like vanilla (``controller.lang.translate``)."""
        return translate(self.lang, key, *args)

    def entity_name(self, type_id: str) -> str:
        """The en_us display name of an entity type (`Item Frame`)."""
        return self.tr("entity.minecraft." + strip_namespace(type_id))

    def block(self, ident: str) -> BlockType | None:
        """Look a block up by id, `minecraft:` optional."""
        if ":" in ident and not ident.startswith("minecraft:"):
            return None
        return self.blocks.get(strip_namespace(ident))


def _decode_default(
    props: tuple[tuple[str, tuple[str, ...]], ...], index: int
) -> tuple[tuple[str, str], ...]:
    """Decode a minecraft-data state index (first property most significant)."""
    out: list[tuple[str, str]] = []
    for name, vals in reversed(props):
        out.append((name, vals[index % len(vals)]))
        index //= len(vals)
    return tuple(reversed(out))


@functools.cache
def base_registry() -> Registry:
    """The 26.1 registry, loaded once."""
    with _DATA.open(encoding="utf-8") as fh:
        return Registry(json.load(fh))


def registry() -> Registry:
    """The registry of the release being played (26.1 when no game is running a call)."""
    playing = CURRENT.get()
    return playing.registry if playing is not None else base_registry()


def tr(key: str, *args: object) -> str:
    """Shortcut for ``registry().tr``."""
    return registry().tr(key, *args)
