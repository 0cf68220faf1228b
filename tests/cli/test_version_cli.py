"""The server's release on the command line: `start` refusing a release it does not serve,
`version:` in the configuration, and what `status` and `doctor` say about the release."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.errors import ExitCode
from controller.rcon.client import RconClient
from controller.runtime.control import RoomLock, health_path, health_record, write_json
from controller.runtime.link import Link
from controller.runtime.serverversion import learn
from controller.sandbox import Sandbox
from controller.versions import release
from tests.support.version_replies import FLOOR_OLDER, ReleaseFactory

runner = CliRunner()


def write_config(path: Path, port: int, server_extra: str = "") -> Path:
    path.write_text(
        f"state_dir: {path.parent / 'state'}\n"
        f"servers:\n  main: {{host: 127.0.0.1, port: {port}, password_env: PIPES_PW"
        f"{server_extra}}}\n"
        "worlds:\n  lobby:\n    origin: [0, 100, 0]\n    size: [5, 5]\n    audit_interval_s: 0\n"
    )
    return path


@pytest.fixture
def old_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Sandbox, Path]]:
    with Sandbox(game_factory=ReleaseFactory(FLOOR_OLDER)) as sb:
        monkeypatch.setenv("PIPES_PW", sb.password)
        yield sb, write_config(tmp_path / "pipes.yaml", sb.port)


def test_start_refuses_an_unsupported_server_in_one_line(old_server: tuple[Sandbox, Path]) -> None:
    sb, cfg = old_server
    result = runner.invoke(app, ["start", "-w", "lobby", "-c", str(cfg)])
    assert result.exit_code == ExitCode.USAGE, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: server main: Minecraft older than 1.20.5 is not supported: pipesctl serves "
        "Java 1.20.5 to 26.2"
    ]
    assert sb.password not in result.output
    assert not (cfg.parent / "state" / "lobby.json").exists()


def test_status_without_a_daemon_names_the_refusal(old_server: tuple[Sandbox, Path]) -> None:
    _, cfg = old_server
    result = runner.invoke(app, ["status", "-c", str(cfg), "--json"])
    assert result.exit_code == ExitCode.ERROR, result.output
    room = json.loads(result.stdout)["rooms"][0]
    assert "older than 1.20.5" in room["version_refused"] and room["problem"] == "unhealthy"


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ('"1.19.4"', "Minecraft 1.19.4 is not supported: pipesctl serves Java 1.20.5 to 26.2"),
        ("1.21", 'write the release in quotes, e.g. "1.21.4" (got 1.21)'),
        (
            '"26.1-rc1"',
            "version '26.1-rc1' (not a release number) is not supported: pipesctl serves Java "
            "1.20.5 to 26.2",
        ),
    ],
)
def test_a_bad_version_is_a_configuration_error(tmp_path: Path, value: str, problem: str) -> None:
    cfg = write_config(tmp_path / "pipes.yaml", 25575, f", version: {value}")
    result = runner.invoke(app, ["status", "-c", str(cfg)])
    assert result.exit_code == ExitCode.CONFIG
    assert f"servers.main.version: {problem}" in result.output


def test_the_old_key_is_read_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("PIPES_PW", sb.password)
        cfg = write_config(tmp_path / "pipes.yaml", sb.port, ', minecraft_version: "26.1"')
        result = runner.invoke(app, ["status", "-c", str(cfg), "--json"])
    warning = (
        "warning: servers.main.minecraft_version: the old name of `version`; rename it (or drop "
        "it: the version is detected on connect)"
    )
    assert result.stderr.splitlines().count(warning) == 1
    room = json.loads(result.stdout)["rooms"][0]
    assert (room["version"], room["version_source"]) == ("26.1", "configured")
    assert room["version_how"] == "configured, the server agrees (from `version`)"


def daemon_health(cfg: Path, configured: str | None) -> None:
    """The health file a daemon on a 1.21.8 server writes (with `configured` as `version:`)."""
    wanted = None if configured is None else release(configured)
    with Sandbox(version="1.21.8") as sb, RconClient("127.0.0.1", sb.port, sb.password) as client:
        version = learn(Link(client, "main"), wanted)
    record = health_record(
        None, at=time.time(), server="main", reachable=True, owner=7, version=version.to_json()
    )
    write_json(health_path(cfg.parent / "state", "lobby"), record)


def test_status_and_doctor_show_the_daemons_release(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "pipes.yaml", 25575, ', version: "1.21.4"')
    lock = RoomLock(tmp_path / "state", "lobby")  # held as the daemon running the room holds it
    lock.acquire()
    try:
        daemon_health(cfg, "1.21.4")
        status = runner.invoke(app, ["status", "-c", str(cfg)], env={"PIPES_PW": "x" * 16})
        assert "Minecraft 1.21.4 (configured)" in status.stdout.splitlines()[0]
        assert "  version: configured, but the server says 1.21.8 (from `version`)" in (
            status.stdout
        )
        doctor = runner.invoke(app, ["doctor", "-c", str(cfg), "--json"])
        checks = {c["name"]: c for c in json.loads(doctor.stdout)["rooms"][0]["checks"]}
        assert doctor.exit_code == ExitCode.ERROR
        assert checks["version"]["status"] == "fail"
        assert checks["version"]["detail"] == (
            "the daemon reports Minecraft 1.21.4: configured, but the server says 1.21.8 "
            "(from `version`)"
        )
        assert "set servers.main.version to '1.21.8'" in str(checks["version"]["fix"])
        daemon_health(cfg, None)
        doctor = runner.invoke(app, ["doctor", "-c", str(cfg), "--json"])
        checks = {c["name"]: c for c in json.loads(doctor.stdout)["rooms"][0]["checks"]}
        assert checks["version"]["status"] == "pass"
        assert checks["version"]["detail"] == "the daemon reports Minecraft 1.21.8: from `version`"
    finally:
        lock.release()


def test_doctor_fails_a_configured_version_the_server_contradicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("PIPES_PW", sb.password)
        cfg = write_config(tmp_path / "pipes.yaml", sb.port, ', version: "1.21.11"')
        result = runner.invoke(app, ["doctor", "-c", str(cfg), "--json"])
    checks = {c["name"]: c for c in json.loads(result.stdout)["rooms"][0]["checks"]}
    assert checks["server"]["status"] == "fail"
    assert checks["server"]["detail"] == (
        "vanilla, Minecraft 1.21.11: configured, but the server says 26.1 (from `version`)"
    )
    assert checks["server"]["fix"] == (
        "set servers.main.version to '26.1' (or remove it to use what the server says)"
    )
