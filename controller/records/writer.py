"""The records writer: the game queues, one background thread writes and reads the store.

A room never waits on the database. `RoomRecords.record` appends the solves to the room's
outbox (fsynced) and wakes the thread; the thread applies the migrations on its first
connection, drains every outbox (an insert that finds the solve's id already there does
nothing, so a replay counts nothing twice), and, for a shared store, refreshes the network
figures the game reads (`figures()`, a snapshot swapped in whole). A failing store is logged
once when it goes and once when it is back; meanwhile the thread retries with exponential
backoff (1 s doubling to `MAX_BACKOFF_S`) and the writes wait on disk (docs/records.md).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.records.model import SolveRecord, Standing
from controller.records.outbox import Outbox
from controller.records.store import ImportedRecord, RecordsStore, StoreUnavailable, Target

__all__ = [
    "Figures",
    "RecordsWriter",
    "RoomRecords",
    "OUTBOX_DIR",
    "CACHE_LIMIT",
    "forget_room",
]

log = logging.getLogger("controller.records")

OUTBOX_DIR = "records-outbox"  # in the state directory: one outbox and import mark per room
MAX_BACKOFF_S = 30.0
CACHE_LIMIT = 10_000  # players ranked in the network figures the game shows
CLOSE_S = 1.0  # how long a stop waits for a last write (and again for the thread)


def _key(standing: Standing) -> str:
    """A line's lookup key: the player's UUID, or for figures imported by name the name."""
    return standing.player_uuid or "name:" + standing.player_name.lower()


@dataclass(frozen=True)
class Figures:
    """The network figures at one moment: every player by solves and by best time (at most
    CACHE_LIMIT each), and the daily puzzle's best times of `day`."""

    version: int
    day: dt.date
    by_solves: tuple[Standing, ...]
    by_best: tuple[Standing, ...]
    daily: tuple[Standing, ...]
    _index: dict[str, dict[str, Standing]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(
        cls,
        version: int,
        day: dt.date,
        by_solves: Sequence[Standing],
        by_best: Sequence[Standing],
        daily: Sequence[Standing],
    ) -> Figures:
        """The snapshot with its lookups by player."""
        boards = {"solves": by_solves, "best": by_best, "daily": daily}
        index = {board: {_key(s): s for s in lines} for board, lines in boards.items()}
        return cls(version, day, tuple(by_solves), tuple(by_best), tuple(daily), index)

    @property
    def players(self) -> int:
        """How many players the network figures rank."""
        return len(self.by_solves)

    def _find(self, board: str, player_uuid: str, name: str | None) -> Standing | None:
        lines = self._index.get(board, {})
        found = lines.get(player_uuid)
        if found is None and name is not None:  # figures imported under the name only
            found = lines.get("name:" + name.lower())
        return found

    def solves_of(self, player_uuid: str, name: str | None = None) -> Standing | None:
        """The player's line by solves (by UUID, else by imported name)."""
        return self._find("solves", player_uuid, name)

    def best_of(self, player_uuid: str, name: str | None = None) -> Standing | None:
        """The player's line by best time."""
        return self._find("best", player_uuid, name)

    def daily_of(self, player_uuid: str, name: str | None = None) -> Standing | None:
        """The player's line on the daily puzzle of `day`."""
        return self._find("daily", player_uuid, name)


class RecordsWriter:
    """The outboxes of this daemon's rooms and the thread that writes them to the store."""

    def __init__(
        self,
        target: Target,
        state_dir: Path,
        *,
        today: Callable[[], dt.date],
        refresh_s: float = 10.0,
    ) -> None:
        self.target = target
        self.store = RecordsStore(target)  # the thread's own connection
        self.folder = state_dir / OUTBOX_DIR
        self.today = today
        self.refresh_s = refresh_s
        self.outboxes: dict[str, Outbox] = {}
        self.up: bool | None = None  # None until the first attempt
        self.last_error: str | None = None
        self._figures: Figures | None = None
        self._migrated = False
        self._version = 0
        self._rounds = 0  # completed rounds of the thread
        self._last_refresh = -1e18
        self._refresh_wanted = False
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._done = threading.Condition()
        self._thread: threading.Thread | None = None

    # -- the game's side ------------------------------------------------------------------
    def add_room(
        self, room: str, server: str, snapshot: Callable[[], list[ImportedRecord] | None]
    ) -> RoomRecords:
        """The records handle of one room. The first time a room is seen by this store its
        state file's records (`snapshot()`, None when unreadable) are queued for import."""
        outbox = self.outboxes[room] = Outbox(self.folder / f"{room}.jsonl")
        mark = self.folder / f"{room}.imported"
        identity = self.target.describe()
        done = mark.exists() and mark.read_text(encoding="utf-8").strip() == identity
        if not done and f"import:{room}" not in outbox.keys():
            records = snapshot()
            if records is not None:
                outbox.append([_import_entry(room, server, records)])
        self._wake.set()
        return RoomRecords(self, room, server)

    def submit(self, room: str, solves: Sequence[SolveRecord]) -> None:
        """Queue solves durably (fsynced before this returns) and wake the writer."""
        self.outboxes[room].append(
            {"key": s.solve_id, "type": "solve", "solve": s.to_json()} for s in solves
        )
        self._wake.set()

    def figures(self) -> Figures | None:
        """The latest network figures (None before the first read)."""
        return self._figures

    def pending(self) -> int:
        """Writes waiting in the outboxes."""
        return sum(len(o) for o in self.outboxes.values())

    # -- the thread -----------------------------------------------------------------------
    def start(self) -> None:
        """Start the writer thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="records", daemon=True)
            self._thread.start()

    def flush(self, timeout: float) -> bool:
        """Wake the writer and wait until every outbox is empty and, for a shared store, the
        figures were read again after that; False when `timeout` passes first."""
        deadline = time.monotonic() + timeout
        self._refresh_wanted = True
        with self._done:
            start = self._rounds
            while True:
                self._wake.set()
                if self._rounds >= start + 2 and self.pending() == 0 and self.up:
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._done.wait(min(left, 0.05))

    def close(self, timeout: float = CLOSE_S) -> None:
        """Stop the thread after a last attempt at the pending writes (what is left stays in
        the outboxes for the next start)."""
        if self._thread is not None:
            if self.pending() and self.up:
                self.flush(timeout)
            self._stop.set()
            self._wake.set()
            self._thread.join(timeout)
            self._thread = None
        left = self.pending()
        if left:
            log.warning(
                "records: %d write(s) kept in %s for the next start (%s)",
                left, self.folder, self.target.describe(),
            )  # fmt: skip
        self.store.close()

    def _run(self) -> None:
        backoff = 1.0
        while not self._stop.is_set():
            self._wake.clear()  # a wake during the round makes the wait below return at once
            wait = self.refresh_s
            error: StoreUnavailable | None = None
            try:
                self.step()
                backoff = 1.0
            except StoreUnavailable as exc:
                error = exc
            except Exception as exc:  # noqa: BLE001 - the writer never dies; writes stay queued
                log.exception("records: unexpected error; the writes stay in the outbox")
                error = StoreUnavailable(f"records store {self.target.describe()}: {exc}")
            if error is not None:
                wait = backoff
                backoff = min(backoff * 2, MAX_BACKOFF_S)
                self._went_away(error, wait)
            with self._done:
                self._rounds += 1
                self._done.notify_all()
            self._wake.wait(wait)

    def step(self) -> int:
        """One round: migrate (once per connection), drain the outboxes, refresh the figures
        when due; returns the writes taken. StoreUnavailable when the store fails."""
        try:
            if not self._migrated:
                applied = self.store.migrate()
                self._migrated = True
                if applied:
                    log.info("records store %s: schema version %d", self.target.describe(),
                             applied[-1])  # fmt: skip
            written = self._drain()
            now = time.monotonic()
            due = now - self._last_refresh >= self.refresh_s or self._refresh_wanted
            stale = self._figures is None or self._figures.day != self.today()
            if self.target.shared and (written or due or stale):
                self._refresh_wanted = False
                self._refresh()
                self._last_refresh = now
        except StoreUnavailable:
            self._migrated = False
            raise
        if self.up is False:
            log.info(
                "records store %s is back; %d queued write(s) written",
                self.target.describe(), written,
            )  # fmt: skip
        self.up = True
        self.last_error = None
        return written

    def _went_away(self, exc: StoreUnavailable, retry_s: float) -> None:
        if self.up is not False:
            log.warning(
                "%s; %d write(s) kept in the outbox, retrying in the background",
                exc, self.pending(),
            )  # fmt: skip
        self.up = False
        self.last_error = str(exc)
        log.debug("records: next attempt in %.0f s", retry_s)

    def _drain(self) -> int:
        written = 0
        for room, outbox in list(self.outboxes.items()):
            entries = outbox.pending()
            solves = [SolveRecord.from_json(e["solve"]) for e in entries if e["type"] == "solve"]
            if solves:
                self.store.add_solves(solves)
                outbox.remove({s.solve_id for s in solves})
                written += len(solves)
            for e in entries:
                if e["type"] != "import":
                    continue
                records = [
                    ImportedRecord(r["daily_date"], r["player_name"], int(r["solves"]),
                                   r["best"], tuple(r["recent"]))
                    for r in e["records"]
                ]  # fmt: skip
                fresh = self.store.import_records(e["server"], e["room"], records, time.time())
                (self.folder / f"{room}.imported").write_text(
                    self.target.describe() + "\n", encoding="utf-8"
                )
                outbox.remove({e["key"]})
                written += 1
                if fresh:
                    log.info(
                        "room %s: %d record(s) of its state file imported into %s",
                        room, len(records), self.target.describe(),
                    )  # fmt: skip
        return written

    def _refresh(self) -> None:
        day = self.today()
        store = self.store
        by_solves = store.leaderboard(None, by="solves", limit=CACHE_LIMIT)
        by_best = store.leaderboard(None, by="best_time", limit=CACHE_LIMIT)
        daily = store.daily(day, limit=CACHE_LIMIT)
        self._version += 1
        self._figures = Figures.of(self._version, day, by_solves, by_best, daily)


def forget_room(state_dir: Path, room: str) -> bool:
    """After a room is removed: forget that its state file was imported (a room built again
    under the name starts a new state file). Writes still waiting in its outbox are kept, to
    reach the store at the room's next start; returns whether there are any."""
    folder = state_dir / OUTBOX_DIR
    (folder / f"{room}.imported").unlink(missing_ok=True)
    waiting = (folder / f"{room}.jsonl").exists()
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
    return waiting


def _import_entry(room: str, server: str, records: list[ImportedRecord]) -> dict[str, Any]:
    return {
        "key": f"import:{room}",
        "type": "import",
        "server": server,
        "room": room,
        "records": [
            {"daily_date": r.daily_date, "player_name": r.player_name, "solves": r.solves,
             "best": r.best, "recent": list(r.recent)}
            for r in records
        ],
    }  # fmt: skip


@dataclass
class RoomRecords:
    """What a room uses of the records writer."""

    writer: RecordsWriter
    room: str
    server: str

    @property
    def shared(self) -> bool:
        """Whether the figures are the network's (a shared store)."""
        return self.writer.target.shared

    def record(self, solves: Sequence[SolveRecord]) -> None:
        """Queue the solves of a win (durably; the store takes them in the background)."""
        self.writer.submit(self.room, solves)

    def figures(self) -> Figures | None:
        """The latest network figures, never waiting on the store."""
        return self.writer.figures()
