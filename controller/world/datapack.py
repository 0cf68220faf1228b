"""The companion data pack that marks players who turn a room frame (pure, no I/O).

``build(release)`` returns the pack's files for one release as ``{relative_path: bytes}``:
``pack.mcmeta`` with that release's format, an advancement on the
``minecraft:player_interacted_with_entity`` trigger whose entity is an item frame or glow item
frame carrying the rooms' tag, and its reward function, which tags the player and the frames
within its reach (from the eyes, per game mode, as the server accepts clicks:
``controller.world.reach``), counts the click and revokes the advancement so that the next turn
fires it again. The advancement has no ``display``: no toast, no chat message. Three more
functions serve the daemon: ``load`` (run by ``#minecraft:load``: the click counter's
objective), ``done`` (clears the marks once the daemon has read the marked frames back whole)
and ``version``. The content is the same for every release; the format and the folder names
follow the release (docs/datapack.md, "Formats", "Layout", "One pack per release").
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.versions import PackFormat, Release
from controller.world import turns
from controller.world.reach import marks

__all__ = [
    "DatapackConfig",
    "Folders",
    "PROTOCOL",
    "build",
    "folders",
    "function_lines",
    "lock_lines",
    "LOCK_PATH",
    "NOTE_PATH",
    "LOCKED_MESSAGE",
    "mcmeta",
    "pack_functions",
]

# The version of what the functions do for the daemon (`function <ns>:version` returns it); a
# pack from before the `done` protocol has no `version` function (docs/datapack.md, "Protocol").
PROTOCOL = turns.PACK_PROTOCOL


@dataclass(frozen=True)
class Folders:
    """The folders a release reads a pack's functions, advancements and function tags from."""

    function: str
    advancement: str
    function_tags: str


_SINGULAR = Folders("function", "advancement", "tags/function")
_PLURAL = Folders("functions", "advancements", "tags/functions")


def folders(release: Release) -> Folders:
    """Singular since 1.21, plural before (docs/datapack.md, "Layout")."""
    return _SINGULAR if release.singular_pack_folders else _PLURAL


_NAMESPACE = re.compile(r"[a-z0-9_.-]+")
_PATH = re.compile(r"[a-z0-9_.-]+(/[a-z0-9_.-]+)*")
_TAG = re.compile(r"[0-9A-Za-z_.+-]+")
LOCK_PATH = "locking"  # the function a sneaking player's click runs
NOTE_PATH = "note"  # run as each frame a click marks: who clicked it
_DAEMON_FUNCTIONS = ("load", "done", "version", LOCK_PATH, NOTE_PATH)
MAX_REACH = 68.0  # `poll_reach` up to the largest attribute range, 64, + 3 + a frame's box


@dataclass(frozen=True)
class DatapackConfig:
    """What the pack is called and which tags it reads and writes."""

    namespace: str = turns.PACK_NAMESPACE
    advancement: str = "clicked"  # also the reward function's path
    frame_tag: str = turns.FRAME_TAG  # every room frame carries it
    clicked_tag: str = turns.CLICKED  # given to the player who turned a frame
    near_tag: str = turns.NEAR  # given to the room frames within reach at the click
    clicks_objective: str = turns.CLICKS  # its score holder #clicks counts every click
    reach: float | None = None  # widens the marks beyond the server's rule (`poll_reach`)
    description: str = "pipesctl: marks players who turn a pipes frame"

    def __post_init__(self) -> None:
        if not _NAMESPACE.fullmatch(self.namespace):
            raise ValueError(f"namespace {self.namespace!r}: use [a-z0-9_.-]")
        if not _PATH.fullmatch(self.advancement):
            raise ValueError(f"advancement {self.advancement!r}: use [a-z0-9_.-] and /")
        if self.reach is not None and not 0 < self.reach <= MAX_REACH:
            raise ValueError(f"reach {self.reach}: must be in (0, {MAX_REACH:g}]")
        for name in (self.frame_tag, self.clicked_tag, self.near_tag, self.clicks_objective):
            if not _TAG.fullmatch(name):
                raise ValueError(f"tag {name!r}: use [0-9A-Za-z_.+-]")
        if self.advancement in _DAEMON_FUNCTIONS:
            raise ValueError(f"advancement {self.advancement!r}: that name is one of the pack's")

    @property
    def advancement_id(self) -> str:
        """`namespace:path` of the advancement (and of its reward function)."""
        return f"{self.namespace}:{self.advancement}"


