"""Admin commands through typer's runner: init, and the error paths that need no server."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.config import default_config_text
from controller.errors import ExitCode

runner = CliRunner()


def test_init_writes_the_commented_config_and_never_overwrites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PIPESCTL_CONFIG", raising=False)
    result = runner.invoke(app, ["init"])
    assert result.exit_code == ExitCode.OK, result.output
    path = tmp_path / "config" / "pipes.yaml"
    assert path.read_text() == default_config_text()
    path.write_text("# mine\n")
    result = runner.invoke(app, ["init"])
    assert result.exit_code == ExitCode.USAGE
    assert "exists; use --force" in result.output
    assert path.read_text() == "# mine\n"
    assert runner.invoke(app, ["init", "--force"]).exit_code == ExitCode.OK
    assert path.read_text() == default_config_text()


def test_bad_config_exits_3_listing_every_problem(tmp_path: Path) -> None:
    cfg = tmp_path / "pipes.yaml"
    cfg.write_text(
        "servers: {main: {port: 99999}}\nworlds: {lobby: {origin: [0, 64], size: [1, 2]}}\n"
    )
    result = runner.invoke(app, ["status", "--config", str(cfg)])
    assert result.exit_code == ExitCode.CONFIG
    assert "servers.main.port" in result.output
    assert "worlds.lobby.origin: must be three integers" in result.output
    assert "worlds.lobby.size: must be two integers 3..128" in result.output


def test_unreachable_server_exits_4(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "pipes.yaml"
    cfg.write_text(
        "state_dir: " + str(tmp_path / "state") + "\n"
        "servers: {main: {host: 127.0.0.1, port: 1, password_env: PW, timeout: 0.5}}\n"
        "worlds: {lobby: {origin: [0, 64, 0]}}\n"
    )
    monkeypatch.setenv("PW", "secret-pw-value")
    result = runner.invoke(app, ["start", "--world", "lobby", "--config", str(cfg)])
    assert result.exit_code == ExitCode.UNREACHABLE, result.output
    assert "secret-pw-value" not in result.output


@pytest.mark.parametrize(
    "command",
    [
        ["start"],
        ["start", "--sandbox"],
        ["status"],
        ["show"],
        ["reset", "--yes"],
        ["repair"],
        ["remove", "--yes"],
        ["hint"],
    ],
)
def test_an_unknown_world_is_one_usage_error_everywhere(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = tmp_path / "pipes.yaml"
    cfg.write_text(
        "state_dir: " + str(tmp_path / "state") + "\n"
        "servers: {main: {host: 127.0.0.1, port: 1, password_env: PW, timeout: 0.5}}\n"
        "worlds: {lobby: {origin: [0, 64, 0]}, dock: {origin: [100, 64, 0]}}\n"
    )
    monkeypatch.setenv("PW", "x")
    result = runner.invoke(app, [*command, "--world", "nope", "--config", str(cfg)])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "--world nope: no such world" in result.output
    assert "(known: dock, lobby)" in result.output


def test_version() -> None:
    from controller import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == ExitCode.OK and result.stdout == f"pipesctl {__version__}\n"


@pytest.mark.parametrize(
    "command",
    ["init", "status", "show", "reset", "repair", "remove", "hint", "rcon", "start", "doctor"],
)
def test_help_has_no_bool_placeholders_and_the_same_short_flags(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == ExitCode.OK
    assert "<bool>" not in result.stdout
    assert "-c, --config FILE" in result.stdout
    if command not in ("init", "rcon"):
        assert "-w, --world NAME" in result.stdout
