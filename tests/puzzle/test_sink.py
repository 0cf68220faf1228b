"""Sink mode: generation, "sink reached", par and hints against brute force on small boards."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.flow import sink_reached
from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.model import Board, Shape, mask_of
from controller.puzzle.serialize import board_from_json, board_to_dict, board_to_json
from controller.puzzle.sink import edge_tiles, sink_hint, sink_par_report
from controller.puzzle.solver import rotation_for
from tests.support.brute_force import neighbour


def reached_oracle(w: int, h: int, masks: list[int], src: int, sink: int) -> bool:
    """Independent flood fill: tiles joined by facing arms, from the source."""
    seen = {src}
    stack = [src]
    while stack:
        t = stack.pop()
        for d in range(4):
            u = neighbour(w, h, t, d)
            if masks[t] >> d & 1 and u >= 0 and u not in seen and masks[u] >> (d ^ 2) & 1:
                seen.add(u)
                stack.append(u)
    return sink in seen


def brute_force_par(board: Board) -> int | None:
    """Fewest clicks over every rotation of every tile not fixed, None when no rotation works."""
    w, h = board.width, board.height
    options: list[list[tuple[int, int]]] = []
    for t in range(board.size):
        if t in board.fixed:
            options.append([(board.mask(t), 0)])
            continue
        seen: dict[int, int] = {}
        for k in range(4):
            m = mask_of(board.shapes[t], (board.rotations[t] + k) % 4)
            seen.setdefault(m, k)
        options.append(list(seen.items()))
    src, sink = board.source_index, board.index(*board.sink)  # type: ignore[misc]
    best: int | None = None
    for combo in itertools.product(*options):
        cost = sum(k for _, k in combo)
        if best is not None and cost >= best:
            continue
        if reached_oracle(w, h, [m for m, _ in combo], src, sink):
            best = cost
    return best


@st.composite
def small_sink_boards(draw: st.DrawFn) -> Board:
    """3x3 boards of any shapes and rotations, the sink on the edge, source and sink fixed."""
    w = h = 3
    n = w * h
    shapes = draw(st.lists(st.sampled_from(list(Shape)), min_size=n, max_size=n))
    rotations = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    sink = draw(st.sampled_from(edge_tiles(w, h)))
    src = draw(st.sampled_from([t for t in range(n) if t != sink]))
    return Board(
        w,
        h,
        (src % w, src // w),
        [int(s) for s in shapes],
        rotations,
        list(rotations),
        mode="sink",
        sink=(sink % w, sink // w),
        fixed=frozenset((src, sink)),
    )


@settings(max_examples=25, deadline=None)
@given(small_sink_boards())
def test_par_and_reached_match_brute_force(board: Board) -> None:
    src, sink = board.source_index, board.index(*board.sink)  # type: ignore[misc]
    masks = [board.mask(t) for t in range(board.size)]
    assert sink_reached(board) == reached_oracle(3, 3, masks, src, sink)
    want = brute_force_par(board)
    if want is None:
        with pytest.raises(ValueError, match="^board: the sink cannot be reached"):
            sink_par_report(board)
        return
    par = sink_par_report(board)
    assert par.exact and par.clicks == par.lower == want
    assert reached_oracle(3, 3, par.masks, src, sink)
    assert (want == 0) == sink_reached(board)


@settings(max_examples=30, deadline=None)
@given(small_sink_boards())
def test_following_hints_reaches_the_sink_in_par_clicks(board: Board) -> None:
    try:
        par = sink_par_report(board).clicks
    except ValueError:
        return
    clicks = 0
    while (tip := sink_hint(board)) is not None:
        t, r = tip
        assert t not in board.fixed
        clicks += (r - board.rotations[t]) % 4
        board.rotations[t] = r
    assert sink_reached(board)
    assert clicks == par


def sink_params(coverage: float = 0.6) -> GeneratorParams:
    return GeneratorParams(mode="sink", coverage=coverage)


@pytest.mark.parametrize(("w", "h", "seed"), [(3, 3, 0), (5, 4, 1), (9, 9, 2), (16, 12, 3)])
def test_generated_sink_boards(w: int, h: int, seed: int) -> None:
    """The sink is on the edge, source and sink are fixed end pieces at their solution rotation,
    the route of the solution brings water there, and the start does not."""
    board = generate(w, h, seed=seed, params=sink_params())
    assert board.mode == "sink" and board.sink is not None
    sink = board.index(*board.sink)
    assert sink in edge_tiles(w, h)
    assert board.fixed == {board.source_index, sink}
    for t in board.fixed:
        assert board.shapes[t] == Shape.END
        assert board.rotations[t] == board.solution[t]
    solved = [board.solved_mask(t) for t in range(board.size)]
    assert sink_reached(board, solved)
    assert not sink_reached(board)
    par = sink_par_report(board)
    assert par.exact and 0 < par.clicks
    # The generating route is one solution: par is never more than the clicks it needs.
    route_clicks = sum(
        (
            rotation_for(board.shapes[t], board.rotations[t], board.solved_mask(t))
            - board.rotations[t]
        )
        % 4
        for t in range(board.size)
    )
    assert par.clicks <= route_clicks


@settings(max_examples=30, deadline=None)
@given(
    st.integers(3, 12),
    st.integers(3, 12),
    st.integers(0, 2**31 - 1),
    st.floats(0.0, 1.0),
    st.tuples(st.integers(0, 11), st.integers(0, 11)),
)
def test_sink_generation_is_deterministic_and_round_trips(
    w: int, h: int, seed: int, coverage: float, where: tuple[int, int]
) -> None:
    """Any size, coverage and source: the same board for the same seed, a JSON round trip, a
    sink on the edge at least two steps along the route, and a start that is not solved."""
    source = (where[0] % w, where[1] % h)
    params = GeneratorParams(mode="sink", coverage=coverage, source=source)
    a = generate(w, h, seed=seed, params=params)
    b = generate(w, h, seed=seed, params=params)
    assert a.source == source and a.index(*a.sink) in edge_tiles(w, h)  # type: ignore[misc]
    assert int(str(a.meta["route"])) >= 3
    assert not sink_reached(a) and sink_par_report(a).clicks > 0
    assert board_to_json(a) == board_to_json(b)
    back = board_from_json(board_to_json(a))
    assert back == a
    assert back.fixed == a.fixed and back.sink == a.sink
    assert sink_reached(a, [a.solved_mask(t) for t in range(a.size)])


def test_sink_json_fields_and_tree_json_unchanged() -> None:
    board = generate(6, 5, seed=7, params=sink_params())
    obj = board_to_dict(board)
    assert obj["mode"] == "sink"
    assert obj["sink"] == list(board.sink)  # type: ignore[arg-type]
    assert sorted(map(tuple, obj["fixed"])) == sorted(board.coords(t) for t in board.fixed)
    tree = board_to_dict(generate(6, 5, seed=7))
    assert not {"mode", "sink", "fixed"} & set(tree)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"sink": [9, 9]}, "^sink: \\[9, 9\\] is outside"),
        ({"mode": "maze"}, "^mode: must be tree or sink"),
        ({"fixed": "all"}, "^fixed: must be a list"),
        ({"fixed": [[0]]}, "^fixed\\[0\\]: must be \\[i, j\\]"),
    ],
)
def test_bad_sink_json_names_the_field(change: dict[str, object], message: str) -> None:
    obj = board_to_dict(generate(6, 5, seed=7, params=sink_params()))
    obj.update(change)
    with pytest.raises(ValueError, match=message):
        board_from_json(json.dumps(obj))


def test_sink_json_refuses_a_turned_fixed_tile_and_a_dry_solution() -> None:
    board = generate(6, 5, seed=7, params=sink_params())
    obj = board_to_dict(board)
    si, sj = board.source
    obj["rotations"][sj][si] = (obj["rotations"][sj][si] + 1) % 4
    with pytest.raises(ValueError, match="turns a fixed tile"):
        board_from_json(json.dumps(obj))
    dry = board.copy()
    dry.solution = list(dry.rotations)
    with pytest.raises(ValueError, match="^solution: does not bring water to the sink"):
        board_from_json(board_to_json(dry))


def test_tree_boards_refuse_sink_fields() -> None:
    obj = board_to_dict(generate(5, 5, seed=1))
    obj["sink"] = [0, 0]
    with pytest.raises(ValueError, match="^sink: only sink-mode boards"):
        board_from_json(json.dumps(obj))


def test_sink_mode_refuses_difficulty_levels() -> None:
    with pytest.raises(ValueError, match="^difficulty: hard applies to tree boards"):
        GeneratorParams(mode="sink", difficulty="hard")
    with pytest.raises(ValueError, match="^mode: unknown 'maze'"):
        GeneratorParams(mode="maze")


@pytest.mark.parametrize("seed", range(6))
def test_par_bound_when_the_budget_runs_out(seed: int) -> None:
    """Without budget the search still returns its first route, and its bounds bracket par."""
    board = generate(12, 12, seed=seed, params=sink_params())
    full = sink_par_report(board, budget=100_000)
    for budget in (0, 1, 5):
        rough = sink_par_report(board, budget=budget)
        assert rough.lower <= full.clicks and full.lower <= rough.clicks
        assert rough.exact == (rough.lower == rough.clicks)
        assert reached_oracle(12, 12, rough.masks, board.source_index, board.index(*board.sink))  # type: ignore[misc]
