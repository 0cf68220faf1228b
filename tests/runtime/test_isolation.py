"""Servers run independently and one room's error stops nothing else (through the real
transport against sandboxes)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config, ServerConfig, parse_config
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.link import CommandClient
from controller.runtime.pipes.room import PipesRoom
from controller.sandbox import Sandbox


@pytest.fixture
def two(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Sandbox, Sandbox]]:
    with Sandbox() as a, Sandbox() as b:
        monkeypatch.setenv("PW_A", a.password)
        monkeypatch.setenv("PW_B", b.password)
        yield a, b


def _room(server: str, origin: list[int]) -> dict[str, Any]:
    return {
        "server": server,
        "origin": origin,
        "size": [4, 4],
        "seed": 5,
        "audit_interval_s": 0,
        "on_win": {"next_puzzle_after_s": 60},
    }


def _config(state: Path, worlds: dict[str, dict[str, Any]], ports: dict[str, int]) -> Config:
    servers = {
        name: {"host": "127.0.0.1", "port": port, "password_env": f"PW_{name.upper()}"}
        for name, port in ports.items()
    }
    return parse_config({"state_dir": str(state), "servers": servers, "worlds": worlds})


class Stalls:
    """A transport that can be made to hang (a server in reconnect backoff) until released."""

    def __init__(self, inner: CommandClient) -> None:
        self.inner = inner
        self.stalled = threading.Event()
        self.release = threading.Event()
        self.waiting = threading.Event()

    def command(self, command: str, *, prefix: bool = False) -> str:
        if self.stalled.is_set():
            self.waiting.set()
            self.release.wait(60)
        return self.inner.command(command, prefix=prefix)

    def close(self) -> None:
        self.release.set()
        self.inner.close()  # type: ignore[attr-defined]


def _click(sb: Sandbox, room: PipesRoom, idx: int) -> None:
    x, y, z = room.geom.frame_pos(idx % room.board.width, idx // room.board.width)
    sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
    assert sb.use_entity("Alex", room.uuids[idx])


def test_a_stalled_server_delays_no_other_server(
    two: tuple[Sandbox, Sandbox], tmp_path: Path
) -> None:
    a, b = two
    stalls: dict[str, Stalls] = {}

    def connect(name: str, server: ServerConfig) -> CommandClient:
        client = connect_server(name, server)
        if name == "a":
            stalls[name] = Stalls(client)
            return stalls[name]
        return client

    worlds = {"one": _room("a", [0, 100, 0]), "two": _room("b", [0, 100, 0])}
    daemon = Daemon(
        _config(tmp_path, worlds, {"a": a.port, "b": b.port}), ["one", "two"], connect=connect
    )
    daemon.start()
    b.join("Alex", (0.5, 101, 0.5))
    stop = threading.Event()
    runner = threading.Thread(target=daemon.run, args=(stop,))
    stalls["a"].stalled.set()
    runner.start()
    try:
        assert stalls["a"].waiting.wait(30)  # server a's thread is stuck in a command
        room = daemon.rooms["two"]
        assert isinstance(room, PipesRoom)
        _click(b, room, 0)
        _click(b, room, 5)
        for _ in range(600):
            if room.current_state.moves == 2:
                break
            stop.wait(0.05)
        assert room.current_state.moves == 2
        assert not stalls["a"].release.is_set()  # a was stuck the whole time
    finally:
        stop.set()
        runner.join(30)
        daemon.close()
    assert not runner.is_alive()


def test_one_rooms_error_stops_no_other_room(
    two: tuple[Sandbox, Sandbox],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    a, _ = two
    worlds = {"one": _room("a", [0, 100, 0]), "two": _room("a", [20, 100, 0])}
    daemon = Daemon(
        _config(tmp_path, worlds, {"a": a.port}), ["one", "two"], connect=connect_server
    )
    daemon.start()
    one, two_ = daemon.rooms["one"], daemon.rooms["two"]
    assert isinstance(one, PipesRoom) and isinstance(two_, PipesRoom)

    def broken(*args: object) -> bool:
        raise ValueError("a bug in one room")

    monkeypatch.setattr(one, "handle_turn", broken)
    monkeypatch.setattr(one, "periodic", broken)
    a.join("Alex", (0.5, 101, 0.5))
    try:
        with caplog.at_level(logging.ERROR, logger="controller.runtime"):
            _click(a, one, 0)
            daemon.poll("a")
            daemon.step()
            _click(a, two_, 0)
            daemon.last_poll.clear()  # read every frame once: the click is surely seen
            daemon.next_poll.clear()
            daemon.step()
        assert two_.current_state.moves == 1
        assert "room one: turn failed" in caplog.text
        assert "room one: timers failed" in caplog.text
        assert "room two" not in caplog.text
    finally:
        daemon.close()


def test_an_error_in_turn_detection_ends_nothing(
    two: tuple[Sandbox, Sandbox],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    a, _ = two
    worlds = {"one": _room("a", [0, 100, 0])}
    daemon = Daemon(_config(tmp_path, worlds, {"a": a.port}), ["one"], connect=connect_server)
    daemon.start()
    detector = daemon.detector("a")

    def broken(*args: object, **kwargs: object) -> list[object]:
        raise KeyError("unexpected reply")

    monkeypatch.setattr(detector, "poll", broken)
    try:
        with caplog.at_level(logging.ERROR, logger="controller.runtime"):
            daemon.step()
        assert "server a: poll failed" in caplog.text
        assert "a" not in daemon.down
    finally:
        daemon.close()


def test_a_server_unreachable_at_start_is_reached_later_and_stops_no_other(
    two: tuple[Sandbox, Sandbox], tmp_path: Path
) -> None:
    a, b = two
    b.refuse_connections(4.0)
    worlds = {"one": _room("a", [0, 100, 0]), "two": _room("b", [0, 100, 0])}
    daemon = Daemon(
        _config(tmp_path, worlds, {"a": a.port, "b": b.port}),
        ["one", "two"],
        connect=connect_server,
    )
    assert "b" in daemon.unreachable and "b" in daemon.down
    daemon.start()
    assert daemon.started == {"a"}
    a.join("Alex", (0.5, 101, 0.5))
    b.join("Alex", (0.5, 101, 0.5))
    stop = threading.Event()
    runner = threading.Thread(target=daemon.run, args=(stop,))
    runner.start()
    try:
        one, two_ = daemon.rooms["one"], daemon.rooms["two"]
        assert isinstance(one, PipesRoom) and isinstance(two_, PipesRoom)
        _click(a, one, 0)
        for _ in range(600):
            if one.current_state.moves == 1:
                break
            stop.wait(0.05)
        assert one.current_state.moves == 1
        for _ in range(600):
            if "b" in daemon.started:
                break
            stop.wait(0.05)
        assert "b" in daemon.started and "b" not in daemon.down
        _click(b, two_, 0)
        for _ in range(600):
            if two_.current_state.moves == 1:
                break
            stop.wait(0.05)
        assert two_.current_state.moves == 1
    finally:
        stop.set()
        runner.join(30)
        daemon.close()
    assert not runner.is_alive()
