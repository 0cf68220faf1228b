"""Argument parsers of vanilla commands: coordinates, block states, ids, ranges, NBT, components.

Each parser reads from a :class:`StringReader` and raises :class:`CommandSyntaxError` with the
message and cursor vanilla's parser uses (26.1 ``BlockPosArgument``, ``WorldCoordinate(s)``,
``LocalCoordinates``, ``BlockStateParser``, ``Identifier.read``, ``MinMaxBounds``).
NBT parsing and printing come from the ``controller.nbt`` package.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from nbtlib import tag as nbt

from .profile import current_profile
from .reader import StringReader
from .registry import BlockType, registry, tr

__all__ = [
    "BlockInput",
    "BlockPredicate",
    "Coordinates",
    "MinMax",
    "json_to_nbt",
    "nbt_to_json",
    "parse_block_pos",
    "parse_block_predicate",
    "parse_block_state",
    "parse_column_pos",
    "parse_component",
    "parse_compound",
    "parse_identifier",
    "parse_int_range",
    "parse_double_range",
    "parse_nbt_tag",
    "parse_vec3",
    "pretty",
    "state_string",
]


# ------------------------------------------------------------------------------ NBT bridge
def parse_compound(reader: StringReader) -> Any:
    """TagParser.parseCompoundAsArgument."""
    from controller.nbt import snbt

    return snbt.parse_compound(reader)


def parse_nbt_tag(reader: StringReader) -> Any:
    """TagParser.parseAsArgument for one tag."""
    from controller.nbt import snbt

    return snbt.parse_tag(reader)


def pretty(value: Any, flavour: str = "vanilla") -> str:
    """NbtUtils.toPrettyComponent(...).getString() with vanilla (or Paper) key order."""
    from controller.nbt import printer

    return str(printer.pretty(value, order="paper" if flavour == "paper" else "vanilla"))


def nbt_to_json(value: Any) -> Any:
    """Plain Python view of an NBT component tag (for text rendering)."""
    if isinstance(value, nbt.Compound):
        return {str(k): nbt_to_json(v) for k, v in value.items()}
    if isinstance(value, nbt.List | list):  # NbtOps wraps the elements of mixed lists in {"": …}
        return [nbt_to_json(_unwrapped(v)) for v in value]
    if isinstance(value, nbt.String | str):
        return str(value)
    if isinstance(value, nbt.Byte):
        return bool(int(value))
    if isinstance(value, nbt.Float | nbt.Double):
        return float(value)
    if isinstance(value, nbt.Int | nbt.Short | nbt.Long):
        return int(value)
    return value


def _unwrapped(value: Any) -> Any:
    if isinstance(value, nbt.Compound) and len(value) == 1 and "" in value:
        return value[""]
    return value


def json_to_nbt(value: Any) -> Any:
    """A JSON value as the NBT tag the SNBT form of the same text would be."""
    from controller.nbt import snbt

    if isinstance(value, bool):
        return nbt.Byte(int(value))
    if isinstance(value, int):
        return nbt.Int(value) if -(2**31) <= value < 2**31 else nbt.Long(value)
    if isinstance(value, float):
        return nbt.Double(value)
    if isinstance(value, dict):
        return nbt.Compound({k: json_to_nbt(v) for k, v in value.items() if v is not None})
    if isinstance(value, list):
        return snbt.make_list([json_to_nbt(v) for v in value if v is not None])
    return nbt.String("" if value is None else value)


def parse_component(reader: StringReader) -> Any:
    """ComponentArgument: from 1.21.5 an SNBT tag read as a text component (26.1); before, one
    strict JSON value (ParserUtils.parseJson, docs/server-behaviour.md, "Versions: text in
    commands"), kept as the NBT the SNBT form would give."""
    if current_profile().text_form == "json":
        return _parse_json_component(reader)
    start = reader.cursor
    value = parse_nbt_tag(reader)
    if not isinstance(value, nbt.String | nbt.Compound | nbt.List):
        reader.cursor = start
        raise reader.error(tr("argument.component.invalid", "Not a string, list or object"))
    return value


def _parse_json_component(reader: StringReader) -> Any:
    """ComponentArgument.parse before 1.21.5: `Invalid chat component: <why>` at where the JSON
    reader stopped (the reasons are Gson's and the codec's: the sandbox's wording is
    unverified)."""
    from .jsontext import JsonTextError, decode_component, read_json

    try:
        value, end = read_json(reader.string, reader.cursor)
        decode_component(value)
    except JsonTextError as ex:
        if ex.position >= 0:
            reader.cursor = ex.position
        raise reader.error(tr("argument.component.invalid", ex.message)) from None
    except RecursionError:
        raise reader.error(tr("argument.component.invalid", "too deep")) from None
    reader.cursor = end
    return json_to_nbt(value)


# ------------------------------------------------------------------------------ ids & ranges
_IDENT = re.compile(r"[0-9a-z_:/.\-]*")


def parse_identifier(reader: StringReader) -> str:
    """Identifier.read: `[0-9a-z_:/.-]*`, namespace defaults to minecraft (`Invalid ID`)."""
    start = reader.cursor
    m = _IDENT.match(reader.string, start)
    text = m.group(0) if m else ""
    reader.cursor = start + len(text)
    if text.count(":") > 1:
        reader.cursor = start
        raise reader.error(tr("argument.id.invalid"))
    if ":" in text:
        ns, path = text.split(":", 1)
        if not ns:
            ns = "minecraft"
    else:
        ns, path = "minecraft", text
    if any(c == ":" for c in path) or any(not _ns_char(c) for c in ns):
        reader.cursor = start
        raise reader.error(tr("argument.id.invalid"))
    return f"{ns}:{path}"


def _ns_char(c: str) -> bool:
    return "0" <= c <= "9" or "a" <= c <= "z" or c in "_.-"


@dataclass(frozen=True)
class MinMax:
    """MinMaxBounds: an optional min and max (inclusive)."""

    low: float | None
    high: float | None

    def matches(self, v: float) -> bool:
        """Inclusive bounds check."""
        return (self.low is None or v >= self.low) and (self.high is None or v <= self.high)

    def matches_sqr(self, d2: float) -> bool:
        """Bounds check on a squared distance (MinMaxBounds.Doubles.matchesSqr)."""
        if self.low is not None and d2 < self.low * self.low:
            return False
        return self.high is None or d2 <= self.high * self.high

    @property
    def is_any(self) -> bool:
        """No bound at all."""
        return self.low is None and self.high is None


def _read_range_number(reader: StringReader, integer: bool) -> float | None:
    start = reader.cursor
    while reader.can_read() and _range_char(reader, start):
        reader.skip()
    text = reader.string[start : reader.cursor]
    if not text:
        return None
    try:
        return int(text) if integer else float(text)
    except ValueError:
        reader.cursor = start
        key = "parsing.int.invalid" if integer else "parsing.double.invalid"
        raise reader.error(tr(key, text)) from None


def _range_char(reader: StringReader, start: int) -> bool:
    c = reader.peek()
    if "0" <= c <= "9" or c == "-":
        return True
    if c == ".":
        return not (reader.can_read(2) and reader.peek(1) == ".")
    return False


def _parse_range(reader: StringReader, integer: bool) -> MinMax:
    if not reader.can_read():
        raise reader.error(tr("argument.range.empty"))
    start = reader.cursor
    low = _read_range_number(reader, integer)
    high: float | None
    if reader.can_read(2) and reader.peek() == "." and reader.peek(1) == ".":
        reader.cursor += 2
        high = _read_range_number(reader, integer)
        if low is None and high is None:
            reader.cursor = start
            raise reader.error(tr("argument.range.empty"))
    else:
        high = low
    if low is None and high is None:
        reader.cursor = start
        raise reader.error(tr("argument.range.empty"))
    if low is not None and high is not None and low > high:
        reader.cursor = start
        raise reader.error(tr("argument.range.swapped"))
    return MinMax(low, high)


def parse_int_range(reader: StringReader) -> MinMax:
    """MinMaxBounds.Ints.fromReader (`1..`, `..6`, `3`)."""
    return _parse_range(reader, True)


def parse_double_range(reader: StringReader) -> MinMax:
    """MinMaxBounds.Doubles.fromReader (`..0.1`, `0.5`)."""
    return _parse_range(reader, False)


# ------------------------------------------------------------------------------ coordinates
@dataclass(frozen=True)
class Coordinates:
    """World (absolute/`~`) or local (`^`) coordinates, resolved against a source."""

    values: tuple[float, float, float]
    relative: tuple[bool, bool, bool]
    local: bool = False

    def resolve(
        self,
        pos: tuple[float, float, float],
        rot: tuple[float, float],
        anchor: tuple[float, float, float] | None = None,
    ) -> tuple[float, float, float]:
        """getPosition(source): rot is (yaw, pitch); local (`^`) coordinates start from
        `anchor`, the source's anchor applied to it (LocalCoordinates: `getAnchor().apply`),
        which is `pos` unless anchored at the eyes."""
        if self.local:
            return _local(self.values, pos if anchor is None else anchor, rot)
        return (
            pos[0] + self.values[0] if self.relative[0] else self.values[0],
            pos[1] + self.values[1] if self.relative[1] else self.values[1],
            pos[2] + self.values[2] if self.relative[2] else self.values[2],
        )

    def block(
        self,
        pos: tuple[float, float, float],
        rot: tuple[float, float],
        anchor: tuple[float, float, float] | None = None,
    ) -> tuple[int, int, int]:
        """BlockPos.containing(getPosition(source))."""
        x, y, z = self.resolve(pos, rot, anchor)
        return (math.floor(x), math.floor(y), math.floor(z))


def _local(
    values: tuple[float, float, float], pos: tuple[float, float, float], rot: tuple[float, float]
) -> tuple[float, float, float]:
    left, up, forwards = values
    yaw, pitch = rot
    rad = math.pi / 180.0
    f = math.cos((yaw + 90.0) * rad)
    f1 = math.sin((yaw + 90.0) * rad)
    f2 = math.cos(-pitch * rad)
    f3 = math.sin(-pitch * rad)
    f4 = math.cos((-pitch + 90.0) * rad)
    f5 = math.sin((-pitch + 90.0) * rad)
    v1 = (f * f2, f3, f1 * f2)
    v2 = (f * f4, f5, f1 * f4)
    v3 = (
        -(v1[1] * v2[2] - v1[2] * v2[1]),
        -(v1[2] * v2[0] - v1[0] * v2[2]),
        -(v1[0] * v2[1] - v1[1] * v2[0]),
    )
    return tuple(  # type: ignore[return-value]
        pos[i] + v1[i] * forwards + v2[i] * up + v3[i] * left for i in range(3)
    )


def _is_relative(reader: StringReader) -> bool:
    if reader.can_read() and reader.peek() == "~":
        reader.skip()
        return True
    return False


def _world_int(reader: StringReader) -> tuple[float, bool]:
    if reader.can_read() and reader.peek() == "^":
        raise reader.error(tr("argument.pos.mixed"))
    if not reader.can_read():
        raise reader.error(tr("argument.pos.missing.int"))
    rel = _is_relative(reader)
    if reader.can_read() and reader.peek() != " ":
        value: float = reader.read_float() if rel else reader.read_int()
    else:
        value = 0.0
    return value, rel


def _world_double(reader: StringReader, center: bool) -> tuple[float, bool]:
    if reader.can_read() and reader.peek() == "^":
        raise reader.error(tr("argument.pos.mixed"))
    if not reader.can_read():
        raise reader.error(tr("argument.pos.missing.double"))
    rel = _is_relative(reader)
    start = reader.cursor
    value = reader.read_float() if reader.can_read() and reader.peek() != " " else 0.0
    text = reader.string[start : reader.cursor]
    if rel and not text:
        return 0.0, True
    if "." not in text and not rel and center:
        value += 0.5
    return value, rel


def _local_coord(reader: StringReader, start: int) -> float:
    if not reader.can_read():
        raise reader.error(tr("argument.pos.missing.double"))
    if reader.peek() != "^":
        reader.cursor = start
        raise reader.error(tr("argument.pos.mixed"))
    reader.skip()
    return reader.read_float() if reader.can_read() and reader.peek() != " " else 0.0


def _three(reader: StringReader, read: Any, incomplete: str) -> Coordinates:
    start = reader.cursor
    out: list[tuple[float, bool]] = []
    for i in range(3):
        out.append(read(reader, i))
        if i < 2:
            if not reader.can_read() or reader.peek() != " ":
                reader.cursor = start
                raise reader.error(tr(incomplete))
            reader.skip()
    return Coordinates((out[0][0], out[1][0], out[2][0]), (out[0][1], out[1][1], out[2][1]))


def _parse_local(reader: StringReader) -> Coordinates:
    start = reader.cursor
    c = _three(reader, lambda r, i: (_local_coord(r, start), True), "argument.pos3d.incomplete")
    return Coordinates(c.values, (True, True, True), local=True)


def parse_block_pos(reader: StringReader) -> Coordinates:
    """BlockPosArgument.parse."""
    if reader.can_read() and reader.peek() == "^":
        return _parse_local(reader)
    return _three(reader, lambda r, i: _world_int(r), "argument.pos3d.incomplete")


def parse_vec3(reader: StringReader, center: bool = True) -> Coordinates:
    """Vec3Argument.parse (integers centred on x and z when `center`)."""
    if reader.can_read() and reader.peek() == "^":
        return _parse_local(reader)
    return _three(
        reader, lambda r, i: _world_double(r, center and i != 1), "argument.pos3d.incomplete"
    )


def parse_column_pos(reader: StringReader) -> Coordinates:
    """ColumnPosArgument: `x z`, each absolute or `~` (y is unused)."""
    start = reader.cursor
    if not reader.can_read():
        raise reader.error(tr("argument.pos.missing.int"))
    x, rx = _world_int(reader)
    if not reader.can_read() or reader.peek() != " ":
        reader.cursor = start
        raise reader.error(tr("argument.pos2d.incomplete"))
    reader.skip()
    z, rz = _world_int(reader)
    return Coordinates((x, 0.0, z), (rx, False, rz))


# ------------------------------------------------------------------------------ block states
@dataclass(frozen=True)
class BlockInput:
    """A parsed block state: the block type and the full property assignment."""

    block: BlockType
    props: tuple[tuple[str, str], ...]
    nbt_data: Any = None

    def state(self) -> str:
        """The canonical state string (`minecraft:jack_o_lantern[facing=east]`)."""
        return state_string(self.block.name, self.props)


def state_string(name: str, props: tuple[tuple[str, str], ...]) -> str:
    """`minecraft:<name>[k=v,...]` with properties sorted by name as vanilla prints them."""
    base = "minecraft:" + name
    if not props:
        return base
    return base + "[" + ",".join(f"{k}={v}" for k, v in sorted(props)) + "]"


@dataclass(frozen=True)
class BlockPredicate:
    """A block predicate: an exact block type plus the properties given (tags unsupported).

    With NBT (`stone{…}`) BlockPredicateArgument also needs a block entity whose data matches;
    the sandbox has no block entities, so such a predicate never matches."""

    block: BlockType
    props: tuple[tuple[str, str], ...]
    needs_block_entity: bool = False

    def test(self, state: str) -> bool:
        """Whether a state string matches."""
        if self.needs_block_entity:
            return False
        name, props = split_state(state)
        if name != self.block.name:
            return False
        have = dict(props)
        return all(have.get(k) == v for k, v in self.props)


def split_state(state: str) -> tuple[str, dict[str, str]]:
    """Split a canonical state string into the bare block name and its properties."""
    if "[" in state:
        head, rest = state.split("[", 1)
        props = dict(p.split("=", 1) for p in rest.rstrip("]").split(",") if p)
    else:
        head, props = state, {}
    name = head[10:] if head.startswith("minecraft:") else head
    return name, props


def _read_block(reader: StringReader) -> tuple[BlockType, str]:
    start = reader.cursor
    ident = parse_identifier(reader)
    bt = registry().block(ident)
    if bt is None:
        reader.cursor = start
        raise reader.error(tr("argument.block.id.invalid", ident))
    return bt, ident


def _read_properties(reader: StringReader, bt: BlockType, ident: str) -> dict[str, str]:
    props: dict[str, str] = {}
    reader.skip()
    reader.skip_whitespace()
    while reader.can_read() and reader.peek() != "]":
        reader.skip_whitespace()
        start = reader.cursor
        key = reader.read_string()
        allowed = bt.values(key)
        if allowed is None:
            reader.cursor = start
            raise reader.error(tr("argument.block.property.unknown", ident, key))
        if key in props:
            reader.cursor = start
            raise reader.error(tr("argument.block.property.duplicate", key, ident))
        reader.skip_whitespace()
        if not reader.can_read() or reader.peek() != "=":
            raise reader.error(tr("argument.block.property.novalue", key, ident))
        reader.skip()
        reader.skip_whitespace()
        vstart = reader.cursor
        value = reader.read_string()
        if value not in allowed:
            reader.cursor = vstart
            raise reader.error(tr("argument.block.property.invalid", ident, value, key))
        props[key] = value
        reader.skip_whitespace()
        if not reader.can_read():
            continue
        if reader.peek() == ",":
            reader.skip()
            continue
        if reader.peek() != "]":
            raise reader.error(tr("argument.block.property.unclosed"))
        break
    if reader.can_read():
        reader.skip()
        return props
    raise reader.error(tr("argument.block.property.unclosed"))


def parse_block_state(reader: StringReader) -> BlockInput:
    """BlockStateArgument: `id[props]{nbt}`; tags are refused."""
    if reader.can_read() and reader.peek() == "#":
        raise reader.error(tr("argument.block.tag.disallowed"))
    bt, ident = _read_block(reader)
    props = dict(bt.default)
    if reader.can_read() and reader.peek() == "[":
        props.update(_read_properties(reader, bt, ident))
    data = None
    if reader.can_read() and reader.peek() == "{":
        data = parse_compound(reader)
    return BlockInput(bt, tuple((k, props[k]) for k, _ in bt.properties), data)


def parse_block_predicate(reader: StringReader) -> BlockPredicate:
    """BlockPredicateArgument: a block with only the given properties tested."""
    if reader.can_read() and reader.peek() == "#":
        start = reader.cursor
        reader.skip()
        ident = parse_identifier(reader)
        reader.cursor = start
        raise reader.error(tr("arguments.block.tag.unknown", ident))  # no tag data (unverified)
    bt, ident = _read_block(reader)
    given: dict[str, str] = {}
    if reader.can_read() and reader.peek() == "[":
        given = _read_properties(reader, bt, ident)
    data = None
    if reader.can_read() and reader.peek() == "{":
        data = parse_compound(reader)
    return BlockPredicate(bt, tuple(given.items()), data is not None)
