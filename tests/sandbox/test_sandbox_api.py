"""The ``Sandbox`` API, its fault switches, the command log and ``pipesctl sandbox``.

Sources: docs/server-behaviour.md, "RCON listener and start-up" (ready line, refused before
ready, stop closes sockets) and "Main thread"; the fault switches (drop, refuse, lag, restart)
are the sandbox's own test tools, not vanilla behaviour.
"""

from __future__ import annotations

import json
import logging
import os
import pathlib
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Iterator

import pytest

from controller.sandbox import Sandbox
from tests.support.sandbox_fakes import PARSE_ERROR, FakeGame, RawClient, free_port


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    """A running sandbox over the fake game."""
    with Sandbox(game_factory=FakeGame, password="pw") as sb:
        yield sb


def _wait_until(condition: object, timeout: float = 10.0) -> None:
    """Poll ``condition()`` until true (fails the test after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.02)


# -- basics --------------------------------------------------------------------------------------


def test_port_zero_picks_a_free_port_and_binds_loopback(sandbox: Sandbox) -> None:
    """port=0 → a real port; the default host is 127.0.0.1."""
    assert sandbox.port > 0
    assert sandbox.host == "127.0.0.1"
    assert sandbox.server.host == "127.0.0.1"


def test_default_password_is_random() -> None:
    """Without a password, each sandbox makes up its own."""
    one, two = Sandbox(game_factory=FakeGame), Sandbox(game_factory=FakeGame)
    assert one.password and two.password and one.password != two.password


def test_unknown_flavour_rejected() -> None:
    """Only vanilla and paper exist."""
    with pytest.raises(ValueError):
        Sandbox(game_factory=FakeGame, flavour="spigot")  # type: ignore[arg-type]


def test_ready_line_is_logged_once_listening(caplog: pytest.LogCaptureFixture) -> None:
    """RCON listener and start-up: `RCON running on <ip>:<port>`, once connections are accepted."""
    accepted: list[bool] = []

    class ConnectOnReady(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.getMessage().startswith("RCON running on"):
                port = int(record.getMessage().rsplit(":", 1)[1])
                with socket.create_connection(("127.0.0.1", port), timeout=5):
                    accepted.append(True)

    handler = ConnectOnReady()
    log = logging.getLogger("controller.sandbox")
    log.addHandler(handler)
    try:
        with caplog.at_level(logging.INFO, logger="controller.sandbox"):
            with Sandbox(game_factory=FakeGame) as sb:
                pass
    finally:
        log.removeHandler(handler)
    assert f"RCON running on 127.0.0.1:{sb.port}" in caplog.messages
    assert accepted == [True]
    assert all(sb.password not in message for message in caplog.messages)


def test_connections_refused_before_start_and_after_stop() -> None:
    """RCON listener and start-up: nothing listens before ready; stop closes every socket."""
    port = free_port()
    sb = Sandbox(game_factory=FakeGame, password="pw", port=port)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    sb.start()
    try:
        client = RawClient(port)
        assert client.login("pw") == 1
    finally:
        sb.stop()
    with client:
        assert client.closed_without_reply()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


def test_call_runs_on_the_main_thread(sandbox: Sandbox) -> None:
    """call(fn) runs fn(game) on the server thread and returns its result."""
    assert sandbox.call(lambda game: (threading.current_thread().name, game is sandbox.game)) == (
        "Server thread",
        True,
    )


def test_tick_waits_for_ticks(sandbox: Sandbox) -> None:
    """tick(n) returns once n more ticks ran; the game's tick() was called for each."""
    before = sandbox.call(lambda game: game.tick_count)
    sandbox.tick(3)
    assert sandbox.call(lambda game: game.tick_count) >= before + 3


def test_player_helpers_delegate_on_the_main_thread(sandbox: Sandbox) -> None:
    """join/move/use/frame_at/inbox/leave go to the game, on the server thread."""
    sandbox.join("Alex", (0.5, 64.0, 0.5))
    sandbox.move("Alex", (1.5, 64.0, 0.5))
    frame = sandbox.frame_at(1, 2, 3)
    assert frame == uuid.UUID(int=123)
    assert sandbox.frame_at(0, 0, 0) is None
    assert sandbox.use_entity("Alex", frame)
    assert not sandbox.use_entity("Alex", uuid.UUID(int=1))
    assert sandbox.use_frame_at("Alex", 1, 2, 3)
    assert not sandbox.use_frame_at("Alex", 9, 9, 9)
    assert sandbox.inbox("Alex") == [{"kind": "title", "text": "hi Alex"}]
    sandbox.leave("Alex")
    calls = sandbox.call(lambda game: list(game.calls))
    assert {thread for _, thread in calls} == {"Server thread"}
    assert [what for what, _ in calls][:2] == ["join Alex", "move Alex"]
    assert sandbox.call(lambda game: game.players) == {}


