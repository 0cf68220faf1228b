"""Paint-room state files: round trip, named errors, and never read as the other kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.puzzle.paint import Stroke, generate
from controller.runtime.paint.state import PAINT_WORLD_FORMAT, PaintState
from controller.runtime.records import PlayerRecord
from controller.runtime.state import RoomState, Solve, StateError


def _state() -> PaintState:
    puzzle = generate(6, 4, seed=3, generator="strokes", par=5)
    canvas = puzzle.blank().apply(Stroke.row(1)).apply(Stroke.col(2))
    return PaintState(
        "art", puzzle, canvas, puzzle_number=3, moves=2, started_at=100.0, clears=1,
        solves=[Solve(3, 12.5, 5, 90.0)], origin=(1, 2, 3), dimension="minecraft:overworld",
        orientation="wall", target_side="left",
        players={"Alex": PlayerRecord(2, 40.0, [40.0, 55.5])},
        daily={"2026-12-01": {".Steve": PlayerRecord(1, 61.0, [61.0])}},
        told={"00000000-0000-0000-0000-000000000007"},
    )  # fmt: skip


def test_a_state_survives_its_file(tmp_path: Path) -> None:
    state = _state()
    path = tmp_path / "art.json"
    state.save(path)
    data = json.loads(path.read_text())
    assert (data["kind"], data["format"], data["world_format"]) == ("paint", 1, PAINT_WORLD_FORMAT)
    assert data["board"]["canvas"] == state.canvas.to_grid()
    again = PaintState.load(path)
    assert again is not None
    assert again.to_dict() == state.to_dict()
    assert again.puzzle.solution == state.puzzle.solution and again.canvas == state.canvas
    assert (again.players, again.daily, again.told) == (state.players, state.daily, state.told)
    assert PaintState.load(tmp_path / "none.json") is None


def test_a_state_file_before_the_player_records_reads_with_none(tmp_path: Path) -> None:
    data = _state().to_dict()
    for key in ("players", "daily", "told"):
        del data[key]
    old = PaintState.from_dict(data)
    assert (old.players, old.daily, old.told) == ({}, {}, set())


@pytest.mark.parametrize(
    ("change", "field", "detail"),
    [
        ({"moves": "two"}, "moves", "expected an integer"),
        ({"started_at": None}, "started_at", "expected a number"),
        ({"format": 9}, "format", "is 9"),
        ({"kind": "pipes"}, "kind", "not a paint room's"),
        ({"players": {"bad name": {}}}, "players", "not an account name"),
        ({"told": ["nope"]}, "told", "not a UUID"),
    ],
)
def test_a_broken_field_is_named(
    change: dict[str, object], field: str, detail: str, tmp_path: Path
) -> None:
    data = _state().to_dict() | change
    with pytest.raises(StateError) as info:
        PaintState.from_dict(data, str(tmp_path / "art.json"))
    assert f"field {field!r}" in str(info.value) and detail in str(info.value)
    assert "repair -w art" in str(info.value)


def test_a_broken_board_names_its_own_field(tmp_path: Path) -> None:
    data = _state().to_dict()
    data["board"]["target"][1][2] = 5
    with pytest.raises(StateError, match=r"field 'board' is invalid \(target\[1\]\[2\]: must be 0"):
        PaintState.from_dict(data, "art.json")


def test_each_kind_refuses_the_other_kinds_file(tmp_path: Path) -> None:
    path = tmp_path / "art.json"
    _state().save(path)
    with pytest.raises(StateError, match="field 'kind' is 'paint', not a pipes room's state"):
        RoomState.load(path)
    path.write_text(json.dumps({"format": 1, "room": "art", "started_at": 1.0, "board": {}}))
    with pytest.raises(StateError, match="field 'kind' is 'pipes', not a paint room's"):
        PaintState.load(path)
