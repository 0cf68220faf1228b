"""`pipesctl sandbox --version` and `pipesctl demo --version`: the release the sandbox plays,
refused in one line (exit 2) outside the supported range."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from mcrcon import MCRcon
from typer.testing import CliRunner

from controller.cli import app
from controller.sandbox.game import Game

runner = CliRunner()
RANGE = "pipesctl serves Java 1.20.5 to 26.2"


@pytest.mark.parametrize("command", ["sandbox", "demo"])
@pytest.mark.parametrize(
    ("version", "what"),
    [
        ("1.19", "Minecraft 1.19"),
        ("27.0", "Minecraft 27.0"),
        ("latest", "version 'latest' (not a release number)"),
    ],
)
def test_an_unsupported_version_exits_2_naming_the_range(
    command: str, version: str, what: str
) -> None:
    port = ["--port", "0"] if command == "sandbox" else []
    result = runner.invoke(app, [command, "--version", version, *port])
    assert result.exit_code == 2, result.output
    assert result.output == f"error: {what} is not supported: {RANGE}\n"


def test_a_world_saved_by_another_release_is_refused(tmp_path: Path) -> None:
    Game(version="1.21.4").save(tmp_path / "w")
    result = runner.invoke(
        app, ["sandbox", "--version", "26.1", "--port", "0", "--world-dir", str(tmp_path / "w")]
    )
    assert result.exit_code == 1, result.output
    assert "saved by Minecraft 1.21.4, not 26.1" in result.output
    assert "Traceback" not in result.output


def test_the_sandbox_command_plays_the_release_over_rcon() -> None:
    env = {**os.environ, "RCON_PASSWORD": "pw-for-test"}
    argv = [sys.executable, "-m", "controller.cli", "sandbox", "--version", "1.21.4", "--port", "0"]
    with subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    ) as proc:
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert line.startswith("RCON running on 127.0.0.1:"), line
            port = int(line.rsplit(":", 1)[1])
            with MCRcon("127.0.0.1", "pw-for-test", port, timeout=10) as mcr:
                assert mcr.command("foo") == (
                    "Unknown or incomplete command, see below for errorfoo<--[HERE]"
                )
                assert mcr.command("version") == (
                    "Unknown or incomplete command, see below for errorversion<--[HERE]"
                )
                assert mcr.command("gamerule commandModificationBlockLimit") == (
                    "Gamerule commandModificationBlockLimit is currently set to: 32768"
                )
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=20) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
