"""`pipesctl puzzle`: generate boards, show their water flow, solve them.

Bad input (size out of range, unknown generator, knob outside [0, 1], malformed or inconsistent
board JSON) prints one line ``error: <field>: <problem>`` on stderr, writes nothing on stdout and
exits with code 2. Options are parsed here (not by typer) so every such error is that one line.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from controller.cli import puzzle_paint
from controller.cli.common import guarded
from controller.cli.ui import CLASS_STYLE, CLOSED_STYLE, PIPE_GLYPHS
from controller.errors import ExitCode
from controller.puzzle import solver
from controller.puzzle.closed import closed_tiles
from controller.puzzle.flow import Flow, compute_flow, sink_reached
from controller.puzzle.generators import (
    DEFAULT_BRANCHING,
    DEFAULT_COVERAGE,
    DIFFICULTIES,
    GENERATORS,
    MODES,
    GeneratorParams,
    check_size,
    generate,
)
from controller.puzzle.model import Board, Direction, TileClass, mask_of
from controller.puzzle.netid import board_from_net_id
from controller.puzzle.serialize import board_from_json, board_to_dict
from controller.puzzle.sink import sink_hint, sink_par_report

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "app",
    "GLYPHS",
    "parse_size",
    "parse_unit",
    "parse_seed",
    "parse_source",
    "render_rows",
    "flow_to_dict",
    "solve_report",
]

app = typer.Typer(
    name="puzzle",
    help="Generate pipes puzzles, show their water flow and solve them.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)

# Box-drawing glyph per arm mask (bit 0 N, 1 E, 2 S, 3 W): a sink board's cross (all four arms)
# shows ┼, a hole (none) a blank.
GLYPHS: dict[int, str] = {m: PIPE_GLYPHS[m] for m in range(16)}

_STYLE_DRY = CLASS_STYLE[TileClass.DRY]
_STYLE_WET = CLASS_STYLE[TileClass.WET]
_STYLE_RING = CLASS_STYLE[TileClass.RING]
_STYLE_SOURCE = CLASS_STYLE[TileClass.SOURCE]
_STYLE_SOURCE_RING = CLASS_STYLE[TileClass.SOURCE_RING]


def _fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with the usage code (2)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(int(ExitCode.USAGE))


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` (or a single N for NxN) as (width, height), range-checked; ValueError names size."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"size: expected WxH like 31x31, got {text!r}")
    width, height = int(parts[0]), int(parts[1])
    try:
        check_size(width, height)
    except ValueError as exc:
        raise ValueError(f"size: {exc}") from None
    return width, height


def parse_unit(name: str, text: str) -> float:
    """A float in [0, 1] for knob ``name``; ValueError names it."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name}: must be a number in [0, 1], got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name}: must be in [0, 1], got {text}")
    return value


def parse_seed(text: str | None) -> int:
    """An integer seed, or a fresh random one when none is given."""
    if text is None:
        return random.SystemRandom().randrange(2**31)
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"seed: must be an integer, got {text!r}") from None


def parse_source(text: str | None) -> tuple[int, int] | None:
    """``i,j`` as a tile, or None for the default (the centre)."""
    if text is None:
        return None
    parts = text.split(",")
    try:
        i, j = (int(p) for p in parts)
    except ValueError:
        raise ValueError(f"source: expected i,j like 3,4, got {text!r}") from None
    return i, j


def render_rows(board: Board, rotations: list[int] | None = None) -> list[str]:
    """The board as lines of box-drawing glyphs (current rotations unless others are given)."""
    rot = board.rotations if rotations is None else rotations
    w = board.width
    return [
        "".join(GLYPHS[mask_of(board.shapes[j * w + i], rot[j * w + i])] for i in range(w))
        for j in range(board.height)
    ]


def solved(board: Board, flow: Flow) -> bool:
    """The board's win: every tile wet (tree), the water at the sink (sink mode)."""
    return sink_reached(board) if board.mode == "sink" else flow.solved


def flow_to_dict(board: Board, flow: Flow) -> dict[str, Any]:
    """The ``puzzle flow --json`` object: wet, ring and closed tiles (on dry loops and in closed
    islands) as [i, j], parents, solved."""
    wet = [list(board.coords(t)) for t in range(board.size) if flow.wet[t]]
    rings = [list(board.coords(t)) for t in range(board.size) if flow.ring[t]]
    closed = [list(board.coords(t)) for t in sorted(closed_tiles(board))]
    parent = {
        "{},{}".format(*board.coords(t)): Direction(flow.parent[t]).word
        for t in range(board.size)
        if flow.wet[t] and flow.parent[t] >= 0
    }
    return {
        "wet": wet,
        "rings": rings,
        "closed": closed,
        "parent": parent,
        "solved": solved(board, flow),
    }


