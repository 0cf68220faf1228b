"""No split brain with real `pipesctl start` processes: an owner frozen (SIGSTOP) in the middle
of a turn until its lease expired, a second daemon from another state directory taking the room
over, then the first resumed (SIGCONT). Not one of the resumed daemon's writes lands, it logs the
loss once and sends nothing more (docs/reliability.md, "One owner per room")."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.config import load_config
from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.state import RoomState
from controller.sandbox import Sandbox
from controller.sandbox.server import CommandLogEntry
from controller.versions import release
from controller.world import commands as cmd
from controller.world.datapack import build
from controller.world.replies import parse_score
from tests.support.fence import fence_owner, unfenced
from tests.support.harness import world_mismatches
from tests.support.split_brain import LOST_LINE, owner_of, room_config, start, wait_until


@pytest.fixture(params=["scan", "trigger"])
def sandbox(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Sandbox, str]]:
    """Both detection modes: `trigger` worlds have the data pack installed."""
    mode: str = request.param
    if mode == "scan":
        with Sandbox() as sb:
            yield sb, mode
        return
    world = tmp_path / "world"
    install_pack(world / "datapacks" / PACK_FOLDER, build(release("26.1")))
    with Sandbox(world_dir=world) as sb:
        yield sb, mode


def _room(setup_config: Path) -> PipesRoom:
    cfg = load_config(setup_config)
    room = PipesRoom("lobby", cfg.worlds["lobby"], Path(cfg.state_dir))
    state = RoomState.load(Path(cfg.state_dir) / "lobby.json")
    assert state is not None
    room.state = state
    from controller.puzzle.play import PlayState

    room.play = PlayState(state.board)
    return room


def _owner(sb: Sandbox) -> int | None:
    reply = sb.call(lambda g: g.execute(cmd.lease_owner("lobby")))
    return parse_score("".join(reply))


def test_a_resumed_owner_writes_nothing_after_another_took_the_room(
    sandbox: tuple[Sandbox, str], tmp_path: Path
) -> None:
    sb, detect = sandbox
    first_setup = room_config(tmp_path / "a", sb.port, detect)
    second_setup = room_config(tmp_path / "b", sb.port, detect)
    first = start(first_setup, sb, tmp_path / "a.log")
    second = None
    append = sb.command_log.append
    frozen: list[CommandLogEntry] = []
    try:
        me = owner_of(first_setup)
        mine = {e.connection for e in sb.log_entries() if f"matches {me}" in e.command}

        def freeze_mid_turn(entry: CommandLogEntry) -> None:
            # The turned frame's settle is written: freeze the owner before it reads the reply,
            # with the rest of the turn (blocks, pictures, sounds, the actionbar) still to send.
            if (
                not frozen
                and entry.connection in mine
                and "ItemRotation:" in entry.command
                and "data merge entity" in entry.command
            ):
                frozen.append(entry)
                os.kill(first.proc.pid, signal.SIGSTOP)
            append(entry)

        sb.command_log.append = freeze_mid_turn  # type: ignore[method-assign]
        uuids = _room(first_setup.config).uuids
        sb.join("Alex", (1.5, 101, 1.5))
        assert sb.use_entity("Alex", uuids[4])
        wait_until(lambda: bool(frozen), first)
        sb.call(lambda g: setattr(g.world, "tick_count", g.world.tick_count + 500))  # expired
        second = start(second_setup, sb, tmp_path / "b.log")
        other = owner_of(second_setup)
        # The new owner adopts the frame turned meanwhile (its summon of that UUID is refused),
        # then the world is exactly its state.
        wait_until(lambda: world_mismatches(sb, _room(second_setup.config)) == [], second)
        assert _owner(sb) == other
        resumed_at = len(sb.log_entries())
        os.kill(first.proc.pid, signal.SIGCONT)
        deadline = time.monotonic() + 10
        while LOST_LINE not in first.text() and time.monotonic() < deadline:
            time.sleep(0.02)
        lost_at = len(sb.log_entries())
        time.sleep(1.5)  # several poll intervals: a room given up is sent nothing
        entries = sb.log_entries()
        # Its connections (a reconnect after the pause opens another): every one that sent a
        # command under its id.
        mine |= {e.connection for e in entries if f"matches {me}" in e.command}
        after = [e for e in entries[resumed_at:] if e.connection in mine]
        # Every write the resumed owner sent ran behind its fence (under its own id), and the
        # lease was the new owner's all along (the resumed daemon never took it back), so none
        # of them ran. (Reply lengths prove nothing: vanilla's one output buffer mixes the two
        # daemons' replies.)
        # Not room writes: the lease's own commands, and the turn detector's marks (`pipes.near`
        # tags, the data pack's `done`), which are per server, not per room, and not fenced
        # (docs/reliability.md, "One owner per room": left alone).
        lease = ("#pipes.lobby.renewed", "#pipes.stale.", "#pipes.lobby.owner pipes_lease")
        detector = ("pipes.near", "function pipes:")
        writes = [
            e.command
            for e in after
            if cmd.writes(unfenced(e.command))
            and not any(h in unfenced(e.command) for h in lease + detector)
        ]
        assert [c for c in writes if fence_owner(c) != me] == []
        assert _owner(sb) == other
        assert first.text().count("lease taken") == 1, first.text()
        # ... so the world is still exactly what the new owner's state says.
        assert world_mismatches(sb, _room(second_setup.config)) == []
        assert first.text().count(LOST_LINE) == 1, first.text()
        line = next(x for x in first.text().splitlines() if LOST_LINE in x)
        assert f"room lobby: lease lost to owner {other} at " in line
        assert line.endswith("; stopping this room")
        assert [e.command for e in entries[lost_at:] if e.connection in mine] == [], first.text()
        assert "Traceback" not in first.text()
        assert first.stop((signal.SIGTERM,), 0.0) < 10
        assert first.proc.returncode == 0
    finally:
        sb.command_log.append = append  # type: ignore[method-assign]
        if first.proc.poll() is None:
            os.kill(first.proc.pid, signal.SIGCONT)
        first.kill()
        if second is not None:
            second.kill()
