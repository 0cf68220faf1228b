"""NBT paths (``NbtPathArgument``), tag equality/matching and the ``data`` command's NBT rules.

Mirrors decompiled 26.1.2 ``commands/arguments/NbtPathArgument.java``, ``nbt/NbtUtils.compareNbt``,
``nbt/CompoundTag.merge`` and ``server/commands/data/DataCommands.java`` (getSingleTag, getData,
getNumeric, mergeData). Derived from code, not checked against a live server.

Limits: NBT arrays (``[B;..]``, ``[I;..]``, ``[L;..]``) are numpy arrays in nbtlib and cannot
grow or shrink in place, so path operations that would change an array's length (``remove`` of
an element, inserting into an empty array) raise ``NotImplementedError``; reads and same-length
writes work. Heterogeneous lists are handled in their wrapped form (see ``snbt.make_list``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
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

from controller.lang import tr
from controller.nbt._javanum import java_double_str, to_float32
from controller.nbt.printer import compact, hashmap_order
from controller.nbt.reader import CommandSyntaxError, StringReader
from controller.nbt.snbt import Tag, make_list, parse_compound

__all__ = [
    "NbtPath",
    "NbtPathRuntimeError",
    "as_number",
    "compare_nbt",
    "copy_tag",
    "data_get",
    "data_get_scaled",
    "format_scale",
    "is_too_deep",
    "java_floor",
    "merge",
    "merge_data",
    "numeric_value",
    "tag_equals",
]

_NUMERIC = (Byte, Short, Int, Long, Float, Double)
_ARRAYS = (ByteArray, IntArray, LongArray)
_ARRAY_ELEMENT = {ByteArray: Byte, IntArray: Int, LongArray: Long}
_ARRAY_BITS = {ByteArray: 8, IntArray: 32, LongArray: 64}


class NbtPathRuntimeError(RuntimeError):
    """A non-Brigadier exception vanilla would hit (e.g. StringIndexOutOfBounds on ``a[``)."""


# -- tag helpers -----------------------------------------------------------------------------


def copy_tag(tag: Tag) -> Tag:
    """``Tag.copy()``: a deep copy (strings and numbers are immutable and shared)."""
    if isinstance(tag, Compound):
        return Compound({k: copy_tag(v) for k, v in tag.items()})
    if isinstance(tag, List):
        return type(tag)([copy_tag(e) for e in tag])
    if isinstance(tag, _ARRAYS):
        return type(tag)(tag.copy())
    return tag


def _elements(tag: Tag) -> list[Tag]:
    """The logical elements of a list/array as vanilla holds them in memory."""
    if isinstance(tag, List):
        if tag.subtype is Compound:
            return [e[""] if len(e) == 1 and "" in e else e for e in tag]
        return list(tag)
    element = _ARRAY_ELEMENT[type(tag)]
    return [element(int(x)) for x in tag]


def _replace_list(target: Tag, elements: list[Tag]) -> None:
    """Mutate a list tag in place to hold `elements` (re-typing or wrapping as vanilla writes)."""
    rebuilt = make_list(elements)
    target.__class__ = type(rebuilt)
    list.__setitem__(target, slice(None), list(rebuilt))


def _is_collection(tag: Tag) -> bool:
    """CollectionTag: lists and the three array types."""
    return isinstance(tag, List | ByteArray | IntArray | LongArray)


def _narrow(value: int, bits: int) -> int:
    """Java's two's-complement narrowing to `bits` bits."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def _d2l(value: float) -> int:
    """Java's saturating (long) cast of a double (NaN → 0)."""
    if math.isnan(value):
        return 0
    return (
        max(-(2**63), min(2**63 - 1, int(value)))
        if math.isfinite(value)
        else (2**63 - 1 if value > 0 else -(2**63))
    )


def _java_int_value(tag: Tag) -> int:
    """NumericTag.intValue: narrowing for longs, ``Mth.floor`` for floats and doubles."""
    if isinstance(tag, Float | Double):
        return java_floor(float(to_float32(tag) if isinstance(tag, Float) else tag))
    return _narrow(int(tag), 32)


def _java_long_value(tag: Tag) -> int:
    """NumericTag.longValue: FloatTag truncates, DoubleTag floors (both saturate)."""
    if isinstance(tag, Float):
        return _d2l(to_float32(float(tag)))
    if isinstance(tag, Double):
        value = float(tag)
        return _d2l(math.floor(value) if math.isfinite(value) else value)
    return int(tag)


def _array_store(array: Tag, index: int, tag: Tag) -> bool:
    """ByteArrayTag/IntArrayTag/LongArrayTag.setTag: numeric tags only (byteValue etc.)."""
    if not isinstance(tag, _NUMERIC):
        return False
    bits = _ARRAY_BITS[type(array)]
    value = _java_long_value(tag) if bits == 64 else _narrow(_java_int_value(tag), bits)
    array[index] = value
    return True


def _coll_set(coll: Tag, index: int, tag: Tag) -> bool:
    """CollectionTag.setTag(index, tag)."""
    if isinstance(coll, List):
        elements = _elements(coll)
        elements[index] = tag
        _replace_list(coll, elements)
        return True
    return _array_store(coll, index, tag)


def _coll_add(coll: Tag, index: int, tag: Tag) -> bool:
    """CollectionTag.addTag(index, tag)."""
    if isinstance(coll, List):
        elements = _elements(coll)
        if not 0 <= index <= len(elements):
            raise IndexError(index)
        elements.insert(index, tag)
        _replace_list(coll, elements)
        return True
    if not isinstance(tag, _NUMERIC):
        return False
    raise NotImplementedError("growing an NBT array in place")


def _coll_remove(coll: Tag, index: int) -> None:
    """CollectionTag.remove(index)."""
    if isinstance(coll, List):
        elements = _elements(coll)
        del elements[index]
        _replace_list(coll, elements)
        return
    raise NotImplementedError("shrinking an NBT array in place")


def _float_key(tag: Tag) -> tuple[int, float]:
    """Float.compare/Double.compare equality: NaN equals NaN, 0.0 differs from -0.0."""
    value = float(to_float32(tag) if isinstance(tag, Float) else tag)
    if math.isnan(value):
        return (2, 0.0)
    return (1 if math.copysign(1.0, value) < 0 else 0, value)


def tag_equals(a: Tag | None, b: Tag | None) -> bool:
    """Java ``Tag.equals``: same tag type and equal contents (Byte(1) != Int(1))."""
    if a is None or b is None:
        return a is b
    if a.tag_id != b.tag_id:
        return False
    if isinstance(a, Compound):
        return a.keys() == b.keys() and all(tag_equals(a[k], b[k]) for k in a)
    if isinstance(a, List):
        left, right = _elements(a), _elements(b)
        return len(left) == len(right) and all(map(tag_equals, left, right))
    if isinstance(a, _ARRAYS):
        return len(a) == len(b) and bool(np.array_equal(np.asarray(a), np.asarray(b)))
    if isinstance(a, Float | Double):
        return _float_key(a) == _float_key(b)
    if isinstance(a, String):
        return str(a) == str(b)
    return int(a) == int(b)


def compare_nbt(expected: Tag | None, actual: Tag | None, partial_lists: bool = True) -> bool:
    """``NbtUtils.compareNbt``: the ``nbt=`` selector and path-filter match."""
    if expected is actual or expected is None:
        return True
    if actual is None:
        return False
    if expected.tag_id != actual.tag_id:
        return False
    if isinstance(expected, Compound):
        if len(actual) < len(expected):
            return False
        return all(compare_nbt(v, actual.get(k), partial_lists) for k, v in expected.items())
    if isinstance(expected, List) and partial_lists:
        wanted, present = _elements(expected), _elements(actual)
        if not wanted:
            return not present
        if len(present) < len(wanted):
            return False
        return all(any(compare_nbt(w, p, partial_lists) for p in present) for w in wanted)
    return tag_equals(expected, actual)


def is_too_deep(tag: Tag, depth: int) -> bool:
    """``NbtPath.isTooDeep``: nesting of compounds/lists reaching 512 levels."""
    stack = [(tag, depth)]
    while stack:
        current, level = stack.pop()
        if level >= 512:
            return True
        if isinstance(current, Compound):
            stack.extend((child, level + 1) for child in current.values())
        elif isinstance(current, List):
            stack.extend((child, level + 1) for child in _elements(current))
    return False


def merge(target: Tag, source: Tag) -> bool:
    """``CompoundTag.merge`` in place (deep for nested compounds); True if `target` changed."""
    before = copy_tag(target)
    _merge_into(target, source)
    return not tag_equals(before, target)


def _merge_into(target: Tag, source: Tag) -> None:
    """CompoundTag.merge without the change check."""
    for key in hashmap_order(source.keys()):  # vanilla iterates the source's HashMap
        value = source[key]
        existing = target.get(key)
        if isinstance(value, Compound) and isinstance(existing, Compound):
            _merge_into(existing, value)
        else:
            target[key] = copy_tag(value)


def merge_data(old: Tag, nbt: Tag) -> Tag:
    """``DataCommands.mergeData``: the merged copy, or the vanilla error if nothing changed."""
    if is_too_deep(nbt, 0):
        raise CommandSyntaxError(tr("arguments.nbtpath.too_deep"))
    result = copy_tag(old)
    _merge_into(result, nbt)
    if tag_equals(old, result):
        raise CommandSyntaxError(tr("commands.data.merge.failed"))
    return result


# -- numbers for `data get` ----------------------------------------------------------------------


def numeric_value(tag: Tag, path: NbtPath | str) -> float:
    """``NumericTag.doubleValue()``; other tags fail like ``data get <path> <scale>``."""
    number = as_number(tag)
    if number is None:
        raise CommandSyntaxError(tr("commands.data.get.invalid", str(path)))
    return number


def as_number(tag: Tag) -> float | None:
    """``NumericTag.doubleValue()``, or None for non-numeric tags."""
    if isinstance(tag, Float):
        return to_float32(float(tag))
    if isinstance(tag, Double):
        return float(tag)
    if isinstance(tag, _NUMERIC):
        return float(int(tag))
    return None


def java_floor(value: float) -> int:
    """``Mth.floor``: floor, then Java's saturating double→int cast (NaN → 0)."""
    if math.isnan(value):
        return 0
    if math.isinf(value):
        return 2**31 - 1 if value > 0 else -(2**31)
    return max(-(2**31), min(2**31 - 1, math.floor(value)))


def format_scale(scale: float) -> str:
    """``String.format(Locale.ROOT, "%.2f", scale)``: HALF_UP on Java's shortest decimal."""
    if math.isnan(scale):
        return "NaN"
    if math.isinf(scale):
        return "Infinity" if scale > 0 else "-Infinity"

    text = java_double_str(scale)
    mantissa, _, exp = text.partition("E")
    value = Decimal(mantissa) * (Decimal(10) ** int(exp or "0"))
    return f"{value.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):.2f}"


def _java_length(text: str) -> int:
    """String.length(): UTF-16 code units."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def data_get(root: Tag, path: NbtPath) -> tuple[Tag, int]:
    """``data get … <path>``: the single matching tag (printed whole) and the command result.

    Result: floor of a number, size of a list/array/compound, length of a string.
    """
    tag = _single(root, path)
    number = as_number(tag)
    if number is not None:
        return tag, java_floor(number)
    if _is_collection(tag) or isinstance(tag, Compound):
        return tag, len(tag)
    if isinstance(tag, String):
        return tag, _java_length(str(tag))
    raise CommandSyntaxError(tr("commands.data.get.unknown", str(path)))  # pragma: no cover


def data_get_scaled(root: Tag, path: NbtPath, scale: float) -> int:
    """``data get … <path> <scale>``: floor(value × scale), numeric tags only."""
    return java_floor(numeric_value(_single(root, path), path) * scale)


def _single(root: Tag, path: NbtPath) -> Tag:
    """DataCommands.getSingleTag."""
    tags = path.get(root)
    if len(tags) > 1:
        raise CommandSyntaxError(tr("commands.data.get.multiple"))
    return tags[0]


# -- nodes ---------------------------------------------------------------------------------------


class _Node:
    """One element of an NBT path."""

    def get_tag(self, parent: Tag, out: list[Tag]) -> None:
        """Append the matches under `parent` to `out`."""
        raise NotImplementedError

    def get_or_create_tag(self, parent: Tag, child: Callable[[], Tag], out: list[Tag]) -> None:
        """Like get_tag, creating missing children."""
        self.get_tag(parent, out)

    def preferred_parent(self) -> Tag:
        """An empty parent of the kind this node reads from."""
        return Compound()

    def set_tag(self, parent: Tag, value: Callable[[], Tag]) -> int:
        """Set matches under `parent`; the number changed."""
        return 0

    def remove_tag(self, parent: Tag) -> int:
        """Remove matches under `parent`; the number removed."""
        return 0

    def get(self, tags: list[Tag]) -> list[Tag]:
        """Matches under every tag of `tags`."""
        out: list[Tag] = []
        for tag in tags:
            self.get_tag(tag, out)
        return out

    def get_or_create(self, tags: list[Tag], child: Callable[[], Tag]) -> list[Tag]:
        """get_or_create_tag over every tag of `tags`."""
        out: list[Tag] = []
        for tag in tags:
            self.get_or_create_tag(tag, child, out)
        return out


class _CompoundChild(_Node):
    """CompoundChildNode: `name`."""

    def __init__(self, name: str) -> None:
        self.name = name

    def get_tag(self, parent: Tag, out: list[Tag]) -> None:
        """Append the matches under `parent` to `out`."""
        if isinstance(parent, Compound) and self.name in parent:
            out.append(parent[self.name])

    def get_or_create_tag(self, parent: Tag, child: Callable[[], Tag], out: list[Tag]) -> None:
        """Like get_tag, creating missing children."""
        if isinstance(parent, Compound):
            if self.name not in parent:
                parent[self.name] = child()
            out.append(parent[self.name])

    def set_tag(self, parent: Tag, value: Callable[[], Tag]) -> int:
        """Set matches under `parent`; the number changed."""
        if isinstance(parent, Compound):
            new = value()
            previous = parent.get(self.name)
            parent[self.name] = new
            return 0 if tag_equals(new, previous) else 1
        return 0

    def remove_tag(self, parent: Tag) -> int:
        """Remove matches under `parent`; the number removed."""
        if isinstance(parent, Compound) and self.name in parent:
            del parent[self.name]
            return 1
        return 0


class _Indexed(_Node):
    """IndexedElementNode: `[i]` (negative counts from the end)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def _actual(self, parent: Tag) -> int | None:
        """The index into `parent`, or None when out of range."""
        if not _is_collection(parent):
            return None
        size = len(parent)
        actual = size + self.index if self.index < 0 else self.index
        return actual if 0 <= actual < size else None

    def get_tag(self, parent: Tag, out: list[Tag]) -> None:
        """Append the matches under `parent` to `out`."""
        actual = self._actual(parent)
        if actual is not None:
            out.append(_elements(parent)[actual])

    def preferred_parent(self) -> Tag:
        """An empty parent of the kind this node reads from."""
        return List()

    def set_tag(self, parent: Tag, value: Callable[[], Tag]) -> int:
        """Set matches under `parent`; the number changed."""
        actual = self._actual(parent)
        if actual is None:
            return 0
        previous = _elements(parent)[actual]
        new = value()
        if not tag_equals(new, previous) and _coll_set(parent, actual, new):
            return 1
        return 0

    def remove_tag(self, parent: Tag) -> int:
        """Remove matches under `parent`; the number removed."""
        actual = self._actual(parent)
        if actual is None:
            return 0
        _coll_remove(parent, actual)
        return 1


class _MatchElement(_Node):
    """MatchElementNode: `[{...}]`."""

    def __init__(self, pattern: Tag) -> None:
        self.pattern = pattern

    def get_tag(self, parent: Tag, out: list[Tag]) -> None:
        """Append the matches under `parent` to `out`."""
        if isinstance(parent, List):
            out.extend(e for e in _elements(parent) if compare_nbt(self.pattern, e))

    def get_or_create_tag(self, parent: Tag, child: Callable[[], Tag], out: list[Tag]) -> None:
        """Like get_tag, creating missing children."""
        if isinstance(parent, List):
            found = [e for e in _elements(parent) if compare_nbt(self.pattern, e)]
            out.extend(found)
            if not found:
                new = copy_tag(self.pattern)
                _coll_add(parent, len(parent), new)
                out.append(new)

    def preferred_parent(self) -> Tag:
        """An empty parent of the kind this node reads from."""
        return List()

    def set_tag(self, parent: Tag, value: Callable[[], Tag]) -> int:
        """Set matches under `parent`; the number changed."""
        if not isinstance(parent, List):
            return 0
        if len(parent) == 0:
            _coll_add(parent, 0, value())
            return 1
        changed = 0
        for i in range(len(parent)):
            current = _elements(parent)[i]
            if compare_nbt(self.pattern, current):
                new = value()
                if not tag_equals(new, current) and _coll_set(parent, i, new):
                    changed += 1
        return changed

    def remove_tag(self, parent: Tag) -> int:
        """Remove matches under `parent`; the number removed."""
        changed = 0
        if isinstance(parent, List):
            for i in range(len(parent) - 1, -1, -1):
                if compare_nbt(self.pattern, _elements(parent)[i]):
                    _coll_remove(parent, i)
                    changed += 1
        return changed


class _AllElements(_Node):
    """AllElementsNode: `[]` (one shared instance, as in vanilla)."""

    def get_tag(self, parent: Tag, out: list[Tag]) -> None:
        """Append the matches under `parent` to `out`."""
        if _is_collection(parent):
            out.extend(_elements(parent))

    def get_or_create_tag(self, parent: Tag, child: Callable[[], Tag], out: list[Tag]) -> None:
        """Like get_tag, creating missing children."""
        if _is_collection(parent):
            if len(parent) == 0:
                new = child()
                if _coll_add(parent, 0, new):
                    out.append(new)
            else:
                out.extend(_elements(parent))

    def preferred_parent(self) -> Tag:
        """An empty parent of the kind this node reads from."""
        return List()

    def set_tag(self, parent: Tag, value: Callable[[], Tag]) -> int:
        """Set matches under `parent`; the number changed."""
        if not _is_collection(parent):
            return 0
        size = len(parent)
        if size == 0:
            _coll_add(parent, 0, value())
            return 1
        new = value()
        changed = size - sum(1 for e in _elements(parent) if tag_equals(new, e))
        if changed == 0:
            return 0
        if isinstance(parent, List):
            _replace_list(parent, [new] + [value() for _ in range(1, size)])
            return changed
        if not isinstance(new, _NUMERIC):  # clear() then addTag(0, non-number) fails
            raise NotImplementedError("clearing an NBT array in place")
        for i in range(size):
            _array_store(parent, i, new)
        return changed

    def remove_tag(self, parent: Tag) -> int:
        """Remove matches under `parent`; the number removed."""
        if _is_collection(parent) and len(parent) > 0:
            size = len(parent)
            if isinstance(parent, List):
                _replace_list(parent, [])
                return size
            raise NotImplementedError("clearing an NBT array in place")
        return 0


class _MatchObject(_Node):
    """MatchObjectNode: `name{...}`."""

    def __init__(self, name: str, pattern: Tag) -> None:
        self.name = name
        self.pattern = pattern

    def get_tag(self, parent: Tag, out: list[Tag]) -> None:
        """Append the matches under `parent` to `out`."""
        if isinstance(parent, Compound):
            result = parent.get(self.name)
            if compare_nbt(self.pattern, result):
                out.append(result)

    def get_or_create_tag(self, parent: Tag, child: Callable[[], Tag], out: list[Tag]) -> None:
        """Like get_tag, creating missing children."""
        if isinstance(parent, Compound):
            result = parent.get(self.name)
            if result is None:
                result = copy_tag(self.pattern)
                parent[self.name] = result
                out.append(result)
            elif compare_nbt(self.pattern, result):
                out.append(result)

    def set_tag(self, parent: Tag, value: Callable[[], Tag]) -> int:
        """Set matches under `parent`; the number changed."""
        if isinstance(parent, Compound):
            current = parent.get(self.name)
            if compare_nbt(self.pattern, current):
                new = value()
                if not tag_equals(new, current):
                    parent[self.name] = new
                    return 1
        return 0

    def remove_tag(self, parent: Tag) -> int:
        """Remove matches under `parent`; the number removed."""
        if isinstance(parent, Compound) and compare_nbt(self.pattern, parent.get(self.name)):
            parent.pop(self.name, None)
            return 1
        return 0


class _MatchRootObject(_Node):
    """MatchRootObjectNode: a leading `{...}`."""

    def __init__(self, pattern: Tag) -> None:
        self.pattern = pattern

    def get_tag(self, parent: Tag, out: list[Tag]) -> None:
        """Append the matches under `parent` to `out`."""
        if isinstance(parent, Compound) and compare_nbt(self.pattern, parent):
            out.append(parent)


_ALL_ELEMENTS = _AllElements()


def _allowed_in_unquoted_name(c: str) -> bool:
    """NbtPathArgument.isAllowedInUnquotedName."""
    return c not in " \"'[].{}"


class NbtPath:
    """A parsed NBT path (``NbtPathArgument.NbtPath``)."""

    def __init__(self, original: str, nodes: list[_Node], positions: list[int]) -> None:
        self.original = original
        self.nodes = nodes
        # Object2IntOpenHashMap<Node>: the shared AllElementsNode keeps its last position
        last_all = max(
            (p for n, p in zip(nodes, positions, strict=True) if n is _ALL_ELEMENTS), default=0
        )
        self._positions = [
            last_all if n is _ALL_ELEMENTS else p for n, p in zip(nodes, positions, strict=True)
        ]

    def __str__(self) -> str:
        return self.original

    def __repr__(self) -> str:
        return f"NbtPath({self.original!r})"

    # -- parsing -------------------------------------------------------------------------------
    @classmethod
    def parse(cls, reader: StringReader) -> NbtPath:
        """``NbtPathArgument.parse``: read a path at the cursor (stops at a space)."""
        nodes: list[_Node] = []
        positions: list[int] = []
        start = reader.cursor
        first = True
        while reader.can_read() and reader.peek() != " ":
            node = cls._parse_node(reader, first)
            nodes.append(node)
            positions.append(reader.cursor - start)
            first = False
            if reader.can_read() and reader.peek() not in " [{":
                reader.expect(".")
        return cls(reader.string[start : reader.cursor], nodes, positions)

    @classmethod
    def of(cls, text: str) -> NbtPath:
        """``NbtPath.of``: parse a whole string."""
        return cls.parse(StringReader(text))

    @staticmethod
    def _parse_node(reader: StringReader, first: bool) -> _Node:
        """NbtPathArgument.parseNode."""
        c = reader.peek()
        if c in "\"'":
            return NbtPath._object_node(reader, reader.read_string())
        if c == "[":
            reader.skip()
            if not reader.can_read():
                raise NbtPathRuntimeError("StringIndexOutOfBoundsException")
            nxt = reader.peek()
            if nxt == "{":
                pattern = parse_compound(reader)
                reader.expect("]")
                return _MatchElement(pattern)
            if nxt == "]":
                reader.skip()
                return _ALL_ELEMENTS
            index = _read_java_int(reader)
            reader.expect("]")
            return _Indexed(index)
        if c == "{":
            if not first:
                raise reader.error(tr("arguments.nbtpath.node.invalid"))
            return _MatchRootObject(parse_compound(reader))
        begin = reader.cursor
        while reader.can_read() and _allowed_in_unquoted_name(reader.peek()):
            reader.skip()
        if reader.cursor == begin:
            raise reader.error(tr("arguments.nbtpath.node.invalid"))
        return NbtPath._object_node(reader, reader.string[begin : reader.cursor])

    @staticmethod
    def _object_node(reader: StringReader, name: str) -> _Node:
        """NbtPathArgument.readObjectNode."""
        if not name:
            raise reader.error(tr("arguments.nbtpath.node.invalid"))
        if reader.can_read() and reader.peek() == "{":
            return _MatchObject(name, parse_compound(reader))
        return _CompoundChild(name)

    # -- operations ----------------------------------------------------------------------------
    def _not_found(self, index: int) -> CommandSyntaxError:
        """ERROR_NOTHING_FOUND with the path up to the failing node."""
        prefix = self.original[: self._positions[index]]
        return CommandSyntaxError(tr("arguments.nbtpath.nothing_found", prefix))

    def get(self, root: Tag) -> list[Tag]:
        """All matching tags; raises ``Found no elements matching <prefix>`` when none."""
        result = [root]
        for i, node in enumerate(self.nodes):
            result = node.get(result)
            if not result:
                raise self._not_found(i)
        return result

    def count_matching(self, root: Tag) -> int:
        """``countMatching`` (used by ``execute if data``): 0 instead of an error."""
        result = [root]
        for node in self.nodes:
            result = node.get(result)
            if not result:
                return 0
        return len(result)

    def _get_or_create_parents(self, root: Tag) -> list[Tag]:
        """NbtPath.getOrCreateParents."""
        result = [root]
        for i in range(len(self.nodes) - 1):
            result = self.nodes[i].get_or_create(result, self.nodes[i + 1].preferred_parent)
            if not result:
                raise self._not_found(i)
        return result

    def get_or_create(self, root: Tag, new_value: Callable[[], Tag]) -> list[Tag]:
        """``getOrCreate``: missing parents are created (compounds or lists as the path needs)."""
        return self.nodes[-1].get_or_create(self._get_or_create_parents(root), new_value)

    def set(self, root: Tag, value: Tag) -> int:
        """``data modify … set``: number of changed elements (creates missing parents)."""
        if is_too_deep(value, len(self.nodes)):
            raise CommandSyntaxError(tr("arguments.nbtpath.too_deep"))
        first_copy = copy_tag(value)
        parents = self._get_or_create_parents(root)
        used = [False]

        def supply() -> Tag:
            if not used[0]:
                used[0] = True
                return first_copy
            return copy_tag(first_copy)

        last = self.nodes[-1]
        return sum(last.set_tag(parent, supply) for parent in parents)

    def remove(self, root: Tag) -> int:
        """``data remove``: number of removed elements (missing parents just count 0)."""
        result = [root]
        for node in self.nodes[:-1]:
            result = node.get(result)
        last = self.nodes[-1]
        return sum(last.remove_tag(parent) for parent in result)

    def insert(self, index: int, root: Tag, values: list[Tag]) -> int:
        """``data modify … insert/prepend/append`` into lists."""
        copies = [copy_tag(v) for v in values]
        for c in copies:
            if is_too_deep(c, len(self.nodes)):
                raise CommandSyntaxError(tr("arguments.nbtpath.too_deep"))
        modified_count = 0
        used_first = False
        for target in self.get_or_create(root, List):
            if not _is_collection(target):
                # the tag argument is rendered with Tag.toString (StringTagVisitor)
                raise CommandSyntaxError(tr("commands.data.modify.expected_list", compact(target)))
            modified = False
            actual = len(target) + index + 1 if index < 0 else index
            for source in copies:
                try:
                    if _coll_add(target, actual, copy_tag(source) if used_first else source):
                        actual += 1
                        modified = True
                except IndexError:
                    raise CommandSyntaxError(
                        tr("commands.data.modify.invalid_index", actual)
                    ) from None
            used_first = True
            modified_count += 1 if modified else 0
        return modified_count


def _read_java_int(reader: StringReader) -> int:
    """Brigadier readInt with Java's 32-bit range."""
    start = reader.cursor
    value = reader.read_int()
    if not -(2**31) <= value < 2**31:
        text = reader.string[start : reader.cursor]
        reader.cursor = start
        raise reader.error(f"Invalid integer '{text}'")
    return value
