"""`pipesctl doctor` against the sandbox: everything passing, then each fault set up alone."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.errors import ExitCode
from controller.runtime.clock import utc_iso
from controller.runtime.control import RoomLock, health_path, write_json
from controller.sandbox import Sandbox
from tests.support.grammar import assert_valid_commands

runner = CliRunner()
GOLDEN = Path(__file__).parent / "golden"
GOOD_PROPERTIES = "broadcast-rcon-to-ops=false\npause-when-empty-seconds=-1\n"


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PIPESCTL_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Sandbox, Path]]:
    with Sandbox() as sb:
        cfg = tmp_path / "pipes.yaml"
        cfg.write_text(
            f"state_dir: {tmp_path / 'state'}\n"
            f"servers:\n  main: {{host: 127.0.0.1, port: {sb.port}, password_env: PIPES_PW}}\n"
            "worlds:\n  lobby:\n    origin: [0, 100, 0]\n    size: [7, 5]\n"
        )
        monkeypatch.setenv("PIPES_PW", sb.password)
        server = tmp_path / "server"
        server.mkdir()
        (server / "server.properties").write_text(GOOD_PROPERTIES)
        world = server / "world"
        result = runner.invoke(app, ["maps", "install", "--world-dir", str(world), "--create"])
        assert result.exit_code == ExitCode.OK, result.output
        yield sb, cfg


def _doctor(cfg: Path, *extra: str) -> tuple[int, dict[str, dict[str, object]]]:
    server = cfg.parent / "server"
    argv = ["doctor", "-c", str(cfg), "--server-dir", str(server)]
    argv += ["--world-dir", str(server / "world"), "--json", *extra]
    result = runner.invoke(app, argv)
    checks = {c["name"]: c for c in json.loads(result.stdout)["rooms"][0]["checks"]}
    return result.exit_code, checks


def _failed(checks: dict[str, dict[str, object]]) -> list[str]:
    return [name for name, c in checks.items() if c["status"] == "fail"]


def _host_independent(text: str, sb: Sandbox, cfg: Path) -> str:
    return text.replace(str(sb.port), "PORT").replace(str(cfg.parent), "TMP")


def test_everything_passes_and_the_world_is_left_as_it_was(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    server = cfg.parent / "server"
    argv = ["doctor", "-c", str(cfg), "--server-dir", str(server)]
    result = runner.invoke(app, [*argv, "--world-dir", str(server / "world")])
    assert result.exit_code == ExitCode.OK, result.output
    _golden("doctor.txt", _host_independent(result.stdout, sb, cfg))
    commands = [e.command for e in sb.log_entries()]
    writes = {"fill", "setblock", "summon", "kill", "data", "reload"}
    assert not any(c.split()[0] in writes for c in commands)
    assert all(len(c.split()) == 2 for c in commands if c.startswith("gamerule"))  # reads only
    assert not any(sb.call(lambda g: list(g.world.forced.values())))
    assert_valid_commands([c for c in commands if not c.startswith("minecraft:")])


def test_chunks_forced_before_stay_forced(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    sb.call(lambda g: g.execute("forceload add 0 0"))
    code, checks = _doctor(cfg)
    assert code == ExitCode.OK and "3 force-loaded" in str(checks["chunks"]["detail"])
    assert sb.call(lambda g: g.execute("forceload query 0 0"))[0].endswith(
        "is marked for force loading"
    )
    assert sb.call(lambda g: g.execute("forceload query -16 -16"))[0].endswith(
        "is not marked for force loading"
    )


def test_server_properties_faults(setup: tuple[Sandbox, Path]) -> None:
    _, cfg = setup
    (cfg.parent / "server" / "server.properties").write_text("pause-when-empty-seconds=60\n")
    code, checks = _doctor(cfg)
    assert code == ExitCode.ERROR
    assert _failed(checks) == [
        "broadcast-rcon-to-ops",
        "pause-when-empty-seconds",
        "send_command_feedback",
    ]
    assert checks["broadcast-rcon-to-ops"]["fix"] == (
        "set broadcast-rcon-to-ops=false in server.properties and restart"
    )
    assert checks["pause-when-empty-seconds"]["fix"] == (
        "set pause-when-empty-seconds=-1 in server.properties and restart"
    )


def test_a_server_properties_without_the_pause_key_is_not_failed(
    setup: tuple[Sandbox, Path],
) -> None:
    """Releases before 1.21.2 have no `pause-when-empty-seconds` and never pause."""
    _, cfg = setup
    (cfg.parent / "server" / "server.properties").write_text("broadcast-rcon-to-ops=false\n")
    code, checks = _doctor(cfg)
    assert code == ExitCode.OK, checks
    assert checks["pause-when-empty-seconds"]["status"] == "skip"
    assert "before 1.21.2 never pause" in str(checks["pause-when-empty-seconds"]["detail"])


def test_without_folders_those_checks_are_skipped_not_failed(setup: tuple[Sandbox, Path]) -> None:
    _, cfg = setup
    result = runner.invoke(app, ["doctor", "-c", str(cfg), "--json"])
    assert result.exit_code == ExitCode.OK, result.output
    checks = {c["name"]: c for c in json.loads(result.stdout)["rooms"][0]["checks"]}
    for name in ("broadcast-rcon-to-ops", "pause-when-empty-seconds", "map files", "pack files"):
        assert checks[name]["status"] == "skip" and checks[name]["detail"] == "not checked"


def test_missing_and_stale_map_files(setup: tuple[Sandbox, Path]) -> None:
    _, cfg = setup
    maps = cfg.parent / "server" / "world" / "data" / "minecraft" / "maps"
    (maps / "1000005.dat").unlink()
    code, checks = _doctor(cfg)
    assert code == ExitCode.ERROR and _failed(checks) == ["map files"]
    assert checks["map files"]["detail"] == (
        "1 of 18 pictures missing from data/minecraft/maps/<id>.dat (first: map id 1000005)"
    )
    assert str(checks["map files"]["fix"]).startswith("pipesctl maps install --world-dir")
    assert "--create" in str(checks["map files"]["fix"])  # the world has no level.dat yet


def test_files_installed_for_another_release_than_the_configured_one(
    setup: tuple[Sandbox, Path],
) -> None:
    """The world holds what `install` wrote for 26.1; a server configured as 1.21.4 reads
    neither those map files nor that pack.mcmeta (and the 26.1 sandbox contradicts the pin)."""
    _, cfg = setup
    text = cfg.read_text().replace(
        "password_env: PIPES_PW}", 'password_env: PIPES_PW, minecraft_version: "1.21.4"}'
    )
    cfg.write_text(text)
    code, checks = _doctor(cfg)
    assert code == ExitCode.ERROR and _failed(checks) == ["server", "map files", "pack files"]
    assert checks["map files"]["detail"] == (
        "18 of 18 pictures missing from data/map_<id>.dat (first: map id 1000000); "
        "18 at data/minecraft/maps/<id>.dat, where 1.21.4 does not look"
    )
    assert "--version 1.21.4" in str(checks["map files"]["fix"])
    assert checks["pack files"]["detail"] == (
        "pack.mcmeta declares formats it does not read, 1.21.4 reads format 61: the server "
        "lists the pack as incompatible"
    )


@pytest.mark.parametrize(
    ("rule", "value"), [("max_block_modifications", 1000), ("max_command_forks", 20)]
)
def test_gamerules_below_what_the_room_needs(
    rule: str, value: int, setup: tuple[Sandbox, Path]
) -> None:
    sb, cfg = setup
    sb.call(lambda g: g.execute(f"gamerule {rule} {value}"))
    code, checks = _doctor(cfg)
    assert code == ExitCode.ERROR and _failed(checks) == [rule]
    assert str(checks[rule]["fix"]).startswith(f"pipesctl rcon gamerule {rule} ")


def test_foreign_blocks_and_entities_in_the_footprint(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    sb.call(lambda g: g.execute("forceload add 0 0"))
    sb.call(lambda g: g.execute("setblock 2 99 2 minecraft:stone"))
    sb.call(lambda g: g.execute("summon minecraft:pig 3 101 3"))
    sb.call(lambda g: [g.world.tick() for _ in range(5)])
    code, checks = _doctor(cfg)
    assert code == ExitCode.ERROR and _failed(checks) == ["footprint"]
    assert checks["footprint"]["detail"] == (
        "box -1 94 -1 .. 7 103 5 holds blocks in layer(s) y=99 and 1 foreign entity; "
        "the first build replaces them"
    )


def test_a_paused_server_never_loads_the_room(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup

    def pause(g: object) -> None:
        world = g.world  # type: ignore[attr-defined]
        world.pause_when_empty_seconds = 1
        world.empty_ticks = 10_000

    sb.call(pause)
    code, checks = _doctor(cfg)
    assert code == ExitCode.ERROR and _failed(checks) == ["chunks"]
    assert "pause-when-empty-seconds=-1" in str(checks["chunks"]["fix"])
    assert "footprint" not in checks


def test_rcon_faults_have_their_exit_codes(
    setup: tuple[Sandbox, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, cfg = setup
    monkeypatch.setenv("PIPES_PW", "not-the-password")
    code, checks = _doctor(cfg)
    assert code == ExitCode.AUTH and _failed(checks) == ["rcon"]
    assert "not-the-password" not in json.dumps(checks)
    monkeypatch.setenv("PIPESCTL_PORT", "1")
    code, checks = _doctor(cfg)
    assert code == ExitCode.UNREACHABLE and _failed(checks) == ["rcon"]
    assert "enable-rcon=true" in str(checks["rcon"]["fix"])


def test_a_paint_room_is_checked_with_its_own_pictures_and_box(
    setup: tuple[Sandbox, Path],
) -> None:
    sb, cfg = setup
    text = cfg.read_text().replace(
        "    origin: [0, 100, 0]\n    size: [7, 5]\n",
        "    kind: paint\n    origin: [0, 100, 0]\n    size: [7, 5]\n",
    )
    cfg.write_text(text)
    code, checks = _doctor(cfg)
    assert code == ExitCode.OK, checks
    assert "(the room needs 13)" in str(checks["max_command_forks"]["detail"])  # 7 + 5 + 1
    maps = cfg.parent / "server" / "world" / "data" / "minecraft" / "maps"
    (maps / "1000033.dat").unlink()
    code, checks = _doctor(cfg)
    assert code == ExitCode.ERROR and _failed(checks) == ["map files"]
    assert checks["map files"]["detail"] == (
        "1 of 3 pictures missing from data/minecraft/maps/<id>.dat (first: map id 1000033)"
    )
    # the target copy lies north of the canvas: the box reaches z = -7
    sb.call(lambda g: g.execute("forceload add 0 -16 0 0"))
    sb.call(lambda g: g.execute("setblock 2 99 -4 minecraft:stone"))
    code, checks = _doctor(cfg)
    assert "box -1 99 -7 .. 7 103 5 holds blocks in layer(s) y=99" in str(
        checks["footprint"]["detail"]
    )


def test_a_daemon_reporting_its_server_down_fails_the_rcon_check(
    setup: tuple[Sandbox, Path],
) -> None:
    _, cfg = setup
    state_dir = cfg.parent / "state"
    lock = RoomLock(state_dir, "lobby")  # held as the daemon running the room holds it
    lock.acquire()
    try:
        down = time.time() - 60
        report = {"at": time.time(), "server": "main", "reachable": False, "since": down}
        write_json(health_path(state_dir, "lobby"), report)
        code, checks = _doctor(cfg)
        assert code == ExitCode.ERROR and _failed(checks) == ["rcon"]
        assert checks["rcon"]["detail"] == (
            f"the daemon running lobby reports server main unreachable since {utc_iso(down)} "
            "(it keeps retrying)"
        )
        assert "the daemon reconnects by itself" in str(checks["rcon"]["fix"])
        result = runner.invoke(app, ["doctor", "-c", str(cfg)])
        assert result.stdout.startswith("lobby (server main): PROBLEMS\n"), result.stdout
        report.update(reachable=True, since=time.time())
        write_json(health_path(state_dir, "lobby"), report)
        code, checks = _doctor(cfg)
        assert code == ExitCode.OK and checks["rcon"]["status"] == "pass"
        assert checks["server"]["status"] == "skip"
    finally:
        lock.release()
    # the daemon has ended: its last report is not believed, doctor asks the server itself
    report.update(reachable=False)
    write_json(health_path(state_dir, "lobby"), report)
    code, checks = _doctor(cfg)
    assert code == ExitCode.OK and str(checks["rcon"]["detail"]).endswith("password accepted")
