"""The admin experience: honest messages and exit codes, repair flags, remove, hint, logging,
the live view's width, build progress."""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from controller.cli import app
from controller.cli.common import JsonFormatter, LogFormat, LogLevel, logging_to_stderr
from controller.cli.rooms import log_progress
from controller.cli.ui import room_panel
from controller.config import load_config, parse_config
from controller.errors import ExitCode, RconUnavailable, RoomError
from controller.runtime.admin.actions import carry_out
from controller.runtime.clock import utc_iso
from controller.runtime.connect import connect_server
from controller.runtime.control import (
    RoomLock,
    health_path,
    read_health,
    take_request,
    write_json,
    write_request,
)
from controller.runtime.daemon import Daemon
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.requests import HintRequest, ResetRequest
from controller.runtime.state import RoomState
from controller.sandbox import Sandbox
from tests.support.harness import world_mismatches

runner = CliRunner()


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Sandbox, Path]]:
    with Sandbox() as sb:
        cfg = tmp_path / "pipes.yaml"
        cfg.write_text(
            f"state_dir: {tmp_path / 'state'}\n"
            f"servers:\n  main: {{host: 127.0.0.1, port: {sb.port}, password_env: PIPES_PW}}\n"
            "worlds:\n  lobby:\n    origin: [0, 100, 0]\n    size: [7, 5]\n    seed: 4\n"
            "    audit_interval_s: 0\n"
        )
        monkeypatch.setenv("PIPES_PW", sb.password)
        yield sb, cfg


def _build(cfg: Path) -> PipesRoom:
    daemon = Daemon(load_config(cfg), ["lobby"], connect=connect_server)
    daemon.start()
    room = daemon.rooms["lobby"]
    daemon.close()
    assert isinstance(room, PipesRoom)
    return room


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


def _state_dir(cfg: Path) -> Path:
    return Path(load_config(cfg).state_dir)


# -- broken -----------------------------------------------------------------------------------
def test_show_without_a_daemon_reads_the_rotations_back(
    setup: tuple[Sandbox, Path], tmp_path: Path
) -> None:
    sb, cfg = setup
    room = _build(cfg)
    sb.join("Alex", (0.5, 101, 0.5))
    sb.use_entity("Alex", room.uuids[0])  # a turn no daemon has seen
    result = runner.invoke(app, ["show", "-w", "lobby", "-c", str(cfg)])
    assert result.exit_code == ExitCode.OK, result.output
    saved = RoomState.load(_state_dir(cfg) / "lobby.json")
    assert saved is not None
    lines = result.stdout.splitlines()
    assert lines[0].startswith("lobby: water ") and len(lines) == 1 + 5
    rows = lines[1:]
    from controller.cli.ui import board_text

    before = board_text(saved.board).plain.splitlines()
    assert rows[0][0] != before[0][0] and rows[1:] == before[1:]
    png = tmp_path / "b.png"
    result = runner.invoke(app, ["show", "-w", "lobby", "-c", str(cfg), "--png", str(png)])
    assert result.exit_code == ExitCode.OK and png.stat().st_size > 0


def test_rcon_joins_words_and_refuses_an_oversized_command(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    result = runner.invoke(app, ["rcon", "-c", str(cfg), "say", "hi", "there"])
    assert result.exit_code == ExitCode.OK, result.output
    assert [e.command for e in sb.log_entries()][-1] == "say hi there"
    result = runner.invoke(app, ["rcon", "-c", str(cfg), "say " + "x" * 1500])
    assert result.exit_code == ExitCode.USAGE
    assert result.output == (
        "error: the command is 1504 UTF-8 bytes; RCON carries at most 1446 (split it, or use a "
        "function in a datapack)\n"
    )


def test_init_in_a_checkout_writes_next_to_the_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PIPESCTL_CONFIG", raising=False)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "pipes.example.yaml").write_text("# the example\n")
    result = runner.invoke(app, ["init"])
    assert result.exit_code == ExitCode.OK, result.output
    assert (tmp_path / "config" / "pipes.yaml").exists()
    target = tmp_path / "elsewhere.yaml"
    assert runner.invoke(app, ["init", "-c", str(target)]).exit_code == ExitCode.OK
    assert target.exists()


# -- honest messages --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the file is empty; expected `version: 1`"),
        ("version: 1\n", "no servers and no worlds are configured"),
        ("version: 7\nservers: {main: {}}\n", "version: 7 is not a configuration version"),
    ],
)
def test_empty_or_unknown_version_config_exits_3(text: str, message: str, tmp_path: Path) -> None:
    cfg = tmp_path / "pipes.yaml"
    cfg.write_text(text)
    result = runner.invoke(app, ["status", "-c", str(cfg)])
    assert result.exit_code == ExitCode.CONFIG
    assert message in result.output


