"""A daemon on a sandbox with the web page of its room `lobby` served on a free port (the web
server and browser tests)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.sandbox import Sandbox
from controller.web.live import LiveRooms
from controller.web.server import WebServer
from tests.support.harness import Harness, make_config

__all__ = ["Site", "site_on"]


@dataclass
class Site:
    """The daemon (through its harness), the rooms' snapshots and the page's server."""

    harness: Harness
    live: LiveRooms
    web: WebServer


def site_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **world: Any) -> Iterator[Site]:
    """For fixtures (`yield from site_on(...)`): a started daemon with the page served, the
    player Alex on the room (`world`: the room's settings beyond `make_config`'s)."""
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        cfg = make_config(sb, tmp_path / "state", **world)
        daemon = Daemon(cfg, ["lobby"], connect=connect_server)
        live = LiveRooms(daemon.rooms)  # before the build: the build's change is seen
        web = WebServer(live, "127.0.0.1", 0)
        try:
            daemon.start()
            sb.join("Alex", (3.5, 101, 3.5))
            yield Site(Harness(sb, cfg, daemon), live, web)
        finally:
            web.close()
            daemon.close()
