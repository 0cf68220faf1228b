"""Another RCON connection whose commands land inside the daemon's, at random.

Vanilla keeps one output buffer for every RCON connection: each command first clears it, then
the main thread appends the command's feedback, then the connection's thread reads it back
(docs/server-behaviour.md, "Shared output buffer"; the sandbox's `ConsoleBuffer` models it). A
second connection's command that runs between those steps of one of the daemon's commands
changes the daemon's reply in one of three ways, which this helper causes on purpose:

- **mixed**: the other command runs after the daemon's buffer was cleared and before the
  daemon's command runs: the daemon reads the other reply followed by its own;
- **replaced**: the other command runs after the daemon's command and before the daemon reads:
  the daemon reads only the other reply;
- **emptied**: the other command has cleared the buffer (its first step) when the daemon reads:
  the daemon reads nothing.

The other commands go over a real second RCON connection; the daemon's connection is found by
its number in the sandbox's command log.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

from controller.rcon.client import RconClient
from controller.sandbox import Sandbox

__all__ = ["Interference"]


class Interference:
    """While active, each of the daemon's commands is mixed, replaced or emptied at random."""

    def __init__(
        self,
        sb: Sandbox,
        victim: int,
        rng: random.Random,
        commands: Sequence[str],
        *,
        mixed: float = 0.1,
        replaced: float = 0.1,
        emptied: float = 0.1,
    ) -> None:
        self.sb = sb
        self.victim = victim  # the daemon's connection number
        self.rng = rng
        self.commands = list(commands)
        self.p = {"mixed": mixed, "replaced": replaced, "emptied": emptied}
        self.counts: Counter[str] = Counter()
        self.active = True
        self.local = threading.local()
        self.client = RconClient("127.0.0.1", sb.port, sb.password, skip_short_probe=True)
        self.client.connect()
        self.foreign_replies: list[str] = []

    def _other_command(self) -> None:
        self.foreign_replies.append(self.client.command(self.rng.choice(self.commands)))

    def _for_victim(self) -> bool:
        return self.active and getattr(self.local, "victim", False)

    def __enter__(self) -> Interference:
        server = self.sb.server
        console = server.console
        run_command: Callable[..., str] = server._run_command
        prepare: Callable[[], None] = console.prepare_for_command
        response: Callable[[], str] = console.get_command_response

        def run(conn: Any, command: str) -> str:
            self.local.victim = conn.number == self.victim
            try:
                return run_command(conn, command)
            finally:
                self.local.victim = False

        def prepare_for_command() -> None:
            prepare()
            if self._for_victim() and self.rng.random() < self.p["mixed"]:
                self.counts["mixed"] += 1
                self._other_command()

        def get_command_response() -> str:
            if self._for_victim():
                roll = self.rng.random()
                if roll < self.p["replaced"]:
                    self.counts["replaced"] += 1
                    self._other_command()
                elif roll < self.p["replaced"] + self.p["emptied"]:
                    self.counts["emptied"] += 1
                    prepare()
            return response()

        server._run_command = run  # type: ignore[method-assign]
        console.prepare_for_command = prepare_for_command  # type: ignore[method-assign]
        console.get_command_response = get_command_response  # type: ignore[method-assign]
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        server = self.sb.server
        for obj, name in (
            (server, "_run_command"),
            (server.console, "prepare_for_command"),
            (server.console, "get_command_response"),
        ):
            obj.__dict__.pop(name, None)
        self.client.close()