# -- command log and costs -----------------------------------------------------------------------


def test_command_log_records_every_command(tmp_path: pathlib.Path) -> None:
    """Each command: time, connection, command, reply length, the game's last_cost; JSON lines."""
    log_file = tmp_path / "commands.jsonl"
    with Sandbox(game_factory=FakeGame, password="pw", log_commands=log_file) as sb:
        with RawClient(sb.port) as one, RawClient(sb.port) as two:
            assert one.login("pw") == 1 and two.login("pw") == 1
            assert one.command("cost 3 1") == "cost 3 1"
            assert two.command("cost 5 2") == "cost 5 2"
            assert one.command("long 5000 x") == "x" * 5000
        entries = sb.log_entries()
    assert [(e.command, e.reply_length, e.cost) for e in entries] == [
        ("cost 3 1", 8, {"entities_examined": 3, "nbt_serializations": 1}),
        ("cost 5 2", 8, {"entities_examined": 5, "nbt_serializations": 2}),
        ("long 5000 x", 5000, {"entities_examined": 0, "nbt_serializations": 0}),
    ]
    assert entries[0].connection == entries[2].connection != entries[1].connection
    assert entries[0].time <= entries[1].time <= entries[2].time
    assert sb.total_cost == {"entities_examined": 8, "nbt_serializations": 3}
    lines = [json.loads(line) for line in log_file.read_text().splitlines()]
    assert [line["command"] for line in lines] == ["cost 3 1", "cost 5 2", "long 5000 x"]
    assert lines[1]["cost"] == {"entities_examined": 5, "nbt_serializations": 2}


# -- faults --------------------------------------------------------------------------------------


def test_drop_connections(sandbox: Sandbox) -> None:
    """drop_connections() closes every client; new connections still work."""
    with RawClient(sandbox.port) as one, RawClient(sandbox.port) as two:
        assert one.login("pw") == 1 and two.login("pw") == 1
        assert sandbox.drop_connections() == 2
        assert one.closed_without_reply() and two.closed_without_reply()
    with RawClient(sandbox.port) as three:
        assert three.login("pw") == 1
        assert three.command("echo back") == "back"


def test_refuse_connections_for_a_while(sandbox: Sandbox) -> None:
    """refuse_connections(s): new connections refused, open ones keep working, then back."""
    with RawClient(sandbox.port) as open_one:
        assert open_one.login("pw") == 1
        sandbox.refuse_connections(0.5)
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", sandbox.port), timeout=5).close()
        assert open_one.command("echo still") == "still"
        _wait_until(lambda: sandbox.server.listening)
        with RawClient(sandbox.port) as later:
            assert later.login("pw") == 1


def test_slow_ticks_still_answer(sandbox: Sandbox) -> None:
    """set_tick_ms(ms): commands are still answered, only later (see the main-thread tests)."""
    sandbox.set_tick_ms(120)
    with RawClient(sandbox.port) as raw:
        assert raw.login("pw") == 1
        assert raw.command("echo laggy") == "laggy"
    assert sandbox.main_thread.tick_ms == 120
    sandbox.set_tick_ms(0)


@pytest.mark.parametrize("use_world_dir", [True, False])
def test_restart_saves_and_reloads_on_the_same_port(
    tmp_path: pathlib.Path, use_world_dir: bool
) -> None:
    """restart(): connections dropped, world saved, game loaded again from disk, same port."""
    world = tmp_path / "world" if use_world_dir else None
    with Sandbox(game_factory=FakeGame, password="pw", world_dir=world) as sb:
        port, old_game = sb.port, sb.game
        with RawClient(port) as raw:
            assert raw.login("pw") == 1
            assert raw.command("set colour blue") == "set colour"
            sb.restart()
            assert raw.closed_without_reply()
        assert sb.port == port
        assert sb.game is not old_game
        with RawClient(port) as raw:
            assert raw.login("pw") == 1
            assert raw.command("get colour") == "blue"
    if world is not None:
        assert json.loads((world / "fake.json").read_text())["state"] == {"colour": "blue"}


