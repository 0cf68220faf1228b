"""The room runtime: the room interface (`Room`, `make_room`), the daemon loop, state files,
admin requests, and what every room kind shares.

Each kind is a subpackage (`pipes`: `PipesRoom`, `paint`: `PaintRoom`); the admin commands'
work is `admin`. It wires the engine (`controller.puzzle`) and the world mapping
(`controller.world`) to a server connection (`controller.rcon`). Import the submodules for the
details; this surface names what other packages use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = [
    "Clock",
    "SYSTEM_CLOCK",
    "Daemon",
    "Link",
    "PipesRoom",
    "Repairs",
    "Room",
    "RoomState",
    "make_room",
]

_WHERE = {
    "Clock": "clock",
    "SYSTEM_CLOCK": "clock",
    "Daemon": "daemon",
    "Link": "link",
    "PipesRoom": "pipes.room",
    "Repairs": "repairs",
    "Room": "room",
    "RoomState": "state",
    "make_room": "room",
}

if TYPE_CHECKING:
    from controller.runtime.clock import SYSTEM_CLOCK, Clock
    from controller.runtime.daemon import Daemon
    from controller.runtime.link import Link
    from controller.runtime.pipes.room import PipesRoom
    from controller.runtime.repairs import Repairs
    from controller.runtime.room import Room, make_room
    from controller.runtime.state import RoomState


def __getattr__(name: str) -> Any:
    """Import on first use, so `import controller.runtime.x` stays cheap for the CLI."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"controller.runtime.{_WHERE[name]}"), name)
