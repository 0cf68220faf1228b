"""`pipesctl puzzle new --kind paint` and `pipesctl puzzle solve` of paint boards.

The pipes commands in ``controller.cli.puzzle`` hand over to this module: ``new`` when
``--kind`` is not pipes (or options it does not know were given), ``solve`` when the board JSON
has a ``"kind"`` other than pipes. Errors are the pipes CLI's: one line
``error: <field>: <problem>`` on stderr, nothing on stdout, exit code 2. The paint engine is
imported only when a paint board is made or solved, Pillow only for ``--image``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from controller.errors import ExitCode

if TYPE_CHECKING:
    from controller.puzzle.paint.model import Canvas, PaintPuzzle, Stroke

__all__ = [
    "EXTRA_ARGS",
    "KIND_HELP",
    "KINDS",
    "new_from",
    "new_paint",
    "read_text",
    "solve_text",
    "solve_report",
    "render",
    "describe",
]

KINDS = ("pipes", "paint")
DEFAULT_SIZE = "8x8"
# context settings of `puzzle new`: options it does not know are left for the paint kind
EXTRA_ARGS: dict[str, Any] = {"allow_extra_args": True, "ignore_unknown_options": True}
KIND_HELP = (
    "Puzzle kind: pipes or paint. Paint takes --size (1..128, default 8x8), --seed, "
    "--generator walk|strokes|image, --cells N (walk), --par N (strokes), "
    "--image FILE and --nearest (image), --json."
)
_SHARED = {"size", "seed", "generator", "as_json", "kind"}
_PAINT_OPTIONS = {"--cells": True, "--par": True, "--image": True, "--nearest": False}
INK, PAPER = "█", "·"


def _fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with the usage code (2)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(int(ExitCode.USAGE))


def _count(n: int, word: str) -> str:
    """``1 cell``, ``3 cells``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _from_command_line(ctx: typer.Context, name: str) -> bool:
    """Whether option ``name`` was given on the command line (not a default)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def _unknown(token: str) -> str:
    """The error for a command-line token no option takes."""
    return f"{token}: {'no such option' if token.startswith('-') else 'unexpected argument'}"


def _paint_options(args: list[str]) -> dict[str, str | bool]:
    """``--cells N``, ``--par N``, ``--image FILE`` (or ``--opt=value``) and ``--nearest``."""
    out: dict[str, str | bool] = {}
    k = 0
    while k < len(args):
        token = args[k]
        name, eq, value = token.partition("=")
        if name not in _PAINT_OPTIONS:
            raise ValueError(_unknown(token))
        if _PAINT_OPTIONS[name]:
            if not eq:
                k += 1
                if k == len(args):
                    raise ValueError(f"{name[2:]}: needs a value")
                value = args[k]
            out[name[2:]] = value
        elif eq:
            raise ValueError(f"{name[2:]}: takes no value")
        else:
            out[name[2:]] = True
        k += 1
    return out


def new_from(ctx: typer.Context) -> None:
    """`puzzle new` for a kind other than pipes, or with options pipes does not know."""
    params = ctx.params
    kind = params.get("kind")
    try:
        if kind not in KINDS:
            raise ValueError(f"kind: unknown {kind!r}, expected one of {', '.join(KINDS)}")
        if kind == "pipes":
            token = ctx.args[0]
            if token.partition("=")[0] in _PAINT_OPTIONS:
                raise ValueError(f"{token}: only with --kind paint")
            raise ValueError(_unknown(token))
        for name in params:
            if name not in _SHARED and _from_command_line(ctx, name):
                raise ValueError(f"{name}: not an option of --kind paint")
        extra = _paint_options(list(ctx.args))
    except ValueError as exc:
        _fail(str(exc))

    def given(name: str) -> str | None:
        return str(params[name]) if _from_command_line(ctx, name) else None

    image = extra.get("image")
    new_paint(
        size=given("size"),
        seed=given("seed"),
        generator=given("generator"),
        cells=None if extra.get("cells") is None else str(extra["cells"]),
        par_text=None if extra.get("par") is None else str(extra["par"]),
        image=None if image is None else str(image),
        nearest=bool(extra.get("nearest", False)),
        as_json=bool(params.get("as_json", False)),
    )


def _parse_size(text: str) -> tuple[int, int]:
    """``WxH`` (or N for NxN) with each side 1..128; ValueError names size."""
    from controller.puzzle.paint.model import check_size

    parts = text.lower().replace("×", "x").split("x")
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"size: expected WxH like {DEFAULT_SIZE}, got {text!r}")
    width, height = int(parts[0]), int(parts[1])
    try:
        check_size(width, height)
    except ValueError as exc:
        raise ValueError(f"size: {exc}") from None
    return width, height


def _parse_int(name: str, text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{name}: must be an integer, got {text!r}") from None


def new_paint(
    *,
    size: str | None,
    seed: str | None,
    generator: str | None,
    cells: str | None = None,
    par_text: str | None = None,
    image: str | None = None,
    nearest: bool = False,
    as_json: bool = False,
) -> None:
    """Generate a paint puzzle and print it (a text picture, or JSON with ``as_json``)."""
    from controller.puzzle.paint.generators import GENERATORS, UnpaintableImage, generate
    from controller.puzzle.paint.serialize import puzzle_to_dict

    try:
        gen = generator or ("image" if image is not None else "walk")
        if gen not in GENERATORS:
            raise ValueError(f"generator: unknown {gen!r}, expected one of {', '.join(GENERATORS)}")
        if size is None:
            width, height = (None, None) if gen == "image" else _parse_size(DEFAULT_SIZE)
        else:
            width, height = _parse_size(size)
        seed_value = _parse_int("seed", seed)
        if seed_value is None:
            seed_value = random.SystemRandom().randrange(2**31)
        puzzle = generate(
            width,
            height,
            seed=seed_value,
            generator=gen,
            cells=_parse_int("cells", cells),
            par=_parse_int("par", par_text),
            image_path=image,
            nearest=nearest,
        )
    except UnpaintableImage as exc:
        _fail(f"{exc} (--nearest uses it)")
    except ValueError as exc:
        _fail(str(exc))
    if as_json:
        typer.echo(json.dumps(puzzle_to_dict(puzzle)))
        return
    for line in render(puzzle.target):
        typer.echo(line)
    typer.echo(_summary(puzzle))
    typer.echo(f"solution: {describe(puzzle.solution)}")


def _summary(puzzle: PaintPuzzle) -> str:
    """One line: size, generator, seed, par and what the generator reports."""
    extra = ""
    meta = puzzle.meta
    if puzzle.generator == "walk":
        tried = meta.get("walks_tried")
        walks = _count(tried if isinstance(tried, int) else 0, "walk")
        extra = f", {meta.get('cells')} cells, {walks} tried"
    elif puzzle.generator == "image" and "flipped" in meta:
        flipped = meta["flipped"]
        extra = f", {_count(len(flipped) if isinstance(flipped, list) else 0, 'cell')} changed"
    return (
        f"{puzzle.width}x{puzzle.height} {puzzle.generator} seed {puzzle.seed}: "
        f"par {puzzle.par}{extra}"
    )


def render(canvas: Canvas) -> list[str]:
    """The canvas as text lines, 1 as a full block and 0 as a dot."""
    return ["".join(INK if r >> i & 1 else PAPER for i in range(canvas.width)) for r in canvas.rows]


def describe(strokes: tuple[Stroke, ...] | None) -> str:
    """Strokes as readable runs: ``rows 1 4, cols 0 3, rows 2`` (or none)."""
    from controller.puzzle.paint.model import runs

    if strokes is None:
        return "none"
    if not strokes:
        return "nothing to paint"
    return ", ".join(
        f"{axis}{'s' if len(ks) > 1 else ''} {' '.join(map(str, ks))}" for axis, ks in runs(strokes)
    )


def read_text(path: str) -> str:
    """A board file's text ("-" for stdin); ValueError names the board."""
    try:
        return sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"board: cannot read {path}: not UTF-8 at byte {exc.start}") from None
    except OSError as exc:
        raise ValueError(f"board: cannot read {path}: {exc.strerror or exc}") from None


