"""Which room frames a player can have clicked: the server's reach rule as marking radii (pure).

The server accepts a click on an entity while the player's eyes are closer to the entity's box
than the player's entity interaction range + 3 (docs/server-behaviour.md, "Entity interaction
reach"). A selector's `distance=` measures to the entity's position, the centre of a frame's box
("Item frames: bounding box"), so the frames a click can have turned are those whose position
lies within range + 3 + the box's half diagonal of the eyes. `marks` gives that radius for
survival and adventure players (range 3) and for creative ones (3 + 2), rounded up to a
hundredth; `poll_reach` from the configuration can only widen it (docs/turn-detection.md,
"Reach").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = [
    "ENTITY_INTERACTION_RANGE",
    "CREATIVE_BONUS",
    "INTERACT_BUFFER",
    "FRAME_HALF_DIAGONAL",
    "Marks",
    "marks",
]

ENTITY_INTERACTION_RANGE = 3.0  # the attribute's default (Player.createAttributes)
CREATIVE_BONUS = 2.0  # ServerPlayer's creative_mode_entity_range modifier
INTERACT_BUFFER = 3.0  # ServerGamePacketListenerImpl.handleInteract: range + 3.0
# A frame holding a map: a 1 × 1 × 1/16 box centred on the frame's position (0.75 wide empty).
FRAME_HALF_DIAGONAL = math.sqrt(0.5**2 + 0.5**2 + (0.0625 / 2) ** 2)


def _radius(entity_range: float) -> float:
    """The marking radius from the eyes for one interaction range, rounded up to 0.01."""
    exact = entity_range + INTERACT_BUFFER + FRAME_HALF_DIAGONAL
    return math.ceil(round(exact * 100, 6)) / 100


@dataclass(frozen=True)
class Marks:
    """Marking radii from a player's eyes: frames within them may have been clicked."""

    survival: float  # survival and adventure players
    creative: float

    @property
    def uniform(self) -> bool:
        """Whether one radius serves every game mode (a `poll_reach` at least the creative one)."""
        return self.survival == self.creative


def marks(poll_reach: float | None = None) -> Marks:
    """The server's rule per game mode, each radius raised to `poll_reach` when that is larger."""
    floor = poll_reach or 0.0
    survival = _radius(ENTITY_INTERACTION_RANGE)
    creative = _radius(ENTITY_INTERACTION_RANGE + CREATIVE_BONUS)
    return Marks(max(survival, floor), max(creative, floor))
