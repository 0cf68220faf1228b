"""The records store over the DB-API: SQLite (stdlib `sqlite3`) or PostgreSQL (`psycopg` 3).

One `RecordsStore` is one connection, used by one thread at a time. Every database failure is a
`StoreUnavailable` (the connection is dropped; the next call opens a new one); the message
names the store by `Target.describe()`, which never holds a password.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from controller.errors import ExitCode, PipesError
from controller.records.model import Aggregate, By, SolveRecord, Standing, merge, rank

__all__ = [
    "MIGRATIONS",
    "StoreUnavailable",
    "Target",
    "RecordsStore",
    "ImportedRecord",
]

CONNECT_TIMEOUT_S = 5
STATEMENT_TIMEOUT_MS = 15_000
_LOCK_KEY = 0x70697065  # the advisory lock that serializes migrations on PostgreSQL


class StoreUnavailable(PipesError):
    """The records store cannot be reached or refused a statement."""

    exit_code = ExitCode.UNREACHABLE


def _migrations() -> list[tuple[int, str]]:
    """The numbered migrations (`migrations/NNNN_name.sql`), in order."""
    folder = resources.files("controller.records") / "migrations"
    out = []
    for entry in folder.iterdir():
        m = re.fullmatch(r"(\d{4})_[a-z0-9_]+\.sql", entry.name)
        if m:
            out.append((int(m.group(1)), entry.read_text(encoding="utf-8")))
    return sorted(out)


MIGRATIONS: list[tuple[int, str]] = _migrations()


def _statements(sql: str) -> list[str]:
    """The statements of a migration file: `--` comments dropped, split at `;`."""
    text = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    return [s.strip() for s in text.split(";") if s.strip()]


@dataclass(frozen=True)
class Target:
    """Where the records live: a SQLite file, or a PostgreSQL database (`location` is the URL
    without a password; the password travels apart and is never shown)."""

    kind: Literal["sqlite", "postgresql"]
    location: str
    password: str | None = field(default=None, repr=False)

    @property
    def shared(self) -> bool:
        """Whether other hosts may write to the same store (PostgreSQL)."""
        return self.kind == "postgresql"

    def describe(self) -> str:
        """The store in words, safe to log."""
        return f"{self.kind} {self.location}"

    def connect(self) -> Any:
        """A new DB-API connection (StoreUnavailable when none can be made)."""
        try:
            if self.kind == "sqlite":
                Path(self.location).parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(
                    self.location, timeout=CONNECT_TIMEOUT_S, isolation_level=None,
                    check_same_thread=False,
                )  # fmt: skip
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=FULL")
                return conn
            import psycopg

            return psycopg.connect(
                self.location,
                password=self.password,
                connect_timeout=CONNECT_TIMEOUT_S,
                options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
            )
        except (sqlite3.Error, OSError) as exc:
            raise StoreUnavailable(f"records store {self.describe()}: {exc}") from None
        except Exception as exc:  # psycopg.Error: the reason without the password
            raise StoreUnavailable(f"records store {self.describe()}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    """A database error in one line."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


@dataclass(frozen=True)
class ImportedRecord:
    """One player's figures from a state file: `daily_date` "" for the room's own records."""

    daily_date: str
    player_name: str
    solves: int
    best: float | None
    recent: tuple[float, ...]


