"""Replies → facts: parse what the server answered to the commands of `commands.py` (pure).

Vanilla joins the messages of one command with no separator (MC-7569); Paper may add `\n` and
`§` colour codes, which the runtime's link strips first (`controller.rcon.replies.normalize`).

Every parser reads the texts of every supported release: where a release words a reply
differently, both wordings are accepted, as neither can be mistaken for the other
(docs/server-behaviour.md, "Versions: reply texts"). `REPLY_KEYS` lists the language keys whose
text the controller reads.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from controller.world.names import is_player_name

__all__ = [
    "REPLY_KEYS",
    "whole_count",
    "whole_item_count",
    "FrameValue",
    "parse_frame_values",
    "parse_count",
    "fill_changed",
    "setblock_changed",
    "merge_applied",
    "is_parse_error",
    "parse_gamerule",
    "forceload_marked",
    "parse_score",
    "score_missing",
    "tag_added",
    "killed_count",
    "summoned",
    "parse_game_time",
    "parse_entity_uuids",
    "parse_player_list",
]

_FRAME_VALUE = re.compile(
    r"pipes:([a-z0-9_-]{1,32}):(\d+):(\d+) has the following entity data: (-?\d+)(b?)"
)
# `Test passed. Count: N` from 1.21.9, `Test passed, count: N` before (docs/server-behaviour.md,
# "Versions: reply texts").
_COUNT = re.compile(r"Test passed(?:\. Count|, count): (\d+)")
_FILLED = re.compile(r"Successfully filled (\d+) block\(s\)")
_NO_ENTITY = "No entity was found"  # argument.entity.notfound.entity


@dataclass(frozen=True)
class FrameValue:
    """One `<frame name> has the following entity data: <value>` message."""

    room: str
    i: int
    j: int
    value: int


def parse_frame_values(reply: str, *, byte: bool | None = None) -> list[FrameValue]:
    """Every frame value in a reply, in order (duplicates kept; callers dedupe).

    `byte=True` keeps only byte values (ItemRotation: `5b`), `False` only ints (map ids).
    """
    out = []
    for m in _FRAME_VALUE.finditer(reply):
        is_byte = m.group(5) == "b"
        if byte is not None and is_byte != byte:
            continue
        out.append(FrameValue(m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))))
    return out


def parse_count(reply: str) -> int:
    """The N of `Test passed. Count: N` (`Test passed, count: N` before 1.21.9); 0 for `Test
    failed` and anything else."""
    m = _COUNT.search(reply)
    return int(m.group(1)) if m else 0


def whole_count(reply: str) -> int | None:
    """The N of a reply that is exactly `Test passed. Count: N` (0 for `Test failed`); None for
    a reply that another RCON connection emptied, replaced or mixed (docs/server-behaviour.md,
    "Shared output buffer")."""
    m = _COUNT.fullmatch(reply)
    if m:
        return int(m.group(1))
    return 0 if reply == "Test failed" else None


def whole_item_count(reply: str) -> int | None:
    """`whole_count` of an `execute if items entity <targets> …`, whose targets are read with
    EntityArgument.getEntities: `No entity was found` when none matches counts 0
    (docs/server-behaviour.md, "execute if items, scores and game time")."""
    return 0 if reply == _NO_ENTITY else whole_count(reply)


def fill_changed(reply: str) -> int:
    """How many blocks a `fill` changed (0 for `No blocks were filled`)."""
    m = _FILLED.search(reply)
    return int(m.group(1)) if m else 0


def setblock_changed(reply: str) -> bool:
    """Whether a `setblock` changed the block."""
    return reply.startswith("Changed the block at ")


def merge_applied(reply: str) -> bool:
    """Whether a (conditional) `data merge` ran and modified the frame."""
    return "Modified entity data of " in reply


def is_parse_error(reply: str) -> bool:
    """Whether a reply is a command parse error (either flavour)."""
    return reply.endswith("<--[HERE]")


_GAMERULE = re.compile(r"Gamerule (\S+) is currently set to: (\S+)")


def parse_gamerule(reply: str) -> str | None:
    """The value in `Gamerule <name> is currently set to: <value>`; None for anything else
    (an unknown rule is a parse error)."""
    m = _GAMERULE.search(reply)
    return m.group(2) if m else None


def forceload_marked(reply: str) -> bool:
    """Whether a `forceload query x z` reply says the chunk is marked for force loading."""
    return "is marked for force loading" in reply


_SCORE = re.compile(r"^\S+ has (-?\d+) \[")
# `The game time is N tick(s)` from 26.1, `The time is N` before (docs/server-behaviour.md,
# "Versions: reply texts").
_GAME_TIME = re.compile(r"^(?:The game time is (-?\d+) tick|The time is (-?\d+)$)")


def parse_score(reply: str) -> int | None:
    """The N of `<holder> has N [<objective>]`; None when no score is set (or anything else)."""
    m = _SCORE.match(reply)
    return int(m.group(1)) if m else None


def score_missing(reply: str) -> bool:
    """Whether a `scoreboard players get` found no score: none set for the holder, or no such
    objective (`Can't get value of …; none is set`, `Unknown scoreboard objective '…'`)."""
    return reply.startswith(("Can't get value of ", "Unknown scoreboard objective "))


def parse_game_time(reply: str) -> int | None:
    """The N of `The game time is N tick(s)` (`time query gametime`; `The time is N` before
    26.1); None for anything else, such as the empty reply of a conditional `execute` that did
    not run."""
    m = _GAME_TIME.match(reply)
    if m is None:
        return None
    return int(m.group(1) if m.group(1) is not None else m.group(2))


_KILLED = re.compile(r"Killed (\d+) entities")


def tag_added(reply: str) -> bool:
    """Whether a `tag <target> add` tagged an entity (`Added tag '…' to …`)."""
    return reply.startswith("Added tag ")


def killed_count(reply: str) -> int:
    """How many entities a `kill` removed: `Killed N entities`, `Killed <name>` (one), or 0."""
    m = _KILLED.search(reply)
    if m:
        return int(m.group(1))
    return reply.count("Killed ")


def summoned(reply: str) -> bool:
    """Whether a `summon` created the entity (`Summoned new …`); a duplicate UUID is refused
    with `Unable to summon entity due to duplicate UUIDs`."""
    return reply.startswith("Summoned new ")


_UUID_DATA = re.compile(
    r" has the following entity data: \[I; (-?\d+), (-?\d+), (-?\d+), (-?\d+)\]"
)
_LIST_HEAD = re.compile(r"There are \d+ of a max of \d+ players online: ")
_LIST_ENTRY = re.compile(
    r"(\S{1,16}) \(([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\)"
)


def _uuid_of(ints: tuple[str, ...]) -> uuid.UUID:
    value = 0
    for part in ints:
        value = value << 32 | (int(part) & 0xFFFFFFFF)
    return uuid.UUID(int=value)


def parse_entity_uuids(reply: str) -> list[uuid.UUID]:
    """The UUIDs of `data get entity @s UUID` messages, in order, duplicates dropped. The
    display name before each message is never read (docs/server-behaviour.md, "Player display
    names")."""
    out: list[uuid.UUID] = []
    for m in _UUID_DATA.finditer(reply):
        uid = _uuid_of(m.groups())
        if uid not in out:
            out.append(uid)
    return out


def parse_player_list(reply: str) -> dict[uuid.UUID, str]:
    """Account name by UUID from a `list uuids` reply; entries whose name is not a valid
    account name (docs/in-game.md, "Player names") are left out."""
    m = _LIST_HEAD.search(reply)
    if m is None:
        return {}
    out: dict[uuid.UUID, str] = {}
    for entry in reply[m.end() :].split(", "):
        e = _LIST_ENTRY.fullmatch(entry.strip())
        if e is not None and is_player_name(e.group(1)):
            out[uuid.UUID(e.group(2))] = e.group(1)
    return out


# Every language key whose en_us text a parser of the controller reads, with the readers; the
# tests render each key from every release's language file and check its reader accepts it
# (docs/server-behaviour.md, "Versions: reply texts").
REPLY_KEYS: dict[str, str] = {
    "commands.data.entity.query": "parse_frame_values, parse_entity_uuids",
    "commands.execute.conditional.pass": "the `Test passed` checks of the runtime",
    "commands.execute.conditional.pass_count": "parse_count, whole_count",
    "commands.execute.conditional.fail": "whole_count",
    "commands.fill.success": "fill_changed",
    "commands.fill.failed": "fill_changed",
    "commands.setblock.success": "setblock_changed",
    "commands.data.entity.modified": "merge_applied",
    "commands.data.merge.failed": "merge_applied",
    "command.context.here": "is_parse_error, controller.rcon.replies.parse_error",
    "command.unknown.command": "controller.rcon.replies.parse_error",
    "command.unknown.argument": "controller.rcon.replies.parse_error",
    "command.expected.separator": "controller.rcon.replies.parse_error",
    "commands.gamerule.query": "parse_gamerule",
    "commands.forceload.query.success": "forceload_marked",
    "commands.forceload.query.failure": "forceload_marked",
    "commands.scoreboard.players.get.success": "parse_score, turns.parse_click_count",
    "chat.square_brackets": "parse_score, turns.parse_click_count (the objective's name)",
    "commands.scoreboard.players.get.null": "score_missing, turns.parse_click_count",
    "arguments.objective.notFound": "score_missing, turns.parse_click_count, detection",
    "commands.time.query.gametime": "parse_game_time (26.1 on)",
    "commands.time.query": "parse_game_time (before 26.1)",
    "commands.tag.add.success.single": "tag_added",
    "commands.tag.add.success.multiple": "tag_added",
    "commands.tag.remove.success.single": "turns.tagged_count",
    "commands.tag.remove.success.multiple": "turns.tagged_count",
    "argument.entity.notfound.entity": "turns.tagged_count, whole_item_count",
    "commands.kill.success.single": "killed_count",
    "commands.kill.success.multiple": "killed_count",
    "commands.summon.success": "summoned",
    "commands.summon.failed.uuid": "summoned",
    "commands.list.players": "parse_player_list",
    "commands.list.nameAndId": "parse_player_list",
    "commands.function.scheduled.single": "turns.function_result",
    "commands.function.result": "turns.function_result",
    "arguments.function.unknown": "turns.function_unknown",
    "commands.datapack.list.enabled.success": "detection, doctor (the pack's `[file/…` link)",
    "commands.datapack.list.available.success": "detection, doctor (the pack's `[file/…` link)",
    "pack.nameAndSource": "detection, doctor (the pack's `[file/…` link)",
}
