"""Trigger mode's protocol with the data pack, end to end against the sandbox: what a poll and a
click cost, and how the daemon recovers when the world stops cooperating — an unnameable frame
marked near, the click counter removed, the pack disabled or outdated (docs/turn-detection.md,
"Trigger mode"; docs/datapack.md, "Protocol")."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.runtime.detection import STUCK_ROUNDS, TurnDetector
from controller.runtime.link import Link
from controller.sandbox import Sandbox
from controller.versions import release
from controller.world import turns
from controller.world.datapack import build
from tests.support.harness import Harness, harness_with_pack, world_mismatches

TRIGGER = pytest.mark.parametrize("detect", ["trigger"])  # the harness with the pack installed


def settled(harness: Harness) -> tuple[TurnDetector, Link]:
    """The first poll (a full read) done, a player near: every later poll is a regular one."""
    daemon = harness.daemon
    daemon.poll("main")
    detector = daemon.detector("main")
    detector.awake, detector.awake_until = True, float("inf")
    link = daemon.links["main"]
    detector.poll(link)  # the first click-count poll reads the (empty) near set once
    return detector, link


def cost(sb: Sandbox) -> dict[str, int]:
    found: dict[str, int] = sb.call(lambda g: dict(g.total_cost))
    return found


def tagged_near(sb: Sandbox) -> int:
    reply = sb.call(lambda g: g.execute(f"execute if entity @e[tag={turns.NEAR}]"))
    return 0 if reply == ["Test failed"] else int(reply[0].rsplit(" ", 1)[1])


@TRIGGER
def test_an_idle_poll_is_one_command_and_a_click_three(harness: Harness) -> None:
    room, sb = harness.room, harness.sb
    detector, link = settled(harness)
    for k in range(7):
        sb.join(f"P{k}", (1.5 + k % 4, 101, 1.5 + k // 4))  # eight players on the room
    sent, spent = link.sent, cost(sb)
    assert detector.poll(link) == []
    assert link.sent - sent == 1
    assert cost(sb) == spent  # nothing examined, nothing serialized
    harness.click(2, 3)
    sent = link.sent
    seen = detector.poll(link)
    assert link.sent - sent == 3
    assert (room.name, 2, 3) in {(v.room, v.i, v.j) for v in seen}
    assert tagged_near(sb) == 0  # the pack cleared the marks
    sent = link.sent
    assert detector.poll(link) == [] and link.sent - sent == 1


@TRIGGER
def test_a_frame_that_cannot_be_named_does_not_stop_detection(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    room, sb = harness.room, harness.sb
    detector, link = settled(harness)
    x, y, z = room.geom.frame_pos(3, 3)
    sb.call(
        lambda g: g.execute(
            f"summon minecraft:item_frame {x} {y + 3} {z} "
            f'{{Facing:1b,Tags:["{turns.FRAME_TAG}","{turns.NEAR}"]}}'
        )
    )
    before = room.board.rotations[3 * room.board.width + 3]
    harness.click(3, 3)
    with caplog.at_level(logging.WARNING, "controller.runtime"):
        for _ in range(STUCK_ROUNDS + 2):
            for fv in detector.poll(link):
                if fv.room == room.name:
                    room.handle_turn(link, fv.i, fv.j, fv.value)
    assert room.board.rotations[3 * room.board.width + 3] == (before + 1) % 4
    assert "could not be read back whole" in caplog.text
    assert tagged_near(sb) == 0
    sent = link.sent
    assert detector.poll(link) == [] and link.sent - sent == 1  # quiet again
    assert world_mismatches(sb, room) == []


@TRIGGER
def test_a_removed_click_counter_is_made_again(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    daemon, room, sb = harness.daemon, harness.room, harness.sb
    detector, link = settled(harness)
    sb.call(lambda g: g.execute(f"scoreboard objectives remove {turns.CLICKS}"))
    harness.click(1, 1)  # the pack cannot count this click: the full read finds it
    before = room.board.rotations[room.board.width + 1]
    with caplog.at_level(logging.WARNING, "controller.runtime"):
        daemon.last_poll["main"] = daemon.clock.monotonic()
        daemon.poll("main")  # the counter is gone: made again
        daemon.last_poll["main"] = daemon.clock.monotonic()
        assert daemon.poll("main") == 1  # every frame read
    assert "click counter" in caplog.text
    assert room.board.rotations[room.board.width + 1] == (before + 1) % 4
    reply = sb.call(lambda g: g.execute(turns.click_count()))
    assert isinstance(turns.parse_click_count("".join(reply)), int)
    harness.click(4, 4)
    daemon.last_poll["main"] = daemon.clock.monotonic()
    assert daemon.poll("main") == 1  # counted again
    assert world_mismatches(sb, room) == []


@TRIGGER
def test_a_pack_disabled_while_running_means_scan_mode(harness: Harness) -> None:
    daemon, room, sb = harness.daemon, harness.room, harness.sb
    detector, link = settled(harness)
    harness.click(5, 1)
    sb.call(lambda g: g.execute('datapack disable "file/pipesctl"'))
    sb.tick(2)
    detector.poll(link)
    assert detector.mode == "scan"
    daemon.last_poll["main"] = daemon.clock.monotonic()
    daemon.poll("main")  # the full read applies the click the pack marked before it went
    harness.click(2, 2)
    daemon.last_poll["main"] = daemon.clock.monotonic()
    assert daemon.poll("main") == 1  # found by scanning
    assert world_mismatches(sb, room) == []


@pytest.fixture
def outdated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    """A world whose pack was written before the `done` protocol (no `done`, no `version`)."""
    files = build(release("26.1"))
    files = {
        k: v for k, v in files.items() if not k.endswith(("done.mcfunction", "version.mcfunction"))
    }
    yield from harness_with_pack(files, tmp_path, monkeypatch)


def test_an_outdated_pack_means_scan_mode_and_says_how_to_update(
    outdated: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    assert outdated.daemon.detector("main").mode == "scan"  # chosen when the daemon started
    said = " ".join(r.getMessage() for r in caplog.get_records("setup"))
    assert "pipesctl install" in said and "protocol 2" in said
    outdated.daemon.poll("main")
    outdated.click(2, 2)
    outdated.daemon.last_poll["main"] = outdated.daemon.clock.monotonic()
    assert outdated.daemon.poll("main") == 1
