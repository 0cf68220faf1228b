"""Locking a tile and turning it anticlockwise, end to end against the sandbox: the data pack's
two gestures (a sneaking click, a click holding a stick) and another player's click on a locked
tile, in trigger mode and in scan mode with the pack installed, with item frames and glow item
frames, clockwise clicks only without the pack, in survival and adventure (docs/in-game.md,
"Gestures", "Locking a tile")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.config import ROTATE_SOUNDS
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.state import LOCK_FORMAT, WORLD_FORMAT, RoomState
from controller.versions import release
from controller.world import turns
from controller.world.datapack import LOCKED_MESSAGE, build
from tests.support.harness import Harness, pack_harness, world_mismatches

# the pack installed and detection as configured; "none": no pack (scan mode)
SETUPS = ["trigger", "scan+pack", "none"]
FRAMES = ["item_frame", "glow_item_frame"]  # the world's `frame:` setting
# issue 24's matrix: each control in both detection modes with both frame kinds, and without
# the pack (clockwise clicks only) with plain frames
MATRIX = [(s, f) for s in SETUPS for f in FRAMES if s != "none" or f == "item_frame"]


def _harness(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    setup: str,
    files: dict[str, bytes],
    frame: str = "item_frame",
) -> Iterator[Harness]:
    # every command of the gestures, with either frame kind, is vanilla grammar (pack_harness)
    players = {"Alex": (3.5, 101, 3.5)}
    yield from pack_harness(tmp_path, monkeypatch, setup, files, players, frame=frame)


@pytest.fixture(params=SETUPS)
def setup(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def frame() -> str:
    """The room's frame kind: `item_frame` unless a test takes it from MATRIX."""
    return "item_frame"


@pytest.fixture
def harness(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setup: str, frame: str
) -> Iterator[Harness]:
    yield from _harness(tmp_path, monkeypatch, setup, build(release("26.1")), frame)


def poll(harness: Harness) -> int:
    """One regular poll (no gap, so no full read); the commands it sent."""
    return harness.regular_poll()


def frame_nbt(harness: Harness, i: int, j: int) -> Any:
    room = harness.room
    return harness.sb.call(lambda g: g.entity_nbt(room.uuids[j * room.board.width + i]))


def tags(nbt: Any) -> set[str]:
    return {str(t) for t in nbt.get("Tags", [])}


def sneak_click(harness: Harness, i: int, j: int, player: str = "Alex") -> None:
    harness.sb.sneak(player, True)
    harness.sb.tick(1)  # the crouching pose follows the key at the player's tick
    harness.click(i, j, player=player)
    harness.sb.sneak(player, False)
    harness.sb.tick(1)


def told(harness: Harness, player: str, text: str) -> bool:
    return any(text in str(m) for m in harness.sb.inbox(player))


def heard(harness: Harness, player: str) -> list[str]:
    """The sounds the player heard, oldest first."""
    return [str(m["sound"]) for m in harness.sb.inbox(player) if m.get("type") == "sound"]


def saved(harness: Harness) -> RoomState:
    """The room's state file as a restarted daemon would read it."""
    return RoomState.load(harness.room.path)


