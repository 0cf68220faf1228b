"""Command grammar checking for every test suite: ``assert_valid_commands(commands)``.

The check runs ``tools/mecha_check.py`` in the separate mecha virtualenv (mecha pins nbtlib<2):
the interpreter comes from ``$PIPESCTL_MECHA_PYTHON``, else ``<repo>/.venv-mecha/bin/python``.
When that interpreter is missing the calling test is skipped with the reason; ``make test``
always provides it. The grammar is mecha 0.101.0's 1.21 tree (it has no 26.x tree).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

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
    payload = json.dumps(list(commands))
    proc = subprocess.run(
        [str(python), str(CHECKER)],
        input=payload,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"mecha_check failed ({proc.returncode}): {proc.stderr.strip()}")
    result: list[dict[str, str]] = json.loads(proc.stdout)
    return result


def assert_valid_commands(commands: list[str]) -> None:
    """Fail the test, listing each rejected command and why, unless mecha parses all of them."""
    errors = grammar_errors(commands)
    if errors:
        lines = "\n".join(f"  {e['command']!r}\n    -> {e['error']}" for e in errors)
        pytest.fail(f"{len(errors)} of {len(commands)} commands are not valid:\n{lines}")
