"""Fixtures for the transport tests: vanilla-like fake servers, stopped after each test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.rcon_fakes import FakeServer, ServerFactory

__all__ = ["make_server", "server"]


@pytest.fixture
def make_server() -> Iterator[ServerFactory]:
    """Build and start fake servers with the given options; all stopped at teardown."""
    servers: list[FakeServer] = []

    def make(**options: Any) -> FakeServer:
        server = FakeServer(**options).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def server(make_server: ServerFactory) -> FakeServer:
    """A default vanilla-like server, password ``pw``."""
    return make_server()
