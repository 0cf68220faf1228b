"""Command grammar checking for every test suite: ``assert_valid_commands(commands)``.

The check runs ``tools/mecha_check.py`` in the separate mecha virtualenv (mecha pins nbtlib<2):
the interpreter comes from ``$PIPESCTL_MECHA_PYTHON``, else ``<repo>/.venv-mecha/bin/python``.
When that interpreter is missing the calling test is skipped with the reason; ``make test``
always provides it. The grammar is mecha 0.101.0's 1.21 tree (it has no 26.x tree).

Importing mecha takes about a second, so one checker per interpreter is kept running in its
``--serve`` mode for the whole test session (each list still gets a fresh ``Mecha()``) and
ended at exit; a checker that died is started again at the next check.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import IO, NoReturn

import pytest

__all__ = ["REPO", "CHECKER", "mecha_python", "grammar_errors", "assert_valid_commands"]

REPO = Path(__file__).resolve().parents[2]
CHECKER = REPO / "tools" / "mecha_check.py"
ENV_VAR = "PIPESCTL_MECHA_PYTHON"


def mecha_python() -> Path:
    """The interpreter of the mecha virtualenv (it may not exist)."""
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        return Path(explicit)
    return REPO / ".venv-mecha" / "bin" / "python"


def grammar_errors(commands: Iterable[str]) -> list[dict[str, str]]:
    """``[{"command", "error"}, ...]`` for the commands mecha rejects; skips without mecha."""
    python = mecha_python()
    if not os.access(python, os.X_OK):
        pytest.skip(
            f"command grammar check skipped: no mecha interpreter at {python} "
            f"(set {ENV_VAR}, or run `make test`, which creates .venv-mecha)"
        )
    with _LOCK:
        checker = _CHECKERS.get(python)
        if checker is None or not checker.alive():
            if checker is not None:
                checker.close()
            checker = _CHECKERS[python] = _Checker(python)
        return checker.check(list(commands))


TIMEOUT_S = 120.0  # the longest one check may take (a start of mecha included)


class _Checker:
    """``tools/mecha_check.py --serve`` in the mecha interpreter: one JSON line per list."""

    def __init__(self, python: Path) -> None:
        self._stderr: IO[bytes] = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [str(python), str(CHECKER), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
        )

    def alive(self) -> bool:
        return self.proc.poll() is None

    def check(self, commands: list[str]) -> list[dict[str, str]]:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(json.dumps(commands) + "\n")
            stdin.flush()
        except BrokenPipeError:
            self._fail()
        ready, _, _ = select.select([stdout], [], [], TIMEOUT_S)
        if not ready:
            self.close()
            raise subprocess.TimeoutExpired(self.proc.args, TIMEOUT_S)
        line = stdout.readline()
        if not line:
            self._fail()
        result: list[dict[str, str]] = json.loads(line)
        return result

    def _fail(self) -> NoReturn:
        self.close(keep_stderr=True)
        self._stderr.seek(0)
        err = self._stderr.read().decode(errors="replace").strip()
        self._stderr.close()
        raise RuntimeError(f"mecha_check failed ({self.proc.returncode}): {err}")

    def close(self, keep_stderr: bool = False) -> None:
        """End the checker: the end of its stdin, or a kill when it does not stop."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        if not keep_stderr:
            self._stderr.close()


_LOCK = threading.Lock()
_CHECKERS: dict[Path, _Checker] = {}


@atexit.register
def _close_checkers() -> None:
    for checker in _CHECKERS.values():
        checker.close()


def assert_valid_commands(commands: list[str]) -> None:
    """Fail the test, listing each rejected command and why, unless mecha parses all of them."""
    errors = grammar_errors(commands)
    if errors:
        lines = "\n".join(f"  {e['command']!r}\n    -> {e['error']}" for e in errors)
        pytest.fail(f"{len(errors)} of {len(commands)} commands are not valid:\n{lines}")
