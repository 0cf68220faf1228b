"""Which Minecraft release a server runs, from its replies to a few harmless commands (pure).

From 1.21.6 the `version` command names the release and its DataVersion (Paper: the vanilla
command is `minecraft:version`). Before it, the release group shows in how far the server gets
through one `attribute` command (the `@n` selector from 1.21, the attribute `max_health` from
1.21.2, `base reset` from 1.21.4), in `help test` (the `test` command from 1.21.5) and in
`execute if items` (from 1.20.5, the oldest release served). Each reply is compared whole with
the text the release would send, built from its en_us strings and Brigadier's parse-error
context; anything else is "unrecognised" (another RCON client's output mixed in, a wiped
reply) and is asked once more by the runtime. Facts and sources: docs/server-behaviour.md,
"Versions: detecting the version".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from controller.versions import (
    NEWEST,
    OLDEST,
    RELEASES,
    SUPPORTED_RANGE,
    Release,
    UnsupportedVersion,
    by_data_version,
)
from controller.versions import release as release_named

__all__ = [
    "Detected",
    "Flavour",
    "Outcome",
    "Step",
    "UnrecognisedReply",
    "VersionReply",
    "command_for",
    "first_step",
    "group",
    "parse_error_context",
    "parse_version_reply",
    "read_reply",
]

Flavour = Literal["vanilla", "paper"]

HERE = "<--[HERE]"  # command.context.here

# en_us strings the replies are made of (the same in every release served; docs section above).
UNKNOWN_COMMAND = (  # command.unknown.command: the comma form before 1.21.9
    "Unknown or incomplete command, see below for error",
    "Unknown or incomplete command. See below for error",
)
INCORRECT_ARGUMENT = "Incorrect argument for command"  # command.unknown.argument
UNKNOWN_SELECTOR = "Unknown selector type '{}'"  # argument.entity.selector.unknown
RESOURCE_NOT_FOUND = "Can't find element '{}' of type '{}'"  # argument.resource.not_found
NO_ENTITY = "No entity was found"  # argument.entity.notfound.entity
HELP_FAILED = "Unknown command or insufficient permissions"  # commands.help.failed
VERSION_HEADER = "Server version info:"  # commands.version.header

_ATTRIBUTE = "minecraft:max_health"  # `generic.max_health` before 1.21.2
_TARGET = "@n[type=minecraft:marker,tag=pipesctl.version_probe]"  # no entity ever matches


class Step(Enum):
    """One probe command."""

    VERSION = "version"
    TREE = "tree"  # the attribute command: 1.20.5-1.20.6 | 1.21-1.21.1 | 1.21.2-1.21.3 | later
    TEST = "test"  # help test: 1.21.4 | 1.21.5
    FLOOR = "floor"  # execute if items: 1.20.5-1.20.6 | older


_VANILLA: dict[Step, str] = {
    Step.VERSION: "version",
    Step.TREE: f"attribute {_TARGET} {_ATTRIBUTE} base reset",
    Step.TEST: "help test",
    Step.FLOOR: "execute if items entity @s weapon.mainhand *",
}
_PAPER: dict[Step, str] = {  # the vanilla commands themselves, whatever plugins registered
    Step.VERSION: "minecraft:version",
    Step.TREE: f"minecraft:attribute {_TARGET} {_ATTRIBUTE} base reset",
    Step.TEST: "minecraft:help minecraft:test",
    Step.FLOOR: "minecraft:execute if items entity @s weapon.mainhand *",
}


def command_for(step: Step, flavour: Flavour) -> str:
    """The probe command exactly as it is sent (Paper's forms are already namespaced)."""
    return (_PAPER if flavour == "paper" else _VANILLA)[step]


def first_step() -> Step:
    """Every detection starts with `version`: one command on 1.21.6 and later."""
    return Step.VERSION


def group(first: str, last: str) -> tuple[Release, ...]:
    """The releases from `first` to `last`, oldest first."""
    lo, hi = release_named(first).number, release_named(last).number
    return tuple(r for r in RELEASES if lo <= r.number <= hi)


@dataclass(frozen=True)
class Detected:
    """What the replies say: the releases they fit (one when exact) and how that was found.

    `release` is the release acted on: the oldest of the group (the forms are the same across
    each group; files written for the older release are read by the newer one).
    """

    releases: tuple[Release, ...]
    source: Literal["version", "commands"]
    reported: str | None = None  # the name `version` gave

    @property
    def release(self) -> Release:
        """The release whose forms are used."""
        return self.releases[0]

    @property
    def span(self) -> str:
        """`1.21.4`, or `1.21.2 to 1.21.3` for a group."""
        if len(self.releases) == 1:
            return self.releases[0].name
        return f"{self.releases[0].name} to {self.releases[-1].name}"

    def fits(self, release: Release) -> bool:
        """Whether `release` is one the replies fit."""
        return release in self.releases


@dataclass(frozen=True)
class VersionReply:
    """The fields of a `version` reply that matter."""

    id: str
    name: str
    data_version: int
    protocol: int
    stable: bool


class UnrecognisedReply(ValueError):
    """A reply that is none of the answers the probe can get (mixed with other output, wiped)."""

    def __init__(self, command: str, reply: str) -> None:
        shown = reply if len(reply) <= 120 else reply[:117] + "..."
        super().__init__(f"`{command}` answered {shown!r}")
        self.command = command
        self.reply = reply


@dataclass(frozen=True)
class Outcome:
    """Where a reply leads: the next probe, or what the server is."""

    next: Step | None = None
    found: Detected | None = None


# The version command's lines (commands.version.*), joined with nothing over RCON.
_VERSION = re.compile(
    re.escape(VERSION_HEADER)
    + r"id = (?P<id>.*?)name = (?P<name>.*?)data = (?P<data>\d+)series = .*?"
    r"protocol = (?P<protocol>\d+) \(0x[0-9a-f]+\)build_time = .*?pack_resource = .*?"
    r"pack_data = .*?stable = (?P<stable>yes|no)",
    re.DOTALL,
)


def parse_version_reply(reply: str) -> VersionReply | None:
    """The fields of a `version` reply found anywhere in `reply` (None without a whole one)."""
    match = _VERSION.search(reply)
    if match is None:
        return None
    return VersionReply(
        match["id"], match["name"], int(match["data"]), int(match["protocol"]),
        match["stable"] == "yes",
    )  # fmt: skip


def parse_error_context(command: str, cursor: int) -> str:
    """The context line of a parse error at `cursor`: `...` and the 10 characters before it
    (all of them when the cursor is at most 10), the rest of the command, `<--[HERE]`."""
    at = min(len(command), max(0, cursor))
    lead = "..." if at > 10 else ""
    return lead + command[max(0, at - 10) : at] + command[at:] + HERE


def _is_parse_error_of(reply: str, command: str) -> bool:
    """Whether `reply` is a message followed by a parse-error context of `command`."""
    if not reply.endswith(HERE):
        return False
    return any(
        len(reply) > len(ctx) and reply.endswith(ctx)
        for ctx in {parse_error_context(command, c) for c in range(len(command) + 1)}
    )


def _release_of(reply: VersionReply) -> Release:
    """The served release a `version` reply names; UnsupportedVersion for any other."""
    try:
        return by_data_version(reply.data_version)
    except UnsupportedVersion:
        pass
    newer = reply.data_version > NEWEST.data_version
    what = "newer than the newest known" if newer else "not a release pipesctl knows"
    raise UnsupportedVersion(
        f"Minecraft {reply.name} (DataVersion {reply.data_version}, {what}) is not supported: "
        f"pipesctl serves Java {SUPPORTED_RANGE}"
    )


def _tree_reply(flavour: Flavour, first: tuple[int, int, int]) -> str:
    """The whole reply to the attribute probe from the group whose oldest release is `first`
    (docs/server-behaviour.md, "Versions: detecting the version": the table)."""
    command = command_for(Step.TREE, flavour)
    if first < (1, 21, 0):
        at = command.index("@n") + 1
        return UNKNOWN_SELECTOR.format("@n") + parse_error_context(command, at)
    if first < (1, 21, 2):
        at = command.index(_ATTRIBUTE) + len(_ATTRIBUTE)
        message = RESOURCE_NOT_FOUND.format(_ATTRIBUTE, "minecraft:attribute")
        return message + parse_error_context(command, at)
    if first < (1, 21, 4):
        at = command.index(" reset") + 1
        return INCORRECT_ARGUMENT + parse_error_context(command, at)
    return NO_ENTITY


_G20_5 = ("1.20.5", "1.20.6")
_G21 = ("1.21", "1.21.1")
_G21_2 = ("1.21.2", "1.21.3")
_G21_4 = ("1.21.4", "1.21.4")
_G21_5 = ("1.21.5", "1.21.5")


def _found(span: tuple[str, str]) -> Outcome:
    return Outcome(found=Detected(group(*span), "commands"))


def read_reply(step: Step, flavour: Flavour, reply: str) -> Outcome:
    """Read one probe's reply (as the link returns it: plain text, no newlines).

    Raises UnsupportedVersion for a release outside the supported range and UnrecognisedReply
    for a reply that fits no release.
    """
    command = command_for(step, flavour)
    text = reply.strip()
    if step is Step.VERSION:
        found = parse_version_reply(text)
        if found is not None:
            release = _release_of(found)
            return Outcome(found=Detected((release,), "version", found.name))
        if text.startswith(UNKNOWN_COMMAND) and _is_parse_error_of(text, command):
            return Outcome(next=Step.TREE)  # no `version` command: older than 1.21.6
        raise UnrecognisedReply(command, reply)
    if step is Step.TREE:
        outcomes = {
            _tree_reply(flavour, (1, 20, 5)): Outcome(next=Step.FLOOR),  # or older
            _tree_reply(flavour, (1, 21, 0)): _found(_G21),
            _tree_reply(flavour, (1, 21, 2)): _found(_G21_2),
            _tree_reply(flavour, (1, 21, 4)): Outcome(next=Step.TEST),
        }
        if text in outcomes:
            return outcomes[text]
        raise UnrecognisedReply(command, reply)
    if step is Step.TEST:
        if text == HELP_FAILED:
            return _found(_G21_4)
        target = command.split(" ", 1)[1]  # `test`, or Paper's `minecraft:test`
        if text.startswith(f"/{target} "):
            return _found(_G21_5)
        raise UnrecognisedReply(command, reply)
    if text == NO_ENTITY:
        return _found(_G20_5)
    if _is_parse_error_of(text, command):
        raise UnsupportedVersion(
            f"Minecraft older than {OLDEST.name} is not supported: pipesctl serves Java "
            f"{SUPPORTED_RANGE}"
        )
    raise UnrecognisedReply(command, reply)
