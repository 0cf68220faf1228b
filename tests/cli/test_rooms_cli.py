"""Room commands through typer's runner against the sandbox, and the daemon as a real process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.cli.rooms import _sandbox_config
from controller.config import load_config, parse_config
from controller.errors import ExitCode
from controller.records.setup import target_of
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.state import RoomState
from controller.sandbox import Sandbox
from tests.support.harness import world_mismatches

runner = CliRunner()
GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Sandbox, Path]]:
    with Sandbox() as sb:
        cfg = tmp_path / "pipes.yaml"
        cfg.write_text(
            f"state_dir: {tmp_path / 'state'}\n"
            f"servers:\n  main: {{host: 127.0.0.1, port: {sb.port}, password_env: PIPES_PW}}\n"
            "worlds:\n  lobby:\n    origin: [0, 100, 0]\n    size: [7, 5]\n    seed: 4\n"
            "    audit_interval_s: 0\n    on_win: {next_puzzle_after_s: 0.2}\n"
        )
        monkeypatch.setenv("PIPES_PW", sb.password)
        yield sb, cfg


@pytest.fixture
def running(setup: tuple[Sandbox, Path]) -> Iterator[tuple[Sandbox, Path, Daemon]]:
    sb, cfg = setup
    daemon = Daemon(load_config(cfg), ["lobby"], connect=connect_server)
    daemon.start()
    stop = threading.Event()
    loop = threading.Thread(target=daemon.run, args=(stop,))
    loop.start()
    yield sb, cfg, daemon
    stop.set()
    loop.join()
    daemon.close()


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PIPESCTL_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text()


def _connections(sb: Sandbox) -> set[object]:
    return {e.connection for e in sb.log_entries()}


def test_status_and_show_golden(running: tuple[Sandbox, Path, Daemon]) -> None:
    sb, cfg, _ = running
    # While the daemon runs, status and show never open a second RCON connection: vanilla
    # shares one output buffer between connections (docs/server-behaviour.md, "Shared output
    # buffer").
    connections = _connections(sb)
    result = runner.invoke(app, ["status", "--config", str(cfg)], env={"COLUMNS": "100"})
    assert result.exit_code == ExitCode.OK, result.output
    _golden("status.txt", result.stdout)
    result = runner.invoke(app, ["status", "--config", str(cfg), "--json"])
    data = json.loads(result.stdout)["rooms"][0]
    assert data["healthy"] and data["daemon_running"] and data["frames"] == 35
    result = runner.invoke(app, ["show", "--world", "lobby", "--config", str(cfg)])
    assert result.exit_code == ExitCode.OK, result.output
    _golden("show.txt", result.stdout)
    assert _connections(sb) == connections


def test_show_png(running: tuple[Sandbox, Path, Daemon], tmp_path: Path) -> None:
    from PIL import Image

    _, cfg, _ = running
    out = tmp_path / "board.png"
    result = runner.invoke(app, ["show", "-w", "lobby", "-c", str(cfg), "--png", str(out)])
    assert result.exit_code == ExitCode.OK, result.output
    with Image.open(out) as image:
        assert image.size == (7 * 128, 5 * 128)


def test_status_is_unhealthy_without_a_daemon(setup: tuple[Sandbox, Path]) -> None:
    _, cfg = setup
    result = runner.invoke(app, ["status", "--config", str(cfg)])
    assert result.exit_code == ExitCode.ERROR
    assert "UNHEALTHY" in result.output and "not built" in result.output


def test_reset_and_hint_are_handed_to_the_running_daemon(
    running: tuple[Sandbox, Path, Daemon],
) -> None:
    sb, cfg, daemon = running
    sb.join("Alex", (3.5, 101, 2.5))
    result = runner.invoke(app, ["reset", "-w", "lobby", "-c", str(cfg), "--seed", "99", "--yes"])
    assert result.exit_code == ExitCode.OK, result.output
    assert "carried out by the running daemon" in result.output
    room = daemon.rooms["lobby"]
    assert room.state is not None and room.state.puzzle_number == 2 and room.board.seed == 99
    result = runner.invoke(app, ["hint", "-w", "lobby", "-c", str(cfg)])
    assert result.exit_code == ExitCode.OK, result.output
    assert any("Hint: turn" in json.dumps(m) for m in sb.inbox("Alex")), sb.inbox("Alex")
    assert world_mismatches(sb, room) == []


def test_repair_reports_and_fixes(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    daemon = Daemon(load_config(cfg), ["lobby"], connect=connect_server)
    daemon.start()
    room = daemon.rooms["lobby"]
    daemon.close()
    x, y, z = room.geom.east_pos(2, 2)
    sb.call(lambda g: g.execute(f"setblock {x} {y} {z} minecraft:stone"))
    result = runner.invoke(app, ["repair", "-w", "lobby", "-c", str(cfg)])
    assert result.exit_code == ExitCode.OK, result.output
    assert "1 blocks fixed" in result.output
    assert world_mismatches(sb, room) == []


def test_remove_clears_the_room_and_archives_state(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    daemon = Daemon(load_config(cfg), ["lobby"], connect=connect_server)
    daemon.start()
    result = runner.invoke(app, ["remove", "-w", "lobby", "-c", str(cfg), "--yes"])
    assert result.exit_code == ExitCode.ERROR and "stop it first" in result.output
    daemon.close()
    result = runner.invoke(app, ["remove", "-w", "lobby", "-c", str(cfg), "--yes"])
    assert result.exit_code == ExitCode.OK, result.output
    count = sb.call(lambda g: g.execute("execute if entity @e[tag=pipes.lobby]"))
    assert count == ["Test failed"]
    assert sb.call(lambda g: g.block(0, 99, 0)) == "minecraft:air"
    state_dir = Path(load_config(cfg).state_dir)
    assert not (state_dir / "lobby.json").exists()
    assert list((state_dir / "archive").glob("lobby-*.json"))


def test_rcon_passthrough(setup: tuple[Sandbox, Path]) -> None:
    _, cfg = setup
    result = runner.invoke(app, ["rcon", "list", "-c", str(cfg)])
    assert result.exit_code == ExitCode.OK
    assert result.stdout == "There are 0 of a max of 20 players online: \n"


@pytest.mark.parametrize(
    "command",
    [["rcon", "list"], ["status"], ["start", "-w", "lobby"], ["remove", "-w", "lobby", "-y"]],
)
def test_a_wrong_password_is_one_exit_code_everywhere(
    command: list[str], setup: tuple[Sandbox, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, cfg = setup
    monkeypatch.setenv("PIPES_PW", "not-the-password")
    result = runner.invoke(app, [*command, "-c", str(cfg)])
    assert result.exit_code == ExitCode.AUTH, result.output
    assert "not-the-password" not in result.output


def _wait(predicate: object, log: Path, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out; daemon log:\n" + log.read_text()
        time.sleep(0.05)


def _moves(path: Path) -> int:
    state = RoomState.load(path)
    return -1 if state is None else state.moves


def test_sigkill_of_the_daemon_loses_no_move(setup: tuple[Sandbox, Path], tmp_path: Path) -> None:
    sb, cfg = setup
    state_file = Path(load_config(cfg).state_dir) / "lobby.json"
    env = {**os.environ, "PIPES_PW": sb.password}
    argv = [sys.executable, "-m", "controller.cli", "start", "-w", "lobby", "-c", str(cfg)]
    log = tmp_path / "daemon.log"
    out = log.open("w")
    proc = subprocess.Popen(argv, env=env, stderr=out)
    try:
        _wait(lambda: "ready, puzzle" in log.read_text(), log)  # the state exists before
        room = PipesRoom("lobby", load_config(cfg).worlds["lobby"], state_file.parent)
        sb.join("Alex", (3.5, 101, 2.5))
        sb.use_entity("Alex", room.uuids[0])
        _wait(lambda: _moves(state_file) == 1, log)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        sb.use_entity("Alex", room.uuids[1])  # while the daemon is down
        sb.use_entity("Alex", room.uuids[8])
        proc = subprocess.Popen(argv, env=env, stderr=out)
        _wait(lambda: _moves(state_file) == 3, log)
        sb.use_entity("Alex", room.uuids[9])
        _wait(lambda: _moves(state_file) == 4, log)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        out.close()
    state = RoomState.load(state_file)
    assert state is not None
    room.state = state
    from controller.puzzle.play import PlayState

    room.play = PlayState(state.board)
    assert world_mismatches(sb, room) == []


def test_a_sandbox_rehearsal_keeps_its_records_out_of_the_network_store(tmp_path: Path) -> None:
    base = parse_config(
        {
            "records": {"url": "postgresql://pipes@db.example/pipes", "server_name": "hub"},
            "servers": {"main": {"password_env": "PW"}},
            "worlds": {"lobby": {"server": "main", "origin": [0, 100, 0]}},
        }
    )
    cfg = _sandbox_config(base, ["lobby"], 25575, "pw-of-the-sandbox", tmp_path / "sb")
    target = target_of(cfg)
    assert (target.kind, target.location) == ("sqlite", str(tmp_path / "sb" / "records.sqlite3"))
