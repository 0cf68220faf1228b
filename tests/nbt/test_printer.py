"""Tests for the vanilla NBT pretty printer, key orders and Java number formatting."""

from __future__ import annotations

import math
import struct
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
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

from controller.nbt._javanum import (
    f32_from_fraction,
    java_double_str,
    java_float_str,
    parse_java_float,
    shortest_exact,
    to_float32,
)
from controller.nbt.printer import (
    compact,
    hashmap_order,
    java_string_hash,
    paper_order,
    pretty,
    quote_and_escape,
)
from controller.nbt.reader import StringReader
from controller.nbt.snbt import parse_tag

FRAME_SAVE_ORDER = (
    "Pos Motion Rotation fall_distance Fire Air OnGround Invulnerable PortalCooldown UUID Tags "
    "block_pos Item ItemRotation ItemDropChance Facing Invisible Fixed"
).split()
# docs/server-behaviour.md, "Compound key order" (derived)
FRAME_VANILLA = (
    "Motion, Facing, block_pos, ItemRotation, Invulnerable, fall_distance, Air, OnGround, "
    "PortalCooldown, Rotation, Item, ItemDropChance, Pos, Fire, Invisible, UUID, Tags, Fixed"
).split(", ")
# docs/server-behaviour.md, "Paper: entity dumps and key order" (derived). This insertion order
# (CraftBukkit keys after Invulnerable) is the one for which the fastutil model yields the
# documented order.
PAPER_SAVE_ORDER = (
    "Pos Motion Rotation fall_distance Fire Air OnGround Invulnerable WorldUUIDLeast "
    "WorldUUIDMost Bukkit.updateLevel Spigot.ticksLived PortalCooldown UUID CustomName Tags "
    "block_pos Item ItemRotation ItemDropChance Facing Invisible Fixed Paper.OriginWorld "
    "Paper.Origin Paper.SpawnReason"
).split()
FRAME_PAPER = (
    "Paper.SpawnReason, Invisible, ItemDropChance, Tags, Bukkit.updateLevel, ItemRotation, Item, "
    "block_pos, OnGround, Air, UUID, Invulnerable, Spigot.ticksLived, Paper.Origin, Fixed, "
    "WorldUUIDLeast, Motion, Paper.OriginWorld, Facing, Rotation, CustomName, Fire, Pos, "
    "WorldUUIDMost, fall_distance, PortalCooldown"
).split(", ")


def item() -> Compound:
    return Compound(
        {
            "id": String("minecraft:filled_map"),
            "count": Int(1),
            "components": Compound({"minecraft:map_id": Int(5)}),
        }
    )


def test_item_frame_key_orders() -> None:
    assert hashmap_order(FRAME_SAVE_ORDER) == FRAME_VANILLA
    assert paper_order(PAPER_SAVE_ORDER) == FRAME_PAPER
    # On the vanilla key set the fastutil model does not give the HashMap order (it gives
    # Invisible, ItemDropChance, Tags, ...); the transcription below agrees with it there too.
    assert paper_order(FRAME_SAVE_ORDER) == appendix_a_order(FRAME_SAVE_ORDER)


def appendix_a_order(keys: list[str]) -> list[str]:
    """The fastutil model of "Paper: entity dumps and key order", step by step (an oracle)."""
    load = struct.unpack("f", struct.pack("f", 0.8))[0]

    def mix(x: int) -> int:
        h = (x * 0x9E3779B9) & 0xFFFFFFFF
        return h ^ (h >> 16)

    def arr(expected: int) -> int:
        p = 1
        while p < math.ceil(expected / load):
            p <<= 1
        return max(2, p)

    def put(tab: list[str | None], k: str) -> None:
        m = len(tab) - 1
        p = mix(java_string_hash(k)) & m
        while tab[p] is not None:
            p = (p + 1) & m
        tab[p] = k

    t: list[str | None] = [None] * arr(8)
    size = 0
    for k in keys:
        put(t, k)
        grow = size >= min(math.ceil(len(t) * load), len(t) - 1)
        size += 1
        if grow:
            nt: list[str | None] = [None] * arr(size + 1)
            for i in range(len(t) - 1, -1, -1):
                old = t[i]
                if old is not None:
                    put(nt, old)
            t = nt
    return [k for k in reversed(t) if k is not None]


def test_item_printing() -> None:
    expected = '{components: {"minecraft:map_id": 5}, count: 1, id: "minecraft:filled_map"}'
    assert pretty(item()) == expected
    assert pretty(item(), "paper") == (
        '{id: "minecraft:filled_map", count: 1, components: {"minecraft:map_id": 5}}'
    )


def test_java_string_hash() -> None:
    assert java_string_hash("") == 0
    assert java_string_hash("a") == 97
    assert java_string_hash("hello") == 99162322
    assert java_string_hash("polygenelubricants") == (-(2**31)) & 0xFFFFFFFF
    # astral characters hash as two UTF-16 units
    assert java_string_hash("😀") == (31 * 0xD83D + 0xDE00) & 0xFFFFFFFF


