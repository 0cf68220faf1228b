"""`puzzle new --kind paint` and `puzzle solve` of paint boards; one-line errors, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from typer.testing import CliRunner

from controller.cli.puzzle import app
from controller.cli.puzzle_paint import INK, PAPER
from controller.puzzle.paint.generators import generate
from controller.puzzle.paint.model import Canvas
from controller.puzzle.paint.serialize import puzzle_to_dict, puzzle_to_json
from controller.puzzle.paint.solver import completion

PLAIN = {"NO_COLOR": "1", "FORCE_COLOR": None, "TERM": "dumb"}


def run(*args: str, stdin: str | None = None) -> Any:
    """Invoke the puzzle app with plain output."""
    return CliRunner(env=PLAIN).invoke(app, list(args), input=stdin)


def ok_json(*args: str, stdin: str | None = None) -> Any:
    result = run(*args, stdin=stdin)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def write(tmp_path: Path, obj: object, name: str = "board.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(obj), encoding="utf-8")
    return str(path)


def test_new_json_matches_the_engine() -> None:
    obj = ok_json("new", "--kind", "paint", "--size", "8x8", "--seed", "3", "--json")
    assert obj == puzzle_to_dict(generate(8, 8, seed=3, generator="walk"))
    assert obj["kind"] == "paint" and obj["width"] == 8 and obj["height"] == 8
    assert len(obj["target"]) == 8 and all(len(row) == 8 for row in obj["target"])
    assert obj["par"] == len(obj["solution"]) and obj["seed"] == 3
    assert obj["generator"] == "walk" and obj["meta"]["walks_tried"] >= 1


def test_new_generators_and_their_options() -> None:
    args = ["new", "--kind", "paint", "--size", "12x5", "--seed", "4", "--json"]
    walk = ok_json(*args, "--cells", "7")
    assert sum(map(sum, walk["target"])) == 7 and walk["meta"]["cells"] == 7
    strokes = ok_json(*args, "--generator", "strokes", "--par=10")
    assert strokes["par"] == 10 and strokes["generator"] == "strokes"
    assert strokes == puzzle_to_dict(generate(12, 5, seed=4, generator="strokes", par=10))
    square = ok_json("new", "--kind", "paint", "--size", "1", "--seed", "0", "--json")
    assert (square["width"], square["height"], square["target"]) == (1, 1, [[1]])


def test_new_without_seed_records_one() -> None:
    obj = ok_json("new", "--kind", "paint", "--json")
    assert (obj["width"], obj["height"]) == (8, 8) and isinstance(obj["seed"], int)
    again = ok_json("new", "--kind", "paint", "--seed", str(obj["seed"]), "--json")
    assert again == obj


def test_new_draws_a_text_picture() -> None:
    result = run("new", "--kind", "paint", "--size", "9x4", "--seed", "2", "--cells", "6")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    puzzle = generate(9, 4, seed=2, generator="walk", cells=6)
    grid = [[1 if c == INK else 0 for c in line] for line in lines[:4]]
    assert grid == puzzle.target.to_grid()
    assert all(set(line) <= {INK, PAPER} for line in lines[:4])
    assert lines[4].startswith(f"9x4 walk seed 2: par {puzzle.par}, 6 cells, ")
    assert lines[5].startswith("solution: ")


def picture(tmp_path: Path, grid: list[list[int]], scale: int = 4) -> str:
    img = Image.new("L", (len(grid[0]) * scale, len(grid) * scale), 255)
    for j, row in enumerate(grid):
        for i, v in enumerate(row):
            if v:
                img.paste(0, (i * scale, j * scale, (i + 1) * scale, (j + 1) * scale))
    path = tmp_path / "art.png"
    img.save(path)
    return str(path)


def test_new_from_an_image(tmp_path: Path) -> None:
    grid = [[1, 1, 1], [1, 0, 0], [1, 1, 0], [0, 0, 0]]
    path = picture(tmp_path, grid)
    obj = ok_json("new", "--kind", "paint", "--image", path, "--size", "3x4", "--json")
    assert obj["target"] == grid and obj["generator"] == "image"
    own = ok_json("new", "--kind", "paint", "--generator", "image", "--image", path, "--json")
    assert (own["width"], own["height"]) == (12, 16)


def test_an_unpaintable_image_is_refused_then_fixed_with_nearest(tmp_path: Path) -> None:
    path = picture(tmp_path, [[1, 0], [0, 1]])
    result = run("new", "--kind", "paint", "--image", path, "--size", "2x2")
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: image: not paintable: cells (0, 0) and (1, 1) are 1 but ")
    assert line.endswith("(--nearest uses it)") and "changes 1 cell: " in line
    obj = ok_json("new", "--kind", "paint", "--image", path, "--size", "2x2", "--nearest", "--json")
    assert len(obj["meta"]["flipped"]) == 1 and obj["par"] == len(obj["solution"])


def test_solve_a_generated_board(tmp_path: Path) -> None:
    puzzle = generate(10, 7, seed=5, generator="strokes", par=9)
    path = write(tmp_path, puzzle_to_dict(puzzle))
    report = ok_json("solve", path, "--json")
    assert report["solvable"] is True and report["par"] == 9
    assert report["solution"] == [list(s) for s in puzzle.solution]
    assert report["hint"] == list(puzzle.solution[0]) and report["remaining"] == 9
    assert report["solved"] is False
    text = run("solve", path)
    assert text.exit_code == 0
    assert text.stdout.splitlines()[:2] == ["solvable: yes", "par: 9"]
    assert f"hint: {puzzle.solution[0]}" in text.stdout


def test_solve_from_a_canvas(tmp_path: Path) -> None:
    puzzle = generate(6, 6, seed=1, generator="strokes", par=7)
    canvas = Canvas.blank(6, 6).paint(puzzle.solution[:3])
    path = tmp_path / "state.json"
    path.write_text(puzzle_to_json(puzzle, canvas, {"moves": 3}), encoding="utf-8")
    report = ok_json("solve", str(path), "--json")
    rest = completion(puzzle.target, canvas)
    assert rest is not None and report["remaining"] == len(rest) == 4
    assert report["hint"] == list(rest[0]) and report["par"] == 7
    text = run("solve", str(path)).stdout
    assert "canvas: " in text and "4 strokes to go" in text
    done = {**puzzle_to_dict(puzzle), "canvas": puzzle.target.to_grid()}
    assert ok_json("solve", write(tmp_path, done), "--json")["hint"] is None
    assert "hint: none (solved)" in run("solve", write(tmp_path, done)).stdout


def test_solve_an_unpaintable_target(tmp_path: Path) -> None:
    obj = {"kind": "paint", "width": 2, "height": 2, "target": [[1, 0], [0, 1]]}
    report = ok_json("solve", write(tmp_path, obj), "--json")
    assert report["solvable"] is False and report["par"] is None
    assert report["solution"] is None and report["hint"] is None
    assert report["conflict"] == {"ones": [[0, 0], [1, 1]], "zeros": [[1, 0], [0, 1]]}
    assert len(report["nearest"]["flips"]) == 1
    text = run("solve", write(tmp_path, obj)).stdout.splitlines()
    assert text[0] == "solvable: no: cells (0, 0) and (1, 1) are 1 but (1, 0) and (0, 1) are 0"
    assert "par: none" in text and "hint: none (no stroke sequence paints the target)" in text


def test_solve_from_stdin() -> None:
    board = json.dumps({"kind": "paint", "width": 3, "height": 1, "target": [[1, 0, 1]]})
    report = ok_json("solve", "-", "--json", stdin=board)
    assert report["par"] == 2 and report["solution"] == [["row", 0], ["col", 1]]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--size", "0x4"], "size: width: must be 1..128"),
        (["--size", "4x129"], "size: height: must be 1..128"),
        (["--size", "big"], "size: expected WxH"),
        (["--seed", "x"], "seed: must be an integer"),
        (["--generator", "prim"], "generator: unknown 'prim'"),
        (["--cells", "0"], "cells: must be 1..64"),
        (["--cells", "lots"], "cells: must be an integer"),
        (["--cells"], "cells: needs a value"),
        (["--generator", "strokes", "--par", "16"], "par: must be 0..15 for 8x8"),
        (["--generator", "strokes", "--cells", "3"], "cells: only for the walk generator"),
        (["--par", "3"], "par: only for the strokes generator"),
        (["--nearest"], "nearest: only for the image generator"),
        (["--nearest=yes"], "nearest: takes no value"),
        (["--generator", "image"], "image: the image generator needs a picture file"),
        (["--image", "/no/such.png"], "image: cannot read"),
        (["--branching", "0.3"], "branching: not an option of --kind paint"),
        (["--no-unique"], "unique: not an option of --kind paint"),
        (["--shiny"], "--shiny: no such option"),
        (["stray"], "stray: unexpected argument"),
    ],
)
def test_bad_paint_options_fail_in_one_line(args: list[str], field: str) -> None:
    result = run("new", "--kind", "paint", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines == [lines[0]] and lines[0].startswith(f"error: {field}")


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--kind", "cube"], "kind: unknown 'cube', expected one of pipes, paint"),
        (["--cells", "3"], "--cells: only with --kind paint"),
        (["--shiny"], "--shiny: no such option"),
    ],
)
def test_pipes_kind_refuses_paint_options(args: list[str], field: str) -> None:
    result = run("new", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [f"error: {field}"]


def test_pipes_boards_are_unchanged() -> None:
    plain = run("new", "--size", "5x4", "--seed", "7", "--json")
    kind = run("new", "--kind", "pipes", "--size", "5x4", "--seed", "7", "--json")
    assert plain.exit_code == kind.exit_code == 0 and plain.stdout == kind.stdout
    report = ok_json("solve", "-", "--json", stdin=plain.stdout)
    assert report["solutions"] == 1


GOOD = puzzle_to_dict(generate(4, 3, seed=2, generator="strokes", par=4))


def _bad(change: Any) -> str:
    obj = json.loads(json.dumps(GOOD))
    change(obj)
    return json.dumps(obj)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (_bad(lambda o: o["target"][2].__setitem__(3, 5)), "target[2][3]: must be 0 or 1, got 5"),
        (_bad(lambda o: o.__setitem__("kind", "cube")), "kind: unknown 'cube'"),
        (_bad(lambda o: o.pop("target")), "target: missing"),
        (_bad(lambda o: o.__setitem__("width", 200)), "width: must be 1..128, got 200"),
        (_bad(lambda o: o["target"].pop()), "target: must have 3 rows"),
        (_bad(lambda o: o.__setitem__("canvas", [[0]])), "canvas: must have 3 rows"),
        (_bad(lambda o: o.__setitem__("par", 2)), "par: must be 4 (the fewest strokes), got 2"),
        (_bad(lambda o: o.__setitem__("shapes", [])), "shapes: unknown key"),
    ],
)
def test_bad_paint_boards_fail_in_one_line(tmp_path: Path, text: str, field: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    result = run("solve", str(path))
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {field}")


def test_the_paint_engine_imports_neither_pillow_nor_numpy() -> None:
    code = (
        "import sys, controller.puzzle.paint, controller.puzzle.paint.serialize; "
        "print(sorted(m for m in ('PIL', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
