"""A click the server accepts at the edge of a player's reach is applied within one poll, in both
detection modes, survival and creative; a reach the marks do not cover (a raised
`entity_interaction_range`) is read by trigger mode's wider read in the same poll
(docs/turn-detection.md, "Reach")."""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.sandbox import Sandbox
from controller.versions import release
from controller.world.datapack import build
from tests.support.harness import Harness, harness_with_pack, make_config, world_mismatches

EYE = 1.6200000047683716  # a standing player's eye height, 1.62f
FRAME_DEPTH = 0.0625  # a floor frame's box, from the floor up


def poll_now(daemon: Daemon) -> int:
    """A poll right after the previous one (no gap, which would read every frame)."""
    daemon.last_poll["main"] = daemon.clock.monotonic()
    return daemon.poll("main")


def ready(harness: Harness) -> None:
    """The first poll (a full read) done and a player near: every later poll is a regular one."""
    daemon = harness.daemon
    daemon.poll("main")
    detector = daemon.detector("main")
    detector.awake, detector.awake_until = True, float("inf")


def stand_at_reach(harness: Harness, i: int, j: int, reach: float, player: str = "Alex") -> None:
    """Stand on the floor east of frame (i, j), the eyes `reach` from the frame's box."""
    x, y, z = harness.room.geom.frame_pos(i, j)
    rise = EYE - FRAME_DEPTH  # the feet on the floor (y0), the eyes over the box's top face
    harness.sb.move(player, (x + 1 + math.sqrt(reach * reach - rise * rise), y, z + 0.5))


def click(harness: Harness, i: int, j: int, player: str = "Alex") -> bool:
    room = harness.room
    return harness.sb.use_entity(player, room.uuids[j * room.board.width + i])


def set_mode(sb: Sandbox, player: str, mode: str) -> None:
    sb.set_game_mode(player, mode)
    sb.tick(2)  # the creative reach comes with the player's next tick


@pytest.mark.parametrize(("mode", "reach"), [("survival", 6.0), ("creative", 8.0)])
def test_a_click_at_the_edge_of_reach_is_applied_within_one_poll(
    harness: Harness, detect: str, mode: str, reach: float
) -> None:
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    set_mode(sb, "Alex", mode)
    ready(harness)
    link = daemon.links["main"]
    w = room.board.width
    before = list(room.board.rotations)
    stand_at_reach(harness, 6, 3, reach + 0.01)
    assert not click(harness, 6, 3)  # a hair too far: the server drops it
    stand_at_reach(harness, 6, 3, reach - 0.01)
    assert click(harness, 6, 3)
    sent = link.sent
    assert poll_now(daemon) == 1
    assert room.board.rotations[3 * w + 6] == (before[3 * w + 6] + 1) % 4
    detector = daemon.detector("main")
    assert detector.widened == 0  # the marks covered the click: no wider read
    if detect == "trigger":
        # the click count (through the pack's `version` once a second), the marked frames,
        # `done`; then the turn's own writes
        first = [c.split(" ")[0] for c in link.record[sent : sent + 3]]  # type: ignore[index]
        assert first in (["execute", "execute", "function"], ["scoreboard", "execute", "function"])
    assert poll_now(daemon) == 0
    assert world_mismatches(sb, room) == []


def far_click_is_applied(harness: Harness) -> None:
    """Alex, with 9 blocks of reach (attribute base 6), turns tile (6, 3) from 8.9 blocks: the
    next poll applies the turn."""
    room, daemon = harness.room, harness.daemon
    harness.sb.set_entity_interaction_range("Alex", 6.0)
    ready(harness)
    idx = 3 * room.board.width + 6
    before = room.board.rotations[idx]
    stand_at_reach(harness, 6, 3, 8.9)
    assert click(harness, 6, 3)
    assert poll_now(daemon) == 1
    assert room.board.rotations[idx] == (before + 1) % 4


