"""The room end to end on the oldest supported release, 1.21.4, 1.21.11 and the newest, vanilla
and Paper, through the real transport: the daemon learns the release from the sandbox playing
it, builds, reads its frames back by name, applies clicks in both detection modes, wins, resumes
and repairs (docs/server-behaviour.md, "Versions: what changes where").

The same matrix runs against real servers in tests/docker (``PIPESCTL_TEST_MC_MATRIX``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.sandbox import Sandbox
from controller.versions import NEWEST, release
from controller.world.datapack import build
from controller.world.geometry import frame_name
from tests.support.harness import Harness, make_config, world_mismatches

RELEASES = ["1.20.5", "1.21.4", "1.21.11", NEWEST.name]
FLAVOURS = ["vanilla", "paper"]
SIZE = 4


@contextmanager
def _started(
    version: str, flavour: str, detect: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Harness]:
    world = tmp_path / "world"
    if detect == "trigger":
        install_pack(world / "datapacks" / PACK_FOLDER, build(release(version)))
    with Sandbox(version=version, flavour=flavour, world_dir=world) as sb:  # type: ignore[arg-type]
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        cfg = make_config(sb, tmp_path / "state", size=SIZE, seed=11)
        daemon = Daemon(cfg, ["lobby"], connect=connect_server, record=True)
        try:
            daemon.start()
            sb.join("Alex", (1.5, 101, 1.5))
            yield Harness(sb, cfg, daemon)
        finally:
            daemon.close()


@pytest.fixture(params=RELEASES)
def version(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture(params=FLAVOURS)
def flavour(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def _display_names(harness: Harness) -> list[str]:
    """Each frame's display name as the server prints it (`<name> has the following …`)."""
    room = harness.room

    def read(game: object) -> list[str]:
        out = []
        for uid in room.uuids:
            reply = game.execute(f"data get entity {uid} ItemRotation")  # type: ignore[attr-defined]
            out.append(reply[0].split(" has the following entity data", 1)[0])
        return out

    return harness.sb.call(read)


def test_build_click_win_resume_and_repair(
    version: str, flavour: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _started(version, flavour, "trigger", tmp_path, monkeypatch) as harness:
        room, daemon, sb = harness.room, harness.daemon, harness.sb
        link = daemon.links["main"]
        assert link.release == release(version)
        assert getattr(link.client, "flavour", None) == flavour
        assert daemon.detectors["main"].mode == "trigger"
        # built, and every frame answers to its own name in this release's form
        assert world_mismatches(sb, room) == []
        w = room.board.width
        assert _display_names(harness) == [
            frame_name("lobby", k % w, k // w) for k in range(room.board.size)
        ]
        assert sb.call(lambda g: list(g.world.server_log)) == []  # no WARN, no ERROR
        # a click is applied and written back
        idx = next_click(room.board, solution_order(room.board))
        assert idx is not None
        before = room.board.rotations[idx]
        harness.click(idx % w, idx // w)
        assert daemon.poll("main") == 1
        assert room.board.rotations[idx] == (before + 1) % 4
        assert world_mismatches(sb, room) == []
        # solved: the win is recorded and told
        harness.solve()
        assert room.play.solved and room.state is not None and len(room.state.solves) == 1
        assert any(m.get("type") == "title" for m in sb.inbox("Alex"))
        # resumed by a new daemon: nothing to repair
        daemon.close()
        again = Daemon(harness.cfg, ["lobby"], connect=connect_server)
        again.start()
        room = again.rooms["lobby"]
        assert room.state is not None and len(room.state.solves) == 1
        assert world_mismatches(sb, room) == []
        # tampered with: a block replaced and a frame killed are put back
        x, y, z = room.geom.state_pos(1, 1)
        sb.call(lambda g: g.execute(f"setblock {x} {y} {z} minecraft:stone"))
        sb.call(lambda g: g.execute(f"kill {room.uuids[5]}"))
        report = room.reconcile(again.links["main"])
        assert report.frames_summoned == 1 and report.blocks_fixed >= 1
        assert world_mismatches(sb, room) == []
        assert _display_names(Harness(sb, harness.cfg, again))[5] == frame_name("lobby", 1, 1)
        again.close()


def test_a_scan_mode_click_is_applied(
    version: str, flavour: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _started(version, flavour, "scan", tmp_path, monkeypatch) as harness:
        room, daemon = harness.room, harness.daemon
        assert daemon.links["main"].release == release(version)
        assert daemon.detectors["main"].mode == "scan"
        before = list(room.board.rotations)
        harness.click(2, 1, times=2)
        assert daemon.poll("main") == 1
        w = room.board.width
        assert room.board.rotations[w + 2] == (before[w + 2] + 2) % 4
        assert world_mismatches(harness.sb, room) == []