def mcmeta(fmt: PackFormat, description: str) -> dict[str, object]:
    """`pack.mcmeta` declaring exactly the releases of one format (docs/datapack.md,
    "Formats"): `pack_format` up to 81, `min_format`/`max_format` above."""
    pack: dict[str, object] = {"description": description}
    if fmt.uses_range:
        # any later minor of the same major is accepted too (a hotfix may bump the minor)
        pack["min_format"] = [fmt.major, fmt.minor]
        pack["max_format"] = fmt.major
    else:
        pack["pack_format"] = fmt.major
    return {"pack": pack}


def _advancement(config: DatapackConfig) -> dict[str, object]:
    """A click on a room frame: one advancement for every gesture, so the clicked frame's `nbt`
    is tested once per click; the reward tells the gestures apart (docs/datapack.md,
    "The gestures")."""
    snbt = '{Tags:["' + config.frame_tag + '"]}'
    return {
        "criteria": {
            "turned_frame": {
                "trigger": "minecraft:player_interacted_with_entity",
                "conditions": {
                    "entity": {
                        "type": ["minecraft:item_frame", "minecraft:glow_item_frame"],
                        "nbt": snbt,
                    },
                },
            }
        },
        "rewards": {"function": config.advancement_id},
    }


# The clicker is crouching: an inline loot predicate on `this` (the reward runs as the player),
# read from the player's pose with no serialization (docs/datapack.md, "The gestures")
SNEAKING = (
    '{condition:"minecraft:entity_properties",entity:"this",predicate:{flags:{is_sneaking:true}}}'
)


def _at_reach(config: DatapackConfig, body: Callable[[float], list[str]]) -> list[str]:
    """`body(radius)` for the clicker's game mode: each line starts after `execute … ` with
    `at @s anchored eyes positioned ^ ^ ^ `, the radius that of the server's reach rule
    (docs/turn-detection.md, "Reach"); one set of lines when both radii are the same."""
    radii = marks(config.reach)
    if radii.uniform:
        return [f"execute {line}" for line in body(radii.survival)]
    return [
        *(f"execute if entity @s[gamemode=creative] {line}" for line in body(radii.creative)),
        *(f"execute unless entity @s[gamemode=creative] {line}" for line in body(radii.survival)),
    ]


_EYES = "at @s anchored eyes positioned ^ ^ ^"


def _from_feet(config: DatapackConfig) -> float:
    """The radius, from the clicker's feet, of the frames a click tagged in passing
    (`turns.NEW`, `turns.REFUSED`): the widest mark radius from the eyes (1.62 above the feet,
    less crouching or swimming) + 2. A selector that wide examines the frames near the clicker
    only, not every frame of a large room (docs/datapack.md, "The marks")."""
    radii = marks(config.reach)
    return max(radii.survival, radii.creative) + 2


def _mark_lines(config: DatapackConfig, gesture: Sequence[str] = ()) -> list[str]:
    """Tag the frames the click can have turned: within the clicker's reach of its eyes, by the
    server's rule for its game mode (docs/turn-detection.md, "Reach"), showing another
    `ItemRotation` than the one their `pipes.r<r>` tag says the daemon settled them at (an
    `nbt=` test per rotation tag: each frame within reach is serialized once, here, so that the
    daemon's read names only the turned frames: docs/datapack.md, "The marks"), and not marked
    yet. `gesture` runs while this click's marks are still `turns.NEW` (`_leave`). The frames
    this click marks get the clicker's number (`turns.WHO`): their last clicker, and on
    `turns.RUN` how many marks in a row that clicker gave them, which an undo asks for
    (docs/datapack.md, "Who clicked")."""

    def tags(radius: float) -> list[str]:
        return [
            f"{_EYES} run tag @e[tag={config.frame_tag},tag={turns.ROTATION_TAG}{r},"
            f"tag=!{config.near_tag},distance=..{radius:g},nbt=!{{ItemRotation:{r}b}}] "
            f"add {turns.NEW}"
            for r in range(4)
        ]

    marked = f"@e[tag={turns.NEW},distance=..{_from_feet(config):g}]"
    return [
        *_number_lines(),
        *_at_reach(config, tags),
        *gesture,
        f"scoreboard players operation {turns.WHO_HOLDER} {turns.WHO} = @s {turns.WHO}",
        f"execute as {marked} run function {config.namespace}:{NOTE_PATH}",
    ]


