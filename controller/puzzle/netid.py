"""Simon Tatham's Net game ids (non-wrapping) to and from boards; the format is in docs/net.md.

A game id is ``WxH:<desc>``: one hex digit per tile in row-major order whose bits are Net's arms
(1 right, 2 up, 4 left, 8 down), optionally followed by barrier letters. Net's x grows east and
its y grows south, as our i and j do, so only the bits are renamed. Refused, each with a message
naming the field: wrapping boards (``w``), barriers (``v``/``h``), blank and cross tiles (no such
pieces here), random-seed ids (``WxH#seed``, which only Net's own generator can expand) and
sizes outside 3..128.
"""

from __future__ import annotations

import re

from controller.puzzle.model import MAX_SIZE, MIN_SIZE, Board, shape_of_mask

__all__ = ["NET_TO_ARMS", "ARMS_TO_NET", "parse_net_id", "board_from_net_id", "net_id"]

# Net's bit for each of our directions N, E, S, W: up 2, right 1, down 8, left 4.
_NET_BIT = (2, 1, 8, 4)
NET_TO_ARMS: tuple[int, ...] = tuple(
    sum(1 << d for d in range(4) if v & _NET_BIT[d]) for v in range(16)
)
"""Our arm mask for each of Net's 16 tile values."""
ARMS_TO_NET: tuple[int, ...] = tuple(NET_TO_ARMS.index(m) for m in range(16))
"""Net's tile value for each of our arm masks."""

_PARAMS = re.compile(r"^(\d+)(?:x(\d+))?([a-z0-9.]*)$")
_HEX = "0123456789abcdef"


def parse_net_id(text: str) -> tuple[int, int, list[int]]:
    """(width, height, arm masks now shown) of a Net game id; ValueError names the bad field."""
    text = text.strip()
    if "#" in text and ":" not in text:
        raise ValueError(
            "net_id: a random-seed id (WxH#seed); expand it with "
            "`sgt-net --generate 1 'WxH#seed'` and pass the WxH:... id it prints"
        )
    if ":" not in text:
        raise ValueError(f"net_id: expected WxH:<tiles>, got {text[:40]!r}")
    params, desc = text.split(":", 1)
    match = _PARAMS.match(params.strip().lower())
    if match is None:
        raise ValueError(f"net_id: parameters must look like 31x31, got {params!r}")
    width = int(match.group(1))
    height = int(match.group(2) or match.group(1))
    if "w" in match.group(3):
        raise ValueError("net_id: wrapping boards (the 'w' flag) are not supported")
    for name, value in (("width", width), ("height", height)):
        if not MIN_SIZE <= value <= MAX_SIZE:
            raise ValueError(f"net_id: {name} must be {MIN_SIZE}..{MAX_SIZE}, got {value}")
    desc = desc.strip().lower()
    if "v" in desc or "h" in desc:
        raise ValueError("net_id: barriers ('v' and 'h' after a tile) are not supported")
    n = width * height
    if len(desc) != n:
        raise ValueError(f"net_id: expected {n} tiles for {width}x{height}, got {len(desc)}")
    masks: list[int] = []
    for k, ch in enumerate(desc):
        value = _HEX.find(ch)
        if value < 0:
            raise ValueError(f"net_id: tile ({k % width}, {k // width}) is {ch!r}, not a hex digit")
        if value in (0, 15):
            kind = "blank" if value == 0 else "a cross"
            raise ValueError(f"net_id: tile ({k % width}, {k // width}) is {kind}")
        masks.append(NET_TO_ARMS[value])
    return width, height, masks


def board_from_net_id(text: str) -> Board:
    """The Board of a Net game id: its tiles as shown now, the source at the centre as in Net.

    The solution is the solver's (the first one found when the puzzle is ambiguous); a puzzle
    without any solution raises ValueError.
    """
    from controller.puzzle.solver import solution_masks

    width, height, masks = parse_net_id(text)
    shapes: list[int] = []
    rotations: list[int] = []
    for m in masks:
        shape, rot = shape_of_mask(m)
        shapes.append(shape)
        rotations.append(rot)
    board = Board(
        width,
        height,
        (width // 2, height // 2),
        shapes,
        rotations,
        list(rotations),
        None,
        "net",
        {"net_id": f"{width}x{height}"},
    )
    solved = solution_masks(board)
    if solved is None:
        raise ValueError("net_id: this puzzle has no solution")
    board.solution = [shape_of_mask(m)[1] for m in solved]
    return board


def net_id(board: Board) -> str:
    """The board's current tiles as a Net game id (non-wrapping, no barriers)."""
    desc = "".join(_HEX[ARMS_TO_NET[board.mask(t)]] for t in range(board.size))
    return f"{board.width}x{board.height}:{desc}"