def _hint_object(board: Board, tip: tuple[int, int] | None) -> dict[str, Any] | None:
    """A hint as ``{"tile": [i, j], "rotation": r}`` (None when there is none)."""
    return None if tip is None else {"tile": list(board.coords(tip[0])), "rotation": tip[1]}


def solve_report(board: Board) -> dict[str, Any]:
    """The ``puzzle solve --json`` object: ``solutions`` (0, 1 or "many"), ``par`` (fewest
    clicks to a solution, null without one), ``hint`` and ``deduced`` (deduction alone solves
    it). Sink-mode boards have 0 or "many" solutions (tiles off the route turn freely)."""
    if board.mode == "sink":
        try:
            clicks: int | None = sink_par_report(board).clicks
        except ValueError:
            clicks = None
        tip = sink_hint(board) if clicks is not None else None
        return {
            "solutions": 0 if clicks is None else "many",
            "par": clicks,
            "hint": _hint_object(board, tip),
            "deduced": False,
        }
    count = solver.count_solutions(board, limit=2)
    if count == 0:
        return {"solutions": 0, "par": None, "hint": None, "deduced": False}
    best = solver.par_report(board)
    return {
        "solutions": "many" if count >= 2 else count,
        "par": best.clicks,
        "hint": _hint_object(board, solver.hint(board, best.masks)),
        "deduced": solver.deduced(board),
    }


def _par_note(board: Board) -> str:
    """ " (a bound: at least L)" when par is not exact, else ""."""
    try:
        best = sink_par_report(board) if board.mode == "sink" else solver.par_report(board)
    except ValueError:
        return ""
    return "" if best.exact else f" (a bound: at least {best.lower})"


