"""What the daemon tells an observer (the Prometheus metrics, docs/metrics.md): pure, no I/O.

The runtime reports facts where they happen (a command sent, a click applied, a repair, the
detection mode, a lease); `RoomWatch` turns a room's successive `RoomStatus` into moves and
solves, so the room kinds need no instrumentation of their own. Labels are the server and the
room only: no player ever becomes a label.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:  # (the link imports this module, and the room module imports the link)
    from controller.runtime.repairs import Repairs
    from controller.runtime.room import RoomStatus

__all__ = [
    "LeaseState",
    "Observer",
    "NullObserver",
    "NULL_OBSERVER",
    "REPAIR_KINDS",
    "repair_counts",
    "RoomWatch",
]

LeaseState = Literal["held", "lost", "released"]

# The kinds of `Repairs` a repair is counted by (its fields, in its own words).
REPAIR_KINDS = (
    "adopted_moves",
    "frames_summoned",
    "frames_fixed",
    "preloads_rebuilt",
    "blocks_fixed",
    "rebuilt",
)


class Observer(Protocol):
    """The facts the daemon reports; every method is cheap and never raises into the daemon."""

    def command_sent(self, server: str, seconds: float) -> None:
        """One RCON command went out and its reply came back after `seconds`."""
        ...

    def reconnected(self, server: str) -> None:
        """The server's connection was opened again after its first."""
        ...

    def clicked(self, server: str, room: str) -> None:
        """A player's turn of a frame was applied."""
        ...

    def moved(self, server: str, room: str, moves: int) -> None:
        """The room's move count grew by `moves`."""
        ...

    def solved(self, server: str, room: str, seconds: float) -> None:
        """The room's puzzle was solved in `seconds`."""
        ...

    def repaired(self, server: str, room: str, kind: str, count: int) -> None:
        """`count` things of `kind` (one of REPAIR_KINDS) were put right."""
        ...

    def progress(self, server: str, room: str, wet: int, total: int, solved: bool) -> None:
        """The room's water reaches `wet` of `total` tiles (a paint room: cells right)."""
        ...

    def detection(self, server: str, mode: str) -> None:
        """The server's turn detection is `mode` (`trigger` or `scan`)."""
        ...

    def lease(self, server: str, room: str, state: LeaseState) -> None:
        """The room's lease is held, lost to another daemon, or given back."""
        ...


class NullObserver:
    """Observes nothing (the default)."""

    def command_sent(self, server: str, seconds: float) -> None:
        """Nothing."""

    def reconnected(self, server: str) -> None:
        """Nothing."""

    def clicked(self, server: str, room: str) -> None:
        """Nothing."""

    def moved(self, server: str, room: str, moves: int) -> None:
        """Nothing."""

    def solved(self, server: str, room: str, seconds: float) -> None:
        """Nothing."""

    def repaired(self, server: str, room: str, kind: str, count: int) -> None:
        """Nothing."""

    def progress(self, server: str, room: str, wet: int, total: int, solved: bool) -> None:
        """Nothing."""

    def detection(self, server: str, mode: str) -> None:
        """Nothing."""

    def lease(self, server: str, room: str, state: LeaseState) -> None:
        """Nothing."""


NULL_OBSERVER = NullObserver()


def repair_counts(repairs: Repairs) -> dict[str, int]:
    """The non-zero counts of a reconcile's repairs by kind."""
    counts = {
        "adopted_moves": repairs.adopted_moves,
        "frames_summoned": repairs.frames_summoned,
        "frames_fixed": repairs.frames_fixed,
        "preloads_rebuilt": repairs.preloads_rebuilt,
        "blocks_fixed": repairs.blocks_fixed,
        "rebuilt": int(repairs.rebuilt),
    }
    return {kind: n for kind, n in counts.items() if n > 0}


class RoomWatch:
    """A room's status seen after each of its actions: the moves added and the solves.

    Moves count within one puzzle (a new puzzle starts at 0 moves); a solve is counted once,
    when a puzzle first shows solved, with its time from `solved_at` (or `now` when the room
    kind does not say). The first status seen is the baseline: nothing is counted for it.
    """

    def __init__(self, server: str, room: str, observer: Observer) -> None:
        self.server, self.room, self.observer = server, room, observer
        self.last: RoomStatus | None = None

    def see(self, status: RoomStatus | None, now: float) -> None:
        """Report what changed since the last status."""
        if status is None:
            return
        last, self.last = self.last, status
        self.observer.progress(self.server, self.room, status.progress, status.total, status.solved)
        if last is None:
            return
        same_puzzle = status.puzzle == last.puzzle and status.started_at == last.started_at
        gained = status.moves - last.moves if same_puzzle else status.moves
        if gained > 0:
            self.observer.moved(self.server, self.room, gained)
        if status.solved and not (same_puzzle and last.solved):
            end = status.solved_at if status.solved_at is not None else now
            self.observer.solved(self.server, self.room, max(0.0, end - status.started_at))
