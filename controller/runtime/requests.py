"""Typed requests from an admin command to a running daemon, and the daemon's answers.

They travel as small JSON files (`controller.runtime.control`); `to_json`/`from_json` are the
only places that know the file layout.

A request file carries `expires`, the wall-clock time (seconds since the epoch) after which the
admin command that wrote it has given up waiting: a daemon that finds it later drops it instead
of carrying it out. A file without it (written by a pipesctl from before expiries) expires
`REQUEST_TIMEOUT_S` after the file was last written (its modification time), the time the admin
command of that version waited.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from controller.runtime.repairs import Repairs

__all__ = [
    "ResetRequest",
    "RepairRequest",
    "HintRequest",
    "ShowRequest",
    "Request",
    "ResetDone",
    "RepairDone",
    "HintGiven",
    "Rotations",
    "CanvasRead",
    "Response",
    "request_to_json",
    "request_from_json",
    "request_expiry",
    "REQUEST_TIMEOUT_S",
    "response_to_json",
    "response_from_json",
]


@dataclass(frozen=True)
class ResetRequest:
    """A new puzzle now (optionally with a given seed)."""

    seed: int | None = None

    def __str__(self) -> str:
        return "reset" if self.seed is None else f"reset with seed {self.seed}"


@dataclass(frozen=True)
class RepairRequest:
    """Reconcile the room with its state now."""

    def __str__(self) -> str:
        return "repair"


@dataclass(frozen=True)
class HintRequest:
    """Tell the players near the room one tile to turn."""

    def __str__(self) -> str:
        return "hint"


@dataclass(frozen=True)
class ShowRequest:
    """Read every frame's rotation back from the server."""

    def __str__(self) -> str:
        return "show"


Request = ResetRequest | RepairRequest | HintRequest | ShowRequest


@dataclass(frozen=True)
class ResetDone:
    """The number of the new puzzle."""

    puzzle: int


@dataclass(frozen=True)
class RepairDone:
    """What the reconcile fixed."""

    repairs: Repairs


@dataclass(frozen=True)
class HintGiven:
    """The hinted tile (i, j), the rotation it should get and how many clicks away it is;
    `tile` None when nothing is left; `heard` False when no player was near the room."""

    tile: tuple[int, int] | None = None
    rotation: int = 0
    clicks: int = 0
    heard: bool = True
    stroke: tuple[str, int] | None = None  # paint rooms: the brush to pull, ("row", j)/("col", i)


@dataclass(frozen=True)
class Rotations:
    """Every tile frame's ItemRotation by tile index."""

    values: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class CanvasRead:
    """A paint room's canvas as the world shows it: one bit mask per row (bit i = cell (i, j)
    shows colour 1)."""

    rows: tuple[int, ...] = ()


REQUEST_TIMEOUT_S = 15.0
"""How long an admin command waits for the daemon to carry out its request (and so how long a
request lives)."""

Response = ResetDone | RepairDone | HintGiven | Rotations | CanvasRead

_REQUESTS: dict[str, type[Request]] = {
    "reset": ResetRequest,
    "repair": RepairRequest,
    "hint": HintRequest,
    "show": ShowRequest,
}


def request_to_json(request: Request, expires: float | None = None) -> dict[str, Any]:
    """The request file's content; `expires` (seconds since the epoch) when the writer gives up."""
    action = next(k for k, v in _REQUESTS.items() if isinstance(request, v))
    data: dict[str, Any] = {"action": action}
    if expires is not None:
        data["expires"] = expires
    if isinstance(request, ResetRequest):
        data["seed"] = request.seed
    return data


def request_from_json(data: dict[str, Any]) -> Request | None:
    """The request in a file; None for anything unknown or malformed."""
    kind = _REQUESTS.get(str(data.get("action")))
    if kind is None:
        return None
    if kind is ResetRequest:
        seed = data.get("seed")
        ok = isinstance(seed, int) and not isinstance(seed, bool)
        return ResetRequest(seed if ok else None)
    return kind()


def request_expiry(data: dict[str, Any], written: float) -> float:
    """When the request in a file expires: its `expires`, else (a file from before expiries, or
    a malformed value) `REQUEST_TIMEOUT_S` after `written`, the file's modification time."""
    expires = data.get("expires")
    if isinstance(expires, int | float) and not isinstance(expires, bool):
        if math.isfinite(expires):
            return float(expires)
    return written + REQUEST_TIMEOUT_S


def response_to_json(response: Response) -> dict[str, Any]:
    """The response file's content."""
    if isinstance(response, ResetDone):
        return {"kind": "reset", "puzzle": response.puzzle}
    if isinstance(response, RepairDone):
        return {"kind": "repair", "repairs": response.repairs.to_dict()}
    if isinstance(response, HintGiven):
        tile = None if response.tile is None else list(response.tile)
        return {
            "kind": "hint",
            "tile": tile,
            "rotation": response.rotation,
            "clicks": response.clicks,
            "heard": response.heard,
            "stroke": None if response.stroke is None else list(response.stroke),
        }
    if isinstance(response, CanvasRead):
        return {"kind": "canvas", "rows": list(response.rows)}
    return {"kind": "rotations", "values": {str(k): v for k, v in response.values.items()}}


def response_from_json(data: dict[str, Any]) -> Response | None:
    """The response in a file; None for anything unknown or malformed."""
    try:
        kind = data.get("kind")
        if kind == "reset":
            return ResetDone(int(data["puzzle"]))
        if kind == "repair":
            return RepairDone(Repairs.from_dict(dict(data["repairs"])))
        if kind == "hint":
            tile = data.get("tile")
            stroke = data.get("stroke")
            return HintGiven(
                None if tile is None else (int(tile[0]), int(tile[1])),
                int(data.get("rotation", 0)),
                int(data.get("clicks", 0)),
                bool(data.get("heard", True)),
                None if stroke is None else (str(stroke[0]), int(stroke[1])),
            )
        if kind == "canvas":
            return CanvasRead(tuple(int(r) for r in data["rows"]))
        if kind == "rotations":
            return Rotations({int(k): int(v) for k, v in dict(data["values"]).items()})
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return None
