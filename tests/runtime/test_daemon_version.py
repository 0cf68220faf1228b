"""The daemon learns each server's release on connect, refuses one it does not serve before
building anything, and follows a server that comes back on another release.

Against the sandbox over real RCON, playing each release itself (`Sandbox(version=...)`). Only
a release older than the oldest served, which the sandbox cannot play, is met through
`ReleaseFactory` (tests/support/version_replies.py), the probe answers of that release in front
of the sandbox's game.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest

from controller.config import Config, parse_config
from controller.errors import ExitCode
from controller.runtime.connect import connect_server
from controller.runtime.control import health_path, read_health
from controller.runtime.daemon import Daemon
from controller.sandbox import Sandbox
from controller.sandbox.sandbox import Flavour
from controller.versions import RELEASES, UnsupportedVersion, release
from controller.world import serverversion as sv
from tests.support.harness import make_config, world_mismatches
from tests.support.version_replies import FLOOR_OLDER, ReleaseFactory

WITH_VERSION = [r.name for r in RELEASES if r.has_version_command]


def probes_sent(sb: Sandbox) -> list[str]:
    """The version probes the sandbox received (its command log), in order."""
    probes = {sv.command_for(step, flavour) for step in sv.Step for flavour in ("vanilla", "paper")}
    return [e.command for e in sb.log_entries() if e.command in probes]


@pytest.mark.parametrize("name", WITH_VERSION)
def test_the_daemon_follows_the_sandbox_release(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox(version=name) as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(make_config(sb, tmp_path), ["lobby"], connect=connect_server)
        try:
            assert daemon.links["main"].release == release(name)
            assert daemon.versions["main"].source == "detected"
            assert [e.command for e in sb.log_entries()] == ["minecraft:list", "version"]
        finally:
            daemon.close()


GROUP_OLDEST = {"1.20.6": "1.20.5", "1.21.1": "1.21", "1.21.3": "1.21.2"}  # the docs' groups


@pytest.mark.parametrize("flavour", ["vanilla", "paper"])
@pytest.mark.parametrize("name", [r.name for r in RELEASES])
def test_every_release_is_learned_from_the_sandbox_playing_it(
    name: str, flavour: Flavour, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exactly the release, or the oldest of a group its commands cannot tell apart
    (docs/server-behaviour.md, "Versions: detecting the version")."""
    with Sandbox(flavour=flavour, version=name) as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(make_config(sb, tmp_path), ["lobby"], connect=connect_server)
        try:
            learned = daemon.versions["main"]
            assert learned.flavour == flavour and learned.source == "detected"
            assert daemon.links["main"].release == release(GROUP_OLDEST.get(name, name))
            assert learned.detected is not None and learned.detected.fits(release(name))
        finally:
            daemon.close()


