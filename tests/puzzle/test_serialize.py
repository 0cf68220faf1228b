"""Serialization: JSON round trips, the CLI layout, and strict validation naming the field."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.generators import GENERATORS, GeneratorParams, build_tree, generate
from controller.puzzle.model import Shape
from controller.puzzle.serialize import (
    FORMAT,
    board_from_dict,
    board_from_json,
    board_to_dict,
    board_to_json,
    check_solution,
    game_from_json,
)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def fields(board: Any) -> tuple[Any, ...]:
    """Everything a board carries."""
    return (
        board.width,
        board.height,
        board.source,
        board.shapes,
        board.rotations,
        board.solution,
        board.seed,
        board.generator,
        board.meta,
    )


@settings(max_examples=80, deadline=None)
@given(
    w=st.integers(3, 16),
    h=st.integers(3, 16),
    seed=st.one_of(st.none(), st.integers(-(2**63), 2**63)),
    generator=st.sampled_from(GENERATORS),
    rot_seed=st.integers(0, 2**32),
    state=st.one_of(st.none(), st.dictionaries(st.text(max_size=10), JSON_VALUES, max_size=5)),
    indent=st.sampled_from([None, 2]),
)
def test_round_trip(
    w: int,
    h: int,
    seed: int | None,
    generator: str,
    rot_seed: int,
    state: dict[str, Any] | None,
    indent: int | None,
) -> None:
    board = build_tree(w, h, seed=rot_seed, params=GeneratorParams(generator=generator))
    board.seed = seed
    rng = random.Random(rot_seed)
    board.rotations = [rng.randrange(4) for _ in range(board.size)]
    text = board_to_json(board, state, indent=indent)
    back, back_state = game_from_json(text)
    assert fields(back) == fields(board)
    assert back_state == state
    assert fields(board_from_json(text.encode())) == fields(board)


def test_layout_is_the_cli_form() -> None:
    board = generate(7, 4, seed=3, params=GeneratorParams(generator="walk"))
    obj = json.loads(board_to_json(board))
    assert obj["format"] == FORMAT
    assert {
        "width",
        "height",
        "source",
        "shapes",
        "rotations",
        "solution",
        "seed",
        "generator",
    } <= set(obj)
    assert obj["source"] == list(board.source)
    assert len(obj["shapes"]) == 4 and all(len(row) == 7 for row in obj["shapes"])
    for j in range(4):
        for i in range(7):
            t = j * 7 + i
            assert obj["shapes"][j][i] == Shape(board.shapes[t]).name.lower()
            assert obj["rotations"][j][i] == board.rotations[t]
            assert obj["solution"][j][i] == board.solution[t]
    assert obj["meta"]["coverage"] == board.meta["coverage"]


def test_format_is_optional_on_input_and_state_absent() -> None:
    obj = board_to_dict(build_tree(5, 5, seed=1))
    del obj["format"]
    board, state = game_from_json(json.dumps(obj))
    assert state is None and board.width == 5


def _valid() -> dict[str, Any]:
    board = generate(5, 4, seed=2)
    return board_to_dict(board, {"moves": 3})


def _set(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    obj = _valid()
    target: Any = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return obj


def _without(key: str) -> dict[str, Any]:
    obj = _valid()
    del obj[key]
    return obj


BAD: list[tuple[str, object, str]] = [
    ("not an object", [1, 2], "board"),
    ("width missing", _without("width"), "width"),
    ("shapes missing", _without("shapes"), "shapes"),
    ("seed missing", _without("seed"), "seed"),
    ("generator missing", _without("generator"), "generator"),
    ("width string", _set(("width",), "5"), "width"),
    ("width bool", _set(("width",), True), "width"),
    ("width too small", _set(("width",), 2), "width"),
    ("height too large", _set(("height",), 129), "height"),
    ("width inconsistent", _set(("width",), 6), r"shapes\[0\]"),
    ("height inconsistent", _set(("height",), 5), "shapes"),
    ("source outside", _set(("source",), [5, 0]), "source"),
    ("source negative", _set(("source",), [0, -1]), "source"),
    ("source short", _set(("source",), [1]), "source"),
    ("source floats", _set(("source",), [1.0, 2.0]), "source"),
    ("unknown shape", _set(("shapes", 1, 2), "cross"), r"shapes\[1\]\[2\]"),
    ("shape index", _set(("shapes", 0, 0), 1), r"shapes\[0\]\[0\]"),
    ("row too short", _set(("shapes", 3), ["end"]), r"shapes\[3\]"),
    ("row not a list", _set(("rotations", 0), "0000"), r"rotations\[0\]"),
    ("rows not a list", _set(("solution",), {}), "solution"),
    ("rotation 4", _set(("rotations", 2, 1), 4), r"rotations\[2\]\[1\]"),
    ("rotation -1", _set(("rotations", 0, 0), -1), r"rotations\[0\]\[0\]"),
    ("rotation float", _set(("rotations", 0, 0), 1.0), r"rotations\[0\]\[0\]"),
    ("rotation bool", _set(("rotations", 0, 0), True), r"rotations\[0\]\[0\]"),
    ("solution 7", _set(("solution", 3, 4), 7), r"solution\[3\]\[4\]"),
    ("seed string", _set(("seed",), "7"), "seed"),
    ("generator number", _set(("generator",), 3), "generator"),
    ("format 2", _set(("format",), 2), "format"),
    ("meta list", _set(("meta",), []), "meta"),
    ("state list", _set(("state",), [1]), "state"),
    ("unknown key", _set(("colour",), "red"), "colour"),
]


@pytest.mark.parametrize(("name", "obj", "field"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_the_field(name: str, obj: object, field: str) -> None:
    with pytest.raises(ValueError, match=f"^{field}"):
        board_from_dict(obj)
    with pytest.raises(ValueError, match=f"^{field}"):
        board_from_json(json.dumps(obj))


@pytest.mark.parametrize("text", ["", "{", "[1,", "nul", b"\xff\xfe{"])
def test_not_json(text: str | bytes) -> None:
    with pytest.raises(ValueError, match="^board: not valid JSON"):
        board_from_json(text)


def test_inconsistent_solution_is_rejected() -> None:
    obj = _valid()
    board = board_from_dict(obj)
    # turn one tile of the solution: its arms no longer meet their neighbours
    t = next(k for k in range(board.size) if board.shapes[k] != Shape.STRAIGHT)
    j, i = divmod(t, board.width)
    obj["solution"][j][i] = (obj["solution"][j][i] + 1) % 4
    with pytest.raises(ValueError, match=r"^solution\["):
        board_from_dict(obj)
    lax = board_from_dict(obj, strict_solution=False)
    assert lax.solution[t] == obj["solution"][j][i]
    with pytest.raises(ValueError, match=r"^solution\["):
        check_solution(lax)


def test_solution_with_a_loop_is_rejected() -> None:
    # 3x3: a ring round the board plus the centre hanging off the top middle (9 links, 9 tiles)
    obj = board_to_dict(build_tree(3, 3, seed=0))
    obj["shapes"] = [
        ["corner", "tee", "corner"],
        ["straight", "end", "straight"],
        ["corner", "straight", "corner"],
    ]
    obj["solution"] = [[0, 1, 1], [0, 2, 0], [3, 1, 2]]
    obj["rotations"] = obj["solution"]
    with pytest.raises(ValueError, match=r"^solution\[.*closes a loop"):
        board_from_dict(obj)
    assert board_from_dict(obj, strict_solution=False).size == 9


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_fuzzed_fields_load_or_raise_value_error(data: st.DataObject) -> None:
    obj = _valid()
    key = data.draw(st.sampled_from(sorted(obj)))
    obj[key] = data.draw(JSON_VALUES)
    try:
        board = board_from_dict(copy.deepcopy(obj))
    except ValueError as exc:
        assert str(exc).split(":")[0].split("[")[0] in {key, "board", "shapes"}
    else:
        assert board.width == obj["width"]


def test_a_128_board_with_state_is_small() -> None:
    board = generate(128, 128, seed=1, params=GeneratorParams(unique=False))
    state = {"moves": 12345, "clicks": [[i, i % 128] for i in range(2000)], "started": 1.5e9}
    text = board_to_json(board, state)
    assert len(text.encode()) < 10 * 1024 * 1024
    back, back_state = game_from_json(text)
    assert fields(back) == fields(board) and back_state == state


@settings(max_examples=30, deadline=None)
@given(
    st.integers(3, 12), st.integers(3, 12), st.sampled_from(["tree", "sink"]), st.integers(0, 99)
)
def test_a_copy_writes_as_the_board_and_changes_apart_from_it(
    width: int, height: int, mode: str, seed: int
) -> None:
    """`Board.copy` (not checked again) is the same board, and its lists are its own."""
    board = generate(width, height, seed=seed, params=GeneratorParams(mode=mode))
    twin = board.copy()
    assert board_to_dict(twin) == board_to_dict(board) and twin == board
    twin.rotations[0] = (twin.rotations[0] + 1) % 4
    twin.meta["mark"] = 1
    twin.shapes[1], twin.solution[1] = twin.shapes[0], twin.solution[0] + 1
    assert board_to_dict(board) == board_to_dict(board.copy()) != board_to_dict(twin)
    assert "mark" not in board.meta and twin.rotations[0] != board.rotations[0]