def hashmap_oracle(keys: list[str]) -> list[str]:
    """A literal simulation of java.util.HashMap puts with resizes (bins as lists)."""
    n, threshold = 16, 12
    table: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    size = 0
    for key in keys:
        h = java_string_hash(key)
        h ^= h >> 16
        table[h & (n - 1)].append((h, key))
        size += 1
        if size > threshold:
            n *= 2
            threshold *= 2
            new: list[list[tuple[int, str]]] = [[] for _ in range(n)]
            for bin_ in table:  # split keeps the relative order in the lo/hi bins
                for entry in bin_:
                    new[entry[0] & (n - 1)].append(entry)
            table = new
    return [k for bin_ in table for _, k in bin_]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=6), unique=True, max_size=60))
def test_hashmap_order_matches_simulation(keys: list[str]) -> None:
    assert hashmap_order(keys) == hashmap_oracle(keys)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=6), unique=True, max_size=60))
def test_paper_order_matches_appendix_model(keys: list[str]) -> None:
    assert paper_order(keys) == appendix_a_order(keys)
    assert sorted(paper_order(keys)) == sorted(keys)


@pytest.mark.parametrize(
    ("tag", "text"),
    [
        (Byte(3), "3b"),
        (Byte(-128), "-128b"),
        (Short(300), "300s"),
        (Int(5), "5"),
        (Long(5), "5L"),
        (Float(1.0), "1.0f"),
        (Double(0.5), "0.5d"),
        (Double(1.0e-4), "1.0E-4d"),
        (Float(229.10336), "229.10336f"),
        (ByteArray([1, 2]), "[B; 1b, 2b]"),
        (ByteArray([]), "[B;]"),
        (IntArray([1, 2, 3]), "[I; 1, 2, 3]"),
        (IntArray([-1, 2, 3, 4]), "[I; -1, 2, 3, 4]"),
        (LongArray([1]), "[L; 1L]"),
        (List[Int]([Int(1), Int(2)]), "[1, 2]"),
        (List[String]([String("a"), String("b")]), '["a", "b"]'),
        (List(), "[]"),
        (Compound(), "{}"),
        (String("minecraft:filled_map"), '"minecraft:filled_map"'),
        (String('say "hi"'), "'say \"hi\"'"),
        (String("it's"), '"it\'s"'),
        (String("a\\b"), '"a\\\\b"'),
        (String("\"'"), "'\"\\''"),
        (String("tab\there\x01"), '"tab\\there\\x01"'),
        (Compound({"Fixed": Byte(0)}), "{Fixed: 0b}"),
        (Compound({"minecraft:map_id": Int(5)}), '{"minecraft:map_id": 5}'),
        (Compound({"a b": Int(5), "x.y+z-_": Int(1)}), '{"a b": 5, x.y+z-_: 1}'),
        (Compound({"it's": Int(5)}), '{"it\'s": 5}'),
        (
            Compound({"Tags": List[String]([String("pipes"), String("pipes.R")])}),
            '{Tags: ["pipes", "pipes.R"]}',
        ),
        (List[Compound]([Compound({"": Int(1)}), Compound({"a": Byte(1)})]), "[1, {a: 1b}]"),
    ],
)
def test_pretty(tag: Any, text: str) -> None:
    assert pretty(tag) == text


def test_array_cut_at_128() -> None:
    text = pretty(IntArray(list(range(200))))
    assert text.startswith("[I; 0, 1, 2,")
    assert text.endswith(" 126, 127,<...>]")
    assert text.count(",") == 128
    assert pretty(IntArray(list(range(128)))).endswith(" 127]")
    assert pretty(ByteArray([0] * 129)).endswith(" 0b,<...>]")


def test_lists_are_never_cut() -> None:
    # TextComponentTagVisitor only cuts the "wrapped" branch, which needs < 8 elements
    text = pretty(List[Int]([Int(i) for i in range(300)]))
    assert text.endswith(", 299]")


def test_depth_limit() -> None:
    tag: Any = Compound({"leaf": Int(1)})
    for _ in range(70):
        tag = Compound({"a": tag})
    text = pretty(tag)
    assert text.startswith("{a: " * 64 + "{<...>}")
    lists: Any = List[Int]([Int(1)])
    for _ in range(70):
        lists = List[List]([lists])
    assert pretty(lists) == "[" * 64 + "[<...>]" + "]" * 64


