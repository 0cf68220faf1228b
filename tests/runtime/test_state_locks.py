"""Locks and the players shown the controls survive the state file; a new puzzle keeps who was
told and drops the locks; bad values are named (docs/world-format.md, "Locked tiles")."""

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
    ],
)
def test_bad_locks_or_told_are_named(field: str, value: object, says: str) -> None:
    data = RoomState("lobby", generate(4, 4, seed=1), started_at=1.0).to_dict()
    data[field] = value
    with pytest.raises(StateError, match=f"'{field}'.*{says}"):
        RoomState.from_dict(data, "lobby.json")
