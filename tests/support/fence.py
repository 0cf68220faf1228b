"""Commands as they were before the lease fence (controller/runtime/lease.py, `Fence`).

A room's writes go out as `execute if score #pipes.<room>.owner pipes_lease matches <id> …`;
tests that look for a command's own form (the record of a link, the sandbox's command log)
read it back with `unfenced`.
"""

from __future__ import annotations

import re

__all__ = ["fence_owner", "unfenced"]

_FENCE = re.compile(
    r"^(minecraft:)?execute if score #pipes\.[a-z0-9_-]+\.owner pipes_lease matches (\d+) "
)


def fence_owner(command: str) -> int | None:
    """The owner id a fenced command runs under; None for a command sent without a fence."""
    m = _FENCE.match(command)
    return int(m.group(2)) if m else None


def unfenced(command: str) -> str:
    """The command without its fence: `run X` becomes `X`, a merged chain `execute …` again
    (so `execute in <dim> run X` stays as `in_dimension` wrote it)."""
    m = _FENCE.match(command)
    if m is None:
        return command
    prefix, rest = m.group(1) or "", command[m.end() :]
    if rest.startswith("run "):
        return rest.removeprefix("run ")
    return f"{prefix}execute {rest}"