def test_uuid_array_like_vanilla() -> None:
    assert pretty(Compound({"UUID": IntArray([-1, 2, 3, 4])})) == "{UUID: [I; -1, 2, 3, 4]}"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1.0"),
        (0.5, "0.5"),
        (1.0e-4, "1.0E-4"),
        (0.001, "0.001"),
        (0.002, "0.002"),  # JDK < 19 printed "0.0020"
        (9999999.0, "9999999.0"),
        (1.0e7, "1.0E7"),
        (123456789.0, "1.23456789E8"),
        (1.0e23, "1.0E23"),
        (-0.0, "-0.0"),
        (0.1 + 0.2, "0.30000000000000004"),
        (5e-324, "4.9E-324"),
        (1.7976931348623157e308, "1.7976931348623157E308"),
        (2.2250738585072014e-308, "2.2250738585072014E-308"),
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (math.nan, "NaN"),
        (100.0, "100.0"),
        (-12.5, "-12.5"),
    ],
)
def test_java_double_str(value: float, text: str) -> None:
    assert java_double_str(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (229.10336, "229.10336"),
        (0.1, "0.1"),
        (1.0e-4, "1.0E-4"),
        (1.401298464324817e-45, "1.4E-45"),  # Float.MIN_VALUE: 2 digits beat 1 (JDK 19+)
        (3.4028234663852886e38, "3.4028235E38"),  # Float.MAX_VALUE
        (1.1754943508222875e-38, "1.1754944E-38"),  # Float.MIN_NORMAL, shortest (JDK 19+)
        (16777216.0, "1.6777216E7"),
        (1.0e7, "1.0E7"),
        (9999999.0, "9999999.0"),
        (0.3, "0.3"),
        (-90.0, "-90.0"),
        (1.0e10, "1.0E10"),
    ],
)
def test_java_float_str(value: float, text: str) -> None:
    assert java_float_str(value) == text


def f32_bits(bits: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", bits))[0])


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x != 0))
def test_double_fast_path_matches_exact(value: float) -> None:
    text = java_double_str(value)
    assert float(text) == value
    exact_digits, exact_exp = shortest_exact(abs(value), single=False)
    mantissa, _, exp = text.replace("-", "", 1).partition("E")
    digits = mantissa.replace(".", "").lstrip("0").rstrip("0")
    assert digits == exact_digits


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 0x7F7FFFFF))
def test_float_round_trips_and_is_shortest(bits: int) -> None:
    value = f32_bits(bits)
    text = java_float_str(value)
    assert parse_java_float(text.replace("E", "e")) == value
    mantissa = text.partition("E")[0].replace(".", "").lstrip("0").rstrip("0")
    # no decimal with fewer digits rounds to this float (checked by brute force at one less)
    if len(mantissa) > 2:
        shorter = f"{value:.{len(mantissa) - 2}e}"
        assert parse_java_float(shorter) != value or len(mantissa) <= 2


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, width=64))
def test_float32_rounding_matches_struct(value: float) -> None:
    expected = to_float32(value)
    assert f32_from_fraction(Fraction(value)) == expected


def tags() -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.integers(-128, 127).map(Byte),
        st.integers(-(2**31), 2**31 - 1).map(Int),
        st.integers(-(2**63), 2**63 - 1).map(Long),
        st.floats(width=32, allow_nan=False, allow_infinity=False).map(Float),
        st.floats(allow_nan=False, allow_infinity=False).map(Double),
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=6).map(String),
        st.lists(st.integers(-(2**31), 2**31 - 1), max_size=3).map(IntArray),
    )
    keys = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6)
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(st.integers(-5, 5).map(Int), max_size=3).map(
                lambda xs: List[Int](xs) if xs else List()
            ),
            st.dictionaries(keys, inner, max_size=4).map(Compound),
        ),
        max_leaves=10,
    )


@settings(max_examples=200, deadline=None)
@given(tags())
def test_pretty_output_parses_back(tag: Any) -> None:
    """The printed text is valid SNBT that parses back to an equal value (floats excepted)."""
    text = pretty(tag)
    reparsed = parse_tag(StringReader(text))
    assert pretty(reparsed) == text


def test_quote_and_escape() -> None:
    assert quote_and_escape("") == '""'
    assert quote_and_escape("\x0b") == '"\\x0B"'


@pytest.mark.parametrize(
    ("tag", "text"),
    [
        (Compound({"b": Int(1), "a": Byte(2), "true": Short(3), "1x": Long(4)}), None),
        (ByteArray([1, -2]), "[B;1B,-2B]"),
        (IntArray([1, 2]), "[I;1,2]"),
        (LongArray([1]), "[L;1L]"),
        (List[Double]([Double(0.5), Double(1e-4)]), "[0.5d,1.0E-4d]"),
        (List[Compound]([Compound({"": Int(1)}), Compound({"a": Float(1.0)})]), "[1,{a:1.0f}]"),
        (String('a"b'), "'a\"b'"),
        (List(), "[]"),
    ],
)
def test_compact(tag: Any, text: str | None) -> None:
    expected = '{"1x":4L,a:2b,b:1,"true":3s}' if text is None else text
    assert compact(tag) == expected
