"""What every room kind shares about a round: recording a win (time, moves, best time).

The ceremony itself is `Feedback.celebration`; the rooms schedule the next puzzle after
`on_win.next_puzzle_after_s`.
"""

from __future__ import annotations

from typing import Protocol

from controller.runtime.state import Solve

__all__ = ["Round", "record_win"]


class Round(Protocol):
    """The round counters of a room's state (pipes `RoomState`, paint `PaintState`)."""

    moves: int
    started_at: float
    solved_at: float | None
    solves: list[Solve]


def record_win(state: Round, seed: int | None, now: float) -> tuple[float, float]:
    """Mark the round solved at `now` and add it to the solves; returns its seconds and the
    best time of all solves."""
    seconds = now - state.started_at
    state.solved_at = now
    state.solves.append(Solve(seed, round(seconds, 3), state.moves, now))
    return seconds, min(s.seconds for s in state.solves)
