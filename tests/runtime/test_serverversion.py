"""Learning a server's release over a link (controller/runtime/serverversion.py): the probes,
one retry of a spoiled reply, and the configured `version`, which wins."""

from __future__ import annotations

import logging

import pytest

from controller.errors import ExitCode
from controller.rcon.flavour import prefixed
from controller.runtime.link import Link
from controller.runtime.serverversion import VersionUndetected, detect, learn
from controller.versions import RELEASES, Release, UnsupportedVersion, release
from tests.support.version_replies import FLOOR_OLDER, answer


class ReleaseClient:
    """A CommandClient that answers the probes as release `name` does; `spoil` replies are
    replaced by other output first (another RCON client on vanilla's shared buffer)."""

    def __init__(self, name: str, flavour: str = "vanilla", spoil: int = 0) -> None:
        self.name, self.flavour, self.spoil = name, flavour, spoil
        self.sent: list[str] = []

    def command(self, command: str, *, prefix: bool = False) -> str:
        text = prefixed(command, "paper" if self.flavour == "paper" else "vanilla")
        text = text if prefix else command
        self.sent.append(text)
        if self.spoil:
            self.spoil -= 1
            return "Saved the game"
        return answer(self.name, self.flavour, text) or ""


def oldest_of_group(r: Release) -> Release:
    groups = {"1.20.6": "1.20.5", "1.21.1": "1.21", "1.21.3": "1.21.2"}
    return release(groups.get(r.name, r.name))


@pytest.mark.parametrize("flavour", ["vanilla", "paper"])
@pytest.mark.parametrize("r", RELEASES, ids=str)
def test_the_link_follows_the_detected_release(r: Release, flavour: str) -> None:
    client = ReleaseClient(r.name, flavour)
    link = Link(client, "main")
    version = learn(link, None)
    assert link.release == version.release == oldest_of_group(r)
    assert version.source == "detected" and version.flavour == flavour
    assert len(client.sent) <= 3


def test_the_log_line_names_release_flavour_and_source(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, "controller.runtime"):
        learn(Link(ReleaseClient("1.21.8", "paper"), "main"), None)
        learn(Link(ReleaseClient("1.21.3"), "other"), None)
    lines = [r.getMessage() for r in caplog.records]
    assert "server main: Minecraft 1.21.8 (paper), from `version`" in lines
    assert (
        "server other: Minecraft 1.21.2 (vanilla), from its commands: 1.21.2 to 1.21.3, "
        "which share their forms" in lines
    )


def test_a_spoiled_reply_is_asked_once_more() -> None:
    client = ReleaseClient("1.21.4", spoil=1)
    assert detect(Link(client, "main")).release == release("1.21.4")
    assert client.sent[:2] == ["version", "version"]


def test_two_spoiled_replies_are_a_clear_error() -> None:
    client = ReleaseClient("26.1", spoil=2)
    with pytest.raises(VersionUndetected) as failed:
        detect(Link(client, "main"))
    text = str(failed.value)
    assert text.startswith("server main: cannot tell its Minecraft version: `version` answered")
    assert text.endswith("set `version:` under servers.main in the configuration")
    assert client.sent == ["version", "version"] and failed.value.exit_code == ExitCode.ERROR


def test_an_unsupported_server_is_refused() -> None:
    with pytest.raises(UnsupportedVersion, match="older than 1.20.5"):
        learn(Link(ReleaseClient(FLOOR_OLDER), "main"), None)


def test_the_probes_are_neither_recorded_nor_counted() -> None:
    link = Link(ReleaseClient("1.21.1"), "main", record=True)
    learn(link, None)
    assert link.record == [] and link.sent == 0


def test_a_configured_version_that_agrees_is_used_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    link = Link(ReleaseClient("1.21.3"), "main")
    with caplog.at_level(logging.INFO, "controller.runtime"):
        version = learn(link, release("1.21.3"))
    assert link.release == release("1.21.3") and not version.disagrees
    assert version.how == (
        "configured, the server agrees (from its commands: 1.21.2 to 1.21.3, which share their "
        "forms)"
    )
    assert all(r.levelno == logging.INFO for r in caplog.records)


def test_a_configured_version_wins_over_the_server_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    link = Link(ReleaseClient("1.21.8"), "main")
    with caplog.at_level(logging.INFO, "controller.runtime"):
        version = learn(link, release("1.21.4"))
    assert link.release == release("1.21.4") and version.disagrees
    warning = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warning == [
        "server main: Minecraft 1.21.4 (vanilla), configured, but the server says 1.21.8 "
        "(from `version`); the configured version is used"
    ]
    assert version.to_json()["server_says"] == "1.21.8"


@pytest.mark.parametrize(("name", "spoil"), [("26.1", 2), (FLOOR_OLDER, 0)])
def test_a_configured_version_is_used_when_the_server_cannot_confirm_it(
    name: str, spoil: int, caplog: pytest.LogCaptureFixture
) -> None:
    link = Link(ReleaseClient(name, spoil=spoil), "main")
    with caplog.at_level(logging.WARNING, "controller.runtime"):
        version = learn(link, release("1.20.5"))
    assert link.release == release("1.20.5") and version.detected is None
    assert version.how.startswith("configured (not confirmed: ")
    assert "set `version:`" not in version.how
    assert len(caplog.records) == 1
