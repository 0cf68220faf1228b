"""End-to-end fixtures: a sandbox server (both detection modes) and a daemon on it.

The harness itself lives in ``tests/support/harness.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.sandbox import Sandbox
from controller.versions import release
from controller.world.datapack import build
from tests.support.harness import Harness, make_config


@pytest.fixture(params=["scan", "trigger"])
def detect(request: pytest.FixtureRequest) -> str:
    """Both turn-detection modes: `trigger` worlds have the data pack installed."""
    mode: str = request.param
    return mode


@pytest.fixture
def sandbox(detect: str, tmp_path: Path) -> Iterator[Sandbox]:
    if detect == "scan":
        with Sandbox() as sb:
            yield sb
        return
    world = tmp_path / "world"
    install_pack(world / "datapacks" / PACK_FOLDER, build(release("26.1")))
    with Sandbox(world_dir=world) as sb:
        yield sb


@pytest.fixture
def harness(sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path / "state")
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, record=True)
    daemon.start()
    sandbox.join("Alex", (3.5, 101, 3.5))
    yield Harness(sandbox, cfg, daemon)
    daemon.close()
