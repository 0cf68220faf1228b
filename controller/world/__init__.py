"""The world mapping, pure (no disk, no sockets): geometry, command strings, replies, pictures.

Importing the package stays light: each name below loads its module on first use (the
numpy-drawn pictures of ``mapart`` and ``pipes.boardart`` included), so
``controller.world.mapids`` alone costs almost nothing. Each room kind's own vocabulary is in its
subpackage (``pipes``, ``paint``). Files on disk are ``controller.maps``.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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
    from controller.world.mapart import (
        PALETTE_RGB,
        SIZE,
        all_pictures,
        preview_sheet,
        render_picture,
        to_rgb,
    )
    from controller.world.mapids import DEFAULT_MAP_ID_BASE, PICTURE_COUNT, picture_key
    from controller.world.pipes.boardart import board_picture
    from controller.world.replies import FrameValue, parse_count, parse_frame_values

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

_WHERE = {
    "commands": "commands",
    "replies": "replies",
    "Pos": "geometry",
    "Room": "geometry",
    "frame_name": "geometry",
    "frame_uuid": "geometry",
    "preload_uuid": "geometry",
    "state_block": "geometry",
    "EDGE_ON": "geometry",
    "EDGE_OFF": "geometry",
    "FrameValue": "replies",
    "parse_count": "replies",
    "parse_frame_values": "replies",
    "DEFAULT_MAP_ID_BASE": "mapids",
    "PICTURE_COUNT": "mapids",
    "picture_key": "mapids",
    "SIZE": "mapart",
    "PALETTE_RGB": "mapart",
    "render_picture": "mapart",
    "all_pictures": "mapart",
    "to_rgb": "mapart",
    "preview_sheet": "mapart",
    "board_picture": "pipes.boardart",
}


def _module(where: str) -> ModuleType:
    """One of the package's modules, imported now (static imports: the purity check reads them;
    ``import … as`` imports the submodule before looking it up, so this never recurses)."""
    if where == "commands":
        import controller.world.commands as commands_module

        return commands_module
    if where == "replies":
        import controller.world.replies as replies_module

        return replies_module
    if where == "geometry":
        import controller.world.geometry as geometry_module

        return geometry_module
    if where == "mapids":
        import controller.world.mapids as mapids_module

        return mapids_module
    if where == "mapart":
        import controller.world.mapart as mapart_module

        return mapart_module
    import controller.world.pipes.boardart as boardart_module

    return boardart_module


def __getattr__(name: str) -> object:
    """A public name, its module imported on first use."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = _module(where)
    return module if name == where else getattr(module, name)
