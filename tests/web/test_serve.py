"""`serving`: the metrics and the page opened from the configuration beside a daemon, and
their ports free again afterwards; neither is opened without its key."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.sandbox import Sandbox
from controller.web import metrics_for, serving
from tests.support.harness import make_config
from tests.support.scrape import request, scrape


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _is_free(port: int) -> bool:
    """Whether a server can listen on the port (with SO_REUSEADDR, as both servers do)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def test_both_ports_open_with_the_daemon_and_close_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        metrics_port, web_port = _free_port(), _free_port()
        base = make_config(sb, tmp_path / "state")
        cfg = base.model_copy(update={"metrics_port": metrics_port, "web_port": web_port})
        metrics = metrics_for(cfg, ["lobby"])
        assert metrics is not None
        daemon = Daemon(cfg, ["lobby"], connect=connect_server, observer=metrics)
        try:
            with serving(daemon, metrics):
                assert request(web_port, "/rooms.json").status == 200  # before the build
                daemon.start()
                got = scrape(metrics_port)
                assert got.value("pipesctl_room_tiles", server="main", room="lobby") == 49
                assert b'"built":true' in request(web_port, "/rooms.json").body
        finally:
            daemon.close()
        assert _is_free(metrics_port) and _is_free(web_port)


def test_nothing_is_opened_without_the_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        cfg = make_config(sb, tmp_path / "state")
        assert metrics_for(cfg, ["lobby"]) is None
        daemon = Daemon(cfg, ["lobby"], connect=connect_server)
        try:
            with serving(daemon, None) as opened:
                assert opened is None
                assert daemon.rooms["lobby"].listeners == []  # no page watches the room
        finally:
            daemon.close()


def test_the_page_reads_its_standings_from_the_records_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The served page's leaderboards are the records store's (SQLite by default): a win
    recorded by the writer shows on `/standings.json`, by name and time, never by UUID."""
    import json

    from tests.support.harness import Harness

    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        web_port = _free_port()
        cfg = make_config(sb, tmp_path / "state").model_copy(update={"web_port": web_port})
        daemon = Daemon(cfg, ["lobby"], connect=connect_server)
        try:
            with serving(daemon, None):
                daemon.start()
                sb.join("Alex", (3.5, 101, 3.5))
                Harness(sb, cfg, daemon).solve()
                assert daemon.records.flush(10.0)
                body = request(web_port, "/standings.json").body
                doc = json.loads(body)
                (line,) = doc["overall"]["solves"]
                assert (line["name"], line["solves"], line["server"]) == ("Alex", 1, "main")
                assert line["best_s"] is not None
                uid = sb.call(lambda g: str(g.world.players["Alex"].uuid))
                assert uid.encode() not in body
        finally:
            daemon.close()
