"""Server flavour (vanilla or Paper) and the ``minecraft:`` prefix that only Paper accepts.

Paper lets plugins and aliases replace vanilla commands, also after ``execute … run``; the
namespaced ``minecraft:<name>`` always reaches the vanilla implementation. Vanilla registers no
namespaced literals, so there the prefix turns every command into a parse error
(docs/server-behaviour.md, "Paper: the minecraft: prefix").
"""

from __future__ import annotations

from typing import Literal

from controller.rcon.replies import parse_error

__all__ = [
    "FLAVOUR_PROBE",
    "Flavour",
    "detect_flavour",
    "prefixed",
    "tokenize",
]

Flavour = Literal["vanilla", "paper"]

FLAVOUR_PROBE = "minecraft:list"
"""Succeeds on Paper (``There are N of a max of M players online``), a parse error on vanilla."""

_OPEN = {"[": "]", "{": "}", "(": ")"}


def detect_flavour(probe_reply: str) -> Flavour:
    """Classify the reply to :data:`FLAVOUR_PROBE`: a parse error means vanilla.

    Anything else (the player list, or an empty reply from a plugin that cancelled it) means
    the namespaced command exists, i.e. Paper.
    """
    return "vanilla" if parse_error(probe_reply, FLAVOUR_PROBE) is not None else "paper"


def tokenize(command: str) -> list[tuple[int, str]]:
    """Split a command at top-level spaces: ``(offset, token)`` pairs.

    Spaces inside quotes (with backslash escapes) and inside ``[]``, ``{}`` and ``()`` do not
    split, so selectors, block states, SNBT and JSON text stay whole.
    """
    tokens: list[tuple[int, str]] = []
    stack: list[str] = []
    quote = ""
    escaped = False
    start = -1
    for i, ch in enumerate(command):
        if start < 0:
            if ch == " ":
                continue
            start = i
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
        elif ch in _OPEN:
            stack.append(_OPEN[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
        elif ch == " " and not stack:
            tokens.append((start, command[start:i]))
            start = -1
    if start >= 0:
        tokens.append((start, command[start:]))
    return tokens


def _condition_arity(args: list[str], i: int) -> int | None:
    """Tokens taken by an ``if``/``unless`` condition starting at ``args[i]`` (its kind)."""
    kind = args[i] if i < len(args) else ""
    sub = args[i + 1] if i + 1 < len(args) else ""
    fixed = {
        "block": 5,
        "blocks": 11,
        "entity": 2,
        "function": 2,
        "loaded": 4,
        "predicate": 2,
        "biome": 5,
        "dimension": 2,
        "stopwatch": 3,
    }
    if kind in fixed:
        return fixed[kind]
    if kind == "data":
        return {"block": 6, "entity": 4, "storage": 4}.get(sub)
    if kind == "items":
        return {"block": 7, "entity": 5}.get(sub)
    if kind == "score":
        op = args[i + 3] if i + 3 < len(args) else ""
        return 5 if op == "matches" else 6
    return None


def _store_arity(args: list[str], i: int) -> int | None:
    """Tokens taken after ``store`` by ``result|success <kind> …``."""
    kind = args[i + 1] if i + 1 < len(args) else ""
    table = {"block": 8, "bossbar": 4, "entity": 6, "score": 4, "storage": 6}
    return table.get(kind)


def _subcommand_arity(args: list[str], i: int) -> int | None:
    """Tokens taken by the execute subcommand at ``args[i]``, itself included; None if unknown."""
    word = args[i]
    nxt = args[i + 1] if i + 1 < len(args) else ""
    simple = {"align": 2, "anchored": 2, "as": 2, "at": 2, "in": 2, "on": 2, "summon": 2}
    if word in simple:
        return simple[word]
    if word == "facing":
        return 4  # facing <x y z> | facing entity <targets> <anchor>
    if word == "positioned":
        return 3 if nxt in ("as", "over") else 4
    if word == "rotated":
        return 3  # rotated <yaw pitch> | rotated as <targets>
    if word in ("if", "unless"):
        inner = _condition_arity(args, i + 1)
        return None if inner is None else 1 + inner
    if word == "store":
        inner = _store_arity(args, i + 1)
        return None if inner is None else 1 + inner
    return None


def _run_targets(command: str) -> list[int]:
    """Offsets of every command root: the first token and each token after an execute ``run``."""
    toks = tokenize(command)
    if not toks:
        return []
    words = [t for _, t in toks]
    roots = [0]
    i = 0
    while _bare(words[i]) == "execute":
        j = i + 1
        run_at: int | None = None
        while j < len(words):
            if words[j] == "run":
                run_at = j
                break
            step = _subcommand_arity(words, j)
            if step is None:
                run_at = _next_run(words, j)
                break
            j += step
        if run_at is None or run_at + 1 >= len(words):
            break
        i = run_at + 1
        roots.append(i)
    return [toks[k][0] for k in roots]


def _next_run(words: list[str], j: int) -> int | None:
    """Fallback for an unknown subcommand: the next top-level ``run`` token."""
    for k in range(j, len(words)):
        if words[k] == "run":
            return k
    return None


def _bare(token: str) -> str:
    """A root token without a leading ``/`` and ``minecraft:`` namespace."""
    return token.removeprefix("/").removeprefix("minecraft:")


def prefixed(command: str, flavour: Flavour) -> str:
    """Add ``minecraft:`` to the root command and after every execute ``run``, on Paper only.

    Already namespaced roots (``minecraft:data``, ``other:cmd``) are left alone; a leading ``/``
    is kept in front of the namespace. Vanilla commands come back unchanged.
    """
    if flavour != "paper":
        return command
    out = command
    for offset in reversed(_run_targets(command)):
        at = offset + 1 if out.startswith("/", offset) else offset
        end = out.find(" ", at)
        root = out[at:] if end < 0 else out[at:end]
        if ":" in root or not root:
            continue
        out = out[:at] + "minecraft:" + out[at:]
    return out
