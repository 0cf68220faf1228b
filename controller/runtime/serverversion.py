"""Learn a server's Minecraft release once per connection, and settle it with the configuration.

The probes and the reading of their replies are pure (controller/world/serverversion.py); this
module sends them over the link, asks a spoiled reply once more, and applies `version:` from
the configuration, which wins over what the server says (a disagreement is logged).
docs/server-behaviour.md, "Versions: detecting the version".
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Literal

from controller.errors import PipesError
from controller.runtime.link import CommandClient, Link
from controller.versions import Release, UnsupportedVersion
from controller.world.serverversion import (
    Detected,
    Flavour,
    UnrecognisedReply,
    command_for,
    first_step,
    read_reply,
)

__all__ = ["ServerVersion", "VersionUndetected", "detect", "flavour_of", "learn", "server_link"]

log = logging.getLogger("controller.runtime")

Source = Literal["detected", "configured"]


class VersionUndetected(PipesError):
    """The server's replies fit no release, twice in a row."""


@dataclass(frozen=True)
class ServerVersion:
    """The release a server's commands follow, where it came from, and what the server said.

    `detected` is None when the replies could not tell (only with a configured version);
    `problem` then says why.
    """

    release: Release
    source: Source
    flavour: str
    detected: Detected | None = None
    problem: str | None = None

    @property
    def disagrees(self) -> bool:
        """A configured version the server's replies do not fit."""
        return (
            self.source == "configured"
            and self.detected is not None
            and not self.detected.fits(self.release)
        )

    @property
    def how(self) -> str:
        """Where the release came from, for a log line or `status`."""
        found = self.detected
        said = "" if found is None else _said(found)
        if self.source == "detected":
            assert found is not None
            return said
        if found is None:
            return f"configured (not confirmed: {self.problem})"
        if self.disagrees:
            return f"configured, but the server says {found.span} ({said})"
        return f"configured, the server agrees ({said})"

    def summary(self, server: str) -> str:
        """The log line: `server main: Minecraft 1.21.4 (paper), from `version``."""
        return f"server {server}: Minecraft {self.release.name} ({self.flavour}), {self.how}"

    def to_json(self) -> dict[str, Any]:
        """What the health file keeps of it."""
        found = self.detected
        return {
            "release": self.release.name,
            "source": self.source,
            "flavour": self.flavour,
            "how": self.how,
            "server_says": None if found is None else found.span,
            "disagrees": self.disagrees,
        }


def _said(found: Detected) -> str:
    if found.source == "version":
        return "from `version`"
    if len(found.releases) == 1:
        return "from its commands"
    return f"from its commands: {found.span}, which share their forms"


def flavour_of(link: Link) -> Flavour:
    """The flavour the link's client detected on connect (vanilla when it did not)."""
    return "paper" if getattr(link.client, "flavour", None) == "paper" else "vanilla"


def detect(link: Link) -> Detected:
    """Send the probes until the replies tell the release; a reply that fits no release is
    asked once more. UnsupportedVersion for a release outside the range, VersionUndetected when
    the second reply does not fit either."""
    probe = Link(link.client, link.name, stop=link.stop)  # not recorded, not counted
    flavour = flavour_of(link)
    step = first_step()
    while True:
        command = command_for(step, flavour)
        try:
            outcome = read_reply(step, flavour, probe.send(command))
        except UnrecognisedReply:
            try:
                outcome = read_reply(step, flavour, probe.send(command))
            except UnrecognisedReply as again:
                raise VersionUndetected(
                    f"server {link.name}: cannot tell its Minecraft version: {again}; set "
                    f"`version:` under servers.{link.name} in the configuration"
                ) from None
        if outcome.found is not None:
            return outcome.found
        assert outcome.next is not None
        step = outcome.next


def learn(link: Link, configured: Release | None) -> ServerVersion:
    """Detect the server's release and settle it with the configured one (which wins); sets
    `link.release` and logs one line. Without a configured version an unsupported or
    undetectable server raises (UnsupportedVersion, VersionUndetected)."""
    flavour = flavour_of(link)
    try:
        found = detect(link)
    except (UnsupportedVersion, VersionUndetected) as exc:
        if configured is None:
            raise
        version = ServerVersion(configured, "configured", flavour, None, _reason(exc, link.name))
        log.warning("%s; the configured version is used", version.summary(link.name))
    else:
        if configured is None:
            version = ServerVersion(found.release, "detected", flavour, found)
        else:
            version = ServerVersion(configured, "configured", flavour, found)
        if version.disagrees:
            log.warning("%s; the configured version is used", version.summary(link.name))
        else:
            log.info("%s", version.summary(link.name))
    link.release = version.release
    return version


def server_link(
    client: CommandClient, name: str, configured: Release | None, **kwargs: Any
) -> tuple[Link, ServerVersion]:
    """A link to a freshly connected server that follows its release (`learn`); `kwargs` go
    to `Link` (record, stop)."""
    link = Link(client, name, **kwargs)
    return link, learn(link, configured)


def _reason(exc: PipesError, server: str) -> str:
    """The error without its `server <name>: ` lead and its advice to configure a version."""
    text = str(exc).removeprefix(f"server {server}: ")
    return text.split("; set `version:`", 1)[0]
