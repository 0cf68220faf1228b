"""A server as the runtime sees it: flavour-prefixed commands, normalised replies, a count."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from controller.rcon.replies import normalize
from controller.runtime.observe import NULL_OBSERVER, Observer
from controller.stopping import Stop, Stopping
from controller.versions import NEWEST, Release

__all__ = ["CommandClient", "Link", "in_dimension", "send_all_in"]

log = logging.getLogger("controller.runtime")


class CommandClient(Protocol):
    """What the runtime needs of a transport (the RCON client, or a fake in tests)."""

    def command(self, command: str, *, prefix: bool = False) -> str:
        """Send one command (with `prefix`, `minecraft:`-prefixed on Paper); return its reply."""
        ...


def in_dimension(command: str, dimension: str) -> str:
    """Run a command in a room's dimension (the RCON source stands in the overworld)."""
    if dimension == "minecraft:overworld":
        return command
    return f"execute in {dimension} run {command}"


def send_all_in(
    link: Link,
    dimension: str,
    commands: list[str],
    progress: Callable[[int, int], None] | None = None,
) -> list[str]:
    """Send commands in order in a room's dimension, reporting progress every 64 commands."""
    out = []
    for k, c in enumerate(commands):
        out.append(link.send(in_dimension(c, dimension)))
        if progress is not None and (k % 64 == 0 or k == len(commands) - 1):
            progress(k + 1, len(commands))
    return out


class Link:
    """One server connection shared by the rooms on it; counts and optionally records commands.

    With `stop` set, every send first checks it and raises `Stopping` once a stop was asked
    for: a long command sequence (a build, a repair) ends at its next command. `release` is
    the server's Minecraft release: every command built for this server follows its forms.
    `observer` hears of every command (its round trip) and of every reconnect the client made
    (its `connects` count grown since the last command).
    """

    def __init__(
        self,
        client: CommandClient,
        name: str = "",
        record: bool = False,
        stop: Stop | None = None,
        release: Release = NEWEST,
        observer: Observer = NULL_OBSERVER,
    ) -> None:
        self.client = client
        self.observer = observer
        self.connects = _connects(client)
        self.name = name
        self.release = release
        self.sent = 0
        self.record: list[str] | None = [] if record else None
        self.stop = stop

    def send(self, command: str) -> str:
        """Send a vanilla-form command; Paper gets the `minecraft:` prefix. Returns plain text."""
        if self.stop is not None and self.stop.is_set():
            raise Stopping(f"stopping: {command.split(' ', 1)[0]} not sent to {self.name}")
        began = time.perf_counter()
        reply = self.client.command(command, prefix=True)
        self.observer.command_sent(self.name, time.perf_counter() - began)
        self.sent += 1
        self.seen_connects()
        if self.record is not None:
            self.record.append(command)
        log.debug("%s> %s -> %.200s", self.name, command, reply)
        return normalize(reply).replace("\n", "")

    def send_all(self, commands: list[str]) -> list[str]:
        """Send commands one after another."""
        return [self.send(c) for c in commands]

    def seen_connects(self) -> None:
        """Report the connections the client opened since the last look as reconnects."""
        now = _connects(self.client)
        if now is None:
            return
        if self.connects is not None:
            for _ in range(now - self.connects):
                self.observer.reconnected(self.name)
        self.connects = now


def _connects(client: CommandClient) -> int | None:
    """How many connections the client has opened (a fake without the count: None)."""
    count = getattr(client, "connects", None)
    return count if isinstance(count, int) else None
