"""Crouching players: the sneak key a client holds, and the pose that follows it.

A client sends its sneak key (`ServerboundPlayerCommandPacket` before 1.21.6, the input packet
from then on) and every interaction packet carries it too (`usingSecondaryAction`, which
`ServerGamePacketListenerImpl.handleInteract` hands to `setShiftKeyDown` before the click).
The pose follows at the player's next tick: `Player.updatePlayerPose` makes a player whose
shift key is down and who is not flying `CROUCHING` (room permitting), and the advancement
predicate's `flags.is_sneaking` tests that pose (`EntityFlagsPredicate.matches`:
`entity.isCrouching()`, `hasPose(Pose.CROUCHING)`). Sources: docs/datapack.md, "The
gestures". The sandbox models no flying and no ceiling: a spectator never crouches (it
always flies), anyone else does one tick after pressing the key.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["Poses"]


@dataclass
class Poses:
    """The sneak keys held and the crouching poses, by player name."""

    shift_down: set[str] = field(default_factory=set)
    crouching: set[str] = field(default_factory=set)

    def sneak(self, name: str, on: bool) -> None:
        """The client presses (or lets go of) its sneak key; the pose follows at the tick."""
        if on:
            self.shift_down.add(name)
        else:
            self.shift_down.discard(name)

    def tick(self, players: Iterable[tuple[str, str]]) -> None:
        """Player.updatePlayerPose for every (name, game mode) online."""
        self.crouching = {
            name for name, mode in players if name in self.shift_down and mode != "spectator"
        }

    def forget(self, name: str) -> None:
        """A player left: no key held, no pose."""
        self.shift_down.discard(name)
        self.crouching.discard(name)

    def is_crouching(self, name: str) -> bool:
        """Entity.isCrouching for a player."""
        return name in self.crouching
