"""Open an RCON connection for a configured server (the only place a password is read)."""

from __future__ import annotations

from controller.config import ServerConfig
from controller.rcon.client import RconClient

__all__ = ["connect_server"]


def connect_server(name: str, server: ServerConfig) -> RconClient:
    """Connect and log in now, so a wrong password or a dead host is reported at start."""
    client = RconClient(
        server.host,
        server.port,
        server.resolve_password(name),
        timeout=server.timeout,
        connect_timeout=min(server.timeout, 5.0),
        skip_short_probe=True,
    )
    client.connect()
    return client
