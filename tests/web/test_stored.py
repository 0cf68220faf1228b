"""`StoredStandings`: the page's standings from a records store of its own, each answer kept
for its time to live, the last answers shown while the store is away."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from controller.records import RecordsStore, SolveRecord, Target, solve_id
from controller.web.stored import StoredStandings


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _solve(n: int, name: str, seconds: float) -> SolveRecord:
    player = f"0000000{n}-0000-0000-0000-000000000000"
    return SolveRecord(
        solve_id=solve_id("main", "lobby", n, 1000.0, player),
        server="main",
        room="lobby",
        kind="tree",
        seed=n,
        daily_date=None,
        player_uuid=player,
        player_name=name,
        seconds=seconds,
        clicks=30,
        par=None,
        solved_at=1_790_000_000.0 + n,
    )


def test_answers_are_kept_for_their_time_and_the_last_shown_while_the_store_is_away(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    target = Target("sqlite", str(tmp_path / "records.sqlite3"))
    with RecordsStore(target) as store:
        store.migrate()
        store.add_solves([_solve(1, "Alex", 61.0)])
    clock = Clock()
    page = StoredStandings(target, ttl_s=10.0, clock=clock)
    first = page.leaderboard(None, by="solves", limit=10)
    assert [(s.player_name, s.solves) for s in first] == [("Alex", 1)]
    with RecordsStore(target) as store:
        store.add_solves([_solve(2, "Bea", 50.0)])
    clock.now = 5.0  # within the time to live: the same answer, no query
    assert page.leaderboard(None, by="solves", limit=10) == first
    clock.now = 11.0
    assert {s.player_name for s in page.leaderboard(None, by="solves", limit=10)} == {
        "Alex",
        "Bea",
    }
    kept = page.leaderboard(None, by="solves", limit=10)
    page.store.close()
    page.store.target = Target("postgresql", "postgresql://pipes@127.0.0.1:1/none", "secret")
    clock.now = 30.0
    assert page.leaderboard(None, by="solves", limit=10) == kept  # the last read
    assert page.daily(dt.date(2026, 12, 1), limit=10) == []  # never read: nothing
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "the standings shown are the last read" in said and "secret" not in said
    page.close()
