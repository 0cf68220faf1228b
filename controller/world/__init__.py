"""The world mapping, pure (no disk, no sockets): geometry, command strings, replies, pictures.

Importing the package stays light: the numpy-drawn pictures (``mapart``, ``boardart``) load on
first use of one of their names. Files on disk are ``controller.maps``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.world import commands, replies
from controller.world.geometry import (
    EDGE_OFF,
    EDGE_ON,
    Pos,
    Room,
    frame_name,
    frame_uuid,
    preload_uuid,
    state_block,
)
from controller.world.mapids import DEFAULT_MAP_ID_BASE, PICTURE_COUNT, picture_key
from controller.world.replies import FrameValue, parse_count, parse_frame_values

if TYPE_CHECKING:
    from controller.world.boardart import board_picture
    from controller.world.mapart import (
        PALETTE_RGB,
        SIZE,
        all_pictures,
        preview_sheet,
        render_picture,
        to_rgb,
    )

__all__ = [
    "commands",
    "replies",
    "Pos",
    "Room",
    "frame_name",
    "frame_uuid",
    "preload_uuid",
    "state_block",
    "EDGE_ON",
    "EDGE_OFF",
    "FrameValue",
    "parse_count",
    "parse_frame_values",
    "DEFAULT_MAP_ID_BASE",
    "PICTURE_COUNT",
    "picture_key",
    "SIZE",
    "PALETTE_RGB",
    "render_picture",
    "all_pictures",
    "to_rgb",
    "preview_sheet",
    "board_picture",
]

_MAPART = frozenset(
    {"SIZE", "PALETTE_RGB", "render_picture", "all_pictures", "to_rgb", "preview_sheet"}
)


def __getattr__(name: str) -> object:
    """The numpy-drawn names, imported on first use."""
    if name in _MAPART:
        from controller.world import mapart

        return getattr(mapart, name)
    if name == "board_picture":
        from controller.world import boardart

        return boardart.board_picture
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
