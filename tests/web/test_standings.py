"""Standings from the rooms' records: the ranking against a brute-force oracle, rooms added up
by player, the daily results of one date, and no UUID invented."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from controller.web.standings import RoomRecords, RoomStandings, rank

names = st.text(alphabet="abAB_.0", min_size=1, max_size=4)
times = st.one_of(st.none(), st.sampled_from([3.0, 7.5, 7.5, 12.25, 60.0]))
records = st.dictionaries(names, st.tuples(st.integers(0, 4), times), max_size=12)


def _oracle_rank(figures: dict[str, tuple[float, ...]], name: str) -> int:
    """1 + how many players have strictly better figures."""
    return 1 + sum(1 for other in figures.values() if other < figures[name])


@given(records, st.sampled_from(["solves", "best_time"]), st.integers(0, 15))
def test_ranking_matches_brute_force(
    table: dict[str, tuple[int, float | None]], by: str, limit: int
) -> None:
    rows = [(name, s, b, "main") for name, (s, b) in table.items()]
    got = rank(rows, by=by, limit=limit)  # type: ignore[arg-type]
    inf = float("inf")
    figures = {
        name: ((-s, inf if b is None else b) if by == "solves" else (b, -s))
        for name, (s, b) in table.items()
        if s > 0 and (by == "solves" or b is not None)
    }
    assert len(got) == min(limit, len(figures))
    assert [st_.rank for st_ in got] == [_oracle_rank(figures, st_.player_name) for st_ in got]
    # the best `limit` players are shown: nobody left out is better than someone shown
    shown = {st_.player_name for st_ in got}
    for name in figures.keys() - shown:
        assert all(figures[name] >= figures[s] for s in shown)
    for st_ in got:
        assert (st_.solves, st_.best_s) == table[st_.player_name]
        assert st_.player_uuid == "" and st_.server == "main"


@given(st.lists(records, min_size=1, max_size=4))
def test_rooms_add_up_by_player(tables: list[dict[str, tuple[int, float | None]]]) -> None:
    rooms = {
        f"r{k}": RoomStandings(f"r{k}", "main" if k % 2 else "other", t, {})
        for k, t in enumerate(tables)
    }
    got = {s.player_name: s for s in RoomRecords(rooms).leaderboard(None, by="solves", limit=99)}
    for name in {n for t in tables for n in t}:
        solves = sum(t[name][0] for t in tables if name in t)
        bests = [t[name][1] for t in tables if name in t and t[name][1] is not None]
        servers = {rooms[f"r{k}"].server for k, t in enumerate(tables) if name in t}
        if solves == 0:
            assert name not in got
            continue
        assert got[name].solves == solves
        assert got[name].best_s == (min(bests) if bests else None)
        assert got[name].server == (servers.pop() if len(servers) == 1 else None)


def test_one_room_and_one_day() -> None:
    today, yesterday = dt.date(2026, 3, 2), dt.date(2026, 3, 1)
    lobby = RoomStandings(
        "lobby",
        "main",
        {"Alex": (3, 40.0), "Steve": (5, 55.5), ".Bedrock_1": (1, 12.0)},
        {today.isoformat(): {"Alex": (1, 40.0), "Steve": (1, 31.0)}},
    )
    hall = RoomStandings("hall", "main", {"Alex": (9, 20.0)}, {})
    records = RoomRecords({"lobby": lobby, "hall": hall})
    by_solves = records.leaderboard("lobby", by="solves", limit=10)
    assert [(s.rank, s.player_name, s.solves) for s in by_solves] == [
        (1, "Steve", 5),
        (2, "Alex", 3),
        (3, ".Bedrock_1", 1),
    ]
    by_time = records.leaderboard("lobby", by="best_time", limit=2)
    assert [(s.player_name, s.best_s) for s in by_time] == [(".Bedrock_1", 12.0), ("Alex", 40.0)]
    assert [s.player_name for s in records.leaderboard(None, by="solves", limit=1)] == ["Alex"]
    daily = records.daily(today, limit=10)
    assert [(s.rank, s.player_name, s.best_s) for s in daily] == [
        (1, "Steve", 31.0),
        (2, "Alex", 40.0),
    ]
    assert records.daily(yesterday, limit=10) == []
    assert records.leaderboard("nowhere", by="solves", limit=10) == []
