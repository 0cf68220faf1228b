"""`pipesctl puzzle` on the typer app: new, flow, solve, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from controller.cli.puzzle import GLYPHS, app
from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.model import Board, mask_of
from controller.puzzle.serialize import board_to_dict, board_to_json
from controller.puzzle.solver import count_solutions, par
from tests.support.closed_oracle import oracle

STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
WORDS = ("north", "east", "south", "west")
PLAIN = {"NO_COLOR": "1", "FORCE_COLOR": None, "TERM": "dumb"}


def run(*args: str, env: dict[str, str | None] | None = None) -> Any:
    """Invoke the puzzle app with plain output."""
    return CliRunner(env={**PLAIN, **(env or {})}).invoke(app, list(args))


def write(tmp_path: Path, board: Board, name: str = "board.json") -> str:
    path = tmp_path / name
    path.write_text(board_to_json(board), encoding="utf-8")
    return str(path)


def test_new_json_matches_generate() -> None:
    result = run("new", "--size", "9x6", "--seed", "7", "--generator", "eller", "--json")
    assert result.exit_code == 0, result.stderr
    obj = json.loads(result.stdout)
    expected = board_to_dict(generate(9, 6, seed=7, params=GeneratorParams(generator="eller")))
    assert obj.pop("difficulty") == "normal" and obj.pop("mode") == "tree"
    assert obj == expected
    assert obj["width"] == 9 and obj["height"] == 6 and len(obj["shapes"]) == 6
    assert obj["seed"] == 7 and obj["generator"] == "eller"
    assert result.stderr == ""


def test_new_knobs_and_no_unique_reach_the_generator() -> None:
    args = ["new", "--size", "12x10", "--seed", "3", "--json", "--no-unique"]
    walk = json.loads(run(*args, "--generator", "walk", "--coverage", "0.8").stdout)
    assert walk["meta"]["coverage_target"] == 0.8 and walk["meta"]["coverage"] >= 0.8
    assert walk["meta"]["unique"] is False
    tree = json.loads(run(*args, "--generator", "growing_tree", "--branching", "0.1").stdout)
    assert tree["meta"]["branching"] == 0.1
    src = json.loads(run(*args, "--source", "0,9").stdout)
    assert src["source"] == [0, 9]


def test_new_without_seed_records_a_seed() -> None:
    obj = json.loads(run("new", "--size", "5x5", "--json").stdout)
    again = json.loads(run("new", "--size", "5x5", "--seed", str(obj["seed"]), "--json").stdout)
    assert isinstance(obj["seed"], int) and again == obj


def _decode(lines: list[str]) -> list[int]:
    back = {g: m for m, g in GLYPHS.items()}
    return [back[c] for line in lines for c in line]


def test_new_draws_box_glyphs_of_the_rotations() -> None:
    result = run("new", "--size", "11x7", "--seed", "5")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "\x1b[" not in result.stdout
    assert "11x7 prim seed 5" in lines[-1]
    grid = lines[:-1]
    assert len(grid) == 7 and all(len(line) == 11 for line in grid)
    board = generate(11, 7, seed=5)
    assert _decode(grid) == [board.mask(t) for t in range(board.size)]
    solved = run("new", "--size", "11x7", "--seed", "5", "--solution").stdout.splitlines()[:-1]
    assert _decode(solved) == [board.solved_mask(t) for t in range(board.size)]


def test_glyphs_cover_every_piece_mask() -> None:
    masks = {mask_of(s, r) for s in range(6) for r in range(4)}  # pipes, cross, hole
    assert set(GLYPHS) == masks
    assert set(GLYPHS.values()) == set("╵╶╷╴│─├┬┤┴└┌┐┘┼ ")


def test_new_sink_boards_take_crosses_and_holes() -> None:
    args = ("new", "--size", "9x9", "--seed", "15", "--mode", "sink", "--crosses", "1")
    obj = json.loads(run(*args, "--holes", "--json").stdout)
    shapes = [name for row in obj["shapes"] for name in row]
    assert "cross" in shapes and "hole" in shapes
    assert obj["meta"]["crosses"] == shapes.count("cross")
    assert run("new", "--crosses", "0.5").exit_code != 0


def test_terminal_colours_and_no_color(tmp_path: Path) -> None:
    path = write(tmp_path, generate(6, 6, seed=1))
    coloured = run("flow", path, env={"NO_COLOR": None, "FORCE_COLOR": "1", "TERM": "xterm"})
    assert coloured.exit_code == 0 and "\x1b[" in coloured.stdout
    plain = run("flow", path, env={"NO_COLOR": "1", "FORCE_COLOR": None})
    assert "\x1b[" not in plain.stdout
    assert "wet " in plain.stdout.splitlines()[-1]


def oracle_flow(board: Board) -> dict[str, Any]:
    """Wet set by BFS, rings by brute force (an edge is on a cycle iff removing it keeps its ends
    connected), BFS distances for checking parents."""
    w, h, n = board.width, board.height, board.size
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for t in range(n):
        i, j = t % w, t // w
        for d in range(4):
            ni, nj = i + STEP[d][0], j + STEP[d][1]
            if 0 <= ni < w and 0 <= nj < h:
                u = nj * w + ni
                if board.mask(t) >> d & 1 and board.mask(u) >> ((d + 2) % 4) & 1:
                    adj[t].append((u, d))

    def reach(start: int, banned: tuple[int, int] | None) -> dict[int, int]:
        dist = {start: 0}
        todo = deque([start])
        while todo:
            x = todo.popleft()
            for y, _ in adj[x]:
                if banned and {x, y} == set(banned):
                    continue
                if y not in dist:
                    dist[y] = dist[x] + 1
                    todo.append(y)
        return dist

    dist = reach(board.source_index, None)
    ring = set()
    for a in dist:
        for b, _ in adj[a]:
            if b in reach(a, (a, b)):
                ring.update((a, b))
    return {"dist": dist, "ring": ring, "adj": adj}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32), w=st.integers(3, 6), h=st.integers(3, 6))
def test_flow_json_matches_an_oracle(tmp_path: Path, seed: int, w: int, h: int) -> None:
    board = generate(w, h, seed=seed, params=GeneratorParams(unique=False))
    rng = random.Random(seed)
    board.rotations = [rng.randrange(4) for _ in range(board.size)]  # rings allowed here
    result = run("flow", write(tmp_path, board), "--json")
    assert result.exit_code == 0, result.stderr
    got = json.loads(result.stdout)
    truth = oracle_flow(board)
    dist = truth["dist"]
    assert sorted(map(tuple, got["wet"])) == sorted(board.coords(t) for t in dist)
    assert sorted(map(tuple, got["rings"])) == sorted(board.coords(t) for t in truth["ring"])
    assert sorted(map(tuple, got["closed"])) == sorted(board.coords(t) for t in oracle(board))
    assert got["solved"] == (len(dist) == board.size)
    assert set(got["parent"]) == {"{},{}".format(*board.coords(t)) for t in dist if dist[t] > 0}
    for key, word in got["parent"].items():
        i, j = map(int, key.split(","))
        t = board.index(i, j)
        d = WORDS.index(word)
        u = board.index(i + STEP[d][0], j + STEP[d][1])
        assert (u, d) in truth["adj"][t] and dist[u] == dist[t] - 1


def test_flow_of_a_solved_board(tmp_path: Path) -> None:
    board = generate(7, 5, seed=2)
    board.rotations = list(board.solution)
    got = json.loads(run("flow", write(tmp_path, board), "--json").stdout)
    assert got["solved"] is True and got["rings"] == [] and len(got["wet"]) == 35
    plain = run("flow", write(tmp_path, board)).stdout.splitlines()
    assert plain[-1] == "wet 35/35, ring tiles 0, closed tiles 0, solved: yes"
    assert got["closed"] == []


def test_solve_reports_count_par_and_a_working_hint(tmp_path: Path) -> None:
    board = generate(8, 6, seed=9)
    path = write(tmp_path, board)
    result = run("solve", path)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "solutions: 1"
    assert lines[1] == f"par: {par(board)}"
    report = json.loads(run("solve", path, "--json").stdout)
    assert report["solutions"] == 1 and report["par"] == par(board) > 0
    i, j = report["hint"]["tile"]
    t = board.index(i, j)
    assert board.mask(t) != board.solved_mask(t)
    assert mask_of(board.shapes[t], report["hint"]["rotation"]) == board.solved_mask(t)
    rotation = report["hint"]["rotation"]
    assert f"hint: column {i + 1}, row {j + 1}: turn it to rotation {rotation}" in lines


def test_solve_says_more_for_an_ambiguous_board(tmp_path: Path) -> None:
    for seed in range(50):
        board = generate(6, 6, seed=seed, params=GeneratorParams(unique=False))
        if count_solutions(board, limit=2) >= 2:
            break
    else:
        pytest.skip("no ambiguous raw board in 50 seeds")
    report = json.loads(run("solve", write(tmp_path, board), "--json").stdout)
    assert report["solutions"] == "many"


def test_solve_of_a_solved_board(tmp_path: Path) -> None:
    board = generate(5, 5, seed=4)
    board.rotations = list(board.solution)
    result = run("solve", write(tmp_path, board))
    assert "par: 0" in result.stdout and "hint: none (solved)" in result.stdout


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["new", "--size", "2x5"], "width"),
        (["new", "--size", "200x3"], "width"),
        (["new", "--size", "5x2"], "height"),
        (["new", "--size", "5x129"], "height"),
        (["new", "--size", "big"], "size"),
        (["new", "--size", "5x5x5"], "size"),
        (["new", "--generator", "kruskal"], "generator"),
        (["new", "--branching", "1.5"], "branching"),
        (["new", "--branching", "lots"], "branching"),
        (["new", "--coverage", "-0.1"], "coverage"),
        (["new", "--seed", "abc"], "seed"),
        (["new", "--size", "5x5", "--source", "5,0"], "source"),
        (["new", "--source", "x"], "source"),
        (["new", "--difficulty", "insane"], "difficulty"),
        (["new", "--difficulty", "hard", "--no-unique"], "difficulty"),
        (["new", "--mode", "maze"], "mode"),
        (["new", "--mode", "sink", "--difficulty", "expert"], "difficulty"),
        (["solve"], "board"),
        (["solve", "--net-id", "5x5:12"], "net_id"),
        (["solve", "--net-id", "5x5w:1234"], "net_id"),
        (["solve", "--net-id", "31x31#seed"], "net_id"),
    ],
)
def test_bad_options_fail_in_one_line(args: list[str], field: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and field in lines[0]


def _bad_boards() -> list[tuple[str, str, str]]:
    good = board_to_dict(generate(5, 4, seed=1))
    cases: list[tuple[str, str, str]] = [("not json", "{oops", "board"), ("array", "[]", "board")]

    def variant(name: str, field: str, change: Any) -> None:
        obj = json.loads(json.dumps(good))
        change(obj)
        cases.append((name, json.dumps(obj), field))

    variant("missing key", "rotations", lambda o: o.pop("rotations"))
    variant("unknown shape", "shapes[1][1]", lambda o: o["shapes"][1].__setitem__(1, "cross"))
    variant("short row", "rotations[0]", lambda o: o["rotations"][0].pop())
    variant("missing row", "solution", lambda o: o["solution"].pop())
    variant("source outside", "source", lambda o: o.__setitem__("source", [9, 9]))
    variant("width range", "width", lambda o: o.__setitem__("width", 200))
    variant("rotation 5", "rotations[3][4]", lambda o: o["rotations"][3].__setitem__(4, 5))
    # turning one tile of a spanning-tree solution always breaks a link
    j, i = next((j, i) for j in range(4) for i in range(5) if good["shapes"][j][i] != "straight")
    turned = (good["solution"][j][i] + 1) % 4
    variant("bad solution", "solution[", lambda o: o["solution"][j].__setitem__(i, turned))
    return cases


@pytest.mark.parametrize("command", ["flow", "solve"])
@pytest.mark.parametrize(("name", "text", "field"), _bad_boards(), ids=lambda v: str(v)[:20])
def test_bad_board_json_fails_in_one_line(
    tmp_path: Path, command: str, name: str, text: str, field: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    result = run(command, str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {field}")


def test_missing_board_file(tmp_path: Path) -> None:
    result = run("flow", str(tmp_path / "nope.json"))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: board: cannot read")


def test_board_from_stdin() -> None:
    board = generate(4, 4, seed=8)
    result = CliRunner(env=PLAIN).invoke(app, ["flow", "-", "--json"], input=board_to_json(board))
    assert result.exit_code == 0 and "wet" in json.loads(result.stdout)


def test_solve_json_has_exactly_the_four_keys(tmp_path: Path) -> None:
    board = generate(8, 6, seed=9)
    report = json.loads(run("solve", write(tmp_path, board), "--json").stdout)
    assert set(report) == {"solutions", "par", "hint", "deduced"}
    assert report["deduced"] is True
    assert set(report["hint"]) == {"tile", "rotation"}


def test_new_difficulty_reaches_the_generator_and_solve_says_deduced() -> None:
    args = ["new", "--size", "8x8", "--seed", "2", "--json"]
    obj = json.loads(run(*args, "--difficulty", "expert").stdout)
    assert obj["difficulty"] == "expert" and obj["meta"]["difficulty"] == "expert"
    expert = generate(8, 8, seed=2, params=GeneratorParams(difficulty="expert"))
    assert {k: v for k, v in obj.items() if k not in ("difficulty", "mode")} == board_to_dict(
        expert
    )
    result = CliRunner(env=PLAIN).invoke(app, ["solve", "-", "--json"], input=json.dumps(obj))
    report = json.loads(result.stdout)
    assert report["solutions"] == 1 and report["deduced"] is False
    plain = CliRunner(env=PLAIN).invoke(app, ["solve", "-"], input=json.dumps(obj)).stdout
    assert "deduced: no (search needed)" in plain.splitlines()


def test_new_sink_mode_json_and_solve(tmp_path: Path) -> None:
    obj = json.loads(run("new", "--size", "10x7", "--seed", "4", "--mode", "sink", "--json").stdout)
    assert obj["mode"] == "sink" and obj["difficulty"] == "normal"
    i, j = obj["sink"]
    assert i in (0, 9) or j in (0, 6)
    assert [i, j] in obj["fixed"] and obj["source"] in obj["fixed"]
    path = tmp_path / "sink.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    report = json.loads(run("solve", str(path), "--json").stdout)
    assert report["solutions"] == "many" and report["par"] > 0 and report["deduced"] is False
    assert report["hint"]["tile"] not in obj["fixed"]
    text = run("new", "--size", "10x7", "--seed", "4", "--mode", "sink").stdout.splitlines()
    assert text[-1].startswith("10x7 sink mode seed 4, route of ")
    assert text[-1].endswith(f"to the sink at ({i}, {j})")


def test_solve_net_id_of_a_corpus_board() -> None:
    corpus = Path(__file__).parents[1] / "puzzle" / "data" / "net_unique.txt"
    net_id = next(line for line in corpus.read_text().splitlines() if line.startswith("7x7:"))
    report = json.loads(run("solve", "--net-id", net_id, "--json").stdout)
    assert report["solutions"] == 1 and report["deduced"] is True and report["par"] > 0
    result = run("solve", "--net-id", net_id, "board.json")
    assert result.exit_code == 2 and result.stderr.startswith("error: board: give either")


def test_flow_of_a_sink_board_is_solved_once_the_water_reaches_the_sink(tmp_path: Path) -> None:
    from controller.puzzle.flow import compute_flow, sink_reached
    from controller.puzzle.sink import sink_route

    board = generate(10, 7, seed=4, params=GeneratorParams(mode="sink"))
    before = json.loads(run("flow", write(tmp_path, board), "--json").stdout)
    assert before["solved"] is sink_reached(board) is False
    for tile, rotation in sink_route(board):
        board.rotations[tile] = rotation
    assert sink_reached(board) and not compute_flow(board).solved  # decoys stay dry
    path = write(tmp_path, board, "reached.json")
    assert json.loads(run("flow", path, "--json").stdout)["solved"] is True
    assert run("flow", path).stdout.rstrip().endswith("solved: yes")
