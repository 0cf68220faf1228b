"""Benchmark: the records store. What a win costs the game thread (the outbox append and fsync
of its solves), how fast the writer drains a backlog into the store (after an outage), and
how long reading the network figures takes (the background refresh), on SQLite and on a
PostgreSQL server started like the tests' (`tests/support/postgres.py`). Prints markdown.

Run: ``.venv/bin/python -m bench.records [--backlog 2000] [--players 500]``
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from controller.records.model import SolveRecord
from controller.records.store import RecordsStore, Target
from controller.records.writer import RecordsWriter
from tests.support.postgres import PostgresServer, find_bindir, runnable_bindir

__all__ = ["main"]

DAY = dt.date(2026, 12, 1)
T0 = dt.datetime(2026, 12, 1, tzinfo=dt.UTC).timestamp()


def _solves(n: int, players: int, first: int = 0) -> list[SolveRecord]:
    """`n` solves, the k-th by player k modulo `players`."""
    return [
        SolveRecord(
            str(uuid.uuid4()),
            f"s{k % 3}",
            f"room{k % 4}",
            "tree",
            k,
            DAY.isoformat(),
            f"u{k % players}",
            f"P{k % players}",
            30.0 + k % 97,
            40,
            35,
            T0 + k,
        )  # fmt: skip
        for k in range(first, first + n)
    ]


def _measure(target: Target, folder: Path, backlog: int, players: int) -> dict[str, float]:
    writer = RecordsWriter(target, folder, today=lambda: DAY, refresh_s=3600)
    room = writer.add_room("room0", "s0", lambda: [])
    writer.start()
    assert writer.flush(60)
    wins = []
    for k in range(50):  # one win of two players at a time, each acknowledged on disk
        pair = _solves(2, players, 2 * k)
        start = time.perf_counter()
        room.record(pair)
        wins.append(time.perf_counter() - start)
        if k % 10 == 9:
            assert writer.flush(60)
    writer.close()
    # A backlog (an outage's worth of wins) queued while no writer runs, then drained.
    writer = RecordsWriter(target, folder, today=lambda: DAY, refresh_s=3600)
    room = writer.add_room("room0", "s0", lambda: [])
    for k in range(0, backlog, 2):
        room.record(_solves(2, players, 100 + k))
    start = time.perf_counter()
    writer.start()
    assert writer.flush(600)
    drain = time.perf_counter() - start
    writer.close()
    with RecordsStore(target) as store:
        reads = []
        for _ in range(5):
            start = time.perf_counter()
            store.leaderboard(None, by="solves", limit=10_000)
            store.leaderboard(None, by="best_time", limit=10_000)
            store.daily(DAY, limit=10_000)
            reads.append(time.perf_counter() - start)
        total = len(store.solves())
    return {
        "win_ms": statistics.median(wins) * 1000,
        "drain_per_s": backlog / drain,
        "refresh_ms": statistics.median(reads) * 1000,
        "rows": total,
    }


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backlog", type=int, default=2000, help="solves queued during an outage")
    parser.add_argument("--players", type=int, default=500)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="pipesctl-records-") as tmp:
        sqlite = Target("sqlite", str(Path(tmp) / "records.sqlite3"))
        rows.append(("SQLite", _measure(sqlite, Path(tmp) / "a", args.backlog, args.players)))
        bindir, why = find_bindir()
        if bindir is not None:
            server = PostgresServer(runnable_bindir(bindir))
            server.start()
            try:
                target = Target("postgresql", server.create_database())
                rows.append(("PostgreSQL", _measure(target, Path(tmp) / "b", args.backlog,
                                                    args.players)))  # fmt: skip
            finally:
                server.close()
    print("| store | a win's solves queued (game thread), median ms | backlog drained, solves/s "
          "| network figures read, median ms | rows |")  # fmt: skip
    print("|---|---:|---:|---:|---:|")
    for name, m in rows:
        print(f"| {name} | {m['win_ms']:.2f} | {m['drain_per_s']:.0f} | {m['refresh_ms']:.1f} "
              f"| {int(m['rows'])} |")  # fmt: skip
    print(
        f"\nA win of two players is one outbox append with fsync; {args.backlog} solves were "
        f"queued with no writer running and then drained; the figures (every player by solves "
        f"and by best time, today's daily board) are read over {args.players} players. "
        + ("" if bindir is not None else f"PostgreSQL not measured: {why}.")
    )


if __name__ == "__main__":
    main()
