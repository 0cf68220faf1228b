"""Building a room leaves no WARN or ERROR line in the server's log (the sandbox keeps what the
real server would print: docs/server-behaviour.md, "Item frames: summon and block_pos")."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.sandbox import Sandbox
from controller.world import commands
from tests.support.harness import make_config
from tests.support.paint_harness import paint_config


def _build_log(sb: Sandbox, daemon: Daemon) -> list[tuple[str, str]]:
    daemon.start()
    try:
        return sb.call(lambda g: list(g.world.server_log))
    finally:
        daemon.close()


def test_a_31x31_build_logs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(make_config(sb, tmp_path, size=31), ["lobby"], connect=connect_server)
        assert _build_log(sb, daemon) == []


def test_a_paint_room_build_logs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(paint_config(sb, tmp_path), ["lobby"], connect=connect_server)
        assert _build_log(sb, daemon) == []


def test_frames_summoned_without_a_position_would_log_an_error_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check can fail: the summon form without `Pos` and `block_pos` logs one ERROR line per
    frame (tile frames and hidden preload frames alike)."""
    monkeypatch.setattr(commands, "_placed_snbt", lambda x, y, z, release: "")
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        daemon = Daemon(make_config(sb, tmp_path, size=7), ["lobby"], connect=connect_server)
        log = _build_log(sb, daemon)
        frames = sb.call(
            lambda g: sum(1 for e in g.world.entities.values() if "pipes.lobby" in e.tags)
        )
    assert frames > 49
    assert log == [("ERROR", "Block-attached entity at invalid position: null")] * frames
