"""Locks, the players shown the controls and the dealt rotations survive the state file; a new
puzzle keeps who was told and drops the locks; bad values are named (docs/world-format.md,
"Locked tiles"; docs/in-game.md, "Restart")."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from controller.puzzle.generators import generate
from controller.runtime.state import RoomState, StateError

ALEX = str(uuid.UUID(int=12345))


def test_locks_and_told_round_trip(tmp_path: Path) -> None:
    state = RoomState("lobby", generate(4, 4, seed=1), started_at=1.0)
    state.locks, state.told = {3, 15}, {ALEX}
    state.save(tmp_path / "lobby.json")
    again = RoomState.load(tmp_path / "lobby.json")
    assert again is not None and again.locks == {3, 15} and again.told == {ALEX}
    fresh = RoomState("lobby", generate(4, 4, seed=2), 2, started_at=2.0)
    fresh.carry_over(again)
    assert fresh.locks == set() and fresh.told == {ALEX}


def test_the_dealt_rotations_are_kept_for_a_restart(tmp_path: Path) -> None:
    board = generate(4, 4, seed=1)
    dealt = list(board.rotations)
    state = RoomState("lobby", board, started_at=1.0)
    assert state.start == dealt  # a new puzzle: as dealt
    board.rotations[0] = (board.rotations[0] + 1) % 4
    state.moves = 1
    state.save(tmp_path / "lobby.json")
    again = RoomState.load(tmp_path / "lobby.json")
    assert again is not None and again.start == dealt and again.board.rotations != dealt
    # a state saved before restarts existed, after its first move, cannot know the deal
    data = state.to_dict()
    del data["start"]
    assert RoomState.from_dict(data).start is None
    data["moves"] = 0  # nothing turned yet: the rotations are the deal
    assert RoomState.from_dict(data).start == board.rotations


def test_older_state_files_have_no_locks(tmp_path: Path) -> None:
    data = RoomState("lobby", generate(4, 4, seed=1), started_at=1.0).to_dict()
    del data["locks"], data["told"]
    again = RoomState.from_dict(data)
    assert again.locks == set() and again.told == set()


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("locks", [16], "beyond the 16"),
        ("locks", [-1], "0 or more"),
        ("locks", "3", "list of tile indices"),
        ("told", ["Alex"], "not a UUID"),
        ("start", [0] * 15, "must hold 16 rotations"),
        ("start", [4] * 16, "rotations 0..3"),
    ],
)
def test_bad_locks_or_told_are_named(field: str, value: object, says: str) -> None:
    data = RoomState("lobby", generate(4, 4, seed=1), started_at=1.0).to_dict()
    data[field] = value
    with pytest.raises(StateError, match=f"'{field}'.*{says}"):
        RoomState.from_dict(data, "lobby.json")
