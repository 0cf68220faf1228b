"""The records writer: the game's writes wait on disk while the store is away and reach it
once, the state files' records are imported once, and the network figures are read back."""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from pathlib import Path

import pytest

from controller.records.model import SolveRecord, Standing
from controller.records.store import ImportedRecord, RecordsStore, Target
from controller.records.writer import OUTBOX_DIR, Figures, RecordsWriter
from tests.support.postgres import PostgresServer

DAY = dt.date(2026, 12, 1)
T0 = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC).timestamp()


def _solve(player: str, name: str, seconds: float, at: float = 0.0) -> SolveRecord:
    return SolveRecord(
        str(uuid.uuid4()), "hub", "lobby", "tree", 7, DAY.isoformat(), player, name, seconds,
        20, 18, T0 + at,
    )  # fmt: skip


def _writer(target: Target, state: Path) -> RecordsWriter:
    writer = RecordsWriter(target, state, today=lambda: DAY, refresh_s=60)
    return writer


def test_solves_reach_the_store_and_the_import_runs_once(tmp_path: Path) -> None:
    target = Target("sqlite", str(tmp_path / "state" / "records.sqlite3"))
    snapshots: list[str] = []

    def snapshot() -> list[ImportedRecord]:
        snapshots.append("read")
        return [ImportedRecord("", "Alex", 4, 55.0, (55.0, 60.0))]

    writer = _writer(target, tmp_path / "state")
    room = writer.add_room("lobby", "hub", snapshot)
    writer.start()
    room.record([_solve("u1", "Alex", 50.0), _solve("u2", "Steve", 70.0)])
    assert writer.flush(30)
    writer.close()
    again = _writer(target, tmp_path / "state")
    again.add_room("lobby", "hub", snapshot)  # imported already: the state file is not read
    again.close()
    assert snapshots == ["read"]
    with RecordsStore(target) as store:
        assert len(store.solves()) == 2
        board = store.leaderboard(None, by="solves", limit=5)
    assert [(s.player_name, s.solves, s.best_s) for s in board] == [
        ("Alex", 5, 50.0), ("Steve", 1, 70.0),
    ]  # fmt: skip


def test_writes_wait_on_disk_while_the_store_is_away_and_arrive_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "controller.records")
    blocker = tmp_path / "db"
    blocker.write_text("a file where the store's folder should be")
    target = Target("sqlite", str(blocker / "records.sqlite3"))
    writer = _writer(target, tmp_path / "state")
    room = writer.add_room("lobby", "hub", lambda: [])
    writer.start()
    first = _solve("u1", "Alex", 50.0)
    room.record([first, _solve("u1", "Alex", 40.0, 30)])
    assert not writer.flush(0.3)
    assert writer.pending() == 3  # the import and two solves
    writer.close()  # a stop while the store is away: the writes stay on disk
    assert (tmp_path / "state" / OUTBOX_DIR / "lobby.jsonl").exists()
    blocker.unlink()
    blocker.mkdir()
    writer = _writer(target, tmp_path / "state")
    room = writer.add_room("lobby", "hub", lambda: [])
    writer.start()
    room.record([first])  # the same solve queued again is still one solve
    assert writer.flush(30)
    writer.close()
    with RecordsStore(target) as store:
        assert sorted(s.seconds for s in store.solves()) == [40.0, 50.0]
    went = [r for r in caplog.records if "retrying in the background" in r.getMessage()]
    assert len(went) == 1 and "records store sqlite" in went[0].getMessage()
    assert not (tmp_path / "state" / OUTBOX_DIR / "lobby.jsonl").exists()


def test_a_postgresql_outage_loses_nothing_and_counts_nothing_twice(
    tmp_path: Path, fresh_postgres: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "controller.records")
    target = Target("postgresql", fresh_postgres.create_database())
    writer = _writer(target, tmp_path / "state")
    room = writer.add_room("lobby", "hub", lambda: [])
    writer.start()
    try:
        room.record([_solve("u1", "Alex", 50.0)])
        assert writer.flush(30)
        figures = room.figures()
        assert figures is not None and [s.player_name for s in figures.by_solves] == ["Alex"]
        fresh_postgres.stop()
        during = [_solve("u2", "Steve", 45.0, 10), _solve("u1", "Alex", 44.0, 20)]
        room.record(during)  # the game goes on: queued on disk, nothing waits
        assert not writer.flush(0.5)
        assert writer.pending() == 2
        fresh_postgres.start()
        room.record([during[0]])  # a replayed write
        assert writer.flush(60)
        figures = room.figures()
        assert figures is not None
        assert [(s.player_name, s.solves) for s in figures.by_solves] == [("Alex", 2), ("Steve", 1)]
        assert [(s.player_name, s.best_s) for s in figures.daily] == [
            ("Alex", 44.0),
            ("Steve", 45.0),
        ]
    finally:
        writer.close()
    with RecordsStore(target) as store:
        assert len(store.solves()) == 3
    messages = [r.getMessage() for r in caplog.records]
    assert sum("retrying in the background" in m for m in messages) == 1
    assert any("is back; " in m for m in messages)


def test_an_import_replayed_after_a_crash_is_kept_once(tmp_path: Path) -> None:
    """A crash after the import's transaction, before its outbox entry and mark were updated:
    the next start queues the import again and the store refuses it."""
    state = tmp_path / "state"
    target = Target("sqlite", str(state / "records.sqlite3"))
    records = [ImportedRecord("", "Alex", 4, 55.0, (55.0, 60.0))]
    writer = _writer(target, state)
    writer.add_room("lobby", "hub", lambda: records)
    writer.start()
    assert writer.flush(30)
    writer.close()
    (state / OUTBOX_DIR / "lobby.imported").unlink()  # as if the crash came before the mark
    grown = [ImportedRecord("", "Alex", 5, 50.0, (55.0, 60.0, 50.0))]  # played on meanwhile
    writer = _writer(target, state)
    writer.add_room("lobby", "hub", lambda: grown)
    writer.start()
    assert writer.flush(30)
    writer.close()
    with RecordsStore(target) as store:
        assert store.imported("hub", "lobby") == records
    assert (state / OUTBOX_DIR / "lobby.imported").read_text().strip() == target.describe()


def test_figures_find_a_player_by_uuid_or_by_a_name_imported_without_one() -> None:
    live = Standing(1, "u1", "Alex", 7, 40.0, "hub")
    imported = Standing(2, "", "Steve", 3, 55.0, "lobby-1")
    figures = Figures.of(1, DAY, [live, imported], [live, imported], [])
    assert figures.players == 2
    assert figures.solves_of("u1") == live
    assert figures.best_of("u-steve", "steve") == imported  # the state files kept names only
    assert figures.solves_of("u-steve") is None and figures.daily_of("u1", "Alex") is None
