"""Player records and daily records survive the state file; bad ones are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.puzzle.generators import generate
from controller.runtime.records import PlayerRecord
from controller.runtime.state import RoomState, StateError


def test_records_round_trip(tmp_path: Path) -> None:
    state = RoomState("lobby", generate(4, 4, seed=1), started_at=1.0)
    rec = PlayerRecord()
    rec.add(61.5)
    state.players = {".Steve": rec}
    state.daily = {"2026-12-01": {"Alex": rec}}
    state.save(tmp_path / "lobby.json")
    again = RoomState.load(tmp_path / "lobby.json")
    assert again is not None
    assert again.players == {".Steve": rec} and again.daily == {"2026-12-01": {"Alex": rec}}


def test_old_state_files_without_records_load(tmp_path: Path) -> None:
    state = RoomState("lobby", generate(4, 4, seed=1), started_at=1.0)
    data = state.to_dict()
    del data["players"], data["daily"]
    again = RoomState.from_dict(data)
    assert again.players == {} and again.daily == {}


def test_a_bad_record_is_named() -> None:
    data = RoomState("lobby", generate(4, 4, seed=1), started_at=1.0).to_dict()
    data["players"] = {"not a name": {"solves": 1}}
    with pytest.raises(StateError, match="'players' is invalid"):
        RoomState.from_dict(data, "state/lobby.json")