@pytest.mark.parametrize(("setup", "frame"), MATRIX)
@pytest.mark.parametrize("mode", ["survival", "adventure"])
def test_lock_unlock_and_another_players_turn_of_a_locked_tile(
    harness: Harness, setup: str, frame: str, mode: str
) -> None:
    room, sb = harness.room, harness.sb
    sb.join("Bea", (0.5, 101, 6.5))
    for player in ("Alex", "Bea"):
        sb.set_game_mode(player, mode)
    sb.tick(1)
    poll(harness)  # the first poll after start
    idx = 2 * room.board.width + 3
    before, moves = room.board.rotations[idx], room.current_state.moves
    sneak_click(harness, 3, 2)
    poll(harness)
    nbt = frame_nbt(harness, 3, 2)
    if setup == "none":  # no pack: a sneaking click is a clockwise click
        assert idx not in room.current_state.locks
        assert room.board.rotations[idx] == (before + 1) % 4
        assert room.current_state.moves == saved(harness).moves == moves + 1
        assert heard(harness, "Alex")[-1] == ROTATE_SOUNDS[frame]
        assert world_mismatches(sb, room) == []
        return
    assert idx in room.current_state.locks
    assert room.board.rotations[idx] == before and room.current_state.moves == moves
    assert int(nbt["ItemRotation"]) == before and f"pipes.r{before}" in tags(nbt)
    assert turns.LOCKED in tags(nbt) and int(nbt["Invisible"]) == 1  # the border goes
    assert saved(harness).locks == {idx}  # kept in the state file
    assert world_mismatches(sb, room) == []
    # another player's click on the locked tile: the pack turns it back at once and tells
    # that player only
    harness.click(3, 2, player="Bea")
    nbt = frame_nbt(harness, 3, 2)
    assert int(nbt["ItemRotation"]) == before and turns.LOCKED in tags(nbt)
    assert told(harness, "Bea", LOCKED_MESSAGE) and not told(harness, "Alex", LOCKED_MESSAGE)
    poll(harness)
    assert room.board.rotations[idx] == before and room.current_state.moves == moves
    assert saved(harness).locks == {idx} and saved(harness).moves == moves
    # a sneaking click again unlocks
    sneak_click(harness, 3, 2)
    poll(harness)
    nbt = frame_nbt(harness, 3, 2)
    assert idx not in room.current_state.locks and saved(harness).locks == set()
    assert turns.LOCKED not in tags(nbt) and int(nbt["Invisible"]) == 0
    assert room.current_state.moves == moves  # neither the lock nor the unlock is a move
    harness.click(3, 2, player="Bea")  # unlocked, it turns for anyone
    poll(harness)
    assert room.board.rotations[idx] == (before + 1) % 4
    assert room.current_state.moves == saved(harness).moves == moves + 1
    assert heard(harness, "Bea")[-1] == ROTATE_SOUNDS[frame]
    assert world_mismatches(sb, room) == []


@pytest.mark.parametrize("setup", ["trigger"], indirect=True)
def test_a_new_puzzle_clears_every_lock(harness: Harness) -> None:
    room = harness.room
    poll(harness)
    sneak_click(harness, 1, 1)
    sneak_click(harness, 5, 4)
    poll(harness)
    w = room.board.width
    assert room.current_state.locks == {1 * w + 1, 4 * w + 5}
    room.reset(harness.daemon.links["main"])
    assert room.current_state.locks == set()
    for i, j in ((1, 1), (5, 4)):
        nbt = frame_nbt(harness, i, j)
        assert turns.LOCKED not in tags(nbt) and int(nbt["Invisible"]) == 0
    assert RoomState.load(room.path).locks == set()


@pytest.mark.parametrize(("setup", "frame"), MATRIX)
@pytest.mark.parametrize("mode", ["survival", "adventure"])
def test_a_stick_turns_a_quarter_back_in_one_move(
    harness: Harness, setup: str, frame: str, mode: str
) -> None:
    room, sb = harness.room, harness.sb
    sb.set_game_mode("Alex", mode)
    sb.tick(1)
    poll(harness)
    idx = 4 * room.board.width + 2
    before, moves = room.board.rotations[idx], room.current_state.moves
    sb.hold("Alex", turns.ANTICLOCKWISE_ITEM)
    harness.click(2, 4)
    poll(harness)
    # no pack: clockwise; with it a quarter anticlockwise
    after = (before + 1) % 4 if setup == "none" else (before + 3) % 4
    assert room.board.rotations[idx] == after
    nbt = frame_nbt(harness, 2, 4)
    assert int(nbt["ItemRotation"]) == after and f"pipes.r{after}" in tags(nbt)
    assert room.current_state.moves == saved(harness).moves == moves + 1
    assert saved(harness).board.rotations[idx] == after
    assert heard(harness, "Alex")[-1] == ROTATE_SOUNDS[frame]
    assert world_mismatches(sb, room) == []


