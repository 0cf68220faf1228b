"""Trigger mode's wider read, alone: a scripted server and rooms that know their settled
rotations. Every frame is read in the same poll exactly when the click count moved by more
than the marked frames show turns (docs/turn-detection.md, "Reach")."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from controller.runtime.detection import TurnDetector
from controller.runtime.link import Link
from controller.world import turns

DONE_OK = "Running function pipes:doneFunction pipes:done returned 1"


@dataclass
class FakeRoom:
    """The part of a room the detector reads: names, bounds, config and settled rotations."""

    name: str
    rotations: dict[tuple[int, int], int]
    frame_kind: str = "item_frame"
    dimension: str = "minecraft:overworld"
    cfg: Any = field(
        default_factory=lambda: SimpleNamespace(
            server="main", poll_reach=None, poll_interval_ms=50, wake_distance=48.0
        )
    )

    def bounds(self) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        return (0, 99, 0), (6, 101, 6)

    def settled(self, i: int, j: int) -> int | None:
        return self.rotations.get((i, j))


class Server:
    """Answers the click count, the read of the marked frames, `done` and the full read."""

    def __init__(self) -> None:
        self.count = 0
        self.near: list[tuple[str, int, int, int]] = []
        self.everywhere: list[tuple[str, int, int, int]] = []
        self.sent: list[str] = []

    @staticmethod
    def values(frames: list[tuple[str, int, int, int]]) -> str:
        return "".join(
            f"pipes:{r}:{i}:{j} has the following entity data: {v}b" for r, i, j, v in frames
        )

    def command(self, command: str, *, prefix: bool = False) -> str:
        self.sent.append(command)
        if command in (turns.click_poll(), turns.click_count()):
            return f"#clicks has {self.count} [pipes.clicks]"
        if command == turns.read_near():
            return self.values(self.near)
        if command.startswith("function pipes:done"):
            return DONE_OK
        if command.startswith("execute as @e[type=minecraft:item_frame,tag=pipes,tag=pipes.r0]"):
            return self.values(self.everywhere)  # the first of the four full-read commands
        return ""


@pytest.fixture
def setup() -> tuple[TurnDetector, Server, Link]:
    room = FakeRoom("lobby", {(0, 0): 1, (1, 0): 3, (2, 0): 0})
    detector = TurnDetector([room], "trigger")  # type: ignore[list-item]
    detector.awake, detector.awake_until = True, float("inf")
    server = Server()
    server.count = 10
    link = Link(server)
    detector.poll(link, everywhere=True)  # the first poll: every click so far is read
    server.sent.clear()
    return detector, server, link


def test_a_click_the_marks_show_costs_the_three_commands(
    setup: tuple[TurnDetector, Server, Link],
) -> None:
    detector, server, link = setup
    server.count, server.near = 11, [("lobby", 0, 0, 2), ("lobby", 1, 0, 3)]
    assert [(v.i, v.value) for v in detector.poll(link)] == [(0, 2), (1, 3)]
    assert len(server.sent) == 3 and detector.widened == 0


def test_a_click_the_marks_do_not_show_reads_every_frame_at_once(
    setup: tuple[TurnDetector, Server, Link],
) -> None:
    detector, server, link = setup
    server.count, server.near = 11, [("lobby", 0, 0, 1)]  # marked, but settled
    server.everywhere = [("lobby", 2, 0, 1)]
    assert [(v.i, v.value) for v in detector.poll(link)] == [(0, 1), (2, 1)]
    assert len(server.sent) == 3 + 4 and detector.widened == 1
    server.sent.clear()
    assert detector.poll(link) == [] and len(server.sent) == 1  # counted as read now


@pytest.mark.parametrize(
    ("clicks", "near", "widened"),
    [
        (2, [("lobby", 0, 0, 3)], 0),  # one frame turned twice
        (2, [("lobby", 0, 0, 2)], 1),  # one turn shown for two clicks
        (2, [("lobby", 0, 0, 2), ("lobby", 0, 0, 2)], 1),  # a frame named twice counts once
        (1, [("lobby", 1, 0, 4)], 0),  # settled at 3: 3 → 4 is one click
        (1, [("lobby", 1, 0, 2)], 0),  # 3 → 2 is seven clicks (modulo 8)
        (1, [("other", 0, 0, 5)], 1),  # no room here knows that frame
        (1, [("lobby", 5, 5, 5)], 1),  # no frame at (5, 5)
        (0, [], 0),  # the count unchanged: nothing read at all
    ],
)
def test_the_count_is_compared_with_the_turns_shown(
    setup: tuple[TurnDetector, Server, Link],
    clicks: int,
    near: list[tuple[str, int, int, int]],
    widened: int,
) -> None:
    detector, server, link = setup
    server.count += clicks
    server.near = near
    detector.poll(link)
    assert detector.widened == widened


def test_the_first_count_after_start_is_read_whole_without_a_wider_read() -> None:
    room = FakeRoom("lobby", {(0, 0): 0})
    detector = TurnDetector([room], "trigger")  # type: ignore[list-item]
    detector.awake, detector.awake_until = True, float("inf")
    server = Server()
    server.count = 50  # clicks made while no daemon ran
    link = Link(server)
    detector.poll(link)
    assert detector.widened == 0 and detector.clicks_seen == 50


def test_a_click_read_before_it_was_counted_is_credited_once(
    setup: tuple[TurnDetector, Server, Link],
) -> None:
    """A click between the count's read and the marks' read shows a turn the count does not
    hold yet; the next count holds it, already read: no wider read for it, but one for a click
    the marks missed beside it."""
    detector, server, link = setup
    server.count, server.near = 11, [("lobby", 0, 0, 2), ("lobby", 1, 0, 4)]  # 2 turns, 1 count
    detector.poll(link)
    assert detector.widened == 0 and detector.credit == 1
    server.count, server.near = 12, []  # the late click counted; the rooms settled both frames
    detector.poll(link)
    assert detector.widened == 0 and detector.credit == 0
    server.count, server.near = 13, [("lobby", 0, 0, 2), ("lobby", 1, 0, 4)]  # again, 2 for 1
    detector.poll(link)
    server.count = 15  # the late click and one the marks missed
    server.near = []
    detector.poll(link)
    assert detector.widened == 1


def test_a_counter_set_back_reads_nothing_more() -> None:
    room = FakeRoom("lobby", {(0, 0): 0})
    detector = TurnDetector([room], "trigger")  # type: ignore[list-item]
    detector.awake, detector.awake_until = True, float("inf")
    server = Server()
    server.count = 40
    link = Link(server)
    detector.poll(link, everywhere=True)
    server.count = 0  # `scoreboard players set #clicks pipes.clicks 0`
    detector.poll(link)
    server.count, server.near = 1, [("lobby", 0, 0, 1)]
    detector.poll(link)
    assert detector.widened == 0 and detector.clicks_seen == 1


def test_the_pack_is_proven_loaded_once_a_second_and_the_count_asked_alone_between() -> None:
    """Ten quiet polls a second: one through `execute if function pipes:version`, the others a
    plain count (docs/turn-detection.md, "Adaptive rate")."""
    from tests.support.tamper import StepClock

    clock = StepClock()
    room = FakeRoom("lobby", {(0, 0): 1})
    detector = TurnDetector([room], "trigger", clock=clock)  # type: ignore[list-item]
    detector.awake, detector.awake_until = True, float("inf")
    server = Server()
    link = Link(server)
    detector.poll(link, everywhere=True)  # the first count read is news: a moment of fast polls
    clock.now = 2.0
    server.sent.clear()
    polls = 0
    while clock.now < 5.0 - 1e-9:
        detector.poll(link)
        polls += 1
        clock.now += detector.interval
    assert detector.interval == 0.1 and polls == 30
    assert server.sent.count(turns.click_poll()) == 3
    assert server.sent.count(turns.click_count()) == 27


def test_players_near_who_do_not_click_are_polled_five_times_a_second() -> None:
    """docs/turn-detection.md, "Adaptive rate": fast for FAST_HOLD_S after a click, ten polls a
    second for ACTIVE_S, then five while the players near stay idle; a click wakes it again."""
    from controller.runtime.detection import (
        ACTIVE_S,
        FAST_HOLD_S,
        IDLE_NEAR_INTERVAL_S,
        QUIET_INTERVAL_S,
    )
    from tests.support.tamper import StepClock

    clock = StepClock()
    room = FakeRoom("lobby", {(0, 0): 1})
    detector = TurnDetector([room], "trigger", clock=clock)  # type: ignore[list-item]
    detector.awake, detector.awake_until = True, float("inf")
    assert detector.interval == IDLE_NEAR_INTERVAL_S == 0.2  # nobody clicked yet
    detector.clicked()
    assert detector.interval == detector.fast_interval
    clock.now += FAST_HOLD_S
    assert detector.interval == QUIET_INTERVAL_S == 0.1
    clock.now += ACTIVE_S - FAST_HOLD_S
    assert detector.interval == IDLE_NEAR_INTERVAL_S
    detector.clicked()
    clock.now += FAST_HOLD_S
    assert detector.interval == QUIET_INTERVAL_S
