"""`/trigger pipes_restart` and `/trigger pipes_undo` end to end against the sandbox: trigger mode
and scan mode with the data pack (item frames and glow item frames), scan mode without it,
survival and adventure (docs/in-game.md, "Restart", "Undo")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.runtime.ingame import (
    RESTART,
    RESTART_REFUSED,
    UNDO,
    UNDO_NEEDS_PACK,
    UNDO_NOTHING,
)
from controller.runtime.state import RoomState
from controller.versions import release
from controller.world import turns
from controller.world.datapack import build
from tests.support.harness import Harness, pack_harness, world_mismatches

SETUPS = ["trigger", "scan+pack", "none"]  # the pack and detection; "none": no pack, scan mode
FRAMES = ["item_frame", "glow_item_frame"]  # the world's `frame:` setting
# issue 24's matrix: each control in both detection modes with both frame kinds, and without
# the pack (clockwise clicks only) with plain frames
MATRIX = [(s, f) for s in SETUPS for f in FRAMES if s != "none" or f == "item_frame"]
W = 7


def _harness(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setup: str, **world: Any
) -> Iterator[Harness]:
    # every command of play, restart and undo is vanilla grammar (pack_harness)
    players = {"Alex": (3.5, 101, 3.5), "Bea": (1.5, 101, 1.5), "Mallory": (5.5, 101, 5.5)}
    files = build(release("26.1"))
    yield from pack_harness(
        tmp_path, monkeypatch, setup, files, players, size=W, liveness_interval_s=0, **world
    )


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
    yield from _harness(tmp_path, monkeypatch, setup, restart_by=["Alex"], frame=frame)


def poll(harness: Harness) -> int:
    """One regular poll (no gap, so no full read); the commands it sent."""
    return harness.regular_poll()


def click(harness: Harness, i: int, j: int, player: str = "Alex", stick: bool = False) -> int:
    """One click, then one poll; the poll's commands."""
    harness.sb.hold(player, turns.ANTICLOCKWISE_ITEM if stick else None)
    harness.click(i, j, player=player)
    return poll(harness)


def sneak_click(harness: Harness, i: int, j: int, player: str = "Alex") -> None:
    harness.sb.sneak(player, True)
    harness.sb.tick(1)
    harness.click(i, j, player=player)
    harness.sb.sneak(player, False)
    harness.sb.tick(1)
    poll(harness)


def use(harness: Harness, player: str, objective: str) -> int:
    """The player uses `/trigger <objective>` (armed first), and the room answers; the
    commands the answer took."""
    sb, room = harness.sb, harness.room
    sb.call(lambda game: game.execute(f"scoreboard players enable {player} {objective}"))
    assert sb.trigger(player, objective).startswith("Triggered")
    link = harness.daemon.links["main"]
    sent = link.sent
    if objective == UNDO:
        room.ingame.check_undo(link)
    else:
        room.ingame.check_restart(link)
    return link.sent - sent


def told(harness: Harness, player: str) -> list[str]:
    return [str(m["text"]) for m in harness.sb.inbox(player) if m.get("type") == "tellraw"]


def rotation(harness: Harness, i: int, j: int) -> int:
    """Tile (i, j)'s rotation in the engine."""
    return harness.room.board.rotations[j * W + i]


def in_world(harness: Harness, i: int, j: int) -> int:
    """The `ItemRotation` of tile (i, j)'s frame in the sandbox world."""
    uid = harness.room.uuids[j * W + i]
    return int(harness.sb.call(lambda g: g.entity_nbt(uid))["ItemRotation"])


def frame_tags(harness: Harness, k: int) -> set[str]:
    """The tags of tile k's frame in the sandbox world."""
    uid = harness.room.uuids[k]
    return {str(t) for t in harness.sb.call(lambda g: g.entity_nbt(uid)).get("Tags", [])}


