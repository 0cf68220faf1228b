"""The JSON documents of the web page (pure): the rooms, and the standings. They carry
players' names and times only, never a UUID."""

from __future__ import annotations

import datetime as dt
from typing import Any

from controller.web.live import RoomView
from controller.web.standings import Records, Standing

__all__ = ["STANDINGS_LIMIT", "picture_path", "rooms_document", "standings_document"]

STANDINGS_LIMIT = 10


def picture_path(view: RoomView) -> str:
    """The board picture's address; the revision in its query makes each change a new image
    (the server ignores the query)."""
    return f"/rooms/{view.name}.png?rev={view.revision}"


def rooms_document(views: list[RoomView], now: float) -> dict[str, Any]:
    """Every room: name, server, size, water a/b, a sink room's route progress (`route`, else
    null), solved, its clock (`started_at`, `solved_at`, and the server's `now` to count from)."""
    return {
        "now": now,
        "rooms": [
            {
                "name": v.name,
                "server": v.server,
                "kind": v.kind,
                "size": [v.width, v.height],
                "built": v.built,
                "puzzle": v.puzzle,
                "water": [v.progress, v.total],
                "route": v.route.as_json() if v.route is not None else None,
                "solved": v.solved,
                "started_at": v.started_at,
                "solved_at": v.solved_at,
                "revision": v.revision,
                "picture": picture_path(v) if v.built else None,
            }
            for v in views
        ],
    }


def _standing(s: Standing) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "name": s.player_name,
        "solves": s.solves,
        "best_s": s.best_s,
        "server": s.server,
    }


def standings_document(
    records: Records, rooms: list[str], day: dt.date, limit: int = STANDINGS_LIMIT
) -> dict[str, Any]:
    """The leaderboards (every room together, then each room) by solves and by best time,
    and the standings of `day`'s daily puzzle."""

    def boards(world: str | None) -> dict[str, list[dict[str, Any]]]:
        return {
            by: [_standing(s) for s in records.leaderboard(world, by=by, limit=limit)]
            for by in ("solves", "best_time")
        }

    return {
        "day": day.isoformat(),
        "daily": [_standing(s) for s in records.daily(day, limit=limit)],
        "overall": boards(None),
        "rooms": [{"name": name, **boards(name)} for name in rooms],
    }
