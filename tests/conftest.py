"""Shared test configuration: hypothesis without wall-clock deadlines (CI machines are shared,
so timing is never asserted), and derandomized under CI so a red run can be replayed; the
PostgreSQL fixtures of the records tests (tests/support/postgres.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.support.postgres import PostgresServer, start_or_skip

settings.register_profile("pipesctl", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "pipesctl")


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server on loopback, once per test session (per xdist worker); the
    tests that need it skip with the reason when none can be started."""
    server = start_or_skip()
    yield server
    server.close()


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    """A database of its own for one test, on the session's PostgreSQL server."""
    return postgres.create_database()


@pytest.fixture
def fresh_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the test's own, for a test that stops and starts it."""
    server = start_or_skip()
    yield server
    server.close()