@pytest.mark.parametrize(("setup", "frame"), MATRIX)
@pytest.mark.parametrize("mode", ["survival", "adventure"])
def test_a_listed_player_restarts_the_puzzle_as_dealt(
    harness: Harness, setup: str, frame: str, mode: str
) -> None:
    room, sb = harness.room, harness.sb
    for player in ("Alex", "Bea", "Mallory"):
        sb.set_game_mode(player, mode)
    sb.tick(1)
    poll(harness)
    dealt = list(room.board.rotations)
    assert room.current_state.start == dealt
    click(harness, 1, 1)
    click(harness, 2, 1, player="Bea")
    sneak_click(harness, 4, 4)
    harness.sb.tick(1)
    assert room.current_state.moves >= 2
    assert (turns.LOCKED in frame_tags(harness, 4 * W + 4)) == (setup != "none")
    started = room.current_state.started_at
    link = harness.daemon.links["main"]
    before, turned = len(link.record), list(room.board.rotations)
    shown, locks = list(room.shown_class), set(room.current_state.locks)
    use(harness, "Alex", RESTART)
    assert room.board.rotations == dealt
    state = room.current_state
    assert state.moves == 0 and state.locks == set() and state.started_at >= started
    assert state.puzzle_number == 1
    kept = RoomState.load(room.path)
    assert kept.start == kept.board.rotations == dealt and kept.moves == 0 and not kept.locks
    assert world_mismatches(sb, room) == []
    assert not any(turns.LOCKED in frame_tags(harness, k) for k in range(room.board.size))
    # written: only the frames whose rotation, picture or lock differs from the deal's
    differ = [
        k
        for k in range(room.board.size)
        if turned[k] != dealt[k] or shown[k] != room.shown_class[k] or k in locks
    ]
    merges = [c for c in link.record[before:] if "data merge entity" in c]
    assert len(merges) == len(differ) >= 2
    for player in ("Alex", "Bea", "Mallory"):
        assert any("Alex restarted this puzzle" in t for t in told(harness, player))
    # the turns before the restart cannot be undone
    if setup != "none":
        use(harness, "Alex", UNDO)
        assert told(harness, "Alex")[-1] == UNDO_NOTHING


def test_an_unlisted_player_is_refused_and_only_they_are_told(harness: Harness) -> None:
    room = harness.room
    poll(harness)
    click(harness, 1, 1)
    turned = list(room.board.rotations)
    use(harness, "Mallory", RESTART)
    assert room.board.rotations == turned and room.current_state.moves == 1
    assert told(harness, "Mallory")[-1] == RESTART_REFUSED
    assert not any(RESTART_REFUSED in t or "restarted" in t for t in told(harness, "Alex"))