def _stroke(stroke: Stroke | None) -> list[object] | None:
    return None if stroke is None else [stroke.axis, stroke.number]


def solve_report(target: Canvas, canvas: Canvas | None = None) -> dict[str, Any]:
    """Solvable, par, a solution, and from the canvas (blank by default) the strokes to go."""
    from controller.puzzle.paint.model import Canvas
    from controller.puzzle.paint.serialize import KIND
    from controller.puzzle.paint.solver import completion, conflict, nearest_solvable, par, solve

    start = Canvas.blank(target.width, target.height) if canvas is None else canvas
    solution = solve(target)
    rest = completion(target, start)
    report: dict[str, Any] = {
        "kind": KIND,
        "solvable": solution is not None,
        "par": par(target),
        "solution": None if solution is None else [_stroke(s) for s in solution],
        "solved": start == target,
        "remaining": None if rest is None else len(rest),
        "completion": None if rest is None else [_stroke(s) for s in rest],
        "hint": _stroke(rest[0]) if rest else None,
    }
    found = conflict(target)
    if found is not None:
        flips = target.diff(nearest_solvable(target))
        report["conflict"] = {
            "ones": [list(c) for c in found.ones],
            "zeros": [list(c) for c in found.zeros],
        }
        report["nearest"] = {"flips": [list(c) for c in flips]}
    return report


