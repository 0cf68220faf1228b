"""The daily puzzle: one seed for a UTC date on every server (docs/in-game.md, "The daily
puzzle")."""

from __future__ import annotations

import datetime as dt
import hashlib

__all__ = ["DAILY_PREFIX", "daily_seed", "utc_date"]

DAILY_PREFIX = "pipesctl-daily:"


def daily_seed(date: dt.date, width: int, height: int, kind: str = "pipes") -> int:
    """The generator seed of the daily puzzle: the first 8 bytes (big-endian) of
    sha256("pipesctl-daily:<YYYY-MM-DD>:<W>x<H>"), modulo 2**31; a paint room's (`kind`
    "paint") hashes "pipesctl-daily:<YYYY-MM-DD>:<W>x<H>:paint"."""
    suffix = "" if kind == "pipes" else f":{kind}"
    key = f"{DAILY_PREFIX}{date.isoformat()}:{width}x{height}{suffix}".encode("ascii")
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") % 2**31


def utc_date(timestamp: float) -> dt.date:
    """The UTC calendar date of a Unix time."""
    return dt.datetime.fromtimestamp(timestamp, tz=dt.UTC).date()
