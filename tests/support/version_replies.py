"""What a server of a given release answers to the version probes, built from that release's
en_us strings (``tests/world/data/probe-language.json``, from PrismarineJS/minecraft-data) and
Brigadier's parse-error context, independently of the controller's own reading.

A release without its own language file there (1.21.2, 1.21.7, 26.1.1, 26.1.2, 26.2) takes the
nearest older one; the probes' strings are the same in every file (tests/world check that).
``answer`` is the oracle the sandbox's own replies are checked against (tests/sandbox). The
sandbox plays every supported release itself (``Sandbox(version=…)``); ``ReleaseGame`` puts
these answers in front of its 26.1 game only for a release it cannot play, one older than the
oldest served (``FLOOR_OLDER``), so a whole daemon can meet it over real RCON.
"""

from __future__ import annotations

import json
import pathlib
from functools import cache
from typing import Any

from controller.versions import release

__all__ = [
    "FLOOR_OLDER",
    "ReleaseFactory",
    "ReleaseGame",
    "answer",
    "context",
    "language",
    "number_of",
]

DATA = pathlib.Path(__file__).resolve().parents[1] / "world" / "data" / "probe-language.json"
FLOOR_OLDER = "1.20.4"  # a release older than the oldest served (its strings: the 1.20.3 file)

# The usage lines `help test` gives from 1.21.5: getSmartUsage of the `test` literal, one per
# child in the order TestCommand.register adds them (dill-lk/Minecraft
# gametest/framework/TestCommand.java, 26.1; the same tree in
# duollectis/minecraft-decompiled-1.21.11 server/command/TestCommand.java), worked out by hand
# from that tree with Brigadier's CommandDispatcher.getSmartUsage. 1.21.5 to 1.21.10: unverified
# (the controller reads only the `/test ` lead).
TEST_USAGE = (
    "run <tests> [<numberOfTimes>]",
    "runmultiple <tests> [<amount>]",
    "runthese [<numberOfTimes>]",
    "runclosest [<numberOfTimes>]",
    "runthat [<numberOfTimes>]",
    "runfailed [<onlyRequiredTests>|<numberOfTimes>]",
    "verify <tests>",
    "locate <tests>",
    "resetclosest",
    "resetthese",
    "resetthat",
    "clearthat",
    "clearthese",
    "clearall [<radius>]",
    "stop",
    "pos [<var>]",
    "create <id> [<width>]",
)


@cache
def _data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return loaded


def number_of(name: str) -> tuple[int, int, int]:
    """(major, minor, patch) of a release name, served or not."""
    parts = [int(p) for p in name.split(".")]
    return (parts + [0, 0])[0], (parts + [0, 0])[1], (parts + [0, 0, 0])[2]


def language(name: str) -> dict[str, str]:
    """The probe strings of release `name` (its own file, else the nearest older one)."""
    data = _data()
    serves: dict[str, str] = data["serves"]
    older = [r for r in serves if number_of(r) <= number_of(name)]
    folder = serves[max(older, key=number_of)]
    strings: dict[str, str] = data["folders"][folder]
    return strings


def context(command: str, cursor: int, here: str) -> str:
    """The context line `Commands.finishParsing` builds (decompiled 1.20.5 and 26.1)."""
    at = min(len(command), cursor)
    out = ("..." if at > 10 else "") + command[max(0, at - 10) : at]
    if at < len(command):
        out += command[at:]
    return out + here


def _fill(template: str, *args: object) -> str:
    for arg in args:
        template = template.replace("%s", str(arg), 1)
    return template


def _parse_error(
    flavour: str, message: str, command: str, cursor: int, lang: dict[str, str]
) -> str:
    """Vanilla: the two messages joined with nothing; Paper: one message, a newline between."""
    joint = "\n" if flavour == "paper" else ""
    return message + joint + context(command, cursor, lang["command.context.here"])


def _version_reply(name: str, lang: dict[str, str]) -> str:
    r = release(name)
    lines = [
        lang["commands.version.header"],
        _fill(lang["commands.version.id"], r.name),
        _fill(lang["commands.version.name"], r.name),
        _fill(lang["commands.version.data"], r.data_version),
        _fill(lang["commands.version.series"], "main"),
        _fill(lang["commands.version.protocol"], r.protocol, f"0x{r.protocol:x}"),
        _fill(lang["commands.version.build_time"], "Tue Jun 17 10:00:00 UTC 2025"),
        _fill(lang["commands.version.pack.resource"], "63"),
        _fill(lang["commands.version.pack.data"], str(r.pack)),
        lang["commands.version.stable.yes"],
    ]
    return "".join(lines)


def answer(name: str, flavour: str, command: str) -> str | None:
    """The reply of release `name` (`flavour` server) to one probe command; None for any other
    command. Commands are the probes as sent (Paper's already namespaced)."""
    lang = language(name)
    at = number_of(name)
    bare = command.removeprefix("minecraft:")
    unknown, incorrect = lang["command.unknown.command"], lang["command.unknown.argument"]
    if bare == "version":
        if at >= (1, 21, 6):
            return _version_reply(name, lang)
        return _parse_error(flavour, unknown, command, 0, lang)
    if bare.startswith("attribute @n["):
        if at < (1, 21, 0):
            message = _fill(lang["argument.entity.selector.unknown"], "@n")
            return _parse_error(flavour, message, command, command.index("@n") + 1, lang)
        if at < (1, 21, 2):
            attribute = "minecraft:max_health"
            message = _fill(lang["argument.resource.not_found"], attribute, "minecraft:attribute")
            end = command.index(attribute) + len(attribute)
            return _parse_error(flavour, message, command, end, lang)
        if at < (1, 21, 4):
            return _parse_error(flavour, incorrect, command, command.index("reset"), lang)
        return lang["argument.entity.notfound.entity"]
    if bare in ("help test", "help minecraft:test"):
        if at < (1, 21, 5):
            return lang["commands.help.failed"]
        target = bare.removeprefix("help ")
        return "".join(f"/{target} {usage}" for usage in TEST_USAGE)
    if bare == "execute if items entity @s weapon.mainhand *":
        if at < (1, 20, 5):
            return _parse_error(flavour, incorrect, command, command.index("items"), lang)
        return lang["argument.entity.notfound.entity"]
    return None


class ReleaseGame:
    """The sandbox's game, answering the version probes as release `name` does; every other
    command (and attribute) goes to the game itself."""

    def __init__(self, inner: Any, name: str, flavour: str) -> None:
        self.inner, self.name, self.flavour = inner, name, flavour
        self.probes: list[str] = []

    def execute(self, command: str) -> list[str]:
        """Run one command as the Rcon source."""
        reply = answer(self.name, self.flavour, command)
        if reply is None:
            out: list[str] = self.inner.execute(command)
            return out
        self.probes.append(command)
        return [reply]

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)


class ReleaseFactory:
    """A sandbox game factory playing `name` (change it, then `restart()` the sandbox, for a
    server that comes back on another release)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.games: list[ReleaseGame] = []

    def _wrap(self, inner: Any, flavour: str) -> ReleaseGame:
        game = ReleaseGame(inner, self.name, flavour)
        self.games.append(game)
        return game

    def __call__(self, flavour: str = "vanilla") -> ReleaseGame:
        """A fresh game."""
        from controller.sandbox.game import Game

        return self._wrap(Game(flavour), flavour)

    def load(self, directory: pathlib.Path, flavour: str = "vanilla") -> ReleaseGame:
        """A game read back from a saved folder."""
        from controller.sandbox.game import Game

        return self._wrap(Game.load(directory, flavour), flavour)