def solve_text(text: str, *, as_json: bool = False) -> bool:
    """Answer `puzzle solve` for a paint board; False (nothing done) for a pipes board.

    A board is paint when its JSON object has a ``"kind"`` other than pipes; ValueError names
    the bad field.
    """
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return False  # the pipes reader names the problem
    if not isinstance(obj, dict) or obj.get("kind", "pipes") == "pipes":
        return False
    if obj["kind"] not in KINDS:
        raise ValueError(f"kind: unknown {obj['kind']!r}, expected one of {', '.join(KINDS)}")
    from controller.puzzle.paint.model import Stroke, cells_text
    from controller.puzzle.paint.serialize import board_from_dict

    board = board_from_dict(obj)
    report = solve_report(board.target, board.canvas)
    if as_json:
        typer.echo(json.dumps(report))
        return True

    def strokes(key: str) -> tuple[Stroke, ...] | None:
        value = report[key]
        return None if value is None else tuple(Stroke(a, n) for a, n in value)

    rest = strokes("completion")
    if report["solvable"]:
        typer.echo("solvable: yes")
        typer.echo(f"par: {report['par']}")
    else:
        ones, zeros = report["conflict"]["ones"], report["conflict"]["zeros"]
        square = "cells ({}, {}) and ({}, {}) are 1 but ({}, {}) and ({}, {}) are 0".format(
            *ones[0], *ones[1], *zeros[0], *zeros[1]
        )
        typer.echo(f"solvable: no: {square}")
        typer.echo("par: none")
    typer.echo(f"solution: {describe(strokes('solution'))}")
    if not report["solvable"]:
        flips = report["nearest"]["flips"]
        cells = [(i, j) for i, j in flips]
        typer.echo(f"nearest paintable target: changes {cells_text(cells)}")
    if board.canvas is not None:
        differ = _count(len(board.target.diff(board.canvas)), "cell")
        to_go = "cannot be finished" if rest is None else f"{_count(len(rest), 'stroke')} to go"
        typer.echo(f"canvas: {differ} differ, {to_go}")
    if rest is None:
        typer.echo("hint: none (no stroke sequence paints the target)")
    elif not rest:
        typer.echo("hint: none (solved)")
    else:
        typer.echo(f"hint: {rest[0]}")
    return True
