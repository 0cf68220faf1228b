"""Map files on disk: where they go per release, writing and reading them, install, PNGs.

The pictures themselves are drawn (pure) in ``controller.world.mapart``; this package does the
file I/O of ``pipesctl maps`` (install, preview, export) and of ``pipesctl show --png``.
"""

from __future__ import annotations

from controller.maps.install import ForeignMapsError, PlanItem, install_pictures, plan_install
from controller.maps.layout import Layout, counter_path, layout_for, map_path
from controller.maps.mapfile import atomic_save, encode_file, map_file, read_colors
from controller.maps.png import board_image, board_png, preview_image, preview_png
from controller.maps.probe import (
    LevelInfo,
    Target,
    read_counter,
    read_level_info,
    resolve_target,
    server_holds_world,
)

__all__ = [
    "Layout",
    "LevelInfo",
    "Target",
    "PlanItem",
    "ForeignMapsError",
    "layout_for",
    "read_level_info",
    "resolve_target",
    "map_path",
    "counter_path",
    "read_counter",
    "server_holds_world",
    "map_file",
    "encode_file",
    "read_colors",
    "atomic_save",
    "plan_install",
    "install_pictures",
    "preview_image",
    "preview_png",
    "board_image",
    "board_png",
]
