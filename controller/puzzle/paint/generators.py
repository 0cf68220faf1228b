"""Paint targets, deterministic for a seed: ``walk``, ``strokes`` and ``image``.

* ``walk`` (the classic): a random 4-neighbour walk paints ``cells`` distinct cells 1; walks
  are drawn until one is paintable, and ``meta["walks_tried"]`` says how many it took.
* ``strokes``: a random sequence of distinct lines, built so that its target needs exactly
  ``par`` strokes (the first stroke is a row and at most W - 1 columns are used, so every row
  keeps a 1 and every column a 0 in a painted row: no line can be left out).
* ``image``: a black-and-white picture resized to the canvas and thresholded (dark = 1). An
  unpaintable picture is refused with a conflicting square named and the nearest paintable
  picture found offered; with ``nearest`` that picture is used instead.
"""

from __future__ import annotations

import random
from pathlib import Path

from controller.puzzle.paint.model import (
    MAX_SIZE,
    Canvas,
    PaintPuzzle,
    Stroke,
    cells_text,
    check_size,
)
from controller.puzzle.paint.solver import (
    Conflict,
    Unpaintable,
    conflict,
    nearest_solvable,
    puzzle_of,
)

__all__ = [
    "GENERATORS",
    "MAX_WALKS",
    "UnpaintableImage",
    "default_cells",
    "default_par",
    "max_par",
    "walk_cells",
    "walk",
    "strokes",
    "image_target",
    "image",
    "generate",
]

GENERATORS: tuple[str, ...] = ("walk", "strokes", "image")
MAX_WALKS = 10_000
_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


class UnpaintableImage(Unpaintable):
    """A picture no stroke sequence paints; carries a conflict and the nearest target found."""

    def __init__(
        self, message: str, found: Conflict, nearest: Canvas, flips: list[tuple[int, int]]
    ) -> None:
        super().__init__(message)
        self.conflict = found
        self.nearest = nearest
        self.flips = flips