@pytest.mark.parametrize(
    ("name", "acted_on"),
    [("1.20.6", "1.20.5"), ("1.21.1", "1.21"), ("1.21.3", "1.21.2"), ("1.21.5", "1.21.5")],
)
def test_an_older_release_is_detected_from_its_commands(
    name: str, acted_on: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox(version=name) as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(make_config(sb, tmp_path), ["lobby"], connect=connect_server)
        try:
            assert daemon.links["main"].release == release(acted_on)
            probes = probes_sent(sb)
            assert probes[0] == "version" and len(probes) <= 3
        finally:
            daemon.close()


def test_the_release_is_in_the_health_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(make_config(sb, tmp_path), ["lobby"], connect=connect_server)
        try:
            daemon.start()
            health = read_health(tmp_path, "lobby")
            assert health is not None and health.version is not None
            assert health.version["release"] == "26.1"
            assert health.version["source"] == "detected"
            assert health.version["how"] == "from `version`"
        finally:
            daemon.close()


def test_an_unsupported_server_is_refused_before_anything_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with Sandbox(game_factory=ReleaseFactory(FLOOR_OLDER)) as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        with caplog.at_level(logging.ERROR, "controller.runtime"):
            with pytest.raises(UnsupportedVersion) as refused:
                Daemon(make_config(sb, tmp_path), ["lobby"], connect=connect_server)
        sent = [e.command for e in sb.log_entries()]
    assert str(refused.value) == (
        "server main: Minecraft older than 1.20.5 is not supported: pipesctl serves Java "
        "1.20.5 to 26.2"
    )
    assert refused.value.exit_code == ExitCode.USAGE
    probes = {sv.command_for(step, "vanilla") for step in sv.Step}
    assert set(sent) <= probes | {"minecraft:list"}  # no scoreboard, lease or block command
    assert [r.getMessage() for r in caplog.records] == [f"{refused.value}; its rooms are not run"]


def two_servers(old: Sandbox, new: Sandbox, state_dir: Path) -> Config:
    lobby = {"server": "old", "origin": [0, 100, 0], "size": [5, 5], "audit_interval_s": 0}
    hall = {**lobby, "server": "new"}
    return parse_config(
        {
            "state_dir": str(state_dir),
            "servers": {
                "old": {"port": old.port, "password_env": "OLD_PW"},
                "new": {"port": new.port, "password_env": "NEW_PW"},
            },
            "worlds": {"lobby": lobby, "hall": hall},
        }
    )


def test_other_servers_keep_going_when_one_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox(game_factory=ReleaseFactory(FLOOR_OLDER)) as old, Sandbox() as new:
        monkeypatch.setenv("OLD_PW", old.password)
        monkeypatch.setenv("NEW_PW", new.password)
        daemon = Daemon(two_servers(old, new, tmp_path), ["lobby", "hall"], connect=connect_server)
        try:
            assert set(daemon.refused) == {"old"} and "old" not in daemon.links
            daemon.start()
            daemon.step()
            assert daemon.started == {"new"}
            assert world_mismatches(new, daemon.rooms["hall"]) == []
            assert not daemon.rooms["lobby"].path.exists()  # never built
            refused = read_health(tmp_path, "lobby")
            assert refused is not None and refused.refused is not None
            assert "older than 1.20.5" in refused.refused
            assert {e.command for e in old.log_entries()} <= {
                "minecraft:list",
                *(sv.command_for(s, "vanilla") for s in sv.Step),
            }
        finally:
            daemon.close()


def connects(daemon: Daemon, server: str = "main") -> int:
    count: int = daemon.links[server].client.connects  # type: ignore[attr-defined]
    return count


def wait_until_back(daemon: Daemon, before: int, server: str = "main") -> None:
    """Step the daemon until it has a connection newer than `before` and has looked at it."""
    for _ in range(100):
        daemon.step()
        now = connects(daemon, server)
        if now > before and (server in daemon.refused or daemon.generations[server] == now):
            return
        time.sleep(0.05)
    raise AssertionError("the server did not come back")


def test_a_server_back_on_another_release_is_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with Sandbox(version="26.1") as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(make_config(sb, tmp_path), ["lobby"], connect=connect_server)
        try:
            daemon.start()
            room = daemon.rooms["lobby"]
            before = connects(daemon)
            sb.restart(version="26.2")  # the server upgraded
            sb.call(lambda g: g.execute(f"kill {room.uuids[3]}"))  # repaired by the reconcile
            with caplog.at_level(logging.INFO, "controller.runtime"):
                wait_until_back(daemon, before)
            assert daemon.links["main"].release == release("26.2")
            lines = [r.getMessage() for r in caplog.records]
            changed = "server main: Minecraft 26.1 -> 26.2 since the last connection"
            assert any(line.startswith(changed) for line in lines), lines
            assert world_mismatches(sb, room) == []
            daemon.write_health(every=0.0)
            health = json.loads(health_path(tmp_path, "lobby").read_text())
            assert health["version"]["release"] == "26.2"
        finally:
            daemon.close()


def test_a_server_back_on_the_same_release_costs_one_probe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox(version="1.21.9") as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(make_config(sb, tmp_path), ["lobby"], connect=connect_server)
        try:
            daemon.start()
            for _ in range(5):
                daemon.step()  # polls: no probe
            assert probes_sent(sb) == ["version"]
            before = connects(daemon)
            sb.restart()
            wait_until_back(daemon, before)
            assert probes_sent(sb) == ["version", "version"]  # once on the new connection
            assert daemon.links["main"].release == release("1.21.9")
        finally:
            daemon.close()


def test_a_server_back_on_an_unsupported_release_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    factory = ReleaseFactory("26.1")
    with Sandbox(game_factory=factory) as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(make_config(sb, tmp_path), ["lobby"], connect=connect_server)
        try:
            daemon.start()
            factory.name = FLOOR_OLDER
            before = connects(daemon)
            sb.restart()
            wait_until_back(daemon, before)
            assert "main" in daemon.refused
            before = len(sb.log_entries())
            for _ in range(3):
                daemon.step_server("main")
            assert len(sb.log_entries()) == before  # nothing more is sent
        finally:
            daemon.close()


def test_a_server_reached_late_on_an_unsupported_release_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    factory = ReleaseFactory("26.1")
    with Sandbox(game_factory=factory) as late, Sandbox() as good:
        monkeypatch.setenv("OLD_PW", late.password)
        monkeypatch.setenv("NEW_PW", good.password)
        late.go_down()
        cfg = two_servers(late, good, tmp_path)
        daemon = Daemon(cfg, ["lobby", "hall"], connect=connect_server)
        try:
            assert "old" in daemon.unreachable and not daemon.refused
            factory.games[-1].name = FLOOR_OLDER  # it comes back on a release not served
            late.come_back()
            assert daemon.reach("old") is False
            assert "old" in daemon.refused and not daemon.rooms["lobby"].path.exists()
        finally:
            daemon.close()
