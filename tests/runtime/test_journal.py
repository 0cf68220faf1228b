"""A build stopped half-way (controller/runtime/journal.py): the state and the count of commands
answered are on disk, and the next start sends only the rest of the same build."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.config import Config
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.journal import BuildJournal, journal_path
from controller.runtime.paint.room import PaintRoom
from controller.runtime.state import RoomState, state_path
from controller.sandbox import Sandbox
from controller.stopping import Stopping
from tests.support.harness import make_config, world_mismatches
from tests.support.paint_harness import paint_config
from tests.support.paint_harness import world_mismatches as paint_mismatches


class StopAfter:
    """A stop asked for at the `n`-th look (every command sent looks once)."""

    def __init__(self, n: int) -> None:
        self.left = n

    def is_set(self) -> bool:
        self.left -= 1
        return self.left < 0

    def wait(self, timeout: float | None = None) -> bool:
        return self.is_set()


@pytest.fixture
def sandbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        yield sb


def _looks_of_a_start(make: Callable[[Sandbox, Path], Config], tmp: Path) -> int:
    """How many commands a whole start (and build) of the room sends, on a fresh sandbox."""
    with Sandbox() as other:
        os.environ["SANDBOX_PW"] = other.password
        counter = StopAfter(10**9)
        daemon = Daemon(make(other, tmp), ["lobby"], connect=connect_server, stop=counter)
        daemon.start()
        daemon.close()
    return 10**9 - counter.left


def _interrupted(
    sb: Sandbox, state_dir: Path, share: float, make: Callable[[Sandbox, Path], Config]
) -> tuple[int, int]:
    """Start the room, stopped after `share` of its start's commands; (commands of the build
    answered, the build's length)."""
    after = int(_looks_of_a_start(make, state_dir.parent / "count") * share)
    os.environ["SANDBOX_PW"] = sb.password
    daemon = Daemon(make(sb, state_dir), ["lobby"], connect=connect_server, stop=StopAfter(after))
    with pytest.raises(Stopping):
        daemon.start()
    daemon.close()
    record = json.loads(journal_path(state_dir, "lobby").read_text())
    return record["sent"], record["total"]


def _pipes(sb: Sandbox, state_dir: Path) -> Config:
    return make_config(sb, state_dir, size=15)


def test_a_stopped_build_is_finished_not_started_over(sandbox: Sandbox, tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    sent, total = _interrupted(sandbox, state_dir, 0.5, _pipes)
    assert 64 < sent < total and sent % 64  # stopped half-way, the count exact
    first = RoomState.load(state_path(state_dir, "lobby"))
    assert first is not None and first.puzzle_number == 1
    daemon = Daemon(make_config(sandbox, state_dir, size=15), ["lobby"], connect=connect_server)
    daemon.start()
    room = daemon.rooms["lobby"]
    resumed = daemon.links["main"].sent
    daemon.close()
    assert not journal_path(state_dir, "lobby").exists()
    assert world_mismatches(sandbox, room) == []
    assert room.board.rotations == first.board.rotations
    # The rest of the build and the start's few commands, not a second whole build.
    assert resumed < (total - sent) + 40 < total


def test_a_count_left_behind_by_a_kill_resends_harmlessly(sandbox: Sandbox, tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    sent, _ = _interrupted(sandbox, state_dir, 0.8, _pipes)
    path = journal_path(state_dir, "lobby")
    record = json.loads(path.read_text())
    record["sent"] = max(0, sent - 63)  # a kill: the last record was up to 63 commands ago
    path.write_text(json.dumps(record))
    daemon = Daemon(make_config(sandbox, state_dir, size=15), ["lobby"], connect=connect_server)
    daemon.start()  # also counts the frames: a frame summoned twice would fail it
    room = daemon.rooms["lobby"]
    daemon.close()
    assert world_mismatches(sandbox, room) == []
    assert not path.exists()


def test_a_journal_of_another_build_starts_from_the_first_command(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    state_dir = tmp_path / "state"
    _interrupted(sandbox, state_dir, 0.6, _pipes)
    # The frames are now to be invisible: the same puzzle, other commands.
    cfg = make_config(sandbox, state_dir, size=15, invisible_frames=True)
    journal = BuildJournal(state_dir, "lobby")
    assert journal.pending()
    daemon = Daemon(cfg, ["lobby"], connect=connect_server)
    daemon.start()
    room = daemon.rooms["lobby"]
    count = daemon.links["main"].sent
    daemon.close()
    assert count > 15 * 15  # the whole build again
    assert world_mismatches(sandbox, room) == []


def test_a_paint_room_build_resumes_too(
    sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state_dir = tmp_path / "state"
    _interrupted(sandbox, state_dir, 0.8, paint_config)
    assert journal_path(state_dir, "lobby").exists()
    daemon = Daemon(paint_config(sandbox, state_dir), ["lobby"], connect=connect_server)
    with caplog.at_level("INFO", logger="controller.runtime"):
        daemon.start()
    room = daemon.rooms["lobby"]
    daemon.close()
    assert "an interrupted build was finished" in caplog.text
    assert not journal_path(state_dir, "lobby").exists()
    assert isinstance(room, PaintRoom)
    assert paint_mismatches(sandbox, room) == []
