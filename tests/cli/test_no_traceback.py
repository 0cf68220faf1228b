"""No traceback, ever: every command meets a configuration that is not UTF-8, a broken state file
(random bytes, `null`, a list), a state directory it cannot write and deeply nested JSON with one
`error: …` line and its documented exit code (3 configuration, 1 state or file system, 2 bad JSON
input), and leaves the bad file byte for byte as it was."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
import typer.main
from typer.testing import CliRunner, Result

from controller.cli import app
from controller.cli.common import guarded
from controller.config import load_config
from controller.errors import ExitCode
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.sandbox import Sandbox

runner = CliRunner()

ROOMS = (
    "worlds:\n"
    "  lobby:\n    origin: [0, 100, 0]\n    size: [7, 5]\n    seed: 4\n    audit_interval_s: 0\n"
    "  art:\n    kind: paint\n    origin: [40, 100, 0]\n    size: [5, 4]\n"
    "    paint: {generator: strokes, par: 6}\n"
)


def _config_text(state_dir: Path, port: int, comment: str = "") -> str:
    return (
        f"# {comment}\n"
        f"state_dir: {state_dir}\n"
        f"servers:\n  main: {{host: 127.0.0.1, port: {port}, password_env: PIPES_PW}}\n" + ROOMS
    )


def _all_commands() -> list[str]:
    """Every command of the CLI as typed (`status`, `maps preview`, …), read from the app."""
    root = typer.main.get_command(app)
    ctx = root.make_context("pipesctl", ["status"], resilient_parsing=True)
    names = []
    for name in root.list_commands(ctx):
        command = root.get_command(ctx, name)
        subcommands = getattr(command, "list_commands", None)
        if subcommands is None:
            names.append(name)
        else:
            names.extend(f"{name} {sub}" for sub in subcommands(ctx))
    return names


def _callbacks() -> dict[str, object]:
    """The function registered for each command (what typer calls)."""
    import importlib

    from controller.cli.lazy import LAZY_GROUPS

    out: dict[str, object] = {}
    entries = app.info.cls.entries
    for name, entry in entries.items():
        if name in LAZY_GROUPS:
            group = importlib.import_module(LAZY_GROUPS[name][0]).app
        elif isinstance(entry, typer.models.TyperInfo):
            group = entry.typer_instance
        else:
            out[name] = entry.callback
            continue
        for command in group.registered_commands:
            out[f"{name} {command.name or command.callback.__name__}"] = command.callback
    return out


def _no_traceback(result: Result, code: int) -> None:
    """The run ended by the documented exit code, with no exception escaping it."""
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code == code, result.output


def _one_error_line(result: Result, *parts: str) -> str:
    """The single `error: …` line on stderr, which contains every one of `parts`."""
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.stderr
    assert not [line for line in result.stderr.splitlines() if line.startswith("  ")], result.stderr
    for part in parts:
        assert part in errors[0], errors[0]
    return errors[0]


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox() as sb:
        yield sb


@pytest.fixture
def password(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIPES_PW", sandbox.password)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# -- every command is accounted for ----------------------------------------------------------
def _world_dir(tmp: Path) -> list[str]:
    return ["--world-dir", str(tmp / "world"), "--create", "-w", "lobby"]


CONFIG_ARGV = {
    "start": lambda tmp: ["start", "-w", "lobby"],
    "status": lambda tmp: ["status"],
    "stats": lambda tmp: ["stats"],
    "show": lambda tmp: ["show", "-w", "lobby"],
    "reset": lambda tmp: ["reset", "-w", "lobby", "-y"],
    "repair": lambda tmp: ["repair", "-w", "lobby"],
    "remove": lambda tmp: ["remove", "-w", "lobby", "-y"],
    "hint": lambda tmp: ["hint", "-w", "lobby"],
    "rcon": lambda tmp: ["rcon", "list"],
    "doctor": lambda tmp: ["doctor"],
    "install": lambda tmp: ["install", *_world_dir(tmp)],
    "maps install": lambda tmp: ["maps", "install", *_world_dir(tmp)],
    "maps preview": lambda tmp: ["maps", "preview", "--out", str(tmp / "p.png"), "-w", "lobby"],
    "maps export": lambda tmp: ["maps", "export", str(tmp / "out"), "-w", "lobby"],
}
"""The commands that read the configuration, with arguments that make them read it."""

NO_CONFIG = {
    "init": "writes the configuration (test_init_that_cannot_write_is_one_line)",
    "demo": "runs on the built-in default configuration",
    "sandbox": "reads no configuration",
    "puzzle new": "reads no configuration",
    "puzzle flow": "reads no configuration (test_deep_json_is_not_valid_json)",
    "puzzle solve": "reads no configuration (test_deep_json_is_not_valid_json)",
}

STATE_ARGV = {
    "status": (["status"], ExitCode.ERROR),
    "show": (["show"], ExitCode.ERROR),
    "hint": (["hint"], ExitCode.ERROR),
    "reset": (["reset", "-y"], ExitCode.ERROR),
    "repair": (["repair"], ExitCode.ERROR),
    "start": (["start"], ExitCode.ERROR),
    "remove": (["remove", "-y"], ExitCode.OK),  # the room is cleared, the file archived as is
    "doctor": (["doctor"], ExitCode.OK),  # a built room (it has a state file) skips footprint
}
"""The commands that read a room's state file (`-w ROOM` is added)."""