def test_world_dir_is_loaded_at_start_and_saved_at_stop(tmp_path: pathlib.Path) -> None:
    """A world saved in world_dir is loaded by the next sandbox using it."""
    world = tmp_path / "world"
    with Sandbox(game_factory=FakeGame, password="pw", world_dir=world) as sb:
        sb.call(lambda game: game.state.update(k="v"))
    with Sandbox(game_factory=FakeGame, password="pw", world_dir=world) as sb:
        assert sb.call(lambda game: game.state) == {"k": "v"}


def test_save_writes_a_loadable_world(sandbox: Sandbox, tmp_path: pathlib.Path) -> None:
    """save(dir) writes the world between ticks."""
    sandbox.call(lambda game: game.state.update(a="1"))
    sandbox.save(tmp_path / "snap")
    assert FakeGame.load(tmp_path / "snap").state == {"a": "1"}


# -- the command line ----------------------------------------------------------------------------

_CLI = textwrap.dedent(
    """
    import sys, types, typer
    from tests.support.sandbox_fakes import FakeGame
    fake = types.ModuleType("controller.sandbox.game")
    fake.Game = FakeGame
    sys.modules["controller.sandbox.game"] = fake
    from controller.cli.sandbox import register
    app = typer.Typer()
    @app.callback()
    def root() -> None:
        pass
    register(app)
    app(sys.argv[1:])
    """
)


def _start_cli(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], int]:
    """Run the CLI in a subprocess; returns it and the port from its ready line."""
    root = pathlib.Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-c", _CLI, "sandbox", *args],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("RCON running on 127.0.0.1:"), line
    return proc, int(line.strip().rsplit(":", 1)[1])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_cli_serves_until_signalled_and_saves(tmp_path: pathlib.Path, sig: int) -> None:
    """`pipesctl sandbox`: password from --password-env, world saved on SIGINT/SIGTERM; exit 0
    on SIGTERM (a server's normal stop), 130 on Ctrl-C like every interrupted command."""
    env = dict(os.environ, MY_PW="cli-pw")
    world, log = tmp_path / "world", tmp_path / "log.jsonl"
    args = ["--port", "0", "--password-env", "MY_PW", "--world-dir", str(world)]
    proc, port = _start_cli([*args, "--log-commands", str(log), "--flavour", "paper"], env)
    try:
        with RawClient(port) as raw:
            assert raw.login("cli-pw") == 1
            assert raw.command("set x 1") == "set x"
            assert raw.command_packets("  ") == [b""]  # paper flavour: blank → ""
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == (130 if sig == signal.SIGINT else 0), err
    assert "cli-pw" not in out + err
    assert json.loads((world / "fake.json").read_text())["state"] == {"x": "1"}
    assert [json.loads(line)["command"] for line in log.read_text().splitlines()] == [
        "set x 1",
        "  ",
    ]


def test_cli_generates_a_password_when_the_variable_is_unset() -> None:
    """No password in the environment → one is generated and printed once to stderr."""
    env = {k: v for k, v in os.environ.items() if k != "RCON_PASSWORD"}
    proc, port = _start_cli(["--port", "0"], env)
    try:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130
    lines = [line for line in err.splitlines() if "generated RCON password" in line]
    assert len(lines) == 1
    password = lines[0].rsplit(": ", 1)[1]
    assert len(password) >= 12 and err.count(password) == 1 and password not in out


# -- with the real Game (the default factory) ------------------------------------------------------


