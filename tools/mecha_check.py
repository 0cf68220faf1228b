"""Check Minecraft command strings against mecha's command grammar (run in .venv-mecha).

Reads a JSON list of command strings on stdin and prints a JSON list of
``{"command": ..., "error": ...}`` for every command that does not parse; exits 0 either way
(2 on bad input). mecha pins nbtlib<2, so this runs in its own virtualenv (see the Makefile),
never in the project's.

The grammar is mecha 0.101.0's bundled 1.21 command tree (a late 1.21.x ``commands.json``):
0.101.0 has no 26.x tree, so commands new in 26.x would be reported although the server takes
them. It checks syntax and argument formats only, not registries or NBT meaning.
"""

from __future__ import annotations

import json
import sys

from mecha import DiagnosticError, Mecha

__all__ = ["check", "main"]


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


def main() -> int:
    """Read the JSON list from stdin, print the failures as JSON."""
    try:
        commands = json.load(sys.stdin)
    except json.JSONDecodeError as exc:
        print(f"mecha_check: stdin is not JSON: {exc}", file=sys.stderr)
        return 2
    if not isinstance(commands, list):
        print("mecha_check: stdin must be a JSON list of strings", file=sys.stderr)
        return 2
    mc = Mecha()  # version "1.21": the newest tree bundled with mecha 0.101.0
    failures = []
    for command in commands:
        error = check(mc, command)
        if error is not None:
            failures.append({"command": command, "error": error})
    json.dump(failures, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