def _note_lines(config: DatapackConfig) -> list[str]:
    """`<ns>:note`, run as each frame a click marks: the clicker's number (`#who`) and how
    many marks in a row it gave the frame, then the mark itself (docs/datapack.md, "Who
    clicked")."""
    who, run, holder = turns.WHO, turns.RUN, turns.WHO_HOLDER
    return [
        f"execute unless score @s {who} = {holder} {who} run scoreboard players set @s {run} 0",
        f"scoreboard players add @s {run} 1",
        f"scoreboard players operation @s {who} = {holder} {who}",
        f"tag @s add {config.near_tag}",
        f"tag @s remove {turns.NEW}",
    ]


def _number_lines() -> list[str]:
    """Give the clicker a number on first click (`turns.PLAYERS_HOLDER` counts them): the
    score an undo finds its clicks by (docs/datapack.md, "Who clicked")."""
    first = f"execute unless score @s {turns.WHO} matches 1.. run"
    return [
        f"{first} scoreboard players add {turns.PLAYERS_HOLDER} {turns.WHO} 1",
        f"{first} scoreboard players operation @s {turns.WHO} = {turns.PLAYERS_HOLDER} {turns.WHO}",
    ]


def _leave(config: DatapackConfig, steps: int, condition: str = "") -> list[str]:
    """Leave the frame this click turned `steps` past its settled rotation instead of one: the
    gesture's mark the daemon reads (`turns.ANTICLOCKWISE_STEPS`, `turns.LOCK_STEPS`). Run
    between the marking and the note: the frame this click turned is one this click marked
    (`turns.NEW`), one step past its settled rotation `r`, so only the frames this click marks
    are serialized again (docs/datapack.md, "The gestures")."""
    return [
        f"execute {condition}as @e[tag={turns.NEW},tag={turns.ROTATION_TAG}{r},"
        f"distance=..{_from_feet(config):g},nbt={{ItemRotation:{(r + 1) % 8}b}}] run data modify "
        f"entity "
        f"@s ItemRotation set value {(r + steps) % 8}b"
        for r in range(4)
    ]


LOCKED_MESSAGE = "This tile is locked: sneak and click it to unlock it"


def _refuse_lines(config: DatapackConfig) -> list[str]:
    """A locked frame the click turned is turned back at once, the clicker is told, and the
    click ends here: not counted, not marked (docs/in-game.md, "Locking a tile")."""
    refused = f"@e[tag={turns.REFUSED},distance=..{_from_feet(config):g}]"

    def tag(radius: float) -> list[str]:
        return [
            f"{_EYES} run tag @e[tag={config.frame_tag},tag={turns.LOCKED},"
            f"tag={turns.ROTATION_TAG}{r},distance=..{radius:g},nbt=!{{ItemRotation:{r}b}}] "
            f"add {turns.REFUSED}"
            for r in range(4)
        ]

    return [
        *_at_reach(config, tag),
        *(
            f"execute as @e[tag={turns.REFUSED},tag={turns.ROTATION_TAG}{r},"
            f"distance=..{_from_feet(config):g}] run data modify entity @s ItemRotation set "
            f"value {r}b"
            for r in range(4)
        ),
        f'execute if entity {refused} run tellraw @s "{LOCKED_MESSAGE}"',
        f"execute if entity {refused} run advancement revoke @s only {config.advancement_id}",
        f"execute if entity {refused} run return run tag {refused} remove {turns.REFUSED}",
    ]


def function_lines(config: DatapackConfig = DatapackConfig()) -> list[str]:
    """The reward of a click (run as the player, at the player, output suppressed): a sneaking
    player's click is a lock (`locking`); else a locked frame goes back at once; held the
    anticlockwise item, the frame is left a quarter back; mark the player and the frames
    within its reach, count the click, fire again next time."""
    item = f"if items entity @s weapon.mainhand {turns.ANTICLOCKWISE_ITEM} "
    return [
        f"execute if predicate {SNEAKING} run return run function {config.namespace}:{LOCK_PATH}",
        *_refuse_lines(config),
        f"tag @s add {config.clicked_tag}",
        *_mark_lines(config, _leave(config, turns.ANTICLOCKWISE_STEPS, item)),
        f"scoreboard players add {turns.CLICK_HOLDER} {config.clicks_objective} 1",
        f"advancement revoke @s only {config.advancement_id}",
    ]