def _read_board(path: str) -> Board:
    """Load a board JSON file ("-" for stdin); ValueError names the problem."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"board: cannot read {path}: not UTF-8 at byte {exc.start}") from None
    except OSError as exc:
        raise ValueError(f"board: cannot read {path}: {exc.strerror or exc}") from None
    return board_from_json(text)


def _console() -> Console:
    """A console on stdout: colours on a terminal, plain when piped or NO_COLOR is set."""
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def _print_grid(board: Board, styles: list[str] | None, rotations: list[int] | None = None) -> None:
    """Print the board's glyph rows, styling tile t with ``styles[t]`` when given (plain
    lines, without loading rich, when NO_COLOR is set or stdout is no terminal and colour is
    not forced with FORCE_COLOR, the variables rich itself follows)."""
    piped = not sys.stdout.isatty() and not os.environ.get("FORCE_COLOR")
    if os.environ.get("NO_COLOR") or piped:
        for row in render_rows(board, rotations):
            typer.echo("".join(row))
        return
    from rich.text import Text

    console = _console()
    w = board.width
    for j, row in enumerate(render_rows(board, rotations)):
        text = Text()
        for i, glyph in enumerate(row):
            text.append(glyph, style=styles[j * w + i] if styles else "")
        console.print(text)


@app.command(context_settings=puzzle_paint.EXTRA_ARGS)
@guarded
def new(
    ctx: typer.Context,
    kind: Annotated[str, typer.Option(help=puzzle_paint.KIND_HELP)] = "pipes",
    size: Annotated[str, typer.Option(help="Board size WxH, each 3..128.")] = "15x15",
    seed: Annotated[str | None, typer.Option(help="Integer seed (random when omitted).")] = None,
    generator: Annotated[
        str, typer.Option(help=f"Tree generator: {', '.join(GENERATORS)}.")
    ] = "prim",
    branching: Annotated[
        str, typer.Option(metavar="F", help="growing_tree: 0 corridors (easy) .. 1 bushy (hard).")
    ] = str(DEFAULT_BRANCHING),
    coverage: Annotated[
        str, typer.Option(metavar="F", help="walk: share of tiles on the long route.")
    ] = str(DEFAULT_COVERAGE),
    source: Annotated[
        str | None, typer.Option(metavar="I,J", help="Source tile (default: the centre).")
    ] = None,
    unique: Annotated[
        bool, typer.Option("--unique/--no-unique", help="Repair until exactly one solution.")
    ] = True,
    difficulty: Annotated[
        str, typer.Option(help=f"Level of a unique tree board: {', '.join(DIFFICULTIES)}.")
    ] = "normal",
    mode: Annotated[
        str,
        typer.Option(help=f"{' or '.join(MODES)}: connect every tile, or bring water to a sink."),
    ] = "tree",
    crosses: Annotated[
        str, typer.Option(metavar="F", help="sink: chance the route crosses itself (0..1).")
    ] = "0",
    holes: Annotated[
        bool, typer.Option("--holes/--no-holes", help="sink: tiles off the route are holes.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the board as JSON.")] = False,
    solution: Annotated[
        bool, typer.Option("--solution", help="Draw the solved board instead of the start.")
    ] = False,
) -> None:
    """Generate a board and print it (box-drawing pipes, or JSON with --json)."""
    if kind != "pipes" or ctx.args:
        puzzle_paint.new_from(ctx)
        return
    try:
        width, height = parse_size(size)
        seed_value = parse_seed(seed)
        knob_b = parse_unit("branching", branching)
        knob_c = parse_unit("coverage", coverage)
        knob_x = parse_unit("crosses", crosses)
        params = GeneratorParams(
            generator=generator,
            branching=knob_b,
            coverage=knob_c,
            unique=unique,
            source=parse_source(source),
            difficulty=difficulty,
            mode=mode,
            crosses=knob_x,
            holes=holes,
        )
        board = generate(width, height, seed=seed_value, params=params)
    except ValueError as exc:
        _fail(str(exc))
    if as_json:
        obj = board_to_dict(board)
        obj["difficulty"] = difficulty
        obj["mode"] = mode
        typer.echo(json.dumps(obj))
        return
    styles = [""] * board.size
    styles[board.source_index] = _STYLE_SOURCE
    if board.sink is not None:
        styles[board.index(*board.sink)] = _STYLE_SOURCE
    _print_grid(board, styles, board.solution if solution else None)
    if board.sink is not None:
        route = board.meta.get("route")
        typer.echo(
            f"{width}x{height} sink mode seed {seed_value}, route of {route} tiles "
            f"from ({board.source[0]}, {board.source[1]}) to the sink at "
            f"({board.sink[0]}, {board.sink[1]})"
        )
        return
    made = "unique" if board.meta.get("unique") else "not checked for uniqueness"
    if board.meta.get("unique") and difficulty != "normal":
        made += f", {difficulty}"
        if board.meta.get("difficulty_met") is False:
            made += " (no such board found: kept a unique one)"
    typer.echo(f"{width}x{height} {generator} seed {seed_value}, {made}")


@app.command()
@guarded
def flow(
    board_file: Annotated[str, typer.Argument(metavar="BOARD.json", help="Board JSON, - = stdin")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the flow as JSON.")] = False,
) -> None:
    """Show the water flow of the board's current rotations (wet, ring and source tiles, and
    the tiles on dry loops and in closed islands)."""
    try:
        board = _read_board(board_file)
    except ValueError as exc:
        _fail(str(exc))
    state = compute_flow(board)
    if as_json:
        typer.echo(json.dumps(flow_to_dict(board, state)))
        return
    closed = closed_tiles(board)
    styles = []
    for t in range(board.size):
        if t in closed:
            styles.append(CLOSED_STYLE)
        elif t == board.source_index:
            styles.append(_STYLE_SOURCE_RING if state.ring[t] else _STYLE_SOURCE)
        elif state.ring[t]:
            styles.append(_STYLE_RING)
        elif state.wet[t]:
            styles.append(_STYLE_WET)
        else:
            styles.append(_STYLE_DRY)
    _print_grid(board, styles)
    rings = sum(state.ring)
    typer.echo(
        f"wet {state.wet_count}/{board.size}, ring tiles {rings}, closed tiles {len(closed)}, "
        f"solved: {'yes' if solved(board, state) else 'no'}"
    )


@app.command()
@guarded
def solve(
    board_file: Annotated[
        str | None, typer.Argument(metavar="BOARD.json", help="Board JSON, - = stdin")
    ] = None,
    net_id: Annotated[
        str | None,
        typer.Option("--net-id", metavar="ID", help="A board as Net's game id (WxH:<tiles>)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Print the board's solution count, par (fewest clicks to solve) and a hint."""
    try:
        if (board_file is None) == (net_id is None):
            raise ValueError("board: give either BOARD.json or --net-id")
        if net_id is not None:
            board = board_from_net_id(net_id)
        else:
            assert board_file is not None
            text = puzzle_paint.read_text(board_file)
            if puzzle_paint.solve_text(text, as_json=as_json):
                return
            board = board_from_json(text)
    except ValueError as exc:
        _fail(str(exc))
    report = solve_report(board)
    if as_json:
        typer.echo(json.dumps(report))
        return
    tip = report["hint"]
    typer.echo(f"solutions: {report['solutions']}")
    if report["par"] is None:
        typer.echo("par: none (no solution)")
    else:
        typer.echo(f"par: {report['par']}{_par_note(board)}")
    if tip is None:
        typer.echo("hint: none (solved)" if report["par"] is not None else "hint: none")
    else:
        i, j = tip["tile"]  # 0-based in the JSON, column and row from 1 in text (as `hint`)
        typer.echo(f"hint: column {i + 1}, row {j + 1}: turn it to rotation {tip['rotation']}")
    if board.mode == "sink":
        return
    typer.echo(f"deduced: {'yes' if report['deduced'] else 'no (search needed)'}")
    if report["solutions"] != 0:
        typer.echo(f"difficulty: {round(solver.difficulty(board), 3)}")