@pytest.mark.parametrize("flavour", ["vanilla", "paper"])
def test_real_game_end_to_end(flavour: str, tmp_path: pathlib.Path) -> None:
    """The default Game behind the server: parse-error forms, ticks, players, restart from disk.

    Sources: docs/server-behaviour.md, "Parse errors" (`foo`), "Paper: parse errors" (newline
    form) and "Paper: blank commands" (blank → ""); [LANG] commands.time.query.gametime /
    commands.list.players / commands.title.show.title.single.
    """
    from mcrcon import MCRcon

    with Sandbox(flavour=flavour, world_dir=tmp_path / "world") as sb:  # type: ignore[arg-type]
        sep = "\n" if flavour == "paper" else ""
        blank = "" if flavour == "paper" else PARSE_ERROR + "<--[HERE]"
        with MCRcon(sb.host, sb.password, sb.port, timeout=10) as mcr:
            assert mcr.command("foo") == PARSE_ERROR + sep + "foo<--[HERE]"
            assert mcr.command("") == blank
            first = int(mcr.command("time query gametime").split()[4])
            sb.tick(5)
            later = mcr.command("time query gametime")
            assert later.startswith("The game time is ") and later.endswith(" tick(s)")
            assert int(later.split()[4]) >= first + 5
            assert mcr.command("forceload add 0 0") == (
                "Marked chunk [0, 0] in minecraft:overworld to be force loaded"
            )
            assert mcr.command("setblock 0 63 0 minecraft:melon") == "Changed the block at 0, 63, 0"
        sb.restart()
        assert sb.call(lambda game: game.block(0, 63, 0)) == "minecraft:melon"
        sb.join("Alex", (0.5, 64.0, 0.5))
        with MCRcon(sb.host, sb.password, sb.port, timeout=10) as mcr:
            assert mcr.command("list") == "There are 1 of a max of 20 players online: Alex"
            assert mcr.command('title @a title "hi"') == "Showing new title for Alex"
        assert [m["text"] for m in sb.inbox("Alex") if m.get("type") == "title"] == ["hi"]
        assert [e.command for e in sb.command_log][-2:] == ["list", 'title @a title "hi"']


def test_a_team_decorated_display_name_shows_in_feedback_but_not_in_selectors() -> None:
    from controller.sandbox.game import Game

    g = Game()
    g.join("Steve", (0, 100, 0), display="Steve ✦")
    g.execute("scoreboard objectives add t dummy")
    assert g.execute("scoreboard players set Steve t 3") == ["Set [t] for Steve ✦ to 3"]
    assert g.execute('execute if entity @a[name="Steve"]') == ["Test passed. Count: 1"]
    assert g.execute('execute if entity @a[name="Steve ✦"]') == ["Test failed"]


def test_a_sandbox_plays_its_release_across_restarts(tmp_path: pathlib.Path) -> None:
    """Sandbox(version=…): the game, its saves and every restart play that release."""
    from mcrcon import MCRcon

    from controller.versions import UnsupportedVersion

    with pytest.raises(UnsupportedVersion):
        Sandbox(version="1.20.4")
    with Sandbox(password="pw", version="1.21.4", world_dir=tmp_path / "w") as sb:
        assert sb.call(lambda g: g.release.name) == "1.21.4"
        sb.restart()
        assert sb.call(lambda g: g.release.name) == "1.21.4"
        with MCRcon(sb.host, "pw", sb.port, timeout=10) as mcr:
            assert mcr.command("foo") == (
                "Unknown or incomplete command, see below for errorfoo<--[HERE]"
            )
    with Sandbox(password="pw", world_dir=tmp_path / "w") as sb:  # the saved world's release
        assert sb.call(lambda g: g.release.name) == "1.21.4"


def test_a_sandbox_comes_back_upgraded_only_where_the_save_loads_unchanged(
    tmp_path: pathlib.Path,
) -> None:
    """restart(version=…): a newer release whose saves have the same form (26.1 → 26.2); an
    older or differently saving one is refused before the server goes down."""
    with Sandbox(version="26.1", world_dir=tmp_path / "w") as sb:
        sb.call(lambda g: g.execute("forceload add 0 0"))
        assert sb.call(lambda g: g.execute("setblock 0 64 0 minecraft:melon"))[0].startswith(
            "Changed the block"
        )
        sb.restart(version="26.2")
        assert sb.call(lambda g: (g.release.name, g.block(0, 64, 0))) == ("26.2", "minecraft:melon")
        with pytest.raises(ValueError, match="26.2 cannot come back as 26.1"):
            sb.restart(version="26.1")
        assert sb.running
    with Sandbox(version="1.21.4") as old:
        with pytest.raises(ValueError, match="1.21.4 cannot come back as 1.21.5"):
            old.restart(version="1.21.5")  # the frame and text forms change at 1.21.5
