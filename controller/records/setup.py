"""The records store a configuration names (docs/records.md, "Configuration")."""

from __future__ import annotations

from pathlib import Path

from controller.config import Config
from controller.records.store import Target

__all__ = ["SQLITE_FILE", "target_of", "server_name"]

SQLITE_FILE = "records.sqlite3"  # in the state directory, when `records` has no url


def target_of(config: Config) -> Target:
    """The store of `config.records`: its PostgreSQL `url` (password from password_env or
    password_file), else the SQLite file in the state directory. A password that cannot be read
    is a ConfigError."""
    records = config.records
    if records.url is None:
        return Target("sqlite", str(Path(config.state_dir) / SQLITE_FILE))
    return Target("postgresql", records.url, records.resolve_password())


def server_name(config: Config, room: str) -> str:
    """The server a room's solves are recorded under: `records.server_name`, else the key of
    the room's server in `servers`."""
    return config.records.server_name or config.worlds[room].server
