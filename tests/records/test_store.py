"""The records store on SQLite and on a real PostgreSQL server: migrations, idempotent
inserts, the one-time import, and the leaderboards against an oracle."""

from __future__ import annotations

import datetime as dt
import math
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.records import RecordsReader, Standing
from controller.records.model import SolveRecord
from controller.records.store import (
    MIGRATIONS,
    ImportedRecord,
    RecordsStore,
    StoreUnavailable,
    Target,
)
from tests.support.postgres import PostgresServer

MakeStore = Callable[[], RecordsStore]
DAY = dt.date(2026, 12, 1)
T0 = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC).timestamp()


@pytest.fixture(params=["sqlite", "postgresql"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MakeStore]:
    """New, migrated stores of one kind (each a database of its own)."""
    made: list[RecordsStore] = []

    def make() -> RecordsStore:
        if request.param == "sqlite":
            target = Target("sqlite", str(tmp_path / f"{uuid.uuid4().hex}.sqlite3"))
        else:
            target = Target("postgresql", request.getfixturevalue("postgres").create_database())
        store = RecordsStore(target)
        store.migrate()
        made.append(store)
        return store

    yield make
    for store in made:
        store.close()


def _solve(player: str, name: str, seconds: float, **kw: object) -> SolveRecord:
    fields: dict[str, object] = {
        "solve_id": str(uuid.uuid4()),
        "server": "hub",
        "room": "lobby",
        "kind": "tree",
        "seed": 7,
        "daily_date": None,
        "player_uuid": player,
        "player_name": name,
        "seconds": seconds,
        "clicks": 20,
        "par": 18,
        "solved_at": T0,
    }
    fields.update(kw)
    return SolveRecord(**fields)  # type: ignore[arg-type]


def test_migrations_are_numbered_and_run_once(make_store: MakeStore) -> None:
    assert [v for v, _ in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    store = make_store()
    assert store.schema_version() == len(MIGRATIONS)
    assert store.migrate() == []  # nothing left to apply


def test_a_solve_inserted_twice_is_kept_once(make_store: MakeStore) -> None:
    store = make_store()
    one = _solve("u1", "Alex", 61.5)
    assert store.add_solves([one, one]) == 1
    assert store.add_solves([one]) == 0
    assert store.solves() == [one]


def test_the_import_runs_once_and_a_failed_one_leaves_nothing(make_store: MakeStore) -> None:
    store = make_store()
    broken = [
        ImportedRecord("", "Alex", 2, 30.0, (30.0, 31.5)),
        ImportedRecord("", None, 1, 9.0, ()),
    ]  # type: ignore[arg-type]
    with pytest.raises(StoreUnavailable):
        store.import_records("hub", "lobby", broken, T0)  # a NOT NULL name: rolled back whole
    assert store.imported("hub", "lobby") == []
    good = [
        ImportedRecord("", "Alex", 2, 30.0, (30.0, 31.5)),
        ImportedRecord("2026-12-01", "Alex", 1, 30.0, (30.0,)),
    ]
    assert store.import_records("hub", "lobby", good, T0)
    assert not store.import_records("hub", "lobby", [ImportedRecord("", "Bob", 9, 1.0, ())], T0)
    assert store.imported("hub", "lobby") == good
    assert store.leaderboard(None, by="solves", limit=5) == [
        Standing(1, "", "Alex", 2, 30.0, "hub")
    ]
    assert store.daily(DAY, limit=5) == [Standing(1, "", "Alex", 1, 30.0, "hub")]


def test_a_player_is_one_line_across_servers_under_the_latest_name(make_store: MakeStore) -> None:
    store: RecordsReader = (s := make_store())
    s.add_solves(
        [
            _solve("u1", "Alex", 50.0, server="hub", solved_at=T0),
            _solve("u1", "Alexa", 40.0, server="lobby-1", solved_at=T0 + 60),
            _solve("u2", "Steve", 45.0, server="lobby-1", room="arena", solved_at=T0 + 5),
        ]
    )
    assert store.leaderboard(None, by="solves", limit=5) == [
        Standing(1, "u1", "Alexa", 2, 40.0, "lobby-1"),
        Standing(2, "u2", "Steve", 1, 45.0, "lobby-1"),
    ]
    assert store.leaderboard("arena", by="best_time", limit=5) == [
        Standing(1, "u2", "Steve", 1, 45.0, "lobby-1")
    ]
    assert store.leaderboard(None, by="solves", limit=1)[0].player_name == "Alexa"


def test_an_unreachable_store_is_store_unavailable(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    store = RecordsStore(Target("sqlite", str(tmp_path / "file" / "records.sqlite3")))
    with pytest.raises(StoreUnavailable, match="records store sqlite"):
        store.migrate()
    dead = RecordsStore(Target("postgresql", "postgresql://pipes@127.0.0.1:1/pipes", "s3cret-pw"))
    with pytest.raises(StoreUnavailable) as caught:
        dead.migrate()
    assert "s3cret-pw" not in str(caught.value)
    assert "postgresql postgresql://pipes@127.0.0.1:1/pipes" in str(caught.value)


def test_sqlite_keeps_its_file_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    with RecordsStore(Target("sqlite", str(path))) as store:
        store.migrate()
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone() == ("wal",)


# -- the leaderboards against an oracle ------------------------------------------------------
PLAYERS = [("u1", "Alex"), ("u2", "Steve"), ("u3", ".Kim"), ("u4", "zed")]

solves_strategy = st.lists(
    st.tuples(
        st.sampled_from(PLAYERS),
        st.sampled_from(["hub", "lobby-1"]),
        st.sampled_from(["lobby", "arena"]),
        st.sampled_from([30.0, 45.5, 60.0, 90.25]),
        st.integers(0, 100),  # seconds after T0
        st.booleans(),  # a daily solve
    ),
    max_size=10,
)
imported_strategy = st.lists(
    st.tuples(
        st.sampled_from(["alex", "Bob", "Eve"]),  # "alex" is Alex's name without case
        st.sampled_from(["hub", "lobby-1"]),
        st.integers(0, 5),
        st.none() | st.sampled_from([20.0, 50.0]),
    ),
    max_size=4,
    unique_by=lambda t: (t[0], t[1]),
)


def _oracle(
    solves: list[SolveRecord], imported: list[tuple[str, str, int, float | None]], by: str,
    world: str | None,
) -> list[tuple[int, str, int, float | None, str | None]]:  # fmt: skip
    """Rank, name, solves, best, server: every player's figures added up by hand."""
    figures: dict[str, list[object]] = {}
    for s in sorted(solves, key=lambda s: (s.solved_at, s.solve_id)):
        if world is not None and s.room != world:
            continue
        f = figures.setdefault(s.player_uuid, [s.player_name, 0, None, None])
        f[1] = int(f[1]) + 1  # type: ignore[call-overload]
        if f[2] is None or s.seconds < f[2]:  # type: ignore[operator]
            f[2], f[3] = s.seconds, s.server
    ordered = sorted(imported, key=lambda t: (t[3] is None, t[3] or 0.0, t[1]))
    for name, server, count, best in ordered if world in (None, "lobby") else []:
        key = next((u for u, n in PLAYERS if n.lower() == name.lower() and u in figures), name)
        f = figures.setdefault(key, [name, 0, None, None])
        f[1] = int(f[1]) + count  # type: ignore[call-overload]
        if best is not None and (f[2] is None or best < f[2]):  # type: ignore[operator]
            f[2], f[3] = best, server
    rows = [(str(n), int(c), b, srv) for n, c, b, srv in figures.values()]  # type: ignore[misc]

    def key(r: tuple[str, int, float | None, str | None]) -> tuple[float, float]:
        best = math.inf if r[2] is None else r[2]
        return (-r[1], best) if by == "solves" else (best, -r[1])

    rows = [r for r in rows if by == "solves" or r[2] is not None]
    rows.sort(key=lambda r: (key(r), r[0].lower()))
    return [(1 + sum(key(o) < key(r) for o in rows), *r) for r in rows]


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(solves_strategy, imported_strategy)
def test_leaderboards_match_the_oracle(
    make_store: MakeStore,
    raw: list[tuple[tuple[str, str], str, str, float, int, bool]],
    imported: list[tuple[str, str, int, float | None]],
) -> None:
    store = make_store()
    solves = [
        _solve(u, n, sec, server=srv, room=room, solved_at=T0 + at,
               daily_date=DAY.isoformat() if daily else None)
        for (u, n), srv, room, sec, at, daily in raw
    ]  # fmt: skip
    store.add_solves(solves)
    by_server: dict[str, list[ImportedRecord]] = {}
    for name, server, count, best in imported:
        rec = ImportedRecord("", name, count, best, () if best is None else (best,))
        by_server.setdefault(server, []).append(rec)
    for server, recs in by_server.items():
        store.import_records(server, "lobby", recs, T0)
    for world in (None, "lobby", "arena"):
        for by in ("solves", "best_time"):
            got = store.leaderboard(world, by=by, limit=50)  # type: ignore[arg-type]
            want = _oracle(solves, imported, by, world)
            assert [(s.rank, s.player_name, s.solves, s.best_s, s.server) for s in got] == want
    daily = [s for s in solves if s.daily_date is not None]
    got = store.daily(DAY, limit=50)
    want = _oracle(daily, [], "best_time", None)
    assert [(s.rank, s.player_name, s.solves, s.best_s, s.server) for s in got] == want


def test_a_role_granted_select_and_insert_uses_a_migrated_database(
    postgres: PostgresServer,
) -> None:
    """The grants docs/records.md, "A network with PostgreSQL" gives a daemon's role."""
    url = postgres.create_database()
    with RecordsStore(Target("postgresql", url)) as owner:
        owner.migrate()
    database, role = url.rsplit("/", 1)[1], "daemon_" + uuid.uuid4().hex[:8]
    for sql in (
        f"CREATE ROLE {role} LOGIN",
        f"GRANT CONNECT ON DATABASE {database} TO {role}",
        f"GRANT USAGE ON SCHEMA public TO {role}",
        f"GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO {role}",
    ):
        postgres.execute(url, sql)
    with RecordsStore(Target("postgresql", postgres.url(database, role))) as store:
        assert store.migrate() == []
        assert store.add_solves([_solve("u1", "Alex", 30.0)]) == 1
        assert store.import_records("hub", "lobby", [], T0)
        assert [s.player_name for s in store.leaderboard(None, by="solves", limit=5)] == ["Alex"]
