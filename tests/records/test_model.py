"""The ranking rule against a simple oracle, the merge of imported figures, solve ids."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from controller.records.model import Aggregate, Standing, merge, rank, solve_id

NAMES = ["Alex", "Steve", "bob", "Zed", ".Kim", "Ann"]

aggregates = st.lists(
    st.builds(
        Aggregate,
        player_uuid=st.uuids().map(str),
        player_name=st.sampled_from(NAMES),
        solves=st.integers(0, 4),
        best_s=st.none() | st.sampled_from([10.0, 12.5, 30.0]),
        server=st.sampled_from(["hub", "lobby-1"]),
    ),
    max_size=12,
)


def _key(a: Aggregate | Standing, by: str) -> tuple[float, float]:
    best = math.inf if a.best_s is None else a.best_s
    return (-a.solves, best) if by == "solves" else (best, -a.solves)


@given(aggregates, st.sampled_from(["solves", "best_time"]), st.none() | st.integers(0, 12))
def test_rank_is_one_more_than_the_players_strictly_better(
    rows: list[Aggregate], by: str, limit: int | None
) -> None:
    got = rank(rows, by, limit)  # type: ignore[arg-type]
    eligible = [a for a in rows if by == "solves" or a.best_s is not None]
    assert len(got) == (len(eligible) if limit is None else min(limit, len(eligible)))
    for line in got:
        better = sum(1 for a in eligible if _key(a, by) < _key(line, by))
        assert line.rank == better + 1
    assert [_key(s, by) for s in got] == sorted(_key(s, by) for s in got)
    shown = {s.player_uuid for s in got}
    assert not got or all(
        _key(a, by) >= _key(got[-1], by) for a in eligible if a.player_uuid not in shown
    )


def test_equal_figures_share_a_rank_and_the_next_skips() -> None:
    rows = [
        Aggregate("a", "Alex", 3, 10.0, "hub"),
        Aggregate("b", "bob", 3, 10.0, "hub"),
        Aggregate("c", "Cid", 2, 5.0, "hub"),
        Aggregate("d", "Dee", 0, None, None),
    ]
    assert [(s.rank, s.player_name) for s in rank(rows, "solves")] == [
        (1, "Alex"),
        (1, "bob"),
        (3, "Cid"),
        (4, "Dee"),
    ]
    assert [(s.rank, s.player_name) for s in rank(rows, "best_time")] == [
        (1, "Cid"),
        (2, "Alex"),
        (2, "bob"),
    ]


def test_imported_figures_join_the_player_of_that_name_or_stand_alone() -> None:
    live = [Aggregate("u1", "Alex", 2, 20.0, "hub")]
    imported = [
        Aggregate("", "alex", 5, 15.0, "lobby-1"),  # names compare without case
        Aggregate("", "Steve", 1, 40.0, "hub"),
    ]
    got = {a.player_name: a for a in merge(live, imported)}
    assert got["Alex"] == Aggregate("u1", "Alex", 7, 15.0, "lobby-1")
    assert got["Steve"] == Aggregate("", "Steve", 1, 40.0, "hub")


def test_a_solve_id_is_the_same_for_the_same_win_and_differs_otherwise() -> None:
    one = solve_id("hub", "lobby", 3, 1700000000.25, "u1")
    assert one == solve_id("hub", "lobby", 3, 1700000000.25, "u1")
    others = {
        solve_id("hub2", "lobby", 3, 1700000000.25, "u1"),
        solve_id("hub", "lobby2", 3, 1700000000.25, "u1"),
        solve_id("hub", "lobby", 4, 1700000000.25, "u1"),
        solve_id("hub", "lobby", 3, 1700000000.5, "u1"),
        solve_id("hub", "lobby", 3, 1700000000.25, "u2"),
    }
    assert one not in others and len(others) == 5