def default_cells(width: int, height: int) -> int:
    """The walk length used when none is given: a quarter of the canvas, at most 16 cells."""
    return max(1, min(width * height // 4, 16))


def max_par(width: int, height: int) -> int:
    """The largest par of any paintable target: every row and all columns but one."""
    return width + height - 1


def default_par(width: int, height: int) -> int:
    """The par asked of ``strokes`` when none is given."""
    return min(max_par(width, height), max(1, (width + height) // 2))


def walk_cells(width: int, height: int, cells: int, rng: random.Random) -> Canvas:
    """A random 4-neighbour walk from a random cell until ``cells`` distinct cells are 1."""
    i, j = rng.randrange(width), rng.randrange(height)
    rows = [0] * height
    rows[j] = 1 << i
    count = 1
    while count < cells:
        di, dj = _STEPS[rng.randrange(4)]
        ni, nj = i + di, j + dj
        if 0 <= ni < width and 0 <= nj < height:
            i, j = ni, nj
            if not rows[j] >> i & 1:
                rows[j] |= 1 << i
                count += 1
    return Canvas(width, height, tuple(rows))


def _check_cells(width: int, height: int, cells: object) -> int:
    if isinstance(cells, bool) or not isinstance(cells, int):
        raise ValueError(f"cells: must be an integer, got {cells!r}")
    if not 1 <= cells <= width * height:
        raise ValueError(f"cells: must be 1..{width * height}, got {cells}")
    return cells


def walk(
    width: int, height: int, rng: random.Random, cells: int | None = None, *, seed: int | None
) -> PaintPuzzle:
    """A paintable walk target; ValueError (naming cells) after MAX_WALKS unpaintable walks."""
    check_size(width, height)
    n = default_cells(width, height) if cells is None else _check_cells(width, height, cells)
    for tried in range(1, MAX_WALKS + 1):
        target = walk_cells(width, height, n, rng)
        if conflict(target) is None:
            meta = {"cells": n, "walks_tried": tried}
            return puzzle_of(target, seed=seed, generator="walk", meta=meta)
    raise ValueError(
        f"cells: no paintable walk of {n} cells in {MAX_WALKS} tries on {width}x{height}; "
        "ask for fewer cells or use the strokes generator"
    )


def strokes(
    width: int, height: int, rng: random.Random, par: int | None = None, *, seed: int | None
) -> PaintPuzzle:
    """A target painted by a random stroke sequence whose par is exactly ``par``."""
    check_size(width, height)
    top = max_par(width, height)
    if par is None:
        par = default_par(width, height)
    elif isinstance(par, bool) or not isinstance(par, int) or not 0 <= par <= top:
        raise ValueError(f"par: must be 0..{top} for {width}x{height}, got {par!r}")
    seq: list[Stroke] = []
    if par:
        n_rows = rng.randint(max(1, par - (width - 1)), min(height, par))
        seq = [Stroke.row(j) for j in rng.sample(range(height), n_rows)]
        seq += [Stroke.col(i) for i in rng.sample(range(width), par - n_rows)]
        rng.shuffle(seq)
        first = next(k for k, s in enumerate(seq) if s.axis == "row")
        seq[0], seq[first] = seq[first], seq[0]
    target = Canvas.blank(width, height).paint(seq)
    meta: dict[str, object] = {"par_target": par, "painted_with": [list(s) for s in seq]}
    return puzzle_of(target, seed=seed, generator="strokes", meta=meta)


def _fit_size(size: tuple[int, int]) -> tuple[int, int]:
    """A picture's own size, scaled down (aspect kept) to fit MAX_SIZE x MAX_SIZE."""
    w, h = size
    scale = min(1.0, MAX_SIZE / w, MAX_SIZE / h)
    return max(1, round(w * scale)), max(1, round(h * scale))


def image_target(
    path: str | Path,
    width: int | None = None,
    height: int | None = None,
    *,
    threshold: int = 128,
) -> tuple[Canvas, tuple[int, int]]:
    """The picture as a target (dark pixels 1) and the picture's own size.

    Transparent pixels count as white. Without a size the picture's own is used (scaled down to
    fit 128 x 128). Pillow is imported here only. ValueError names ``image``.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as opened:
            opened.load()
            picture = opened.copy()
    except (OSError, UnidentifiedImageError) as exc:
        raise ValueError(f"image: cannot read {path}: {exc}") from None
    source = picture.size
    if width is None or height is None:
        width, height = _fit_size(source)
    check_size(width, height)
    if picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info:
        rgba = picture.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        picture = Image.alpha_composite(white, rgba)
    gray = picture.convert("L").resize((width, height), Image.Resampling.BOX)
    data = gray.tobytes()
    rows = []
    for j in range(height):
        mask = 0
        for i, v in enumerate(data[j * width : (j + 1) * width]):
            if v < threshold:
                mask |= 1 << i
        rows.append(mask)
    return Canvas(width, height, tuple(rows)), source


def image(
    path: str | Path,
    width: int | None = None,
    height: int | None = None,
    *,
    nearest: bool = False,
    seed: int | None = None,
) -> PaintPuzzle:
    """The puzzle of a picture; UnpaintableImage unless it is paintable or ``nearest`` is set."""
    target, source = image_target(path, width, height)
    meta: dict[str, object] = {"image": Path(path).name, "image_size": list(source)}
    found = conflict(target)
    if found is not None:
        fixed = nearest_solvable(target)
        flips = target.diff(fixed)
        if not nearest:
            raise UnpaintableImage(
                f"image: not paintable: {found}; the nearest paintable picture found changes "
                f"{cells_text(flips)}",
                found,
                fixed,
                flips,
            )
        meta["flipped"] = [list(c) for c in flips]
        target = fixed
    return puzzle_of(target, seed=seed, generator="image", meta=meta)


def generate(
    width: int | None,
    height: int | None,
    *,
    seed: int,
    generator: str = "walk",
    cells: int | None = None,
    par: int | None = None,
    image_path: str | Path | None = None,
    nearest: bool = False,
) -> PaintPuzzle:
    """A puzzle from the named generator (``random.Random(seed)``); ValueError names the field.

    The size may be None only for ``image`` (the picture's own size is used then).
    """
    if generator not in GENERATORS:
        raise ValueError(
            f"generator: unknown {generator!r}, expected one of {', '.join(GENERATORS)}"
        )
    for name, value, owner in (
        ("cells", cells, "walk"),
        ("par", par, "strokes"),
        ("image", image_path, "image"),
        ("nearest", nearest or None, "image"),
    ):
        if value is not None and generator != owner:
            raise ValueError(f"{name}: only for the {owner} generator, not {generator}")
    if generator == "image":
        if image_path is None:
            raise ValueError("image: the image generator needs a picture file")
        return image(image_path, width, height, nearest=nearest, seed=seed)
    if width is None or height is None:
        raise ValueError("size: needed for the walk and strokes generators")
    rng = random.Random(seed)
    if generator == "walk":
        return walk(width, height, rng, cells, seed=seed)
    return strokes(width, height, rng, par, seed=seed)
