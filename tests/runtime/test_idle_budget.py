"""With nobody online, a room's server gets at most one command a second in all, from the build
on (issue 22's idle budget; docs/turn-detection.md, "Adaptive rate"): the daemon's clock driven
by the test through the first 60 s after the build of a 31×31 room, both detection modes, every
command counted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.pipes.room import AUDIT_IDLE_SLICE_S
from controller.sandbox import Sandbox
from controller.versions import release
from controller.world import commands as cmd
from controller.world.datapack import build
from controller.world.turns import CLICK_HOLDER
from tests.support.fence import unfenced
from tests.support.harness import make_config
from tests.support.tamper import StepClock, pipes_room

STEP_S = 0.05  # the daemon's loop goes round at most every poll interval


@pytest.fixture(params=["trigger", "scan"])
def sb(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Sandbox]:
    world = None
    if request.param == "trigger":
        world = tmp_path / "world"
        install_pack(world / "datapacks" / PACK_FOLDER, build(release("26.1")))
    with Sandbox(world_dir=world) as sandbox:
        monkeypatch.setenv("SANDBOX_PW", sandbox.password)
        yield sandbox


class CreepingClock(StepClock):
    """Each reading a microsecond after the last, as a real clock moves between two readings;
    `command` moves it as long as a command's round trip takes."""

    def monotonic(self) -> float:
        self.now += 1e-6
        return self.now

    def command(self, send: Callable[..., str]) -> Callable[..., str]:
        def timed(command: str, *, prefix: bool = False) -> str:
            self.now += 0.002
            return send(command, prefix=prefix)

        return timed


def _built(
    sb: Sandbox, tmp_path: Path, clock: StepClock | None = None, **world: object
) -> tuple[Daemon, StepClock]:
    clock = clock or StepClock()
    config = make_config(sb, tmp_path / "state", size=31, seed=11, **world)
    daemon = Daemon(config, ["lobby"], connect=connect_server, clock=clock, record=True)
    daemon.start()
    return daemon, clock


def _run(daemon: Daemon, clock: StepClock, seconds: float) -> list[str]:
    """Every command the daemon sends in `seconds` of its own time."""
    record = daemon.links["main"].record
    assert record is not None
    first = len(record)
    for _ in range(round(seconds / STEP_S)):
        clock.now += STEP_S
        daemon.step()
    return [unfenced(c) for c in record[first:]]


def _sender(command: str) -> str:
    if "pipes_lease" in command:
        return "lease"
    if command.startswith(("execute if entity @a[", "scoreboard players get", "execute if func")):
        return "detection"
    if " run data get entity @s " in command:
        return "frame reads"
    return "guard"


def test_the_60_s_after_a_build_with_nobody_online_send_at_most_one_command_a_second(
    sb: Sandbox, tmp_path: Path
) -> None:
    daemon, clock = _built(sb, tmp_path, audit_interval_s=300)
    try:
        sent = _run(daemon, clock, 60.0)
        by = Counter(_sender(c) for c in sent)
        assert len(sent) <= 60, by
        assert by["detection"] <= 31  # one command every 2 s, the first poll's count besides
        assert by["lease"] <= 6  # every 10 s, none for the guard's fills that change nothing
        # trigger mode: the first poll reads the count alone (the build wrote every frame)
        every = [c for c in sent if "unless entity @s[nbt={ItemRotation:" in c]
        assert len(every) == (0 if daemon.detector("main").mode == "trigger" else 4)
    finally:
        daemon.close()


def test_asleep_detection_sends_one_command_every_2_s_on_a_clock_that_moves_between_readings(
    sb: Sandbox, tmp_path: Path
) -> None:
    """The daemon sets its next poll from the time the poll began: so does the presence check
    (not from its reply's time), and a poll a hair early is on time (`SCHEDULE_SLACK_S`)."""
    clock = CreepingClock()
    daemon, _ = _built(sb, tmp_path, clock)
    try:
        link = daemon.links["main"]
        link.client.command = clock.command(link.client.command)  # type: ignore[method-assign]
        record = daemon.links["main"].record
        assert record is not None
        first, end = len(record), clock.now + 60.0
        while clock.now < end:  # as `Daemon.serve` waits: until the next poll, at most 1 s
            clock.now += min(1.0, max(0.0, daemon.next_poll.get("main", 0.0) - clock.now))
            daemon.step()
        sent = [unfenced(c) for c in record[first:]]
        detection = sum(_sender(c) == "detection" for c in sent)
        assert 29 <= detection <= 32, detection
    finally:
        daemon.close()


def test_the_first_poll_after_a_resume_reads_the_count_alone_in_trigger_mode(
    sb: Sandbox, tmp_path: Path
) -> None:
    """The start's reconcile read every frame; the count read before it is the first poll's
    baseline, so a click made meanwhile is read from the pack's marks."""
    daemon, clock = _built(sb, tmp_path)
    daemon.close()
    daemon, clock = _built(sb, tmp_path)  # a resume: reconciled
    try:
        room = pipes_room(daemon)
        trigger = daemon.detector("main").mode == "trigger"
        assert daemon.detector("main").counted_at_start == trigger
        x, y, z = room.geom.frame_pos(3, 4)
        sb.join("Alex", (x + 0.5, y + 1, z + 0.5))
        before = room.board.rotations[4 * 31 + 3]
        assert sb.use_entity("Alex", room.uuids[4 * 31 + 3])
        sent = _run(daemon, clock, 0.5)
        assert room.board.rotations[4 * 31 + 3] == (before + 1) % 4
        every = [c for c in sent if "unless entity @s[nbt={ItemRotation:" in c]
        assert len(every) == (0 if trigger else 4)
        if trigger:
            assert f"scoreboard players get {CLICK_HOLDER}" in sent[0]
    finally:
        daemon.close()


def test_with_nobody_near_the_rolling_audit_reads_a_slice_at_most_every_30_s(
    sb: Sandbox, tmp_path: Path
) -> None:
    """However short `audit_interval_s` and however many slices the board has, the audit's
    share of the idle budget stays one slice (two commands) every AUDIT_IDLE_SLICE_S (in
    either mode: the audit is the room's own)."""
    if sb.world_dir is None:
        pytest.skip("the same in scan mode")
    daemon, clock = _built(sb, tmp_path, audit_interval_s=8)  # 4 slices: one every 2 s near
    try:
        room = pipes_room(daemon)
        reads = {
            cmd.read_rotations(room.geom, room.frame_kind, (j, min(j + 7, 30)))
            for j in range(0, 31, 8)
        }
        sent = _run(daemon, clock, 4 * AUDIT_IDLE_SLICE_S)
        assert 3 <= sum(c in reads for c in sent) <= 4
    finally:
        daemon.close()
