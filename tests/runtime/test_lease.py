"""One owner per room: the lease in the world's scoreboard, checked through the real transport
against the sandbox (a second daemon from another folder, from another "host" = another state
directory, a lease left by a killed daemon, a lease taken over, offline admin commands)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from controller.config import load_config
from controller.errors import RoomError
from controller.runtime.admin.actions import repair_room
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.lease import owner_path
from controller.sandbox import Sandbox
from controller.world import commands as cmd
from controller.world.replies import parse_game_time, parse_score
from tests.support.grammar import assert_valid_commands
from tests.support.harness import make_config


@pytest.fixture
def sb(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        monkeypatch.setenv("SANDBOX_PW", sandbox.password)
        yield sandbox


def _killed(daemon: Daemon) -> None:
    """What SIGKILL leaves: the socket and the file lock gone, the lease still in the world."""
    for link in daemon.links.values():
        link.client.close()  # type: ignore[attr-defined]
    for lock in daemon.locks:
        lock.release()


def _owner(sb: Sandbox) -> int | None:
    reply = sb.call(lambda g: g.execute(f"scoreboard players get #pipes.lobby.owner {cmd.LEASE}"))
    return parse_score(reply[0])


def test_lease_commands_are_vanilla_grammar_and_one_word_holders() -> None:
    commands = [
        cmd.lease_objective(),
        *cmd.lease_stale_mark(2_147_483_646, 200),
        *cmd.lease_take("lobby-2_x", 17),
        cmd.lease_adopt("lobby-2_x", 16, 17),
        cmd.lease_renew("lobby-2_x", 17),
        cmd.lease_release("lobby-2_x", 17),
        *cmd.lease_read("lobby-2_x"),
    ]
    assert_valid_commands(commands)
    assert " " not in cmd.lease_holder("a" * 32, "renewed")


def test_lease_replies() -> None:
    assert parse_score("#pipes.lobby.owner has 42 [pipes_lease]") == 42
    assert parse_score("Can't get value of pipes_lease for #x; none is set") is None
    assert parse_game_time("The game time is 1234 tick(s)") == 1234
    assert parse_game_time("") is None


def test_a_second_host_is_refused_with_owner_and_expiry(sb: Sandbox, tmp_path: Path) -> None:
    first = Daemon(make_config(sb, tmp_path / "a"), ["lobby"], connect=connect_server)
    first.start()
    try:
        assert _owner(sb) == first.owner
        second = Daemon(make_config(sb, tmp_path / "b"), ["lobby"], connect=connect_server)
        with pytest.raises(RoomError) as caught:
            second.start()
        second.close()
        message = str(caught.value)
        assert f"owner id {first.owner}" in message
        assert "expires at game tick" in message
        assert _owner(sb) == first.owner  # the refused daemon wrote nothing
        first.step()
        assert "lobby" not in first.lost
    finally:
        first.close()


def test_a_second_daemon_from_another_folder_is_refused(
    sb: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "etc"
    folder.mkdir()
    config = folder / "pipes.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "version": 1,
                "state_dir": "state",
                "servers": {
                    "main": {"host": "127.0.0.1", "port": sb.port, "password_env": "SANDBOX_PW"}
                },
                "worlds": {"lobby": {"origin": [0, 100, 0], "size": [5, 5], "seed": 3}},
            }
        )
    )
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    monkeypatch.chdir(tmp_path / "one")
    first = Daemon(load_config(Path("../etc/pipes.yaml")), ["lobby"], connect=connect_server)
    first.start()
    try:
        monkeypatch.chdir(tmp_path / "two")
        with pytest.raises(RoomError, match="already run by pid"):
            Daemon(load_config(Path("../etc/pipes.yaml")), ["lobby"], connect=connect_server)
    finally:
        first.close()


def test_a_killed_owners_lease_is_taken_over_after_it_expires(sb: Sandbox, tmp_path: Path) -> None:
    first = Daemon(make_config(sb, tmp_path / "a"), ["lobby"], connect=connect_server)
    first.start()
    _killed(first)
    # A lease of 100 ticks (5 s): the dead owner renewed it moments ago, however slow the
    # machine, so it has not expired yet.
    other = Daemon(
        make_config(sb, tmp_path / "b"), ["lobby"], connect=connect_server, lease_ticks=100
    )
    try:
        with pytest.raises(RoomError, match=f"owner id {first.owner}"):
            other.start()
    finally:
        other.close()
    sb.tick(102)
    other = Daemon(
        make_config(sb, tmp_path / "b"), ["lobby"], connect=connect_server, lease_ticks=100
    )
    other.start()
    assert _owner(sb) == other.owner
    other.close()


def test_a_restart_on_the_same_state_takes_the_dead_daemons_lease_at_once(
    sb: Sandbox, tmp_path: Path
) -> None:
    cfg = make_config(sb, tmp_path / "a")
    first = Daemon(cfg, ["lobby"], connect=connect_server)
    first.start()
    assert owner_path(tmp_path / "a", "lobby").read_text().strip() == str(first.owner)
    _killed(first)
    again = Daemon(cfg, ["lobby"], connect=connect_server)
    again.start()  # no wait: the file lock proves the recorded owner is gone
    assert _owner(sb) == again.owner
    again.close()


def test_a_daemon_whose_lease_was_taken_stops_writing_the_room(sb: Sandbox, tmp_path: Path) -> None:
    first = Daemon(
        make_config(sb, tmp_path / "a"), ["lobby"], connect=connect_server, lease_ticks=10
    )
    first.start()
    sb.tick(12)  # `first` stalls: it renews nothing for longer than the lease
    second = Daemon(
        make_config(sb, tmp_path / "b"), ["lobby"], connect=connect_server, lease_ticks=10
    )
    second.start()
    try:
        first.last_renew.clear()  # the next step renews
        first.step()
        assert first.lost == {"lobby"}
        room = second.rooms["lobby"]
        sb.join("Alex", (0.5, 101, 0.5))
        assert sb.use_entity("Alex", room.uuids[0])
        first.step()
        second.step()
        second.poll("main")
        assert room.current_state.moves == 1
        assert first.rooms["lobby"].current_state.moves == 0
    finally:
        first.close()
        second.close()


def test_a_clean_stop_gives_the_lease_back(sb: Sandbox, tmp_path: Path) -> None:
    first = Daemon(make_config(sb, tmp_path / "a"), ["lobby"], connect=connect_server)
    first.start()
    first.close()
    second = Daemon(make_config(sb, tmp_path / "b"), ["lobby"], connect=connect_server)
    second.start()
    assert _owner(sb) == second.owner
    second.close()


def test_an_offline_repair_is_refused_while_another_host_runs_the_room(
    sb: Sandbox, tmp_path: Path
) -> None:
    first = Daemon(make_config(sb, tmp_path / "a"), ["lobby"], connect=connect_server)
    first.start()
    try:
        elsewhere = make_config(sb, tmp_path / "b")
        with pytest.raises(RoomError, match=f"owner id {first.owner}"):
            repair_room(elsewhere, "lobby", "reset", connect=connect_server)
        assert _owner(sb) == first.owner
    finally:
        first.close()


def test_a_lease_removed_from_the_world_is_taken_again(sb: Sandbox, tmp_path: Path) -> None:
    daemon = Daemon(make_config(sb, tmp_path / "a"), ["lobby"], connect=connect_server)
    daemon.start()
    try:
        sb.call(lambda g: g.execute(f"scoreboard objectives remove {cmd.LEASE}"))
        daemon.last_renew.clear()
        daemon.step()
        assert daemon.lost == set()
        assert _owner(sb) == daemon.owner
    finally:
        daemon.close()
