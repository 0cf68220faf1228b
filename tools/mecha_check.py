"""Check Minecraft command strings against mecha's command grammar (run in .venv-mecha).

Reads a JSON list of command strings on stdin and prints a JSON list of
``{"command": ..., "error": ...}`` for every command that does not parse; exits 0 either way
(2 on bad input). mecha pins nbtlib<2, so this runs in its own virtualenv (see the Makefile),
never in the project's.

With ``--serve`` it answers many such lists, one per line: each line read is a JSON list, each
line written its failures; it ends with 0 at the end of stdin (2 at a line that is not a JSON
list). Importing mecha takes about a second, so the tests keep one such process
(``tests/support/grammar.py``); every list is checked by a fresh ``Mecha()``, as in a run of its
own.

The grammar is mecha 0.101.0's bundled 1.21 command tree (a late 1.21.x ``commands.json``):
0.101.0 has no 26.x tree, so commands new in 26.x would be reported although the server takes
them. It checks syntax and argument formats only, not registries or NBT meaning.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mecha import DiagnosticError, Mecha

__all__ = ["check", "failures", "main", "serve"]


def _first_error(exc: DiagnosticError) -> str:
    """The message of the first diagnostic, with its column."""
    for diagnostic in exc.diagnostics.exceptions:
        location = diagnostic.location
        return f"column {location.colno}: {diagnostic.message}"
    return str(exc)


def check(mc: Mecha, command: str) -> str | None:
    """None when ``command`` is one well-formed command, else the reason it is not."""
    if not isinstance(command, str):
        return f"not a string: {command!r}"
    if not command.strip():
        return "empty command"
    if "\n" in command or "\r" in command:
        return "a command is one line"
    if command.lstrip().startswith(("#", "$")):
        return "a comment or macro line is not a command"
    try:
        root = mc.parse(command)
    except DiagnosticError as exc:
        return _first_error(exc)
    if len(root.commands) != 1:
        return f"parsed as {len(root.commands)} commands"
    return None


def failures(commands: list[Any]) -> list[dict[str, Any]]:
    """``{"command", "error"}`` for each command that does not parse, in order."""
    mc = Mecha()  # version "1.21": the newest tree bundled with mecha 0.101.0
    found = []
    for command in commands:
        error = check(mc, command)
        if error is not None:
            found.append({"command": command, "error": error})
    return found


def _commands(text: str, where: str) -> list[Any] | None:
    """The JSON list in ``text``; None (and the reason on stderr) when it is not one."""
    try:
        commands = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"mecha_check: {where} is not JSON: {exc}", file=sys.stderr)
        return None
    if not isinstance(commands, list):
        print(f"mecha_check: {where} must be a JSON list of strings", file=sys.stderr)
        return None
    return commands


def serve() -> int:
    """Answer one JSON list per line of stdin with one line of failures, until stdin ends."""
    for line in sys.stdin:
        commands = _commands(line, "a request line")
        if commands is None:
            return 2
        json.dump(failures(commands), sys.stdout)
        sys.stdout.write("\n")
        sys.stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Read the JSON list from stdin, print the failures as JSON (``--serve``: one per line)."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--serve"]:
        return serve()
    if args:
        print(f"mecha_check: unknown arguments {args} (only --serve)", file=sys.stderr)
        return 2
    commands = _commands(sys.stdin.read(), "stdin")
    if commands is None:
        return 2
    json.dump(failures(commands), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