JSON_ARGV = {"puzzle flow", "puzzle solve"}
"""The commands that read JSON input."""


def test_every_command_is_covered_and_guarded() -> None:
    commands = _all_commands()
    assert set(commands) == set(CONFIG_ARGV) | set(NO_CONFIG)
    assert not set(CONFIG_ARGV) & set(NO_CONFIG)
    assert set(STATE_ARGV) <= set(CONFIG_ARGV) and JSON_ARGV <= set(commands)
    callbacks = _callbacks()
    assert set(callbacks) == set(commands)
    unguarded = [name for name, fn in callbacks.items() if not getattr(fn, "guarded", False)]
    assert unguarded == []


def test_guarded_turns_a_stray_os_error_into_one_line() -> None:
    def broken() -> None:
        raise PermissionError(13, "Permission denied", "/srv/pipes/thing")

    stray = typer.Typer()
    stray.command()(guarded(broken))
    result = runner.invoke(stray, [])
    _no_traceback(result, ExitCode.ERROR)
    assert result.stderr == "error: /srv/pipes/thing: Permission denied\n"


# -- the configuration ------------------------------------------------------------------------
LATIN = "café au lait"


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
@pytest.mark.parametrize("command", sorted(CONFIG_ARGV))
def test_a_config_that_is_not_utf8(
    command: str, encoding: str, tmp_path: Path, sandbox: Sandbox, password: None
) -> None:
    raw = _config_text(tmp_path / "state", sandbox.port, LATIN).encode(encoding)
    byte = raw.index("é".encode("latin-1")) if encoding == "latin-1" else 0
    assert raw[:2] == b"\xff\xfe" or encoding == "latin-1"  # UTF-16 opens with its BOM
    cfg = tmp_path / "pipes.yaml"
    cfg.write_bytes(raw)
    result = runner.invoke(app, [*CONFIG_ARGV[command](tmp_path), "-c", str(cfg)])
    _no_traceback(result, ExitCode.CONFIG)
    _one_error_line(result, str(cfg), f"not UTF-8 at byte {byte}")
    assert cfg.read_bytes() == raw
    assert not (tmp_path / "state").exists() and not (tmp_path / "world").exists()


def test_a_password_file_that_is_not_utf8(tmp_path: Path, sandbox: Sandbox) -> None:
    secret = tmp_path / "rcon.secret"
    secret.write_bytes(b"pa\xe9ssword-long-enough")
    cfg = tmp_path / "pipes.yaml"
    cfg.write_text(
        _config_text(tmp_path / "state", sandbox.port).replace(
            "password_env: PIPES_PW", f"password_file: {secret}"
        )
    )
    for argv in (["rcon", "list"], ["doctor"], ["status"]):
        result = runner.invoke(app, [*argv, "-c", str(cfg)])
        _no_traceback(result, ExitCode.CONFIG)
        _one_error_line(result, "servers.main.password_file", "not UTF-8 at byte 2")
    assert secret.read_bytes() == b"pa\xe9ssword-long-enough"


