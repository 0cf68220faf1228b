"""Who may reset a room in game: the server matches exact account names; display text and
look-alike names (Floodgate prefixes, team suffixes, `@e`) never grant or redirect anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.pipes.room import PipesRoom
from controller.sandbox import Sandbox
from tests.support.harness import make_config

ALLOWED = [".Steve", "+Bob", "abcdefghijklmnop", "Alex"]


def _trigger(sb: Sandbox, name: str) -> None:
    """The player uses `/trigger pipes_reset` (the trigger sets their score to 1)."""
    sb.call(lambda g: g.execute(f'scoreboard players set @a[name="{name}"] pipes_reset 1'))


def _score(sb: Sandbox, name: str) -> int | None:
    def read(g: object) -> int | None:
        scores = g.world.scores.get(name, {})  # type: ignore[attr-defined]
        value = scores.get("pipes_reset")
        return None if value is None else int(value)

    return sb.call(read)  # type: ignore[arg-type]


@pytest.fixture
def room_daemon(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Sandbox, Daemon, PipesRoom]:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path, reset_by=ALLOWED)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server)
    daemon.start()
    return sandbox, daemon, daemon.rooms["lobby"]


@pytest.mark.parametrize(
    ("player", "display"),
    [
        ("Steve", ""),  # `.Steve` is allowed, `Steve` is not
        ("Bob", ""),
        ("e", ""),
        ("@e", ""),  # the sandbox takes any name; the daemon never writes it into a command
        ("Eve", ".Steve"),
        ("Mallory", "Alex"),  # a team prefix/suffix cannot make Mallory look like Alex
        ("abcdefghijklmno", ""),
    ],
)
def test_players_not_in_reset_by_cannot_reset(
    room_daemon: tuple[Sandbox, Daemon, PipesRoom], player: str, display: str
) -> None:
    sb, daemon, room = room_daemon
    try:
        sb.join(player, (3.5, 101, 3.5), display=display)
        _trigger(sb, player)
        assert not room.check_reset_requests(daemon.links["main"])
        assert room.current_state.puzzle_number == 1
        assert _score(sb, player) == 0  # their own score, and only theirs, is cleared
        for name in ALLOWED:
            assert _score(sb, name) in (None, 0)
    finally:
        daemon.close()


@pytest.mark.parametrize(
    ("player", "display"),
    [(".Steve", ""), ("+Bob", ""), ("abcdefghijklmnop", ""), ("Alex", "Alex ✦")],
)
def test_each_allowed_player_resets_once_and_only_their_score_is_cleared(
    room_daemon: tuple[Sandbox, Daemon, PipesRoom], player: str, display: str
) -> None:
    sb, daemon, room = room_daemon
    link = daemon.links["main"]
    try:
        sb.join(player, (3.5, 101, 3.5), display=display)
        sb.join("Steve", (2.5, 101, 2.5))  # a look-alike beside them
        _trigger(sb, player)
        assert room.check_reset_requests(link)
        assert room.current_state.puzzle_number == 2
        assert _score(sb, player) == 0
        assert _score(sb, "Steve") is None  # the look-alike's score is never written
        # One trigger, one new puzzle: the next checks find nothing.
        for _ in range(3):
            assert not room.check_reset_requests(link)
        assert room.current_state.puzzle_number == 2
        inbox = sb.inbox(player)
        assert any(player in str(m) and "new puzzle" in str(m) for m in inbox)
    finally:
        daemon.close()


def test_an_idle_check_costs_one_command(room_daemon: tuple[Sandbox, Daemon, PipesRoom]) -> None:
    sb, daemon, room = room_daemon
    link = daemon.links["main"]
    try:
        sb.join("Alex", (3.5, 101, 3.5))
        before = link.sent
        assert not room.check_reset_requests(link)
        assert link.sent - before == 1
    finally:
        daemon.close()
