"""Vanilla's NBT pretty printer (``TextComponentTagVisitor("")``) as plain text.

Compound keys are printed in the iteration order of the server's map: ``java.util.HashMap`` on
vanilla (``CompoundTag`` wraps ``new HashMap<>()``) and fastutil ``Object2ObjectOpenHashMap(8,
0.8f)`` on Paper. Both are modelled from the order in which keys were inserted, which is the
insertion order of the nbtlib ``Compound`` (a dict). Source: decompiled 26.1.2
``net/minecraft/nbt/TextComponentTagVisitor.java`` and ``StringTag.java``; key-order models:
``docs/server-behaviour.md`` ("Compound key order" and "Paper: entity dumps and key order").

Not modelled: HashMap bins that turn into trees (8+ colliding keys) and the order after keys were
removed from a fastutil map (backward-shift deletion). Entity data is rebuilt by a fresh save for
every command, so neither occurs for the sandbox's compounds.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable
from typing import Any, Literal

from nbtlib.tag import (
    Byte,
    ByteArray,
    Compound,
    Double,
    Float,
    Int,
    IntArray,
    List,
    Long,
    LongArray,
    Short,
    String,
)

from controller.nbt._javanum import java_double_str, java_float_str

__all__ = [
    "Order",
    "compact",
    "hashmap_order",
    "java_string_hash",
    "key_order",
    "paper_order",
    "pretty",
    "quote_and_escape",
]

Order = Literal["vanilla", "paper"]

_MAX_DEPTH = 64
_MAX_LENGTH = 128
_SIMPLE_VALUE = re.compile(r"[A-Za-z0-9._+-]+")
_UNQUOTED_KEY = re.compile(r"[A-Za-z._]+[A-Za-z0-9._+-]*")
_CONTROL_ESCAPES = {"\b": "b", "\t": "t", "\n": "n", "\f": "f", "\r": "r"}
_PAPER_LOAD = 0.800000011920929  # (double) 0.8f


def java_string_hash(text: str) -> int:
    """Java ``String.hashCode`` (over UTF-16 code units) as an unsigned 32-bit value."""
    h = 0
    if text.isascii() or all(ord(c) < 0x10000 for c in text):
        for ch in text:
            h = (31 * h + ord(ch)) & 0xFFFFFFFF
        return h
    data = text.encode("utf-16-be", "surrogatepass")
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return h


def hashmap_order(keys: Iterable[str]) -> list[str]:
    """Iteration order of a ``java.util.HashMap`` after inserting `keys` in order."""
    keys = list(keys)
    n = 16
    while len(keys) > n * 0.75:
        n *= 2
    mask = n - 1

    def bucket(key: str) -> int:
        h = java_string_hash(key)
        return (h ^ (h >> 16)) & mask

    decorated = sorted((bucket(k), i, k) for i, k in enumerate(keys))
    return [k for _, _, k in decorated]


def _mix(x: int) -> int:
    """fastutil HashCommon.mix."""
    h = (x * 0x9E3779B9) & 0xFFFFFFFF
    return h ^ (h >> 16)


def _array_size(expected: int) -> int:
    """fastutil HashCommon.arraySize(expected, 0.8f)."""
    target = math.ceil(expected / _PAPER_LOAD)
    size = 1
    while size < target:
        size <<= 1
    return max(2, size)


def _max_fill(n: int) -> int:
    """fastutil HashCommon.maxFill(n, 0.8f)."""
    return min(math.ceil(n * _PAPER_LOAD), n - 1)


def paper_order(keys: Iterable[str]) -> list[str]:
    """Iteration order of Paper's ``Object2ObjectOpenHashMap(8, 0.8f)`` after inserting `keys`."""
    table: list[str | None] = [None] * _array_size(8)
    size = 0

    def put(tab: list[str | None], key: str) -> None:
        mask = len(tab) - 1
        pos = _mix(java_string_hash(key)) & mask
        while tab[pos] is not None:
            pos = (pos + 1) & mask
        tab[pos] = key

    for key in keys:
        put(table, key)
        grow = size >= _max_fill(len(table))
        size += 1
        if grow:
            bigger: list[str | None] = [None] * _array_size(size + 1)
            for i in range(len(table) - 1, -1, -1):
                old = table[i]
                if old is not None:
                    put(bigger, old)
            table = bigger
    return [k for k in reversed(table) if k is not None]


def key_order(compound: Any, order: Order = "vanilla") -> list[str]:
    """The order in which the server iterates (and so prints) a compound's keys."""
    return list(_cached_order(tuple(compound.keys()), order))


@functools.lru_cache(maxsize=4096)
def _cached_order(keys: tuple[str, ...], order: Order) -> tuple[str, ...]:
    """Cached key order for one key tuple."""
    return tuple(hashmap_order(keys) if order == "vanilla" else paper_order(keys))


