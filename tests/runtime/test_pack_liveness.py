"""The data pack disappearing and coming back while players click: trigger mode notices at the
next poll that the pack no longer answers, falls back to scan mode with a warning that names the
fix, and resumes when the pack is back (docs/turn-detection.md, "Pack liveness"). The daemon's
clock is driven by the test in 50 ms steps (its poll interval); the sandbox ticks in real time."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.sandbox import Sandbox
from controller.versions import release
from controller.world.datapack import build
from tests.support.harness import make_config, world_mismatches
from tests.support.tamper import StepClock, pipes_room, run

LIMIT_S = 2.0  # every click applied within this much daemon time, in every phase


@pytest.fixture
def live(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Sandbox, Daemon, StepClock]]:
    world = tmp_path / "world"
    install_pack(world / "datapacks" / PACK_FOLDER, build(release("26.1")))
    with Sandbox(world_dir=world) as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        clock = StepClock()
        cfg = make_config(sb, tmp_path / "state")
        daemon = Daemon(cfg, ["lobby"], connect=connect_server, clock=clock)
        daemon.start()
        sb.join("Alex", (3.5, 101, 3.5))
        for _ in range(10):
            clock.now += 0.05
            daemon.step()
        yield sb, daemon, clock
        daemon.close()


def step(daemon: Daemon, clock: StepClock, seconds: float) -> None:
    for _ in range(round(seconds / 0.05)):
        clock.now += 0.05
        daemon.step()


def click_applied_in(sb: Sandbox, daemon: Daemon, clock: StepClock, i: int, j: int) -> float:
    """Alex turns (i, j); the daemon time until the room has applied the turn."""
    room = pipes_room(daemon)
    idx = j * room.board.width + i
    want = (room.board.rotations[idx] + 1) % 4
    x, y, z = room.geom.frame_pos(i, j)
    sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
    assert sb.use_entity("Alex", room.uuids[idx])
    start = clock.now
    while clock.now - start <= LIMIT_S:
        clock.now += 0.05
        daemon.step()
        if room.board.rotations[idx] == want:
            return clock.now - start
    raise AssertionError(f"the click on ({i}, {j}) was not applied within {LIMIT_S} s")


def clicks_applied(
    sb: Sandbox, daemon: Daemon, clock: StepClock, tiles: list[tuple[int, int]]
) -> None:
    for i, j in tiles:
        assert click_applied_in(sb, daemon, clock, i, j) <= LIMIT_S


def test_a_pack_that_goes_and_comes_back_never_leaves_a_click_unapplied(
    live: tuple[Sandbox, Daemon, StepClock], caplog: pytest.LogCaptureFixture
) -> None:
    sb, daemon, clock = live
    room = pipes_room(daemon)
    detector = daemon.detector("main")
    pack = sb.datapack_dir
    assert pack is not None
    assert detector.mode == "trigger"
    moves = room.current_state.moves
    tiles = [(2, 2), (3, 2), (2, 3)]
    caplog.set_level(logging.INFO, "controller.runtime")
    clicks_applied(sb, daemon, clock, tiles)

    # 1. disabled mid-play: the objective stays, only the pack's functions go
    assert run(sb, 'datapack disable "file/pipesctl"')[0].startswith("Disabling")
    sb.tick(2)
    clicks_applied(sb, daemon, clock, tiles)
    assert detector.mode == "scan"
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("no longer answers" in m and 'datapack enable "file/pipesctl"' in m for m in warned)

    # 2. enabled again: scan mode applies the clicks meanwhile, trigger mode resumes
    assert run(sb, 'datapack enable "file/pipesctl"')[0].startswith("Enabling")
    sb.tick(2)
    clicks_applied(sb, daemon, clock, tiles)
    step(daemon, clock, 2.1)
    assert detector.mode == "trigger"
    assert "answers again" in caplog.text
    clicks_applied(sb, daemon, clock, tiles)

    # 3. removed from the world's datapacks/ folder and `reload`
    shutil.rmtree(pack / PACK_FOLDER)
    assert run(sb, "reload") == ["Reloading!"]
    sb.tick(2)
    clicks_applied(sb, daemon, clock, tiles)
    assert detector.mode == "scan"

    # 4. restored and `reload`
    install_pack(pack / PACK_FOLDER, build(release("26.1")))
    assert run(sb, "reload") == ["Reloading!"]
    sb.tick(2)
    clicks_applied(sb, daemon, clock, tiles)
    step(daemon, clock, 2.1)
    assert detector.mode == "trigger"
    clicks_applied(sb, daemon, clock, tiles)

    assert room.current_state.moves == moves + 7 * len(tiles)
    assert world_mismatches(sb, room) == []


def test_with_nobody_online_liveness_costs_no_command(
    live: tuple[Sandbox, Daemon, StepClock],
) -> None:
    """The liveness proof rides on the click-count poll: nobody online, one command every 2 s."""
    sb, daemon, clock = live
    sb.leave("Alex")
    step(daemon, clock, 5.0)
    link = daemon.links["main"]
    sent = link.sent
    step(daemon, clock, 60.0)
    detection = link.sent - sent
    assert daemon.detector("main").mode == "trigger"
    per_second = detection / 60.0
    assert per_second < 1.0, per_second
