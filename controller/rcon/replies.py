"""Pure helpers for reply text: colour codes, message splitting, parse errors, empty replies.

Vanilla joins the messages of one command with no separator (MC-7569); Paper adds ``§`` colour
codes and a ``\\n`` after every message of Bukkit/plugin commands, and puts a ``\\n`` between a
parse error and its ``…<--[HERE]`` context (docs/server-behaviour.md, "Output assembly",
"Paper: plugin command output", "Paper: parse errors"). These helpers accept both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "HERE_MARKER",
    "ParseError",
    "expects_output",
    "normalize",
    "parse_error",
    "root_command",
    "split_messages",
    "unexpected_empty",
]

HERE_MARKER = "<--[HERE]"
"""``command.context.here``: ends every parse-error context."""

_COLOUR_CODE = re.compile("§.?", re.DOTALL)

_KNOWN_PARSE_MESSAGES = (
    "Unknown or incomplete command. See below for error",
    "Unknown or incomplete command, see below for error",
    "Incorrect argument for command",
    "Expected whitespace to end one argument, but found trailing data",
)

_SILENT_ROOTS = frozenset(
    {"tellraw", "say", "execute", "me", "msg", "tell", "w", "teammsg", "tm", "function", "return"}
)
"""Root commands whose empty reply is normal (server-behaviour.md, "Empty replies")."""


@dataclass(frozen=True, slots=True)
class ParseError:
    """A command the server could not parse: the error text and the ``…<--[HERE]`` context."""

    message: str
    context: str


def normalize(reply: str) -> str:
    """Strip legacy ``§x`` formatting codes (a trailing lone ``§`` too)."""
    return _COLOUR_CODE.sub("", reply)


def split_messages(reply: str) -> list[str]:
    """Split a normalized reply on Paper's ``\\n`` separators, dropping empty pieces.

    Vanilla commands join messages with nothing between them; those cannot be split without
    knowing the expected message, so a vanilla reply comes back as one element.
    """
    return [part for part in normalize(reply).replace("\r\n", "\n").split("\n") if part]


def parse_error(reply: str, command: str | None = None) -> ParseError | None:
    """Recognise a parse error in either form, or return ``None``.

    Paper: ``<error>\\n<context><--[HERE]``; vanilla: ``<error><context><--[HERE]``. The vanilla
    context is the whole command (cursor <= 10) or ``...`` + the command from 10 characters
    before the cursor; give ``command`` to locate it exactly, else known messages and the
    ``...`` lead are used.
    """
    text = normalize(reply).rstrip("\n")
    if not text.endswith(HERE_MARKER):
        return None
    body = text[: -len(HERE_MARKER)]
    if "\n" in body:
        message, _, context = body.rpartition("\n")
        return ParseError(message, context)
    if command is not None:
        found = _split_with_command(body, command)
        if found is not None:
            return found
    for known in _KNOWN_PARSE_MESSAGES:
        if body.startswith(known):
            return ParseError(known, body[len(known) :])
    lead = body.find("...")
    if lead > 0:
        return ParseError(body[:lead], body[lead:])
    return ParseError(body, "")


def _split_with_command(body: str, command: str) -> ParseError | None:
    """Split ``body`` where the vanilla context built from ``command`` begins."""
    text = command[1:] if command.startswith("/") else command
    if text and body.endswith(text):
        return ParseError(body[: -len(text)], text)
    for start in range(1, len(text) - 9):
        context = "..." + text[start:]
        if body.endswith(context):
            return ParseError(body[: -len(context)], context)
    if not text and body:
        return ParseError(body, "")
    return None


def root_command(command: str) -> str:
    """The root literal of a command, without a leading ``/`` or ``minecraft:`` namespace."""
    text = command.lstrip()
    if text.startswith("/"):
        text = text[1:]
    root = text.split(" ", 1)[0].lower()
    return root.removeprefix("minecraft:")


def expects_output(command: str) -> bool:
    """True when vanilla always answers this command with some text (success or failure)."""
    root = root_command(command)
    return bool(root) and root not in _SILENT_ROOTS


def unexpected_empty(reply: str, command: str) -> bool:
    """True for an empty reply where vanilla always prints something ("Paper: empty replies").

    On Paper that means a plugin cancelled the command or an empty ``messages.unknown-command``
    swallowed its error: do not read it as success.
    """
    return not normalize(reply).strip() and expects_output(command)
