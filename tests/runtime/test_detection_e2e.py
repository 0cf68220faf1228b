"""Turn detection end to end, both modes, through the real transport against the sandbox: replies
spoiled by another RCON connection, glow frames, a server restart and a `reload`, players near
and far, clicking and walking away, and the sounds a turn makes (docs/turn-detection.md)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.puzzle.model import TileClass
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.sandbox import Sandbox
from controller.world.replies import parse_count
from tests.support.harness import Harness, make_config, world_mismatches
from tests.support.interference import Interference

ROTATE = "minecraft:entity.item_frame.rotate_item"
ADD_ITEM = ("minecraft:entity.item_frame.add_item", "minecraft:entity.glow_item_frame.add_item")
WATER = "minecraft:block.pointed_dripstone.drip_water"


def poll_now(daemon: Daemon) -> int:
    """A poll right after the previous one (no gap, which would read every frame)."""
    daemon.last_poll["main"] = daemon.clock.monotonic()
    return daemon.poll("main")


def stay_awake(daemon: Daemon) -> None:
    """A player is near: poll at the fast rate without presence checks."""
    detector = daemon.detector("main")
    detector.awake, detector.awake_until = True, float("inf")


def expected_rotations(initial: list[int], clicks: Counter[int]) -> list[int]:
    return [(r + clicks[k]) % 4 for k, r in enumerate(initial)]


def is_clicked(sb: Sandbox, player: str) -> bool:
    """Whether the data pack has marked the player (the trigger fired)."""
    reply = sb.call(lambda g: g.execute(f"execute if entity @a[name={player},tag=pipes.clicked]"))
    return parse_count(reply[0]) == 1


# -- another RCON connection -----------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_replies_spoiled_by_another_connection_lose_no_turn(
    harness: Harness, detect: str, seed: int
) -> None:
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    daemon.poll("main")  # the first poll after start reads every frame
    stay_awake(daemon)
    victim = sb.log_entries()[-1].connection
    sb.join("Bea", (0.5, 101, 6.5))
    rng = random.Random(seed)
    w, size = room.board.width, room.board.size
    others = ["list", f"data get entity {room.uuids[0]}", "time query gametime"]
    initial = list(room.board.rotations)
    clicks: Counter[int] = Counter()
    with Interference(sb, victim, random.Random(seed + 100), others) as noise:
        for n in range(40):
            idx = rng.randrange(size)
            times = rng.choice([1, 1, 2, 3])
            harness.click(idx % w, idx // w, times, player="Bea" if n % 3 == 0 else "Alex")
            clicks[idx] += times
            noise.active = True
            poll_now(daemon)
            noise.active = False
            for _ in range(3):  # the other connection is quiet now: nothing may stay lost
                poll_now(daemon)
            assert room.board.rotations == expected_rotations(initial, clicks), n
    assert min(noise.counts[k] for k in ("mixed", "replaced", "emptied")) >= 5, noise.counts
    assert world_mismatches(sb, room) == []


# -- glow item frames --------------------------------------------------------------------------


@pytest.fixture
def glow(sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path / "state", frame="glow_item_frame")
    daemon = Daemon(cfg, ["lobby"], connect=connect_server)
    daemon.start()
    sandbox.join("Alex", (3.5, 101, 3.5))
    yield Harness(sandbox, cfg, daemon)
    daemon.close()


def test_glow_frame_turns_are_detected(glow: Harness, detect: str) -> None:
    room, daemon, sb = glow.room, glow.daemon, glow.sb
    daemon.poll("main")
    stay_awake(daemon)
    assert sb.call(lambda g: g.world.entities[room.uuids[0]].type_id) == "minecraft:glow_item_frame"
    before = list(room.board.rotations)
    glow.click(2, 3)
    assert is_clicked(sb, "Alex") == (detect == "trigger")
    assert poll_now(daemon) == 1
    idx = 3 * room.board.width + 2
    assert room.board.rotations[idx] == (before[idx] + 1) % 4
    assert not is_clicked(sb, "Alex")
    assert world_mismatches(sb, room) == []


# -- restart and reload ------------------------------------------------------------------------


def _click_is_applied_by_detection(harness: Harness, detect: str, i: int, j: int) -> None:
    """A click after the daemon is settled is found by a regular poll (not a full read)."""
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    stay_awake(daemon)
    poll_now(daemon)
    idx = j * room.board.width + i
    before = room.board.rotations[idx]
    harness.click(i, j)
    assert is_clicked(sb, "Alex") == (detect == "trigger")
    assert poll_now(daemon) == 1
    assert room.board.rotations[idx] == (before + 1) % 4


def test_detection_works_after_a_server_restart(harness: Harness, detect: str) -> None:
    daemon, sb = harness.daemon, harness.sb
    _click_is_applied_by_detection(harness, detect, 1, 1)
    sb.restart()
    sb.join("Alex", (3.5, 101, 3.5))
    for _ in range(50):
        daemon.step()  # the connection is found dropped, then the rooms are reconciled
        if "main" not in daemon.down and daemon.links["main"].sent and sb.log_entries():
            break
    assert "main" not in daemon.down
    assert daemon.detector("main").mode == detect
    _click_is_applied_by_detection(harness, detect, 5, 2)
    _click_is_applied_by_detection(harness, detect, 5, 2)
    assert world_mismatches(sb, harness.room) == []


def test_detection_works_after_a_reload(harness: Harness, detect: str) -> None:
    sb = harness.sb
    _click_is_applied_by_detection(harness, detect, 2, 2)
    assert sb.call(lambda g: g.execute("reload")) == ["Reloading!"]
    sb.tick(2)  # the reload completes on the main thread
    _click_is_applied_by_detection(harness, detect, 2, 2)
    _click_is_applied_by_detection(harness, detect, 4, 4)
    assert world_mismatches(sb, harness.room) == []


# -- players near and far, walking away --------------------------------------------------------


def test_clicks_near_and_far_from_another_player(harness: Harness, detect: str) -> None:
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    daemon.poll("main")
    stay_awake(daemon)
    sb.join("Bea", (0.5, 101, 0.5))  # stands at the north-west corner
    w = room.board.width
    initial = list(room.board.rotations)
    clicks: Counter[int] = Counter()
    for i, j in [(6, 6), (0, 1), (6, 5), (1, 0)]:  # far from Bea, then next to her
        harness.click(i, j)
        clicks[j * w + i] += 1
        assert poll_now(daemon) == 1
    # both at once: Alex far from Bea, Bea at her corner
    harness.click(5, 6)
    harness.click(0, 0, player="Bea")
    clicks[6 * w + 5] += 1
    clicks[0] += 1
    assert poll_now(daemon) == 2
    assert room.board.rotations == expected_rotations(initial, clicks)
    assert world_mismatches(sb, room) == []


def test_several_clicks_by_several_players_in_one_poll(harness: Harness, detect: str) -> None:
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    daemon.poll("main")
    stay_awake(daemon)
    sb.join("Bea", (6.5, 101, 0.5))
    sb.join("Cid", (0.5, 101, 6.5))
    w = room.board.width
    initial = list(room.board.rotations)
    clicks: Counter[int] = Counter()
    for player, i, j, times in [
        ("Alex", 3, 3, 2), ("Bea", 6, 0, 1), ("Cid", 0, 6, 3), ("Alex", 3, 4, 1), ("Bea", 5, 1, 5),
    ]:  # fmt: skip
        harness.click(i, j, times, player=player)
        clicks[j * w + i] += times
    assert poll_now(daemon) == 5
    assert room.board.rotations == expected_rotations(initial, clicks)
    assert poll_now(daemon) == 0
    assert world_mismatches(sb, room) == []


def test_a_player_who_clicks_and_steps_back_is_seen(harness: Harness, detect: str) -> None:
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    daemon.poll("main")
    stay_awake(daemon)
    before = room.board.rotations[3 * room.board.width + 3]
    x, y, z = room.geom.frame_pos(3, 3)
    sb.move("Alex", (x + 3.5, y + 1, z + 0.5))  # three blocks away: within reach
    assert sb.use_entity("Alex", room.uuids[3 * room.board.width + 3])
    sb.move("Alex", (x + 4.2, y + 1, z + 0.5))  # one step further before the next poll
    assert poll_now(daemon) == 1
    assert room.board.rotations[3 * room.board.width + 3] == (before + 1) % 4


def test_a_trigger_click_is_seen_after_the_player_left(harness: Harness, detect: str) -> None:
    if detect != "trigger":
        pytest.skip("the data pack marks the frames at the click; a scan needs the player near")
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    daemon.poll("main")
    stay_awake(daemon)
    before = list(room.board.rotations)
    harness.click(1, 5)
    sb.move("Alex", (300.5, 101, 300.5))  # far away before the next poll
    assert poll_now(daemon) == 1
    assert (
        room.board.rotations[5 * room.board.width + 1] == (before[5 * room.board.width + 1] + 1) % 4
    )
    # asleep (nobody near): the click check still comes every other second
    sb.join("Bea", (3.5, 101, 3.5))
    harness.click(4, 1, player="Bea")
    sb.move("Bea", (400.5, 101, 400.5))
    detector = daemon.detector("main")
    detector.awake_until = 0.0
    applied = 0
    for _ in range(3):
        applied += poll_now(daemon)
        detector.awake_until = 0.0  # the next once-a-second poll is due
    assert applied == 1 and detector.awake  # the click woke the detector
    detector.awake_until = 0.0
    poll_now(daemon)
    assert not detector.awake  # until the presence check found nobody near
    assert room.board.rotations[room.board.width + 4] == (before[room.board.width + 4] + 1) % 4
    assert world_mismatches(sb, room) == []


# -- quiet writes and the room's own sounds ----------------------------------------------------


def _sounds_since(sb: Sandbox, start: int) -> list[dict[str, object]]:
    return sb.sounds()[start:]


def test_writes_are_silent_and_the_room_plays_its_own_sounds(harness: Harness) -> None:
    room, daemon, sb = harness.room, harness.daemon, harness.sb
    daemon.poll("main")
    stay_awake(daemon)
    sb.join("Far", (60.5, 101, 60.5))  # online, out of hearing
    w = room.board.width
    order = solution_order(room.board)
    turns = wettings = 0
    for _ in range(30):
        idx = next_click(room.board, order)
        if idx is None:
            break
        start, shown = len(sb.sounds()), list(room.shown_class)
        harness.click(idx % w, idx // w)
        poll_now(daemon)
        played = _sounds_since(sb, start)
        # settles and picture changes rewrite Silent frames: no "item added" anywhere
        assert not any(s["sound"] in ADD_ITEM for s in played), played
        assert all(s["entity"] is None for s in played), played  # nothing from the frames
        rotate = [s for s in played if s["sound"] == ROTATE]
        x, y, z = room.geom.frame_pos(idx % w, idx // w)
        assert [s["pos"] for s in rotate] == [(x + 0.5, y + 0.1, z + 0.5)]
        assert rotate[0]["heard_by"] == ["Alex"]
        assert rotate[0]["source"] == "neutral"  # Entity.getSoundSource of a frame
        turns += 1
        wetted = [
            room.geom.frame_pos(k % w, k // w)
            for k in range(room.board.size)
            if shown[k] == TileClass.DRY and room.shown_class[k] != TileClass.DRY
        ]
        water = [s["pos"] for s in played if s["sound"] == WATER]
        if wetted:
            assert len(water) == 1 and water[0] in [
                (a + 0.5, b + 0.1, c + 0.5) for a, b, c in wetted
            ]
            wettings += 1
        else:
            assert water == []
    assert turns >= 10 and wettings >= 3
    assert world_mismatches(sb, room) == []


def test_sounds_off_plays_nothing(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SANDBOX_PW", sandbox.password)
    cfg = make_config(sandbox, tmp_path / "state", sounds={"turn": None, "water": None})
    daemon = Daemon(cfg, ["lobby"], connect=connect_server)
    daemon.start()
    sandbox.join("Alex", (3.5, 101, 3.5))
    harness = Harness(sandbox, cfg, daemon)
    room = harness.room
    daemon.poll("main")
    stay_awake(daemon)
    start = len(sandbox.sounds())
    order = solution_order(room.board)
    w = room.board.width
    for _ in range(10):
        idx = next_click(room.board, order)
        if idx is None:
            break
        harness.click(idx % w, idx // w)
        assert poll_now(daemon) == 1
    assert room.state is not None and room.state.moves == 10
    assert _sounds_since(sandbox, start) == []  # Silent frames: not even the player's turn
    assert world_mismatches(sandbox, room) == []
    daemon.close()
