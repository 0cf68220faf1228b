"""Which turn `/trigger pipes_undo` takes back (pure: no I/O).

The room keeps its recent turns by tile, one *group* per read that found the tile turned (the
clicks of one poll: one turn, or a few clockwise clicks in quick succession). The data pack
notes on each frame the number of its last clicker and how many marks in a row that clicker
gave it (`controller.world.turns.WHO`, `RUN`; docs/datapack.md, "Who clicked"). A player owns
the newest `run` groups of each frame whose last clicker it is; its undo takes back the newest
turn among them. A tile someone else turned since is that player's: the older turns on it stay
(docs/in-game.md, "Undo").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["GROUPS_PER_TILE", "Kind", "Turn", "TurnHistory", "undone_rotation"]

Kind = Literal["cw", "ccw", "lock"]
GROUPS_PER_TILE = 16  # the reads of one tile kept for undo, newest last


@dataclass(frozen=True)
class Turn:
    """One click's turn of one tile: a quarter clockwise, a quarter back, or a lock toggled;
    `seq` orders every turn of the room."""

    tile: int
    kind: Kind
    seq: int


def undone_rotation(kind: Kind, rotation: int) -> int:
    """The rotation that takes back `kind` from a tile at `rotation`: one quarter the other
    way; a lock leaves the rotation as it is (it is toggled back)."""
    if kind == "cw":
        return (rotation - 1) % 4
    if kind == "ccw":
        return (rotation + 1) % 4
    return rotation


class TurnHistory:
    """The room's recent turns, by tile and read."""

    def __init__(self, groups_per_tile: int = GROUPS_PER_TILE) -> None:
        self.groups_per_tile = groups_per_tile
        self._tiles: dict[int, list[list[Turn]]] = {}  # tile -> its groups, oldest first
        self._seq = 0

    def record(self, tile: int, kinds: Sequence[Kind]) -> None:
        """One read found `tile` turned by `kinds`, in click order (one group)."""
        group = []
        for kind in kinds:
            self._seq += 1
            group.append(Turn(tile, kind, self._seq))
        groups = self._tiles.setdefault(tile, [])
        groups.append(group)
        del groups[: -self.groups_per_tile]

    def clear(self) -> None:
        """Forget every turn (a new puzzle, a restart)."""
        self._tiles.clear()

    def last_of(self, owned: Mapping[int, int]) -> Turn | None:
        """The turn an undo takes back for a player owning `owned` (tile → how many of the
        tile's newest groups are the player's): the newest turn left in them, or None."""
        best: Turn | None = None
        for tile, run in owned.items():
            groups = self._tiles.get(tile, [])
            mine = groups[len(groups) - min(max(run, 0), len(groups)) :]
            left = [group[-1] for group in mine if group]
            if left and (best is None or left[-1].seq > best.seq):
                best = left[-1]
        return best

    def take(self, turn: Turn) -> None:
        """Remove `turn` (undone). Its group stays, empty or not, so that the pack's count of
        a player's groups in a row still lines up with the room's."""
        for group in self._tiles.get(turn.tile, []):
            if group and group[-1] == turn:
                group.pop()
                return

    def __len__(self) -> int:
        """How many turns are kept."""
        return sum(len(g) for groups in self._tiles.values() for g in groups)
