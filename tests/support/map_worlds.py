"""Sample targets and pictures shared by the map file tests."""

from __future__ import annotations

from typing import Any

import numpy as np

from controller.maps.layout import Layout
from controller.maps.probe import Target

__all__ = ["BASE", "T26", "T121", "foreign_picture"]

BASE = 1_000_000
T26 = Target(Layout.NAMESPACED, 4790, "test")
T121 = Target(Layout.LEGACY, 4189, "test")


def foreign_picture() -> np.ndarray[Any, np.dtype[np.uint8]]:
    return np.full((128, 128), 34, dtype=np.uint8)  # a snowy map a player made
