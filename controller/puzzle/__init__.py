"""The pipes puzzle engine: boards, generators, water flow, play state, solver, JSON.

Pure Python on flat lists (no numpy, no I/O). The names below are the public API; the modules
hold the details (``controller.puzzle.solver`` for counting and par, ``.flow`` for water, ...).
"""

from __future__ import annotations

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
from controller.puzzle.play import Change, PlayState
from controller.puzzle.serialize import board_from_json, board_to_json, game_from_json
from controller.puzzle.sink import sink_hint, sink_par
from controller.puzzle.solver import count_solutions, hint, make_unique, par, solve

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
    "board_to_json",
    "build_tree",
    "compute_flow",
    "count_solutions",
    "game_from_json",
    "generate",
    "hint",
    "make_unique",
    "par",
    "sink_hint",
    "sink_par",
    "sink_reached",
    "solve",
]