def test_a_raised_interaction_range_is_read_by_the_wider_read(
    harness: Harness, detect: str
) -> None:
    """9 blocks of reach (attribute base 6): the pack marks 6.71 around the eyes, the counted
    click shows no turn there, so every frame is read in the same poll (trigger mode). Scan
    mode reads what `poll_reach` asks for."""
    if detect != "trigger":
        pytest.skip("the click count is trigger mode's")
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    far_click_is_applied(harness)
    assert daemon.detector("main").widened == 1
    assert poll_now(daemon) == 0 and daemon.detector("main").widened == 1
    assert world_mismatches(sb, room) == []


def test_a_far_click_beside_a_near_one_is_read_in_the_same_poll(
    harness: Harness, detect: str
) -> None:
    """Two clicks in one poll interval: Bea's within the marks, Alex's beyond them (a raised
    range). The near one shows one turn for two clicks counted: every frame is read."""
    if detect != "trigger":
        pytest.skip("the click count is trigger mode's")
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    sb.set_entity_interaction_range("Alex", 6.0)
    sb.join("Bea", (0.5, 100, 0.5))
    ready(harness)
    w = room.board.width
    before = list(room.board.rotations)
    assert click(harness, 0, 0, player="Bea")
    stand_at_reach(harness, 6, 6, 8.9)
    assert click(harness, 6, 6)
    assert poll_now(daemon) == 2
    assert room.board.rotations[0] == (before[0] + 1) % 4
    assert room.board.rotations[6 * w + 6] == (before[6 * w + 6] + 1) % 4
    assert daemon.detector("main").widened == 1
    assert world_mismatches(sb, room) == []


@pytest.fixture
def wide(sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    """The harness with `poll_reach: 9.71`: reads reach 6 + 3 + a frame's half diagonal."""
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path / "state", poll_reach=9.71)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, record=True)
    daemon.start()
    sandbox.join("Alex", (3.5, 101, 3.5))
    yield Harness(sandbox, cfg, daemon)
    daemon.close()


def test_poll_reach_widens_the_reads(wide: Harness, detect: str) -> None:
    """Scan mode has no count to compare with: `poll_reach` covers a raised range there (and
    in trigger mode the detector reads that far: no wider read needed)."""
    far_click_is_applied(wide)
    assert wide.daemon.detector("main").marks.survival == 9.71


OLD_MARK = "execute at @s run tag @e[tag=pipes,distance=..4.5] add pipes.near"


@pytest.fixture
def old_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    """A world whose protocol-2 pack is from before the eye-based marks: it marks the frames
    within 4.5 blocks of the clicker's feet."""
    files = build(release("26.1"))
    name = "data/pipes/function/clicked.mcfunction"
    lines = [line for line in files[name].decode().splitlines() if "pipes.near" not in line]
    lines.insert(2, OLD_MARK)
    files[name] = ("\n".join(lines) + "\n").encode()
    yield from harness_with_pack(files, tmp_path, monkeypatch)


def test_an_older_pack_still_has_every_click_read_within_one_poll(
    old_pack: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Its marks miss a click 6 blocks away: the wider read finds it in the same poll, and the
    log says once how to update the pack."""
    room, daemon, sb = old_pack.room, old_pack.daemon, old_pack.sb
    assert daemon.detector("main").mode == "trigger"
    marks = sb.call(lambda g: g.packs.content.functions["pipes:clicked"])
    assert OLD_MARK in marks
    ready(old_pack)
    w = room.board.width
    before = list(room.board.rotations)
    stand_at_reach(old_pack, 6, 3, 5.9)
    assert click(old_pack, 6, 3)
    with caplog.at_level(logging.INFO, "controller.runtime"):
        assert poll_now(daemon) == 1
    assert room.board.rotations[3 * w + 6] == (before[3 * w + 6] + 1) % 4
    assert daemon.detector("main").widened == 1
    assert "pipesctl install" in caplog.text
    assert world_mismatches(sb, room) == []
