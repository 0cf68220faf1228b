"""`pipesctl stats`: the leaderboards of the records store (docs/records.md)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from controller.cli.common import ConfigOpt, guarded, load
from controller.errors import UsageError

if TYPE_CHECKING:
    from controller.records.model import Standing
    from controller.records.store import RecordsStore

__all__ = ["stats", "register"]

ALL = 10_000  # lines read to find one player


def _day(value: str) -> dt.date:
    if value == "today":
        return dt.datetime.now(dt.UTC).date()
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise UsageError(f"--daily {value!r}: expected a date YYYY-MM-DD or `today`") from None


def _time(seconds: float | None) -> str:
    from controller.runtime.feedback import duration

    return "-" if seconds is None else duration(seconds)


def _table(title: str, lines: Sequence[Standing]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for column in ("rank", "player", "solves", "best", "server"):
        table.add_column(column, justify="right" if column in ("rank", "solves") else "left")
    for s in lines:
        table.add_row(str(s.rank), s.player_name, str(s.solves), _time(s.best_s), s.server or "-")
    if not lines:
        table.add_row("-", "no solves recorded yet", "", "", "")
    Console(highlight=False, soft_wrap=True).print(table)


def _open(config: Path | None) -> RecordsStore:
    from controller.records.setup import target_of
    from controller.records.store import RecordsStore

    store = RecordsStore(target_of(load(config)))
    store.migrate()
    return store


def stats(
    world: Annotated[
        str | None,
        typer.Option("--world", "-w", metavar="NAME", help="One room (on every server)."),
    ] = None,
    player: Annotated[
        str | None, typer.Option("--player", "-p", metavar="NAME", help="One player's lines.")
    ] = None,
    daily: Annotated[
        str | None,
        typer.Option("--daily", metavar="DATE", help="The daily puzzle of DATE (or `today`)."),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Lines per table.")] = 10,
    config: ConfigOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Leaderboards from the records store: most solves and best times (of one room with
    --world), the daily puzzle's best times (--daily), or one player's lines (--player)."""
    from controller.config import ROOM_NAME

    if world is not None and not ROOM_NAME.fullmatch(world):
        raise UsageError(f"--world {world!r}: room names match [a-z0-9_-]{{1,32}}")
    if daily is not None and world is not None:
        raise UsageError("--daily spans every daily room; leave out --world")
    day = None if daily is None else _day(daily)
    with _open(config) as store:
        if player is not None:
            _player(store, player, world, day, as_json)
            return
        if day is not None:
            lines = store.daily(day, limit=limit)
            if as_json:
                board = {"daily": day.isoformat(), "standings": [s.to_json() for s in lines]}
                typer.echo(json.dumps(board, indent=2))
            else:
                _table(f"Daily puzzle {day.isoformat()}: best times", lines)
            return
        by_solves = store.leaderboard(world, by="solves", limit=limit)
        by_best = store.leaderboard(world, by="best_time", limit=limit)
    if as_json:
        doc: dict[str, Any] = {
            "world": world,
            "by_solves": [s.to_json() for s in by_solves],
            "by_best_time": [s.to_json() for s in by_best],
        }
        typer.echo(json.dumps(doc, indent=2))
        return
    where = f"room {world}" if world else "every room"
    _table(f"Most solves ({where})", by_solves)
    _table(f"Best times ({where})", by_best)


def _player(
    store: RecordsStore, name: str, world: str | None, day: dt.date | None, as_json: bool
) -> None:
    """One player's lines on the leaderboards asked for; an unknown player is an error."""
    key = name.lower()

    def find(lines: Sequence[Standing]) -> list[Standing]:
        return [s for s in lines if s.player_name.lower() == key]

    if day is not None:
        boards = {"daily": find(store.daily(day, limit=ALL))}
    else:
        boards = {
            "by_solves": find(store.leaderboard(world, by="solves", limit=ALL)),
            "by_best_time": find(store.leaderboard(world, by="best_time", limit=ALL)),
        }
    if not any(boards.values()):
        scope = f" on the daily puzzle of {day.isoformat()}" if day else ""
        scope += f" in room {world}" if world else ""
        raise UsageError(f"--player {name!r}: no records for this player{scope}")
    if as_json:
        doc = {"player": name, **{k: [s.to_json() for s in v] for k, v in boards.items()}}
        typer.echo(json.dumps(doc, indent=2))
        return
    titles = {"daily": "Daily puzzle", "by_solves": "By solves", "by_best_time": "By best time"}
    for board, lines in boards.items():
        _table(f"{titles[board]}: {lines[0].player_name if lines else name}", lines)


def register(app: typer.Typer) -> None:
    """Add `stats` to the main command."""
    app.command()(guarded(stats))