@pytest.mark.parametrize("setup", ["trigger", "scan+pack"], indirect=True)
def test_a_gesture_costs_no_more_than_a_turn(harness: Harness, setup: str) -> None:
    """Finding a lock or an anticlockwise turn takes the commands a clockwise click takes
    (3 in trigger mode, 4 in scan mode), and writing it at most as many."""
    room, sb = harness.room, harness.sb
    poll(harness)
    finding = 3 if setup == "trigger" else 4

    def serialized() -> int:
        return int(sb.call(lambda g: g.total_cost["nbt_serializations"]))

    before = serialized()
    harness.click(0, 0)
    at_turn = serialized() - before  # the reward's cost on the server, at the click
    turn = poll(harness)
    before = serialized()
    sneak_click(harness, 6, 6)
    at_lock = serialized() - before
    lock = poll(harness)
    assert finding + 1 <= lock <= turn  # find it, then one conditional merge
    sb.hold("Alex", turns.ANTICLOCKWISE_ITEM)
    before = serialized()
    harness.click(6, 0)
    at_back = serialized() - before
    back = poll(harness)
    # each frame within reach serialized once by the marks; the gesture adds the turned
    # frame's test and its write (docs/datapack.md, "The gestures"), the locked (6, 6) its
    # refusal test at every later click
    assert at_turn > 49 and at_lock == at_turn + 2 and at_back == at_turn + 2 + 1
    assert back - finding <= 3 * 49 + 11  # the bound of any turn (tests/runtime/test_room_e2e)
    harness.click(6, 6)  # locked: the pack turns it back, the count does not move
    assert poll(harness) == (1 if setup == "trigger" else 4)
    assert world_mismatches(sb, room) == []


@pytest.fixture
def old_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    """A world whose pack speaks protocol 2 (before the gestures): one advancement, a reward
    that only marks and counts, `version` returning 2."""
    files = build(release("26.1"))
    files = {k: v for k, v in files.items() if "locking" not in k}
    fn = "data/pipes/function/clicked.mcfunction"
    lines = files[fn].decode().splitlines()
    gestures = ("pipes.refused", "weapon.mainhand", "is_sneaking")
    keep = [ln for ln in lines if not any(part in ln for part in gestures)]
    files[fn] = ("\n".join(keep) + "\n").encode()
    files["data/pipes/function/version.mcfunction"] = b"return 2\n"
    yield from _harness(tmp_path, monkeypatch, "trigger", files)


def test_an_older_pack_turns_clockwise_and_says_to_reinstall(
    old_pack: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness, room, sb = old_pack, old_pack.room, old_pack.sb
    assert harness.daemon.detector("main").mode == "trigger"
    assert not harness.daemon.detector("main").gestures
    records = [*caplog.get_records("setup"), *caplog.records]
    said = " ".join(r.getMessage() for r in records)
    assert "pipesctl install" in said and "anticlockwise" in said
    poll(harness)
    idx = 2 * room.board.width + 2
    before = room.board.rotations[idx]
    sneak_click(harness, 2, 2)
    sb.hold("Alex", turns.ANTICLOCKWISE_ITEM)
    harness.click(2, 2)
    poll(harness)
    assert room.board.rotations[idx] == (before + 2) % 4 and not room.current_state.locks
    # a lock the state holds (from a newer pack) is still kept: the daemon turns it back
    room.current_state.locks.add(idx)
    harness.click(2, 2)
    poll(harness)
    assert room.board.rotations[idx] == (before + 2) % 4
    assert told(harness, "Alex", LOCKED_MESSAGE)


@pytest.mark.parametrize("setup", ["trigger"], indirect=True)
def test_an_older_room_moves_past_world_format_six_at_start(harness: Harness) -> None:
    room, daemon = harness.room, harness.daemon
    state = room.current_state
    state.world_format = 5
    room.save()
    daemon.close()
    restarted = Daemon(harness.cfg, ["lobby"], connect=connect_server)
    restarted.start()
    try:
        again = restarted.rooms["lobby"]
        assert again.current_state.world_format == WORLD_FORMAT > LOCK_FORMAT  # type: ignore[attr-defined]
        assert RoomState.load(room.path).world_format == WORLD_FORMAT
    finally:
        restarted.close()