# -- broken state files -----------------------------------------------------------------------
BROKEN_STATES = {
    "random bytes": (os.urandom(3000), "is not UTF-8 at byte"),
    "null": (b"null\n", "is not a JSON object (it is null)"),
    "a list": (b"[1,2]", "is not a JSON object (it is a list)"),
    "deep": (b"[" * 100_000, "is not JSON (nested too deeply)"),
}


@pytest.fixture
def state_config(tmp_path: Path, sandbox: Sandbox, password: None) -> Path:
    cfg = tmp_path / "pipes.yaml"
    cfg.write_text(_config_text(tmp_path / "state", sandbox.port))
    (tmp_path / "state").mkdir()
    return cfg


@pytest.mark.parametrize("room", ["lobby", "art"])
@pytest.mark.parametrize("broken", sorted(BROKEN_STATES))
def test_a_broken_state_file(
    broken: str, room: str, state_config: Path, sandbox: Sandbox, tmp_path: Path
) -> None:
    raw, problem = BROKEN_STATES[broken]
    path = tmp_path / "state" / f"{room}.json"
    for command, (argv, code) in STATE_ARGV.items():
        path.write_bytes(raw)
        result = runner.invoke(app, [*argv, "-w", room, "-c", str(state_config)])
        _no_traceback(result, code)
        if command == "remove":
            (archived,) = (tmp_path / "state" / "archive").iterdir()
            assert archived.read_bytes() == raw
            archived.unlink()
            assert not path.exists()
            continue
        assert path.read_bytes() == raw, command
        if command == "status":
            assert "state unreadable" in result.stdout
            assert f"state file {path}: field '(top level)' {problem}" in result.stdout
        elif command != "doctor":
            _one_error_line(result, f"state file {path}: field '(top level)' {problem}")
            assert f"pipesctl repair -w {room} --reset" in result.stderr
    path.write_bytes(raw)
    result = runner.invoke(app, ["repair", "-w", room, "--reset", "-c", str(state_config)])
    _no_traceback(result, ExitCode.OK)  # the documented way out: archived as it was, rebuilt
    (archived,) = (tmp_path / "state" / "archive").iterdir()
    assert archived.read_bytes() == raw
    status = runner.invoke(app, ["status", "-w", room, "-c", str(state_config)])
    assert "state unreadable" not in status.stdout, status.stdout


def test_a_null_state_is_never_replaced_by_a_new_puzzle(state_config: Path, tmp_path: Path) -> None:
    path = tmp_path / "state" / "lobby.json"
    path.write_bytes(b"null")
    status = runner.invoke(app, ["status", "--json", "-w", "lobby", "-c", str(state_config)])
    (health,) = json.loads(status.stdout)["rooms"]
    assert health["built"] is False and health["healthy"] is False
    assert "is not a JSON object (it is null)" in health["state_error"]
    result = runner.invoke(app, ["start", "-w", "lobby", "-c", str(state_config)])
    _no_traceback(result, ExitCode.ERROR)
    assert path.read_bytes() == b"null"
    assert not [p for p in (tmp_path / "state").iterdir() if p.name.startswith(".lobby.json")]


# -- a state directory that cannot be written -------------------------------------------------
WRITERS = {
    "start": ["start"],
    "hint": ["hint"],
    "reset": ["reset", "-y"],
    "repair": ["repair"],
    "repair --reset": ["repair", "--reset"],
    "repair --from-world": ["repair", "--from-world"],
    "remove": ["remove", "-y"],
}
"""The commands that write into the state directory (`-w ROOM` is added)."""


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True, timeout=10)


