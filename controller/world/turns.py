"""Finding turned frames cheaply: the commands of both detection modes and their replies (pure).

Tags used (all start with `pipes.`, as the world format allows):

- `pipes.clicked` on a player: the data pack's reward function marks a player who used a room
  frame (trigger mode); the mark goes only when the pack's `done` function finds the frames
  around them read back whole;
- `pipes.near` on a frame: within reach of a player who clicked (set by the reward function at
  the moment of the click) or of any player (scan mode); reach is measured from the eyes, by
  the server's rule for the player's game mode (`controller.world.reach`).

Trigger mode also counts clicks in the score of `#clicks` on objective `pipes.clicks`: an idle
poll reads that one score (no selector, no entity examined), and only a changed count leads to
reading the near frames (docs/turn-detection.md, "Trigger mode").

None of these commands serializes an entity except the `data get` reads, which serialize each
frame of the set once (docs/server-behaviour.md, "Selector and NBT cost").
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence

from controller.world.geometry import Pos
from controller.world.reach import Marks

__all__ = [
    "clicks",
    "gesture_moves",
    "is_lock",
    "ANTICLOCKWISE_STEPS",
    "ANTICLOCKWISE_ITEM",
    "LOCK_STEPS",
    "LOCKED",
    "REFUSED",
    "PACK_PROTOCOLS",
    "GESTURE_PROTOCOL",
    "UNDO_PROTOCOL",
    "WHO",
    "RUN",
    "WHO_HOLDER",
    "PLAYERS_HOLDER",
    "parse_frame_scores",
    "NEW",
    "player_number",
    "parse_player_number",
    "CLICKED",
    "NEAR",
    "FRAME_TAG",
    "CLICKS",
    "CLICK_HOLDER",
    "NEAR_HOLDER",
    "PACK_NAMESPACE",
    "PACK_PROTOCOL",
    "MISSING",
    "frame_selector",
    "presence",
    "click_count",
    "click_poll",
    "parse_click_count",
    "create_counter",
    "read_near",
    "done",
    "pack_version",
    "function_result",
    "function_unknown",
    "clear_marks",
    "mark_near_players",
    "read_tagged",
    "untag",
    "tagged_count",
    "union_box",
]

FRAME_TAG = "pipes"
CLICKED = "pipes.clicked"
NEAR = "pipes.near"
ROTATION_TAG = "pipes.r"  # + the rotation the daemon settled a frame at (world format)
CLICKS = "pipes.clicks"
CLICK_HOLDER = "#clicks"
NEAR_HOLDER = "#near"
PACK_NAMESPACE = "pipes"
PACK_PROTOCOL = 4  # the protocol the pack built today speaks (docs/datapack.md, "Protocol")
GESTURE_PROTOCOL = 3  # from this protocol on the pack turns anticlockwise and locks
UNDO_PROTOCOL = 4  # from this protocol on the pack notes who clicked a frame (`WHO`)
PACK_PROTOCOLS = (2, 3, 4)  # protocols the daemon reads turns with (2: clockwise clicks only)
# The pack numbers every player who clicks a room frame (its score on WHO, counted by
# PLAYERS_HOLDER) and gives each frame a click marks the clicker's number: the frame's last
# clicker, which `/trigger pipes_undo` reads (docs/in-game.md, "Undo")
WHO = "pipes.who"
RUN = "pipes.run"  # on a frame: how many marks in a row its last clicker gave it
PLAYERS_HOLDER = "#players"
WHO_HOLDER = "#who"  # the clicker's number while the pack stamps the frames
NEW = "pipes.new"  # the pack's passing mark on the frames one click marks
LOCKED = "pipes.locked"  # on a locked tile's frame (docs/world-format.md, "Locked tiles")
REFUSED = "pipes.refused"  # the pack's passing mark on a locked frame it turns back
# What the pack leaves on a frame for a gesture, in steps past its settled rotation (modulo 8):
# a plain click shows 1, an anticlockwise click 7 (one quarter back), a lock click 4 (the same
# picture); docs/in-game.md, "Gestures"
ANTICLOCKWISE_STEPS = 7
LOCK_STEPS = 4
ANTICLOCKWISE_ITEM = "minecraft:stick"  # clicked with it in the main hand: a quarter back
MISSING = "missing"  # the click counter's objective or score is gone

_REMOVED_MANY = re.compile(r"Removed tag '[^']*' from (\d+) entities")
_REMOVED_ONE = re.compile(r"Removed tag '[^']*' from .+")
# `<holder> has <score> [<display name>]`; the display name is the objective's unless renamed
_CLICK_COUNT = re.compile(re.escape(CLICK_HOLDER) + r" has (-?\d+) \[.*\]")
_COUNTER_GONE = (
    f"Unknown scoreboard objective '{CLICKS}'",
    f"Can't get value of {CLICKS} for {CLICK_HOLDER}; none is set",
)


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


def click_count() -> str:
    """The trigger-mode poll: the number of clicks the data pack has counted (no selector: no
    entity examined, nothing serialized; docs/turn-detection.md, "Trigger mode")."""
    return f"scoreboard players get {CLICK_HOLDER} {CLICKS}"


def click_poll() -> str:
    """The trigger-mode poll as sent: the click count, asked only if the pack's `version`
    function exists and returns non-zero, so the reply also proves the pack is loaded. With the
    pack gone (disabled, removed, failed to load) the reply is empty: `execute if function`
    forks, and an error in a forked chain prints nothing (docs/sandbox-datapacks.md, §4d).
    Like `click_count`, it examines no entity and serializes nothing, and prints nothing to ops."""
    return f"execute if function {PACK_NAMESPACE}:version run {click_count()}"


def parse_click_count(reply: str) -> int | str | None:
    """The count of a `click_count` reply; `MISSING` when the objective or the score is gone;
    None for a reply another RCON connection emptied, replaced or mixed."""
    m = _CLICK_COUNT.fullmatch(reply)
    if m:
        return int(m.group(1))
    return MISSING if reply in _COUNTER_GONE else None


def create_counter() -> list[str]:
    """Make the click counter exist (the pack's load function does the same at every load)."""
    return [
        f"scoreboard objectives add {CLICKS} dummy",
        f"scoreboard players add {CLICK_HOLDER} {CLICKS} 0",
    ]


def read_near() -> str:
    """Every frame marked near a click reports its ItemRotation by name, each serialized once;
    the selector is exactly the one the pack's `done` counts with."""
    return f"execute as @e[tag={FRAME_TAG},tag={NEAR}] run data get entity @s ItemRotation"


def done(clicks: int, frames: int) -> str:
    """Ask the pack to clear the marks: it does only when the counter still reads `clicks` and
    exactly `frames` frames are marked near (docs/datapack.md, "Protocol")."""
    return f"function {PACK_NAMESPACE}:done {{clicks:{clicks},frames:{frames}}}"


def pack_version() -> str:
    """Ask the pack which protocol it speaks (its `version` function returns it)."""
    return f"function {PACK_NAMESPACE}:version"


def function_result(reply: str, name: str) -> int | None:
    """The value a pack function returned, from a whole `function <ns>:<name>` reply
    (`Running function …` then `Function … returned N`, no separator); None otherwise."""
    fid = re.escape(f"{PACK_NAMESPACE}:{name}")
    m = re.fullmatch(f"Running function {fid}Function {fid} returned (-?\\d+)", reply)
    return int(m.group(1)) if m else None


def function_unknown(reply: str, name: str) -> bool:
    """Whether the server has no such pack function (pack removed, disabled or outdated)."""
    return reply.startswith(f"Unknown function {PACK_NAMESPACE}:{name}")


def clear_marks() -> list[str]:
    """Remove every click mark at once (after the pack's `done` kept failing; a full read
    follows, so no turn is lost)."""
    return [
        f"tag @e[tag={FRAME_TAG},tag={NEAR}] remove {NEAR}",
        f"tag @a[tag={CLICKED}] remove {CLICKED}",
    ]


def mark_near_players(kinds: Sequence[str], radii: Marks) -> list[str]:
    """Tag the room frames a player can click (scan mode): within the radius of its game mode
    from each player's eyes, one command per radius; spectators click nothing
    (docs/turn-detection.md, "Reach")."""
    eyes = "at @s anchored eyes positioned ^ ^ ^ run tag"

    def tag(players: str, radius: float) -> str:
        frames = frame_selector(kinds, "pipes")[:-1] + f",distance=..{radius:g}]"
        return f"execute as @a[{players}] {eyes} {frames} add {NEAR}"

    if radii.uniform:
        return [tag("gamemode=!spectator", radii.survival)]
    return [
        tag("gamemode=!creative,gamemode=!spectator", radii.survival),
        tag("gamemode=creative", radii.creative),
    ]


def read_tagged(kinds: Sequence[str], tag: str) -> str:
    """Every frame with `tag` reports its ItemRotation by name (one serialization each)."""
    return f"execute as {frame_selector(kinds, 'pipes', tag)} run data get entity @s ItemRotation"


def untag(kinds: Sequence[str], tag: str) -> str:
    """Remove `tag` from every frame that has it; the reply counts them."""
    return f"tag {frame_selector(kinds, tag)} remove {tag}"


def tagged_count(reply: str) -> int | None:
    """How many entities a `tag … remove` reply names (0 for `No entity was found`); None for
    any other reply (one spoiled by another RCON connection)."""
    m = _REMOVED_MANY.fullmatch(reply)
    if m:
        return int(m.group(1))
    if _REMOVED_ONE.fullmatch(reply):
        return 1
    return 0 if reply == "No entity was found" else None


def player_number(uid: uuid.UUID) -> str:
    """Ask for the number the pack gave a player (by UUID: a UUID names the entity as a score
    holder, docs/server-behaviour.md, "Feedback: scoreboard")."""
    return f"scoreboard players get {uid} {WHO}"


_NUMBER = re.compile(r" has (-?\d+) \[" + re.escape(WHO) + r"\]\Z")


def parse_player_number(reply: str) -> int | None:
    """The number of a `player_number` reply: only its end is read (`… has N [pipes.who]`),
    so a display name cannot change it; None when the player has none (never clicked with the
    pack) or the reply was spoiled."""
    m = _NUMBER.search(reply)
    return int(m.group(1)) if m else None


_FRAME_SCORE = re.compile(
    r"pipes:([a-z0-9_-]{1,32}):(\d+):(\d+) has (-?\d+) \[" + re.escape(RUN) + r"\]"
)


def parse_frame_scores(reply: str) -> dict[tuple[str, int, int], int]:
    """`(room, i, j) → score` from a `commands.read_clicked_by` reply (frames print by their
    name)."""
    return {
        (m.group(1), int(m.group(2)), int(m.group(3))): int(m.group(4))
        for m in _FRAME_SCORE.finditer(reply)
    }


def is_lock(settled: int, seen: int, gestures: bool) -> bool:
    """Whether a frame settled at `settled` showing `seen` was locked or unlocked: the pack
    leaves a lock click four steps on, which only a pack speaking the gesture protocol does
    (docs/in-game.md, "Gestures")."""
    return gestures and clicks(settled, seen) == LOCK_STEPS


def gesture_moves(settled: int, seen: int, gestures: bool) -> int:
    """The moves a frame settled at `settled` showing `seen` stands for: with gestures one
    anticlockwise turn shows seven steps on and is one move, a lock (four steps) is none;
    otherwise every step is a clockwise click (docs/in-game.md, "Moves are clicks")."""
    steps = clicks(settled, seen)
    if gestures and steps == ANTICLOCKWISE_STEPS:
        return 1
    if gestures and steps == LOCK_STEPS:
        return 0
    return steps


def clicks(settled: int, seen: int) -> int:
    """How many times a frame settled at rotation `settled` (0..3) was clicked to show
    ItemRotation `seen`: the server keeps a frame's rotation modulo 8, so up to 7 clicks
    between two reads are told apart (docs/in-game.md, "Moves are clicks")."""
    return (seen - settled) % 8
