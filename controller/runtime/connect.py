"""Open an RCON connection for a configured server (the only place a password is read)."""

from __future__ import annotations

from collections.abc import Callable

from controller.config import ServerConfig
from controller.rcon.client import RconClient

__all__ = ["connect_server"]


def connect_server(
    name: str, server: ServerConfig, *, opened: Callable[[RconClient], None] | None = None
) -> RconClient:
    """Connect and log in now, so a wrong password or a dead host is reported at start.

    `opened` sees the client before it connects (so a stop can close it while it waits)."""
    client = RconClient(
        server.host,
        server.port,
        server.resolve_password(name),
        timeout=server.timeout,
        connect_timeout=min(server.timeout, 5.0),
        skip_short_probe=True,
    )
    if opened is not None:
        opened(client)
    client.connect()
    return client