def quote_and_escape(text: str) -> str:
    """``StringTag.quoteAndEscape``: the first quote character seen picks the other quote."""
    out: list[str] = []
    quote = ""
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch in "\"'":
            if not quote:
                quote = "'" if ch == '"' else '"'
            if ch == quote:
                out.append("\\")
            out.append(ch)
        elif ch < " ":
            escaped = _CONTROL_ESCAPES.get(ch)
            out.append("\\" + escaped if escaped else f"\\x{ord(ch):02X}")
        else:
            out.append(ch)
    quote = quote or '"'
    return quote + "".join(out) + quote


def _key(text: str) -> str:
    """A compound key as TextComponentTagVisitor.handleEscapePretty writes it."""
    return text if _SIMPLE_VALUE.fullmatch(text) else quote_and_escape(text)


def _unwrap(element: Any) -> Any:
    """ListTag keeps heterogeneous elements unwrapped in memory (``addAndUnwrap``)."""
    if isinstance(element, Compound) and len(element) == 1 and "" in element:
        return element[""]
    return element


def _array(prefix: str, values: Any, suffix: str) -> str:
    """A typed array, cut after 128 elements."""
    count = len(values)
    parts = [f"[{prefix};"]
    for i in range(min(count, _MAX_LENGTH)):
        parts.append(f" {int(values[i])}{suffix}")
        if i != count - 1:
            parts.append(",")
    if count > _MAX_LENGTH:
        parts.append("<...>")
    parts.append("]")
    return "".join(parts)


def _scalar(tag: Any) -> str | None:
    """A string or number tag as both printers write it; None for arrays, lists, compounds."""
    if isinstance(tag, String):
        return quote_and_escape(str(tag))
    if isinstance(tag, Byte):
        return f"{int(tag)}b"
    if isinstance(tag, Short):
        return f"{int(tag)}s"
    if isinstance(tag, Int):
        return str(int(tag))
    if isinstance(tag, Long):
        return f"{int(tag)}L"
    if isinstance(tag, Float):
        return java_float_str(float(tag)) + "f"
    if isinstance(tag, Double):
        return java_double_str(float(tag)) + "d"
    return None


def _visit(tag: Any, depth: int, order: Order) -> str:
    # order of checks: subclasses before bases (all nbtlib numerics are distinct classes)
    """TextComponentTagVisitor.visit* for one tag at nesting `depth`."""
    scalar = _scalar(tag)
    if scalar is not None:
        return scalar
    if isinstance(tag, ByteArray):
        return _array("B", tag, "b")
    if isinstance(tag, IntArray):
        return _array("I", tag, "")
    if isinstance(tag, LongArray):
        return _array("L", tag, "L")
    if isinstance(tag, List):
        if len(tag) == 0:
            return "[]"
        if depth >= _MAX_DEPTH:
            return "[<...>]"
        elements = [_unwrap(e) for e in tag] if tag.subtype is Compound else list(tag)
        # Vanilla only cuts lists at 128 in its "wrapped" branch, which needs fewer than 8
        # elements: in effect lists are never cut, and both branches print "a, b".
        body = ", ".join(_visit(e, depth + 1, order) for e in elements)
        return f"[{body}]"
    if isinstance(tag, Compound):
        if len(tag) == 0:
            return "{}"
        if depth >= _MAX_DEPTH:
            return "{<...>}"
        body = ", ".join(
            f"{_key(key)}: {_visit(tag[key], depth + 1, order)}" for key in key_order(tag, order)
        )
        return "{" + body + "}"
    raise TypeError(f"not an NBT tag: {tag!r}")


def pretty(tag: Any, order: Order = "vanilla") -> str:
    """The text of ``NbtUtils.toPrettyComponent(tag)`` (``data get`` output) on vanilla/Paper."""
    return _visit(tag, 0, order)


def _utf16_key(text: str) -> bytes:
    """Sort key matching Java String.compareTo."""
    return text.encode("utf-16-be", "surrogatepass")


def compact(tag: Any) -> str:
    """``Tag.toString()`` (``StringTagVisitor``): compact SNBT with sorted keys, as used when a
    tag is the argument of an error message such as ``Expected a list: got %s``."""
    scalar = _scalar(tag)
    if scalar is not None:
        return scalar
    if isinstance(tag, ByteArray):
        return "[B;" + ",".join(f"{int(v)}B" for v in tag) + "]"
    if isinstance(tag, IntArray):
        return "[I;" + ",".join(str(int(v)) for v in tag) + "]"
    if isinstance(tag, LongArray):
        return "[L;" + ",".join(f"{int(v)}L" for v in tag) + "]"
    if isinstance(tag, List):
        elements = [_unwrap(e) for e in tag] if tag.subtype is Compound else list(tag)
        return "[" + ",".join(compact(e) for e in elements) + "]"
    if isinstance(tag, Compound):
        parts = []
        for key in sorted(tag.keys(), key=_utf16_key):
            plain = key.lower() not in ("true", "false") and _UNQUOTED_KEY.fullmatch(key)
            parts.append(f"{key if plain else quote_and_escape(key)}:{compact(tag[key])}")
        return "{" + ",".join(parts) + "}"
    raise TypeError(f"not an NBT tag: {tag!r}")
