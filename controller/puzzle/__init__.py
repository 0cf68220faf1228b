"""The pipes puzzle engine: boards, generators, water flow, play state, solver, JSON, Net ids.

Pure Python on flat lists (no numpy, no I/O). The names below are the public API; the modules
hold the details (``controller.puzzle.solver`` for counting and par, ``.flow`` for water, ...);
the row/column paint puzzle is the subpackage ``controller.puzzle.paint``. Importing the package
stays light: each name loads its module on first use, so ``controller.puzzle.model`` alone does
not pull in the generators and the solver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = [
    "Board",
    "Change",
    "DIFFICULTIES",
    "Direction",
    "Flow",
    "GENERATORS",
    "GeneratorParams",
    "MODES",
    "PlayState",
    "Shape",
    "TileClass",
    "board_from_json",
    "board_from_net_id",
    "board_to_json",
    "build_tree",
    "compute_flow",
    "count_solutions",
    "game_from_json",
    "generate",
    "hint",
    "make_unique",
    "net_id",
    "par",
    "sink_hint",
    "sink_par",
    "sink_reached",
    "solve",
]

_WHERE = {
    "Board": "model",
    "Direction": "model",
    "Shape": "model",
    "TileClass": "model",
    "Flow": "flow",
    "compute_flow": "flow",
    "sink_reached": "flow",
    "DIFFICULTIES": "generators",
    "MODES": "generators",
    "GENERATORS": "generators",
    "GeneratorParams": "generators",
    "build_tree": "generators",
    "generate": "generators",
    "Change": "play",
    "PlayState": "play",
    "board_from_json": "serialize",
    "board_to_json": "serialize",
    "game_from_json": "serialize",
    "count_solutions": "solver",
    "hint": "solver",
    "make_unique": "solver",
    "par": "solver",
    "solve": "solver",
    "board_from_net_id": "netid",
    "net_id": "netid",
    "sink_hint": "sink",
    "sink_par": "sink",
}

if TYPE_CHECKING:
    from controller.puzzle.flow import Flow, compute_flow, sink_reached
    from controller.puzzle.generators import (
        DIFFICULTIES,
        GENERATORS,
        MODES,
        GeneratorParams,
        build_tree,
        generate,
    )
    from controller.puzzle.model import Board, Direction, Shape, TileClass
    from controller.puzzle.netid import board_from_net_id, net_id
    from controller.puzzle.play import Change, PlayState
    from controller.puzzle.serialize import board_from_json, board_to_json, game_from_json
    from controller.puzzle.sink import sink_hint, sink_par
    from controller.puzzle.solver import count_solutions, hint, make_unique, par, solve


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"controller.puzzle.{_WHERE[name]}"), name)