class RecordsStore:
    """Solves in, leaderboards out; implements `RecordsReader`."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self._conn: Any = None
        self._mark = "?" if target.kind == "sqlite" else "%s"

    # -- connection -----------------------------------------------------------------------
    def close(self) -> None:
        """Drop the connection (the next call opens one)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # noqa: BLE001 - a broken connection closes as it can
                pass

    def __enter__(self) -> RecordsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        """A cursor in one transaction; any database error is StoreUnavailable and drops the
        connection."""
        try:
            if self._conn is None:
                self._conn = self.target.connect()
            conn = self._conn
            cur = conn.cursor()
            if self.target.kind == "sqlite":
                cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
        except StoreUnavailable:
            self.close()
            raise
        except Exception as exc:
            if not _database_error(exc):
                raise
            self.close()
            raise StoreUnavailable(
                f"records store {self.target.describe()}: {_reason(exc)}"
            ) from None

    def _sql(self, text: str) -> str:
        return text if self._mark == "?" else text.replace("?", self._mark)

    # -- schema ---------------------------------------------------------------------------
    def _applied(self, cur: Any) -> set[int] | None:
        """The versions in `schema_version`; None when the table is not there yet."""
        if self.target.kind == "postgresql":
            cur.execute("SELECT to_regclass('schema_version') IS NOT NULL")
        else:
            cur.execute(
                "SELECT COUNT(*) > 0 FROM sqlite_master WHERE type = 'table' "
                "AND name = 'schema_version'"
            )
        (present,) = cur.fetchone()
        if not present:
            return None
        cur.execute("SELECT version FROM schema_version")
        return {int(v) for (v,) in cur.fetchall()}

    def migrate(self) -> list[int]:
        """Apply the migrations not applied yet, each in the transaction that records its
        version; returns the versions applied now. A schema that is up to date is only read,
        so a role without the right to create tables can use it."""
        wanted = {version for version, _ in MIGRATIONS}
        with self._tx() as cur:
            done = self._applied(cur)
        if done is not None and wanted <= done:
            return []
        applied = []
        with self._tx() as cur:
            if self.target.kind == "postgresql":
                cur.execute(self._sql("SELECT pg_advisory_xact_lock(?)"), (_LOCK_KEY,))
            cur.execute(
                "CREATE TABLE IF NOT EXISTS schema_version "
                "(version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            done = self._applied(cur) or set()
            for version, sql in MIGRATIONS:
                if version in done:
                    continue
                for statement in _statements(sql):
                    cur.execute(statement)
                cur.execute(
                    self._sql("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)"),
                    (version, time.time()),
                )
                applied.append(version)
        return applied

    def schema_version(self) -> int:
        """The newest migration applied (0: none)."""
        with self._tx() as cur:
            done = self._applied(cur)
        return max(done or {0})

    # -- writing --------------------------------------------------------------------------
    def add_solves(self, solves: Sequence[SolveRecord]) -> int:
        """Insert solves in one transaction; a solve whose id is there already is skipped.
        Returns how many were new."""
        columns = [*SolveRecord.__dataclass_fields__, "solved_on"]
        sql = self._sql(
            f"INSERT INTO solves ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}) "
            "ON CONFLICT (solve_id) DO NOTHING"
        )
        new = 0
        with self._tx() as cur:
            for s in solves:
                cur.execute(sql, (*(getattr(s, c) for c in columns[:-1]), s.solved_on))
                new += max(cur.rowcount, 0)
        return new

    def import_records(
        self, server: str, room: str, records: Sequence[ImportedRecord], now: float
    ) -> bool:
        """Keep a room's state-file records, once: the import's mark and its figures go in one
        transaction, and a room marked already imports nothing (returns False)."""
        with self._tx() as cur:
            cur.execute(
                self._sql(
                    "INSERT INTO imports (server, room, imported_at, players) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (server, room) DO NOTHING"
                ),
                (server, room, now, len(records)),
            )
            if cur.rowcount != 1:
                return False
            cur.executemany(
                self._sql(
                    "INSERT INTO imported_records (server, room, daily_date, player_name, "
                    "solves, best, recent) VALUES (?, ?, ?, ?, ?, ?, ?)"
                ),
                [
                    (server, room, r.daily_date, r.player_name, r.solves, r.best,
                     json.dumps(list(r.recent)))
                    for r in records
                ],
            )  # fmt: skip
        return True

    def imported(self, server: str, room: str) -> list[ImportedRecord]:
        """A room's imported figures (sorted by date, then name)."""
        with self._tx() as cur:
            cur.execute(
                self._sql(
                    "SELECT daily_date, player_name, solves, best, recent FROM imported_records "
                    "WHERE server = ? AND room = ? ORDER BY daily_date, player_name"
                ),
                (server, room),
            )
            rows = cur.fetchall()
        return [
            ImportedRecord(d, n, int(s), None if b is None else float(b), tuple(json.loads(r)))
            for d, n, s, b, r in rows
        ]

    # -- reading --------------------------------------------------------------------------
    def solves(self) -> list[SolveRecord]:
        """Every recorded solve, oldest first."""
        columns = list(SolveRecord.__dataclass_fields__)
        with self._tx() as cur:
            cur.execute(f"SELECT {', '.join(columns)} FROM solves ORDER BY solved_at, solve_id")
            rows = cur.fetchall()
        return [SolveRecord(**dict(zip(columns, row, strict=True))) for row in rows]

    def _aggregates(self, column: str | None, value: str | None, daily: bool) -> list[Aggregate]:
        """Per-player figures of the recorded solves and the imported records matching
        `column = value` (every solve when column is None)."""

        def where(alias: str) -> str:
            return "1 = 1" if column is None else f"{alias}.{column} = ?"

        params: tuple[Any, ...] = () if column is None else (value,)
        live_sql = (
            "SELECT s.player_uuid, COUNT(*), MIN(s.seconds), "
            "(SELECT n.player_name FROM solves n WHERE n.player_uuid = s.player_uuid "
            "ORDER BY n.solved_at DESC, n.solve_id LIMIT 1), "
            "(SELECT b.server FROM solves b WHERE b.player_uuid = s.player_uuid AND "
            f"{where('b')} ORDER BY b.seconds, b.solved_at, b.solve_id LIMIT 1) "
            f"FROM solves s WHERE {where('s')} GROUP BY s.player_uuid"
        )
        own = "" if daily else " AND {a}.daily_date = ''"
        imported_sql = (
            "SELECT i.player_name, SUM(i.solves), MIN(i.best), "
            "(SELECT b.server FROM imported_records b WHERE b.player_name = i.player_name "
            f"AND b.best IS NOT NULL AND {where('b')}{own.format(a='b')} "
            "ORDER BY b.best, b.server, b.room LIMIT 1) "
            f"FROM imported_records i WHERE {where('i')}{own.format(a='i')} "
            "GROUP BY i.player_name"
        )
        with self._tx() as cur:
            cur.execute(self._sql(live_sql), params + params)
            live = [
                Aggregate(str(u), str(n), int(c), None if b is None else float(b), srv)
                for u, c, b, n, srv in cur.fetchall()
            ]
            cur.execute(self._sql(imported_sql), params + params)
            imported = [
                Aggregate("", str(n), int(c or 0), None if b is None else float(b), srv)
                for n, c, b, srv in cur.fetchall()
            ]
        return merge(live, imported)

    def leaderboard(self, world: str | None, *, by: By, limit: int) -> list[Standing]:
        """The players of one room (`world`, on every server) or of all rooms, ranked."""
        return rank(self._aggregates(None if world is None else "room", world, False), by, limit)

    def daily(self, day: dt.date, *, limit: int) -> list[Standing]:
        """The best times on the daily puzzle of `day`, on every server."""
        return rank(self._aggregates("daily_date", day.isoformat(), True), "best_time", limit)


def _database_error(exc: BaseException) -> bool:
    """Whether `exc` comes from the database driver."""
    if isinstance(exc, sqlite3.Error):
        return True
    module = type(exc).__module__
    return module.startswith("psycopg")