def lock_lines(config: DatapackConfig = DatapackConfig()) -> list[str]:
    """A sneaking player's click, called from the reward: the frame is left four steps on (the
    same picture), which the daemon reads as a lock or an unlock; then marked and counted like
    any click."""
    return [
        f"tag @s add {config.clicked_tag}",
        *_mark_lines(config, _leave(config, turns.LOCK_STEPS)),
        f"scoreboard players add {turns.CLICK_HOLDER} {config.clicks_objective} 1",
        f"advancement revoke @s only {config.advancement_id}",
    ]


def _load_lines(config: DatapackConfig) -> list[str]:
    """`#minecraft:load`: the counter exists from the first load on (an existing objective is
    an error, silent inside a function; adding 0 creates the score without changing it)."""
    return [
        f"scoreboard objectives add {config.clicks_objective} dummy",
        f"scoreboard players add {turns.CLICK_HOLDER} {config.clicks_objective} 0",
        f"scoreboard objectives add {turns.WHO} dummy",
        f"scoreboard objectives add {turns.RUN} dummy",
    ]


def _done_lines(config: DatapackConfig) -> list[str]:
    """`function <ns>:done {clicks:C,frames:N}`, sent once the daemon has read the near frames:
    the marks go only when no click came since the counter read C and the world holds exactly
    the N near frames the daemon read; a short read bumps the counter so the next poll reads
    again. Returns 1 when the marks went, else 0 (docs/datapack.md, "Protocol")."""
    obj, clicks, near = config.clicks_objective, turns.CLICK_HOLDER, turns.NEAR_HOLDER
    frames = f"@e[tag={config.frame_tag},tag={config.near_tag}]"
    return [
        f"execute store result score {near} {obj} if entity {frames}",
        f"$execute unless score {clicks} {obj} matches $(clicks) run return 0",
        f"$execute unless score {near} {obj} matches $(frames) run "
        f"scoreboard players add {clicks} {obj} 1",
        f"$execute unless score {near} {obj} matches $(frames) run return 0",
        f"tag {frames} remove {config.near_tag}",
        f"tag @a[tag={config.clicked_tag}] remove {config.clicked_tag}",
        "return 1",
    ]


def pack_functions(config: DatapackConfig = DatapackConfig()) -> dict[str, list[str]]:
    """Every function of the pack by path: the reward, `locking`, `note`, `load`, `done` and
    `version`."""
    return {
        config.advancement: function_lines(config),
        LOCK_PATH: lock_lines(config),
        NOTE_PATH: _note_lines(config),
        "load": _load_lines(config),
        "done": _done_lines(config),
        "version": [f"return {PROTOCOL}"],
    }


def _json(doc: dict[str, object]) -> bytes:
    return (json.dumps(doc, indent=2) + "\n").encode("utf-8")


def build(release: Release, config: DatapackConfig = DatapackConfig()) -> dict[str, bytes]:
    """The pack's files for ``release``: its format, and the folders it reads."""
    ns, path = config.namespace, config.advancement
    where = folders(release)
    headers = {
        path: f"a player turned a frame tagged {config.frame_tag} (anticlockwise with a stick)",
        LOCK_PATH: f"a sneaking player clicked a frame tagged {config.frame_tag}: lock or unlock",
        NOTE_PATH: "run as a frame a click marks: note who clicked it, then mark it",
        "load": "run by #minecraft:load: the click counter and the clickers' numbers",
        "done": "pipesctl read the near frames back: clear the marks (macro: clicks, frames)",
        "version": "the protocol this pack speaks with pipesctl",
    }
    files = {
        "pack.mcmeta": _json(mcmeta(release.pack, config.description)),
        f"data/{ns}/{where.advancement}/{path}.json": _json(_advancement(config)),
        f"data/minecraft/{where.function_tags}/load.json": _json({"values": [f"{ns}:load"]}),
    }
    for name, lines in pack_functions(config).items():
        text = "\n".join([f"# {ns}:{name}: {headers[name]}", *lines]) + "\n"
        files[f"data/{ns}/{where.function}/{name}.mcfunction"] = text.encode("utf-8")
    return files