def test_inline_password_warning_is_one_line_and_never_shows_the_password(
    tmp_path: Path,
) -> None:
    cfg = tmp_path / "pipes.yaml"
    cfg.write_text(
        f"state_dir: {tmp_path}\nservers: {{main: {{password: hunter22, port: 1, timeout: 0.2}}}}\n"
    )
    result = runner.invoke(app, ["status", "-c", str(cfg)])
    assert result.exit_code == ExitCode.OK
    assert result.stderr == (
        "warning: servers.main.password: an inline password is readable by anyone who can read "
        "the file; prefer password_env or password_file\n"
        "warning: servers.main.password: weak password (fewer than 12 characters or a common "
        "word); use a long random one\n"
    )
    assert "hunter22" not in result.output


def test_a_weak_password_from_the_environment_is_warned_about(
    setup: tuple[Sandbox, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    sb, cfg = setup
    result = runner.invoke(app, ["rcon", "-c", str(cfg), "list"])
    assert "weak" not in result.stderr  # the sandbox's password is long and random
    from controller.cli import common

    common._warned.clear()
    monkeypatch.setenv("PIPES_PW", "hunter2")
    result = runner.invoke(app, ["rcon", "-c", str(cfg), "list"])
    assert result.exit_code == ExitCode.AUTH
    assert "warning: servers.main: weak RCON password" in result.stderr
    assert "hunter2" not in result.output


def test_status_reads_the_health_file_without_the_secret(
    running: tuple[Sandbox, Path, Daemon], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, cfg, _ = running
    monkeypatch.delenv("PIPES_PW")
    result = runner.invoke(app, ["status", "-c", str(cfg), "--json"])
    assert result.exit_code == ExitCode.OK, result.output
    room = json.loads(result.stdout)["rooms"][0]
    assert room["healthy"] and room["problem"] is None


def test_status_problem_field(setup: tuple[Sandbox, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    _, cfg = setup
    _build(cfg)

    def problem() -> tuple[int, object]:
        result = runner.invoke(app, ["status", "-c", str(cfg), "--json"])
        return result.exit_code, json.loads(result.stdout)["rooms"][0]["problem"]

    assert problem() == (ExitCode.ERROR, "unhealthy")  # no daemon runs it
    monkeypatch.setenv("PIPES_PW", "wrong-password-here")
    assert problem() == (ExitCode.AUTH, "auth")
    monkeypatch.setenv("PIPESCTL_PORT", "1")
    assert problem() == (ExitCode.UNREACHABLE, "unreachable")


@pytest.mark.parametrize(
    ("corrupt", "field"),
    [
        (lambda d: d.pop("board"), "'board' is missing"),
        (
            lambda d: d.update(moves="seven"),
            "'moves' is invalid (expected an integer, got 'seven')",
        ),
        (lambda d: d["board"].pop("shapes"), "'board' is invalid (shapes: missing)"),
    ],
)
def test_a_corrupt_state_file_says_which_file_which_field_and_what_to_do(
    corrupt: object, field: str, setup: tuple[Sandbox, Path]
) -> None:
    _, cfg = setup
    _build(cfg)
    path = _state_dir(cfg) / "lobby.json"
    data = json.loads(path.read_text())
    corrupt(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["show", "-w", "lobby", "-c", str(cfg)])
    assert result.exit_code == ExitCode.ERROR
    assert result.output == (
        f"error: state file {path}: field {field}. The file is kept as it is; "
        "`pipesctl repair -w lobby --from-world` rebuilds the state from the frames in the world, "
        "`pipesctl repair -w lobby --reset` archives it and builds a new puzzle\n"
    )
    result = runner.invoke(app, ["status", "-c", str(cfg), "--json"])
    room = json.loads(result.stdout)["rooms"][0]
    assert field in room["state_error"] and room["problem"] == "unhealthy"
    assert path.exists()


def test_repair_from_world_rebuilds_a_lost_state(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    room = _build(cfg)
    sb.join("Alex", (0.5, 101, 0.5))
    sb.use_entity("Alex", room.uuids[0])
    path = _state_dir(cfg) / "lobby.json"
    before = RoomState.load(path)
    assert before is not None
    path.write_text('{"format": 1, "room": "lobby", "moves": 3, "board": null}')
    result = runner.invoke(app, ["repair", "-w", "lobby", "-c", str(cfg), "--from-world"])
    assert result.exit_code == ExitCode.OK, result.output
    assert "state rebuilt from the world" in result.output
    after = RoomState.load(path)
    assert after is not None and after.moves == 3
    assert after.board.shapes == before.board.shapes
    assert after.board.rotations[0] == (before.board.rotations[0] + 1) % 4
    assert after.board.rotations[1:] == before.board.rotations[1:]
    assert list((_state_dir(cfg) / "archive").glob("lobby-*-corrupt.json"))
    room.load()
    assert world_mismatches(sb, room) == []


def test_repair_from_world_says_when_the_board_cannot_be_recovered(
    setup: tuple[Sandbox, Path],
) -> None:
    sb, cfg = setup
    _build(cfg)
    sb.call(lambda g: g.execute("kill @e[type=minecraft:item_frame,tag=pipes.lobby,limit=3]"))
    path = _state_dir(cfg) / "lobby.json"
    path.write_text("{not json")
    result = runner.invoke(app, ["repair", "-w", "lobby", "-c", str(cfg), "--from-world"])
    assert result.exit_code == ExitCode.ERROR
    assert "the board cannot be recovered from the world: 32 of 35 tile frames found" in (
        result.output
    )
    assert "--reset` builds a new puzzle instead" in result.output
    assert path.read_text() == "{not json"


def test_repair_reset_archives_and_builds_a_new_puzzle(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    _build(cfg)
    path = _state_dir(cfg) / "lobby.json"
    path.write_text("{not json")
    result = runner.invoke(app, ["repair", "-w", "lobby", "-c", str(cfg), "--reset"])
    assert result.exit_code == ExitCode.OK, result.output
    assert "room rebuilt" in result.output and "old state archived to" in result.output
    assert RoomState.load(path) is not None
    assert list((_state_dir(cfg) / "archive").glob("lobby-*-reset.json"))
    result = runner.invoke(
        app, ["repair", "-w", "lobby", "-c", str(cfg), "--reset", "--from-world"]
    )
    assert result.exit_code == ExitCode.USAGE


def test_remove_leaves_nothing_behind_and_repair_then_refuses(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    _build(cfg)
    state_dir = _state_dir(cfg)
    (state_dir / "lobby.health.json").write_text("{}")
    assert (state_dir / "lobby.lock").exists()
    sb.call(lambda g: g.execute("scoreboard players set #lobby pipes_best_s 42"))
    result = runner.invoke(app, ["remove", "-w", "lobby", "-c", str(cfg), "-y"])
    assert result.exit_code == ExitCode.OK, result.output
    left = sorted(p.name for p in state_dir.iterdir())
    assert left == ["archive", "records.sqlite3"]  # the records outlive the room
    objectives = sb.call(lambda g: g.execute("scoreboard objectives list"))
    assert "pipes_" not in " ".join(objectives)
    result = runner.invoke(app, ["repair", "-w", "lobby", "-c", str(cfg)])
    assert result.exit_code == ExitCode.ERROR
    assert result.output == (
        "error: room lobby has no state (never built, or removed); "
        "`pipesctl start -w lobby` builds it\n"
    )


def test_remove_keeps_objectives_other_rooms_of_the_server_share(
    setup: tuple[Sandbox, Path],
) -> None:
    sb, cfg = setup
    cfg.write_text(cfg.read_text() + "  dock:\n    origin: [100, 100, 0]\n    size: [3, 3]\n")
    _build(cfg)
    sb.call(lambda g: g.execute("scoreboard players set #lobby pipes_best_s 42"))
    sb.call(lambda g: g.execute("scoreboard players set #dock pipes_best_s 7"))
    assert runner.invoke(app, ["remove", "-w", "lobby", "-c", str(cfg), "-y"]).exit_code == 0
    holders = sb.call(lambda g: g.execute("scoreboard players list"))
    assert "#dock" in " ".join(holders) and "#lobby" not in " ".join(holders)


def test_hint_names_the_tile_and_says_when_nobody_is_near(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    _build(cfg)
    result = runner.invoke(app, ["hint", "-w", "lobby", "-c", str(cfg)])
    assert result.exit_code == ExitCode.OK, result.output
    assert result.stdout.startswith("lobby: no player near the room, nobody saw the hint (column ")
    sb.join("Alex", (3.5, 101, 2.5))
    result = runner.invoke(app, ["hint", "-w", "lobby", "-c", str(cfg)])
    assert result.stdout.startswith("lobby: hint sent: column ")
    said = [m for m in sb.inbox("Alex") if "Hint" in json.dumps(m)]
    column_row = result.stdout.split("hint sent: ")[1].split(":")[0]
    assert column_row in json.dumps(said)


# -- signals ----------------------------------------------------------------------------------
def test_an_interrupted_demo_exits_130(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "controller.cli", "demo", "--rounds", "50", "--size", "5"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    with proc.stderr:
        try:
            assert "sandbox RCON running" in proc.stderr.readline()
            time.sleep(1.0)
            proc.send_signal(signal.SIGINT)
            assert proc.wait(20) == ExitCode.INTERRUPTED
            assert "demo interrupted" in proc.stderr.read()
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


# -- logging ----------------------------------------------------------------------------------
def test_json_log_lines_carry_room_and_server() -> None:
    record = logging.LogRecord(
        "controller.runtime", logging.INFO, "", 0, "room %s ready", ("a",), None
    )
    record.room = "lobby"
    data = json.loads(JsonFormatter().format(record))
    assert data["message"] == "room a ready" and data["room"] == "lobby"
    assert data["level"] == "info" and data["logger"] == "controller.runtime"
    assert data["time"].endswith("Z") and "server" not in data


def test_logging_is_taken_away_after_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    logger = logging.getLogger("controller.sandbox")
    with logging_to_stderr(LogLevel.info, LogFormat.json):
        logger.info("inside")
    logger.info("outside")
    err = capsys.readouterr().err
    assert json.loads(err)["message"] == "inside" and "outside" not in err
    assert not logging.getLogger("controller").handlers


def test_build_progress_logs_percentage_and_time_left(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "controller.cli")
    update = log_progress("building lobby", every=0.0)
    update(0, 200)
    update(50, 200)
    update(200, 200)
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0] == "building lobby: 0% (0/200 commands)"
    assert lines[1].startswith("building lobby: 25% (50/200 commands), about ")
    assert lines[1].endswith(" s left") and lines[2] == "building lobby: 100% (200/200 commands)"


def test_a_resumed_build_counts_its_rate_from_where_it_resumed(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO, "controller.cli")
    now = [100.0]
    monkeypatch.setattr("controller.cli.rooms.time.monotonic", lambda: now[0])
    update = log_progress("building lobby", every=0.0)
    update(900, 1000)  # resumed at 900 of 1000
    now[0] += 10.0
    update(950, 1000)  # 50 commands in 10 s: 50 left is 10 s more, not 0.5 s
    assert caplog.records[-1].getMessage().endswith("about 10 s left")


# -- the live view ----------------------------------------------------------------------------
@pytest.mark.parametrize("size", [15, 31, 128])
@pytest.mark.parametrize("width", [80, 120])
def test_the_live_view_never_exceeds_the_terminal_width(size: int, width: int) -> None:
    from controller.puzzle.generators import GeneratorParams, generate
    from controller.puzzle.play import PlayState

    cfg = parse_config(
        {"servers": {"main": {}}, "worlds": {"w": {"origin": [0, 64, 0], "size": [size, size]}}}
    )
    room = PipesRoom("a-long-room-name", cfg.worlds["w"], Path("/nonexistent"))
    board = generate(size, size, seed=1, params=GeneratorParams(unique=False))
    room.state = RoomState("a-long-room-name", board, puzzle_number=12345, moves=99999)
    room.play = PlayState(board)
    out = Console(width=width, record=True, color_system=None)
    out.print(room_panel(room, now=room.state.started_at + 7200, width=width))
    lines = out.export_text().rstrip("\n").splitlines()
    assert len(lines) == 1 + size
    assert max(out.measure(line).maximum for line in lines) <= width
    assert all(len(line) <= width for line in lines)


# -- the server down ---------------------------------------------------------------------------
ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"


@pytest.fixture
def held(setup: tuple[Sandbox, Path]) -> Iterator[tuple[Sandbox, Path, Path]]:
    """A built room whose lock is held as a running daemon holds it (nothing takes requests)."""
    sb, cfg = setup
    _build(cfg)
    state_dir = _state_dir(cfg)
    lock = RoomLock(state_dir, "lobby")
    lock.acquire()
    yield sb, cfg, state_dir
    lock.release()


def _report(state_dir: Path, reachable: bool, since: float, at: float | None = None) -> None:
    write_json(
        health_path(state_dir, "lobby"),
        {"at": at or time.time(), "server": "main", "reachable": reachable, "since": since},
    )


@pytest.mark.parametrize(
    "argv",
    [["reset", "--yes", "--seed", "77"], ["show"], ["hint"], ["repair"]],
    ids=lambda argv: argv[0],
)
def test_a_daemon_reporting_its_server_down_is_answered_at_once_with_exit_4(
    argv: list[str], held: tuple[Sandbox, Path, Path]
) -> None:
    _, cfg, state_dir = held
    down = time.time() - 90
    _report(state_dir, False, down)
    started = time.monotonic()
    result = runner.invoke(app, [*argv, "-w", "lobby", "-c", str(cfg)])
    assert time.monotonic() - started < 2
    assert result.exit_code == ExitCode.UNREACHABLE, result.output
    assert result.output == (
        f"error: server main unreachable since {utc_iso(down)} "
        "(the daemon running lobby keeps retrying)\n"
    )
    assert sorted(p.name for p in state_dir.iterdir() if "request" in p.name) == []


def test_a_request_given_up_on_is_withdrawn_and_never_runs(
    held: tuple[Sandbox, Path, Path],
) -> None:
    _, cfg, state_dir = held
    _report(state_dir, True, time.time())
    with pytest.raises(RoomError, match=r"did not take the request within 0\.3 s; it was withd"):
        carry_out(load_config(cfg), "lobby", ResetRequest(77), connect=connect_server, timeout=0.3)
    assert not (state_dir / "lobby.request.json").exists()
    assert take_request(state_dir, "lobby") is None  # a daemon looking later finds nothing


def test_a_server_lost_while_waiting_is_exit_4(held: tuple[Sandbox, Path, Path]) -> None:
    _, cfg, state_dir = held
    _report(state_dir, True, time.time())
    down = time.time()
    timer = threading.Timer(0.1, _report, (state_dir, False, down))
    timer.start()
    with pytest.raises(RconUnavailable, match=f"server main unreachable since {ISO} ") as info:
        carry_out(load_config(cfg), "lobby", HintRequest(), connect=connect_server, timeout=0.4)
    timer.join()
    assert info.value.exit_code == ExitCode.UNREACHABLE
    assert not (state_dir / "lobby.request.json").exists()


def test_a_request_the_daemon_took_is_left_to_it(held: tuple[Sandbox, Path, Path]) -> None:
    _, cfg, state_dir = held
    _report(state_dir, True, time.time())
    taken: list[object] = []

    def daemon() -> None:  # takes the request, then is slow to finish it
        deadline = time.monotonic() + 5
        while not (state_dir / "lobby.request.json").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        taken.append(take_request(state_dir, "lobby"))

    thread = threading.Thread(target=daemon)
    thread.start()
    with pytest.raises(RoomError, match="took the request but did not finish it within 0.5 s"):
        carry_out(load_config(cfg), "lobby", ResetRequest(5), connect=connect_server, timeout=0.5)
    thread.join()
    assert taken == [ResetRequest(5)]
    assert (state_dir / "lobby.request.working").exists()


def test_a_health_file_without_a_daemon_is_not_believed(setup: tuple[Sandbox, Path]) -> None:
    _, cfg = setup
    room = _build(cfg)
    state_dir = _state_dir(cfg)
    _report(state_dir, False, time.time() - 600)  # left by a daemon that has ended
    result = runner.invoke(app, ["reset", "--yes", "--seed", "77", "-w", "lobby", "-c", str(cfg)])
    assert result.exit_code == ExitCode.OK, result.output
    assert f"lobby: new puzzle #{room.state.puzzle_number + 1}" in result.output


@pytest.mark.parametrize("argv", [["reset", "--yes"], ["show"], ["hint"], ["repair"]])
def test_without_a_daemon_an_unreachable_server_is_exit_4(
    argv: list[str], setup: tuple[Sandbox, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, cfg = setup
    _build(cfg)
    monkeypatch.setenv("PIPESCTL_PORT", "1")
    result = runner.invoke(app, [*argv, "-w", "lobby", "-c", str(cfg)])
    assert result.exit_code == ExitCode.UNREACHABLE, result.output
    assert re.fullmatch(
        r"error: cannot connect to RCON at 127\.0\.0\.1:1: .+ \(3 attempts over \d+\.\d s\)\n",
        result.output,
    ), result.output


def test_reset_with_the_daemon_s_server_stopped_answers_at_once_and_a_stale_request_never_runs(
    tmp_path: Path,
) -> None:
    """The issue's reproduction: a daemon process, its server stopped, `reset --seed 77`; then a
    request left behind with its expiry passed is dropped when the server is back."""
    with Sandbox(world_dir=tmp_path / "world") as sb:
        cfg = tmp_path / "pipes.yaml"
        cfg.write_text(
            f"state_dir: {tmp_path / 'state'}\n"
            f"servers:\n  main: {{host: 127.0.0.1, port: {sb.port}, password_env: PIPES_PW}}\n"
            "worlds:\n  lobby:\n    origin: [0, 100, 0]\n    size: [7, 5]\n    seed: 4\n"
            "    audit_interval_s: 0\n"
        )
        state_dir = tmp_path / "state"
        env = {**os.environ, "PIPES_PW": sb.password}
        log = tmp_path / "daemon.log"
        cli = [sys.executable, "-m", "controller.cli"]

        def reachable() -> bool | None:
            return getattr(read_health(state_dir, "lobby"), "reachable", None)

        with log.open("w") as out:
            proc = subprocess.Popen([*cli, "start", "-w", "lobby", "-c", str(cfg)], env=env,
                                    stderr=out)  # fmt: skip
            try:
                _until(lambda: reachable() is True, log)
                before = RoomState.load(state_dir / "lobby.json")
                assert before is not None
                stopped = time.time()
                sb.stop()
                _until(lambda: reachable() is False, log)
                started = time.monotonic()
                reset = subprocess.run(
                    [*cli, "reset", "-w", "lobby", "--yes", "--seed", "77", "-c", str(cfg)],
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=30,
                )
                assert time.monotonic() - started < 5  # the interpreter's start-up included
                assert reset.returncode == ExitCode.UNREACHABLE, reset.stderr
                match = re.fullmatch(
                    f"error: server main unreachable since ({ISO}) "
                    r"\(the daemon running lobby keeps retrying\)\n",
                    reset.stderr,
                )
                assert match is not None, reset.stderr
                assert utc_iso(stopped - 1) <= match.group(1) <= utc_iso(time.time())
                assert not (state_dir / "lobby.request.json").exists()
                # a request whose admin command gave up (as one from before expiries would)
                write_request(state_dir, "lobby", ResetRequest(77), expires=time.time() - 1)
                sb.start()
                _until(lambda: "dropped" in log.read_text(), log)
                _until(lambda: reachable() is True, log)
                proc.send_signal(signal.SIGTERM)
                assert proc.wait(30) == 0
            finally:
                if proc.poll() is None:
                    proc.kill()
                proc.wait()
    text = log.read_text()
    assert re.search(
        f"room lobby: request reset with seed 77 expired at {ISO} "
        r"\(the admin command gave up\); dropped",
        text,
    ), text
    after = RoomState.load(state_dir / "lobby.json")
    assert after is not None
    assert after.puzzle_number == before.puzzle_number
    assert after.board.rotations == before.board.rotations
    assert not (state_dir / "lobby.request.json").exists()
    assert not (state_dir / "lobby.request.working").exists()


def _until(predicate: Callable[[], object], log: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out; daemon log:\n" + log.read_text()
        time.sleep(0.05)


def test_status_says_since_when_the_daemon_s_server_is_down(
    held: tuple[Sandbox, Path, Path],
) -> None:
    _, cfg, state_dir = held
    down = time.time() - 30
    _report(state_dir, False, down)
    result = runner.invoke(app, ["status", "-c", str(cfg), "--json"])
    assert result.exit_code == ExitCode.UNREACHABLE, result.output
    room = json.loads(result.stdout)["rooms"][0]
    assert room["server_error"] == f"the daemon reports no connection since {utc_iso(down)}"
    assert room["problem"] == "unreachable"
