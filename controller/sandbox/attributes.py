"""Entity attributes as each release has them: the registry and a player's base values.

The data is ``data/attributes.json`` (steps by release, each with its source); the behaviour of
the `attribute` command that reads it is in docs/server-behaviour.md, "Versions: the attribute
command".
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller import versions
from controller.versions import Release

__all__ = ["AttributeType", "attribute_names", "attributes_of"]

_DATA = Path(__file__).with_name("data") / "attributes.json"


@dataclass(frozen=True)
class AttributeType:
    """A RangedAttribute: its id, description key, default and bounds."""

    id: str  # minecraft:max_health
    description: str  # attribute.name.max_health
    default: float
    low: float
    high: float

    def sanitize(self, value: float) -> float:
        """RangedAttribute.sanitizeValue: NaN becomes the minimum, anything else is clamped."""
        if math.isnan(value):
            return self.low
        return min(max(value, self.low), self.high)


@functools.cache
def _data() -> Mapping[str, Any]:
    with _DATA.open(encoding="utf-8") as fh:
        doc: dict[str, Any] = json.load(fh)
    return doc


def _step(release: Release) -> Mapping[str, Any]:
    chosen: Mapping[str, Any] | None = None
    for step in _data()["steps"]:
        first = versions.parse_number(str(step["from"]))
        assert first is not None, step["from"]
        if release.at_least(first):
            chosen = step
    assert chosen is not None, release
    return chosen


def attributes_of(release: Release) -> tuple[Mapping[str, AttributeType], Mapping[str, float]]:
    """The attribute registry of `release` (by id) and a player's base value of each attribute
    a player has."""
    step = _step(release)
    registry = {
        ident: AttributeType(ident, str(key), float(default), float(low), float(high))
        for ident, (key, default, low, high) in step["registry"].items()
    }
    player = {ident: float(base) for ident, base in step["player"].items()}
    return registry, player


def attribute_names() -> Mapping[str, str]:
    """The en_us text of every description key (the same in every release that has it)."""
    names: dict[str, str] = _data()["names"]
    return names
