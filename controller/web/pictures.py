"""The board pictures of the web page: the rendering behind `pipesctl show --png`, as PNG
bytes, one render per room and revision."""

from __future__ import annotations

import io
import threading

from controller.maps.paintpng import paint_image
from controller.maps.png import board_image
from controller.web.live import RoomView

__all__ = ["PictureCache", "render_png", "tile_pixels"]

PAGE_PIXELS = 768  # a board's picture is about this wide on the page


def tile_pixels(width: int, height: int) -> int:
    """Pixels per tile: the largest of 64, 32, 16, 8 (divisors of a picture's 128, so a board is
    drawn small from the start) that keeps the picture within PAGE_PIXELS, at least 8."""
    fits = PAGE_PIXELS // max(width, height)
    return next((px for px in (64, 32, 16) if px <= fits), 8)


def render_png(view: RoomView) -> bytes | None:
    """The room's picture as PNG (None: nothing built yet)."""
    if view.board is not None:
        image = board_image(view.board, view.classes, tile_pixels(view.width, view.height))
    elif view.canvas is not None and view.target is not None:
        cell = max(4, min(32, PAGE_PIXELS // (2 * view.width + 2)))
        image = paint_image(view.canvas, view.target, cell)
    else:
        return None
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class PictureCache:
    """The latest picture of each room, rendered again only when its revision moved on."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[int, bytes | None]] = {}
        self.renders = 0  # how many pictures were drawn

    def png(self, view: RoomView) -> bytes | None:
        """The PNG of this snapshot, from the cache when its revision was rendered."""
        with self._lock:
            hit = self._cache.get(view.name)
            if hit is not None and hit[0] == view.revision:
                return hit[1]
            data = render_png(view)
            self._cache[view.name] = (view.revision, data)
            self.renders += 1
            return data
