"""A daemon whose observer is the Prometheus metrics, on a sandbox (both detection modes)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.metrics import Metrics
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.sandbox import Sandbox
from controller.versions import release
from controller.world.datapack import build
from tests.support.harness import Harness, make_config


@pytest.fixture(params=["scan", "trigger"])
def detect(request: pytest.FixtureRequest) -> str:
    mode: str = request.param
    return mode


@pytest.fixture
def metered(
    detect: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Harness, Metrics]]:
    world = tmp_path / "world"
    if detect == "trigger":
        install_pack(world / "datapacks" / PACK_FOLDER, build(release("26.1")))
    with Sandbox(world_dir=world if detect == "trigger" else None) as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        cfg = make_config(sb, tmp_path / "state")
        metrics = Metrics([("main", "lobby")])
        daemon = Daemon(cfg, ["lobby"], connect=connect_server, observer=metrics)
        daemon.start()
        sb.join("Alex", (3.5, 101, 3.5))
        yield Harness(sb, cfg, daemon), metrics
        daemon.close()