def test_everyone_may_restart_with_a_star(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for harness in _harness(tmp_path, monkeypatch, "trigger", restart_by=["*"]):
        room = harness.room
        poll(harness)
        dealt = list(room.board.rotations)
        click(harness, 3, 3)
        use(harness, "Mallory", RESTART)
        assert room.board.rotations == dealt
        assert any("Mallory restarted this puzzle" in t for t in told(harness, "Bea"))


@pytest.mark.parametrize(("setup", "frame"), MATRIX)
@pytest.mark.parametrize("mode", ["survival", "adventure"])
def test_undo_takes_back_the_askers_last_clockwise_and_anticlockwise_turns(
    harness: Harness, setup: str, frame: str, mode: str
) -> None:
    room, sb = harness.room, harness.sb
    sb.set_game_mode("Alex", mode)
    sb.tick(1)
    poll(harness)
    a, b = rotation(harness, 2, 2), rotation(harness, 4, 2)
    click(harness, 2, 2)
    click(harness, 4, 2, stick=True)
    moves = room.current_state.moves
    use(harness, "Alex", UNDO)
    if setup == "none":  # no pack: nobody knows who turned a tile
        assert told(harness, "Alex")[-1] == UNDO_NEEDS_PACK
        assert room.current_state.moves == moves
        return
    assert rotation(harness, 4, 2) == in_world(harness, 4, 2) == b
    assert rotation(harness, 2, 2) == in_world(harness, 2, 2) == (a + 1) % 4
    assert told(harness, "Alex")[-1] == "Undone: your turn of the tile at column 5, row 3"
    use(harness, "Alex", UNDO)
    assert rotation(harness, 2, 2) == in_world(harness, 2, 2) == a
    assert room.current_state.moves == moves + 2  # an undo is a move
    kept = RoomState.load(room.path)
    assert kept.moves == moves + 2 and kept.board.rotations == room.board.rotations
    use(harness, "Alex", UNDO)
    assert told(harness, "Alex")[-1] == UNDO_NOTHING
    assert world_mismatches(sb, room) == []


@pytest.mark.parametrize("setup", ["trigger", "scan+pack"], indirect=True)
def test_two_players_undo_their_own_turns(harness: Harness) -> None:
    poll(harness)
    a, b = rotation(harness, 1, 3), rotation(harness, 5, 3)
    click(harness, 1, 3)
    click(harness, 5, 3, player="Bea")
    click(harness, 5, 3, player="Bea")
    use(harness, "Alex", UNDO)  # Alex's turn, though Bea clicked since
    assert rotation(harness, 1, 3) == a and rotation(harness, 5, 3) == (b + 2) % 4
    use(harness, "Bea", UNDO)
    use(harness, "Bea", UNDO)
    assert rotation(harness, 5, 3) == b
    use(harness, "Mallory", UNDO)
    assert told(harness, "Mallory")[-1] == UNDO_NOTHING
    assert world_mismatches(harness.sb, harness.room) == []


@pytest.mark.parametrize("setup", ["trigger", "scan+pack"], indirect=True)
def test_a_tile_another_player_turned_since_is_not_undone(harness: Harness) -> None:
    poll(harness)
    a = rotation(harness, 3, 5)
    click(harness, 3, 5)
    click(harness, 3, 5, player="Bea")
    use(harness, "Alex", UNDO)
    assert told(harness, "Alex")[-1] == UNDO_NOTHING and rotation(harness, 3, 5) == (a + 2) % 4
    use(harness, "Bea", UNDO)
    assert rotation(harness, 3, 5) == (a + 1) % 4


@pytest.mark.parametrize("setup", ["trigger", "scan+pack"], indirect=True)
def test_undo_after_a_lock_unlocks(harness: Harness) -> None:
    room = harness.room
    poll(harness)
    a = rotation(harness, 6, 1)
    click(harness, 6, 1)
    sneak_click(harness, 6, 1)
    idx = 1 * W + 6
    assert idx in room.current_state.locks
    moves = room.current_state.moves
    use(harness, "Alex", UNDO)
    assert idx not in room.current_state.locks and room.current_state.moves == moves
    assert told(harness, "Alex")[-1] == "Undone: your lock of the tile at column 7, row 2"
    use(harness, "Alex", UNDO)  # then the turn before it
    assert rotation(harness, 6, 1) == a
    assert world_mismatches(harness.sb, room) == []


@pytest.mark.parametrize("setup", ["trigger", "scan+pack"], indirect=True)
def test_a_click_costs_what_it_did_and_an_undo_a_few_commands(harness: Harness, setup: str) -> None:
    """Finding a click takes 3 commands in trigger mode and 4 in scan mode, as before the pack
    noted who clicked (tests/runtime/pipes/test_gestures_e2e.py)."""
    poll(harness)
    finding = 3 if setup == "trigger" else 4
    link = harness.daemon.links["main"]
    before = len(link.record)
    click(harness, 0, 0)
    sent = link.record[before:]
    writes = ("data merge", "setblock", "playsound")
    found = [c for c in sent if not any(w in c for w in writes)]
    assert len(found) == finding
    # an undo: the asker read and re-armed (3), its number, its frames, the write, the answer
    cost = use(harness, "Alex", UNDO)
    assert rotation(harness, 0, 0) == harness.room.current_state.start[0]  # type: ignore[index]
    assert cost <= 3 + 1 + 1 + len(sent) - finding + 1 + 1


@pytest.mark.parametrize("setup", ["trigger", "scan+pack"], indirect=True)
def test_a_players_clicks_then_as_many_undos_give_the_deal_back(harness: Harness) -> None:
    """Clockwise, anticlockwise and lock clicks on a few tiles (some twice, in separate polls),
    then one undo per click: the board, the locks and the world are as dealt."""
    import random

    room = harness.room
    poll(harness)
    dealt = list(room.board.rotations)
    rng = random.Random(5)
    gestures = [rng.choice(["cw", "cw", "ccw", "lock"]) for _ in range(8)]
    tiles = [rng.choice([(1, 1), (2, 5), (5, 2)]) for _ in gestures]
    for (i, j), gesture in zip(tiles, gestures, strict=True):
        if gesture == "lock":
            sneak_click(harness, i, j)
        elif room.locked(j * W + i):
            sneak_click(harness, i, j)  # unlock first: a locked tile does not turn
            gestures.append("lock")
            click(harness, i, j, stick=gesture == "ccw")
        else:
            click(harness, i, j, stick=gesture == "ccw")
    for _ in gestures:
        use(harness, "Alex", UNDO)
        assert told(harness, "Alex")[-1].startswith("Undone: your ")
    assert room.board.rotations == dealt and room.current_state.locks == set()
    use(harness, "Alex", UNDO)
    assert told(harness, "Alex")[-1] == UNDO_NOTHING
    assert world_mismatches(harness.sb, room) == []


@pytest.mark.parametrize("setup", ["trigger", "scan+pack"], indirect=True)
def test_a_turn_the_audit_found_is_undone_and_a_new_puzzle_forgets_every_turn(
    harness: Harness,
) -> None:
    room, link = harness.room, harness.daemon.links["main"]
    poll(harness)
    a = rotation(harness, 4, 4)
    harness.click(4, 4)  # no poll: the rolling audit finds the turn
    room.reconciler.audit_rows(link, 0, W - 1)
    poll(harness)
    assert rotation(harness, 4, 4) == (a + 1) % 4
    use(harness, "Alex", UNDO)
    assert rotation(harness, 4, 4) == a
    click(harness, 4, 4)
    room.reset(link)  # a new puzzle
    use(harness, "Alex", UNDO)
    assert told(harness, "Alex")[-1] == UNDO_NOTHING
