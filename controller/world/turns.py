"""Finding turned frames cheaply: the commands of both detection modes and their replies (pure).

Tags used (all start with `pipes.`, as the world format allows):

- `pipes.clicked` on a player: the data pack's reward function marks a player who used a room
  frame (trigger mode); the mark is removed only once the poll has seen it;
- `pipes.near` on a frame: within reach of a player who clicked (set by the reward function at
  the moment of the click) or of any player (scan mode);
- `pipes.scan` on a frame: in the set being read back now (trigger mode). A frame keeps it until a
  reply naming every frame of the set has been read, so a reply wiped by another RCON connection
  loses nothing.

None of these commands serializes an entity except the `data get` reads, which serialize each
frame of the set once (docs/server-behaviour.md, "Selector and NBT cost").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from controller.world.geometry import Pos
from controller.world.replies import whole_count

__all__ = [
    "CLICKED",
    "NEAR",
    "SCAN",
    "frame_selector",
    "presence",
    "marked_players",
    "take_clicks",
    "mark_near_players",
    "promote_near",
    "read_tagged",
    "count_tagged",
    "untag",
    "someone_marked",
    "tagged_count",
    "scan_count",
    "union_box",
]

CLICKED = "pipes.clicked"
NEAR = "pipes.near"
SCAN = "pipes.scan"

_REMOVED_MANY = re.compile(r"Removed tag '[^']*' from (\d+) entities")
_REMOVED_ONE = re.compile(r"Removed tag '[^']*' from .+")


def frame_selector(kinds: Sequence[str], *tags: str) -> str:
    """`@e` over room frames (type filtered when every room uses one kind) with `tags`."""
    parts = [f"type=minecraft:{kinds[0]}"] if len(set(kinds)) == 1 else []
    parts += [f"tag={t}" for t in tags]
    return "@e[" + ",".join(parts) + "]"


def union_box(boxes: Sequence[tuple[Pos, Pos]], margin: float) -> tuple[Pos, Pos]:
    """The smallest box holding every box, grown by `margin` blocks on every side."""
    m = int(margin + 0.999)
    lo = tuple(min(b[0][k] for b in boxes) - m for k in range(3))
    hi = tuple(max(b[1][k] for b in boxes) + m for k in range(3))
    return (lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2])


def presence(box: tuple[Pos, Pos]) -> str:
    """Count the players inside a box (examines online players only, serializes nothing)."""
    (xa, ya, za), (xb, yb, zb) = box
    return f"execute if entity @a[x={xa},y={ya},z={za},dx={xb - xa},dy={yb - ya},dz={zb - za}]"


def marked_players() -> str:
    """List the tags of every player the data pack marked; nobody marked → an empty reply.

    Leaves the marks in place, so a reply lost to another RCON connection is asked again at the
    next poll (docs/turn-detection.md, "Trigger mode")."""
    return f"execute as @a[tag={CLICKED}] run tag @s list"


def take_clicks() -> str:
    """Remove the click mark from every marked player (sent once `marked_players` saw one)."""
    return f"tag @a[tag={CLICKED}] remove {CLICKED}"


def mark_near_players(kinds: Sequence[str], reach: float) -> str:
    """Tag the room frames within `reach` of any player (scan mode)."""
    frames = frame_selector(kinds, "pipes")[:-1] + f",distance=..{reach:g}]"
    return f"execute at @a run tag {frames} add {NEAR}"


def promote_near(kinds: Sequence[str]) -> list[str]:
    """Move the frames marked near into the scan set: add `pipes.scan`, then drop `pipes.near`
    from the scan set (a click between the two keeps its frames for the next poll)."""
    return [
        f"tag {frame_selector(kinds, NEAR)} add {SCAN}",
        f"tag {frame_selector(kinds, SCAN)} remove {NEAR}",
    ]


def read_tagged(kinds: Sequence[str], tag: str) -> str:
    """Every frame with `tag` reports its ItemRotation by name (one serialization each)."""
    return f"execute as {frame_selector(kinds, 'pipes', tag)} run data get entity @s ItemRotation"


def count_tagged(kinds: Sequence[str], tag: str) -> str:
    """Count the room frames with `tag` (no serialization)."""
    return f"execute if entity {frame_selector(kinds, 'pipes', tag)}"


def untag(kinds: Sequence[str], tag: str) -> str:
    """Remove `tag` from every frame that has it; the reply counts them."""
    return f"tag {frame_selector(kinds, tag)} remove {tag}"


def someone_marked(reply: str) -> bool:
    """Whether a `marked_players` reply names a marked player."""
    return CLICKED in reply


def tagged_count(reply: str) -> int | None:
    """How many entities a `tag … remove` reply names (0 for `No entity was found`); None for
    any other reply (one spoiled by another RCON connection)."""
    m = _REMOVED_MANY.fullmatch(reply)
    if m:
        return int(m.group(1))
    if _REMOVED_ONE.fullmatch(reply):
        return 1
    return 0 if reply == "No entity was found" else None


def scan_count(reply: str) -> int | None:
    """The count of a `count_tagged` reply (0 for `Test failed`); None for any other reply."""
    return whole_count(reply)
