"""Paint JSON: round trips of puzzle, canvas and play state; strict errors naming the field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.paint.generators import generate
from controller.puzzle.paint.model import Canvas, Stroke
from controller.puzzle.paint.serialize import (
    board_from_dict,
    board_from_json,
    game_from_dict,
    game_from_json,
    puzzle_to_dict,
    puzzle_to_json,
)


@settings(max_examples=40)
@given(
    st.integers(1, 12),
    st.integers(1, 12),
    st.integers(0, 2**31),
    st.sampled_from(["walk", "strokes"]),
)
def test_round_trip_with_canvas_and_state(w: int, h: int, seed: int, gen: str) -> None:
    puzzle = generate(w, h, seed=seed, generator=gen)
    canvas = puzzle.blank().paint(puzzle.solution[:1])
    state = {"moves": 1, "log": [["row", 0]]}
    text = puzzle_to_json(puzzle, canvas, state)
    assert game_from_json(text) == (puzzle, canvas, state)
    obj = json.loads(text)
    assert obj["kind"] == "paint" and obj["par"] == puzzle.par
    assert obj["target"] == puzzle.target.to_grid()
    assert obj["solution"] == [list(s) for s in puzzle.solution]
    assert game_from_dict(puzzle_to_dict(puzzle)) == (puzzle, puzzle.blank(), None)


def test_minimal_board_and_defaults() -> None:
    obj = {"kind": "paint", "width": 2, "height": 2, "target": [[1, 1], [1, 0]]}
    board = board_from_dict(obj)
    assert board.target.to_grid() == [[1, 1], [1, 0]]
    assert board.canvas is None and board.solution is None and board.par == 3
    puzzle, canvas, state = game_from_dict(obj)
    assert puzzle.solution == (Stroke.row(1), Stroke.col(1), Stroke.row(0))
    assert puzzle.generator == "custom" and canvas == Canvas.blank(2, 2) and state is None
    diagonal = board_from_dict({**obj, "target": [[1, 0], [0, 1]]})
    assert diagonal.par is None
    with pytest.raises(ValueError, match=r"^target: not paintable: cells"):
        game_from_dict({**obj, "target": [[1, 0], [0, 1]]})


def test_a_stored_solution_is_kept() -> None:
    obj = {
        "kind": "paint",
        "width": 2,
        "height": 2,
        "target": [[1, 1], [1, 1]],
        "solution": [["row", 1], ["row", 0]],
    }
    assert game_from_dict(obj)[0].solution == (Stroke.row(1), Stroke.row(0))


GOOD: dict[str, Any] = puzzle_to_dict(generate(4, 3, seed=2, generator="strokes", par=4))


def variant(**changes: Any) -> dict[str, Any]:
    obj = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if value is ...:
            obj.pop(key)
        else:
            obj[key] = value
    return obj


def bad_target() -> list[list[int]]:
    rows: list[list[int]] = json.loads(json.dumps(GOOD["target"]))
    rows[2][3] = 5
    return rows


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ([], "board: must be a JSON object"),
        (variant(kind=...), "kind: missing"),
        (variant(kind="pipes"), "kind: must be 'paint'"),
        (variant(target=...), "target: missing"),
        (variant(shapes=[]), "shapes: unknown key"),
        (variant(format=2), "format: unsupported version 2"),
        (variant(width=0), "width: must be 1..128, got 0"),
        (variant(height=129), "height: must be 1..128, got 129"),
        (variant(width="4"), "width: must be an integer"),
        (variant(target=bad_target()), "target[2][3]: must be 0 or 1, got 5"),
        (variant(target=GOOD["target"][:2]), "target: must have 3 rows (height), got 2"),
        (variant(target=[[0, 0, 0]] * 3), "target[0]: must have 4 entries (width), got 3"),
        (variant(target="0000"), "target: must be a list of 3 rows"),
        (variant(canvas=[[0, 0, 0, True]] * 3), "canvas[0][3]: must be 0 or 1, got True"),
        (variant(solution=[["diag", 0]]), 'solution[0]: must be ["row", j] or ["col", i]'),
        (variant(solution=[["row", 3]]), "solution[0]: row index must be 0..2, got 3"),
        (variant(solution=[["row", 0]]), "solution: does not paint the target"),
        (variant(par=5), "par: must be 4 (the fewest strokes), got 5"),
        (variant(par="4"), "par: must be an integer"),
        (variant(seed="x"), "seed: must be an integer or null"),
        (variant(generator=3), "generator: must be a string"),
        (variant(meta=[]), "meta: must be an object"),
        (variant(state=1), "state: must be an object"),
    ],
)
def test_bad_boards_name_the_field(obj: object, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        board_from_dict(obj)
    assert str(caught.value).startswith(message)


def test_a_longer_solution_is_refused() -> None:
    target = [[1, 1], [0, 0]]
    obj = {"kind": "paint", "width": 2, "height": 2, "target": target}
    with pytest.raises(ValueError, match="^solution: 2 strokes, but the target needs only 1"):
        board_from_dict({**obj, "solution": [["col", 0], ["row", 0]]})
    with pytest.raises(ValueError, match="^par: given, but the target is not paintable"):
        board_from_dict({**obj, "target": [[1, 0], [0, 1]], "par": 2})


def test_not_json() -> None:
    with pytest.raises(ValueError, match="^board: not valid JSON"):
        board_from_json("{oops")
