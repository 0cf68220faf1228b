"""`pipesctl start` with `metrics_port` or `web_port` taken by another program: one clear
line, exit 3, before anything is built, and the room's lock given back."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.errors import ExitCode
from controller.runtime.control import is_running
from controller.sandbox import Sandbox

runner = CliRunner()


@pytest.mark.parametrize("key", ["web_port", "metrics_port"])
def test_a_port_in_use_stops_the_start(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb, socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.setenv("PW", sb.password)
        cfg = tmp_path / "pipes.yaml"
        cfg.write_text(
            f"state_dir: {tmp_path / 'state'}\n{key}: {port}\n"
            f"servers: {{main: {{port: {sb.port}, password_env: PW}}}}\n"
            "worlds: {lobby: {origin: [0, 100, 0], size: [5, 5]}}\n"
        )
        result = runner.invoke(app, ["start", "-w", "lobby", "-c", str(cfg)])
        assert result.exit_code == ExitCode.CONFIG, result.output
        assert f"{key}: cannot listen on 127.0.0.1 port {port}: the port is in use" in result.output
        assert "Traceback" not in result.output
        assert not (tmp_path / "state" / "lobby.json").exists()  # nothing was built
        assert not is_running(tmp_path / "state", "lobby")  # the room's lock was given back