@pytest.fixture
def read_only_state(tmp_path: Path, sandbox: Sandbox, password: None) -> Iterator[Path]:
    """A configuration whose built rooms' state directory is a read-only file system."""
    state = tmp_path / "state"
    state.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command to make a read-only file system")
    try:
        _mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", str(state))
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"cannot mount a tmpfs here (not root, or no mount rights): {exc}")
    try:
        cfg = tmp_path / "pipes.yaml"
        cfg.write_text(_config_text(state, sandbox.port))
        daemon = Daemon(load_config(cfg), ["lobby", "art"], connect=connect_server)
        daemon.start()
        daemon.close()
        _mount("-o", "remount,ro", str(state))
        yield cfg
    finally:
        subprocess.run(["umount", "-l", str(state)], capture_output=True, timeout=10)


@pytest.mark.parametrize("room", ["lobby", "art"])
def test_a_read_only_state_directory(room: str, read_only_state: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    before = _snapshot(state)
    assert f"{room}.json" in before
    for argv in WRITERS.values():
        result = runner.invoke(app, [*argv, "-w", room, "-c", str(read_only_state)])
        _no_traceback(result, ExitCode.ERROR)
        _one_error_line(result, f"cannot write state directory {state}: Read-only file system")
        assert _snapshot(state) == before
    for argv in (["status", "-w", room], ["show", "-w", room], ["rcon", "list"]):
        result = runner.invoke(app, [*argv, "-c", str(read_only_state)])
        # reading needs no writing (status: exit 1 only because no daemon runs the room)
        _no_traceback(result, ExitCode.ERROR if argv[0] == "status" else ExitCode.OK)
        assert "error:" not in result.output and "unreadable" not in result.output
    # the net: a file the command itself cannot write is one line too
    result = runner.invoke(
        app, ["show", "-w", room, "--png", "/proc/nope/x.png", "-c", str(read_only_state)]
    )
    _no_traceback(result, ExitCode.ERROR)
    _one_error_line(result, "/proc/nope/x.png: No such file or directory")
    assert _snapshot(state) == before


@pytest.mark.parametrize("where", ["a file", "under /proc"])
def test_a_state_directory_that_is_no_directory(
    where: str, tmp_path: Path, sandbox: Sandbox, password: None
) -> None:
    if where == "a file":
        state = tmp_path / "state"
        state.write_bytes(b"not a folder")
        problem = f"state directory {state}: it is a file, not a directory"
    else:
        state = Path(f"/proc/self/pipesctl-{os.getpid()}")
        problem = f"cannot write state directory {state}: No such file or directory"
    cfg = tmp_path / "pipes.yaml"
    cfg.write_text(_config_text(state, sandbox.port))
    for argv in [*WRITERS.values(), ["status"], ["show"]]:
        result = runner.invoke(app, [*argv, "-w", "lobby", "-c", str(cfg)])
        _no_traceback(result, ExitCode.ERROR)
        if where == "a file":
            _one_error_line(result, problem)
            assert state.read_bytes() == b"not a folder"
        elif argv[0] == "status":  # nothing there to read: not built, and no daemon
            assert "not built" in result.stdout
        elif argv in (
            ["start"],
            ["repair", "--reset"],
            ["repair", "--from-world"],
            ["remove", "-y"],
        ):
            _one_error_line(result, problem)
        else:  # they read the state first and find none: "room lobby has no state ..."
            _one_error_line(result, "room lobby has no state")


# -- init -------------------------------------------------------------------------------------
def test_init_that_cannot_write_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_bytes(b"x")
    targets = {
        "/proc/nope/x.yaml": "cannot write /proc/nope/x.yaml: No such file or directory",
        str(blocker / "x.yaml"): "a part of its path is a file, not a folder",
        str(tmp_path): f"cannot write {tmp_path}: it is a directory",
    }
    for target, problem in targets.items():
        result = runner.invoke(app, ["init", "--force", "-c", target])
        _no_traceback(result, ExitCode.ERROR)
        _one_error_line(result, problem)
    assert blocker.read_bytes() == b"x"


def test_init_on_a_read_only_file_system(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    try:
        _mount("-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(folder))
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"cannot mount a tmpfs here (not root, or no mount rights): {exc}")
    try:
        result = runner.invoke(app, ["init", "-c", str(folder / "pipes.yaml")])
        _no_traceback(result, ExitCode.ERROR)
        _one_error_line(result, f"cannot write {folder / 'pipes.yaml'}: Read-only file system")
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=10)


# -- JSON input -------------------------------------------------------------------------------
DEEP = {
    "pipes": b"[" * 100_000,
    "objects": b'{"a":' * 100_000,
    "paint": b'{"kind": "paint", "target": ' + b"[" * 100_000,
    "not UTF-8": b'{"width": 3, "name": "caf\xe9"}',
}


@pytest.mark.parametrize("shape", sorted(DEEP))
@pytest.mark.parametrize("command", sorted(JSON_ARGV))
def test_deep_json_is_not_valid_json(command: str, shape: str, tmp_path: Path) -> None:
    board = tmp_path / "board.json"
    board.write_bytes(DEEP[shape])
    words = command.split()
    for argv, stdin in (([str(board)], None), ([str(board), "--json"], None), (["-"], DEEP[shape])):
        result = runner.invoke(app, [*words, *argv], input=stdin)
        _no_traceback(result, ExitCode.USAGE)
        if shape == "not UTF-8" and stdin is None:
            byte = DEEP[shape].index(b"\xe9")
            _one_error_line(result, f"board: cannot read {board}: not UTF-8 at byte {byte}")
        elif shape != "not UTF-8":
            _one_error_line(result, "board: not valid JSON (nested too deeply)")
        assert result.stdout == ""
    assert board.read_bytes() == DEEP[shape]


# -- a real process ---------------------------------------------------------------------------
def test_no_traceback_reaches_stderr_of_a_real_run(tmp_path: Path) -> None:
    cfg = tmp_path / "pipes.yaml"
    state = tmp_path / "state"
    state.mkdir()
    raw = os.urandom(3000)
    (state / "lobby.json").write_bytes(raw)
    cfg.write_bytes(_config_text(state, 1, LATIN).encode("latin-1"))
    good = tmp_path / "good.yaml"
    good.write_text(_config_text(state, 1))  # port 1: nothing listens, the state fails first
    deep = b"[" * 100_000
    runs = [
        (["status", "-c", str(cfg)], None, ExitCode.CONFIG, "not UTF-8 at byte"),
        (["show", "-w", "lobby", "-c", str(good)], None, ExitCode.ERROR, "is not UTF-8 at byte"),
        (["puzzle", "solve", "-"], deep, ExitCode.USAGE, "not valid JSON"),
        (["init", "-c", "/proc/nope/x.yaml"], None, ExitCode.ERROR, "cannot write"),
    ]
    env = {**os.environ, "PIPES_PW": "a-long-enough-password", "NO_COLOR": "1"}
    for argv, stdin, code, part in runs:
        proc = subprocess.run(
            [sys.executable, "-m", "controller.cli", *argv],
            input=stdin,
            capture_output=True,
            timeout=60,
            env=env,
        )
        stderr = proc.stderr.decode()
        assert "Traceback" not in stderr, stderr
        lines = [line for line in stderr.splitlines() if not line.startswith("warning: ")]
        assert len(lines) == 1 and lines[0].startswith("error: ") and part in lines[0], stderr
        assert proc.returncode == code, stderr
        assert proc.stdout == b""
    assert (state / "lobby.json").read_bytes() == raw
    assert sorted(p.name for p in state.iterdir()) == ["lobby.json"]


def test_a_broken_saved_sandbox_world_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RCON_PASSWORD", "a-long-enough-password")
    raw = os.urandom(500)
    (tmp_path / "world.json").write_bytes(raw)
    result = runner.invoke(app, ["sandbox", "--port", "0", "--world-dir", str(tmp_path)])
    _no_traceback(result, ExitCode.ERROR)
    _one_error_line(result, f"cannot load the sandbox world saved in {tmp_path}")
    assert (tmp_path / "world.json").read_bytes() == raw
