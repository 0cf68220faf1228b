"""Player account names: the only outside text pipesctl ever puts into a command.

A Java account name is 3..16 of `A-Z a-z 0-9 _`; Floodgate (Bedrock players on a Java server)
prefixes the gamertag with `.` by default (`*`, `+` and `-` are other prefixes servers use) and
replaces its spaces with `_` (docs/in-game.md, "Player names"). Anything else is refused, so a
name that passes can neither end a quoted string, nor add an argument, nor start a command. A
name with the `*` prefix must be quoted where a command reads a name (a selector's `name=`);
`is_unquoted_name` tells the names that may stand as a bare command word (`on_win.command`).
"""

from __future__ import annotations

import re

__all__ = ["PLAYER_NAME", "UNQUOTED_NAME", "is_player_name", "is_unquoted_name"]

PLAYER_NAME = re.compile(r"[.*+-]?[A-Za-z0-9_]{1,16}")
UNQUOTED_NAME = re.compile(r"[.+-]?[A-Za-z0-9_]{1,16}")  # characters of an unquoted string


def is_player_name(name: str) -> bool:
    """Whether `name` is a Java or Floodgate account name (at most 16 characters)."""
    return len(name) <= 16 and PLAYER_NAME.fullmatch(name) is not None


def is_unquoted_name(name: str) -> bool:
    """Whether `name` is an account name that may stand unquoted in a command."""
    return len(name) <= 16 and UNQUOTED_NAME.fullmatch(name) is not None
