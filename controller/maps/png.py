"""PNG files of the pictures: the labelled preview sheet and a board as players see it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from controller.puzzle.model import Board, Shape, TileClass, map_id
from controller.world.mapart import (
    LABEL_DIM,
    LABEL_TEXT,
    PALETTE_RGB,
    SIZE,
    preview_sheet,
    to_rgb,
)
from controller.world.mapids import DEFAULT_MAP_ID_BASE
from controller.world.pipes.boardart import board_picture

__all__ = ["CLOSED_OUTLINE", "preview_image", "preview_png", "board_image", "board_png"]


def preview_image(base: int = DEFAULT_MAP_ID_BASE) -> Image.Image:
    """All pictures on one labelled sheet (mode P, packed colours as indices).

    The sheet of ``preview_sheet`` (640 x 768 pixels) with the shapes named in the header row and
    the classes and their ids in the label column; it uses only map palette colours.
    """
    image = Image.fromarray(preview_sheet(), mode="P")
    image.putpalette(PALETTE_RGB.tobytes())
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"  # no anti-aliasing: every pixel stays a palette colour
    font = ImageFont.load_default(size=16)
    small = ImageFont.load_default(size=12)
    draw.text((8, 8), "pipesctl maps", fill=LABEL_TEXT, font=font)
    draw.text((8, 32), f"base {base}", fill=LABEL_DIM, font=small)
    draw.text((8, 50), "id = base +", fill=LABEL_DIM, font=small)
    draw.text((8, 66), "shape + 4*class", fill=LABEL_DIM, font=small)
    for shape in Shape:
        x = (1 + int(shape)) * SIZE + 8
        draw.text((x, 48), f"{int(shape)} {shape.word}", fill=LABEL_TEXT, font=font)
    for cls in TileClass:
        y = (1 + int(cls)) * SIZE
        name = cls.name.lower().replace("_", "-")
        draw.text((8, y + 40), f"{int(cls)} {name}", fill=LABEL_TEXT, font=font)
        first = map_id(base, 0, cls)
        draw.text((8, y + 66), f"ids {first}..", fill=LABEL_DIM, font=small)
        draw.text((8, y + 82), f"    {first + 3}", fill=LABEL_DIM, font=small)
        if cls in (TileClass.RING, TileClass.SOURCE_RING):
            draw.text((8, y + 104), "(+0 unused)", fill=LABEL_DIM, font=small)
    return image


def preview_png(path: str | Path, base: int = DEFAULT_MAP_ID_BASE) -> Path:
    """Write the labelled preview sheet as a PNG; return its path."""
    out = Path(path)
    preview_image(base).save(out, format="PNG")
    return out


# The outline of a tile on a dry loop or in a closed island: the base colour of map colour
# COLOR_PINK, pearlescent froglight's (docs/server-behaviour.md, "Block states").
CLOSED_OUTLINE = (242, 127, 165)


def board_image(
    board: Board,
    classes: Sequence[int],
    tile_px: int = 128,
    closed: Sequence[bool] | None = None,
) -> Image.Image:
    """The board's pictures as an RGB image, ``tile_px`` pixels a tile, north up; tiles that
    ``closed`` marks (dry loops, closed islands) framed in CLOSED_OUTLINE. A tile size that
    divides 128 is drawn small from the start: the same pixels as a nearest-neighbour shrink of
    the full picture, without the full picture."""
    if tile_px < SIZE and SIZE % tile_px == 0:
        image = Image.fromarray(to_rgb(board_picture(board, classes, SIZE // tile_px)), "RGB")
    else:
        image = Image.fromarray(to_rgb(board_picture(board, classes)), "RGB")
        if tile_px != SIZE:
            image = image.resize(
                (board.width * tile_px, board.height * tile_px), Image.Resampling.NEAREST
            )
    if closed is not None and any(closed):
        draw = ImageDraw.Draw(image)
        line = max(2, tile_px // 16)
        for idx in (t for t in range(board.size) if closed[t]):
            x, y = idx % board.width * tile_px, idx // board.width * tile_px
            box = (x, y, x + tile_px - 1, y + tile_px - 1)
            draw.rectangle(box, outline=CLOSED_OUTLINE, width=line)
    return image


def board_png(
    path: str | Path,
    board: Board,
    classes: Sequence[int],
    closed: Sequence[bool] | None = None,
) -> Path:
    """Write the board picture as PNG (tiles shrink so the image stays ≤ 4096 px wide), the
    tiles ``closed`` marks framed."""
    tile_px = max(16, min(128, 4096 // max(board.width, board.height)))
    out = Path(path)
    board_image(board, classes, tile_px, closed).save(out)
    return out
