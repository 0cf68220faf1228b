"""Tests for the 26.1 SNBT parser (controller.nbt.snbt)."""

from __future__ import annotations

import struct
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

from controller.nbt.reader import CommandSyntaxError, StringReader
from controller.nbt.snbt import (
    make_list,
    parse_compound,
    parse_compound_fully,
    parse_tag,
    parse_tag_fully,
)
from tests.support.nbt_samples import SUMMON_NBT, same


def test_summon_item_frame_types() -> None:
    reader = StringReader("summon minecraft:item_frame 1 2 3 " + SUMMON_NBT + " rest")
    reader.cursor = len("summon minecraft:item_frame 1 2 3 ")
    tag = parse_compound(reader)
    assert reader.remaining == " rest"
    expected = Compound(
        {
            "Facing": Byte(1),
            "Invulnerable": Byte(1),
            "Fixed": Byte(0),
            "Invisible": Byte(0),
            "ItemRotation": Byte(2),
            "UUID": IntArray([1, -2, 3, 4]),
            "CustomName": String("pipes:R:3:7"),
            "Tags": List[String]([String(s) for s in ["pipes", "pipes.R", "pipes.r2", "pipes.ae"]]),
            "Item": Compound(
                {
                    "id": String("minecraft:filled_map"),
                    "count": Int(1),
                    "components": Compound({"minecraft:map_id": Int(1000005)}),
                }
            ),
        }
    )
    assert same(tag, expected)


@pytest.mark.parametrize(
    ("text", "expected", "end"),
    [
        ("1000009", Int(1000009), 7),
        ("0b", Byte(0), 2),
        ("3b", Byte(3), 2),
        ("-128B", Byte(-128), 5),
        ("300s", Short(300), 4),
        ("5L", Long(5), 2),
        ("5l", Long(5), 2),
        ("1.0f", Float(1.0), 4),
        ("1.5F", Float(1.5), 4),
        ("0.5d", Double(0.5), 4),
        ("1.5", Double(1.5), 3),
        (".5", Double(0.5), 2),
        ("1.", Double(1.0), 2),
        ("1e5", Double(100000.0), 3),
        ("1E-2f", Float(struct.unpack("f", struct.pack("f", 0.01))[0]), 5),
        ("1f", Float(1.0), 2),
        ("2d", Double(2.0), 2),
        ("-0.0", Double(-0.0), 4),
        ("1_000", Int(1000), 5),
        ("0x1F", Int(31), 4),
        ("0xFFFFFFFF", Int(-1), 10),
        ("0b101", Int(5), 5),
        ("0b1b", Byte(1), 4),
        ("0xFFub", Byte(-1), 6),
        ("-5sb", Byte(-5), 4),
        ("2147483647", Int(2147483647), 10),
        ("-2147483648", Int(-2147483648), 11),
        ("9223372036854775807L", Long(9223372036854775807), 20),
        ("true", Byte(1), 4),
        ("FALSE", Byte(0), 5),
        ("bool(5)", Byte(1), 7),
        ("bool(0)", Byte(0), 7),
        ('"abc"', String("abc"), 5),
        ("'a\"b'", String('a"b'), 5),
        ('"it\'s"', String("it's"), 6),
        ('"\\\\ \\" \\n \\t \\s \\x41 \\u00e9 \\U0001F600"', String('\\ " \n \t   A é 😀'), -1),
        ('"\\N{LATIN SMALL LETTER A}"', String("a"), -1),
        ('""', String(""), 2),
        ("minecraft", String("minecraft"), 9),
        ("pipes.r0", String("pipes.r0"), 8),
        ("_x", String("_x"), 2),
        ("abc def", String("abc"), 3),
        ("  7", Int(7), 3),
        ("[]", List(), 2),
        ("{}", Compound(), 2),
        ("[B;]", ByteArray([]), 4),
        ("[B;1b,2b]", ByteArray([1, 2]), 9),
        ("[B; 1, -2]", ByteArray([1, -2]), 10),
        ("[I;1,2,3]", IntArray([1, 2, 3]), 9),
        ("[I;1b,2s]", IntArray([1, 2]), 9),
        ("[L;1,2L,3b]", LongArray([1, 2, 3]), 11),
        ("[1b,2b]", List[Byte]([Byte(1), Byte(2)]), 7),
        ("[1,2,]", List[Int]([Int(1), Int(2)]), 6),
        ("[B]", List[String]([String("B")]), 3),
        ("[[],[1]]", List[List]([List(), List[Int]([Int(1)])]), 8),
        ("{ a : 1 , b : [ 1 , 2 ] }", None, 25),
        ('{"minecraft:map_id":5}', Compound({"minecraft:map_id": Int(5)}), 22),
        ("{a:1,a:2b}", Compound({"a": Byte(2)}), 10),
        ("{a:1,}", Compound({"a": Int(1)}), 6),
        (
            'uuid("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")',
            IntArray([-132296786, 2112623056, -1486552928, -920753162]),
            44,
        ),
        ("1e999", Int(1), 1),  # the float fails (not finite); the integer rule then matches "1"
        ("1a", Int(1), 1),
        # scope leak in the packrat grammar: the arguments survive a missing ')'
        ("bool(1", Byte(1), 4),
    ],
)
def test_values(text: str, expected: Any, end: int) -> None:
    reader = StringReader(text)
    value = parse_tag(reader)
    if expected is None:
        expected = Compound({"a": Int(1), "b": List[Int]([Int(1), Int(2)])})
    assert same(value, expected), repr(value)
    assert reader.cursor == (len(text) if end == -1 else end)


def test_heterogeneous_list_is_wrapped_like_vanilla_on_disk() -> None:
    value = parse_tag(StringReader("[1, 2b, {a:1}]"))
    assert same(
        value,
        List[Compound]([Compound({"": Int(1)}), Compound({"": Byte(2)}), Compound({"a": Int(1)})]),
    )
    wrapper = Compound({"": Int(3)})
    assert same(
        make_list([Int(1), wrapper]),
        List[Compound]([Compound({"": Int(1)}), Compound({"": wrapper})]),
    )
    assert same(make_list([Int(1), Int(2)]), List[Int]([Int(1), Int(2)]))


@pytest.mark.parametrize(
    ("text", "message", "cursor"),
    [
        ("{", 'Expected literal "', 1),
        ("{a:", "Expected a valid unquoted string", 3),
        ("{a:}", "Expected a valid unquoted string", 3),
        ("{a:1", "Expected literal .", 4),
        ("{a:b", "Expected literal (", 4),
        ("{a:1s", "Expected literal b|B", 5),
        ("{:1}", 'Expected literal "', 1),
        ('{"":1}', "Expected literal .", 5),
        ('{"":a}', "Expected literal (", 5),
        ('{"":"x"}', "Key cannot be empty", 7),
        ('"abc', "Invalid string contents", 4),
        ('"a\\qb"', "Expected literal b", 3),
        ('"\\x4"', "Expected a character literal of length 2", 3),
        ('"\\UFFFFFFFF"', "Invalid Unicode character value: U+FFFFFFFF", 11),
        ('"\\N{NO SUCH NAME}"', "Invalid Unicode character name", 17),
        ("", "Expected a valid unquoted string", 0),
        ("}", "Expected a valid unquoted string", 0),
        ("-abc", "Expected literal (", 4),
        ("+", "Expected a decimal number", 1),
        ("01", "Expected literal .", 2),
        ("3000000000", "Expected literal .", 10),
        ("[B;300]", 'Failed to parse number: Value out of range. Value:"300" Radix:10', 7),
        ("[I;3000000000]", 'Failed to parse number: For input string: "3000000000"', 14),
        ("[I;1L]", "Invalid array element type", 6),
        ("[B;1s]", "Invalid array element type", 6),
        ("[I;-0x1]", "Expected a non-negative number", 8),
        ("[1,2", "Expected literal .", 4),
        ("[1 2]", "Expected literal .", 3),
        ("foo(1)", "No such operation: foo/1", 6),
        ("foo(", "Expected a valid unquoted string", 4),
        ("foo()", "No such operation: foo/0", 5),
        ("foo(1", "Expected literal .", 5),
        ("bool(a)", "Expected a number or a boolean", 7),
        ('uuid("x")', "Expected a string representing a valid UUID", 9),
        ("1__", "Expected literal (", 3),
        ("0x", "Expected a hexadecimal number", 2),
        ("[1e]", "Expected literal +", 3),
    ],
)
def test_errors(text: str, message: str, cursor: int) -> None:
    with pytest.raises(CommandSyntaxError) as info:
        parse_tag(StringReader(text))
    assert (info.value.message, info.value.cursor) == (message, cursor)
    assert info.value.command == text


def test_underscore_error_uses_missing_lang_key() -> None:
    # SnbtGrammar asks for snbt.parser.underscore_not_allowed; 26.1's en_us has only the
    # misspelt "undescore" key, so vanilla prints the raw key.
    with pytest.raises(CommandSyntaxError) as info:
        parse_tag(StringReader("[I;0x_1]"))
    assert info.value.message == "snbt.parser.underscore_not_allowed"


def test_error_context_in_a_command() -> None:
    command = "summon minecraft:item_frame 0 0 0 {Facing:1b,Item:{id:"
    reader = StringReader(command, len("summon minecraft:item_frame 0 0 0 "))
    with pytest.raises(CommandSyntaxError) as info:
        parse_compound(reader)
    assert info.value.message == "Expected a valid unquoted string"
    assert info.value.context() == "...,Item:{id:<--[HERE]"


def test_parse_compound_rejects_other_values_after_the_value() -> None:
    reader = StringReader("x [1] y", 2)
    with pytest.raises(CommandSyntaxError) as info:
        parse_compound(reader)
    assert (info.value.message, info.value.cursor) == ("Expected compound tag", 5)


def test_fully_variants() -> None:
    assert same(parse_tag_fully(" 5b  "), Byte(5))
    assert same(parse_compound_fully("{a:1} "), Compound({"a": Int(1)}))
    with pytest.raises(CommandSyntaxError) as info:
        parse_tag_fully("1e999")
    assert (info.value.message, info.value.cursor) == ("Unexpected trailing data", 1)
    with pytest.raises(CommandSyntaxError) as info:
        parse_compound_fully("[1]")
    assert info.value.message == "Expected compound tag"


# -- property: a simple SNBT writer is an oracle for the parser --------------------------------

KEYS = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), max_codepoint=0x2FF), max_size=8
)


def scalars() -> st.SearchStrategy[Any]:
    f32 = st.floats(width=32, allow_nan=False, allow_infinity=False)
    return st.one_of(
        st.integers(-128, 127).map(Byte),
        st.integers(-(2**15), 2**15 - 1).map(Short),
        st.integers(-(2**31), 2**31 - 1).map(Int),
        st.integers(-(2**63), 2**63 - 1).map(Long),
        f32.map(Float),
        st.floats(allow_nan=False, allow_infinity=False).map(Double),
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10).map(String),
        st.lists(st.integers(-128, 127), max_size=4).map(ByteArray),
        st.lists(st.integers(-(2**31), 2**31 - 1), max_size=4).map(IntArray),
        st.lists(st.integers(-(2**63), 2**63 - 1), max_size=4).map(LongArray),
    )


def tags() -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4).map(
                lambda xs: make_list(xs) if len({type(x) for x in xs}) <= 1 else List()
            ),
            st.dictionaries(KEYS.filter(bool), inner, max_size=4).map(Compound),
        ),
        max_leaves=12,
    )


def write(tag: Any) -> str:
    """Oracle writer: explicit suffixes, repr() for floats, fully escaped strings."""
    if isinstance(tag, Byte):
        return f"{int(tag)}b"
    if isinstance(tag, Short):
        return f"{int(tag)}s"
    if isinstance(tag, Long):
        return f"{int(tag)}L"
    if isinstance(tag, Int):
        return str(int(tag))
    if isinstance(tag, Float):
        return f"{float(tag)!r}f"
    if isinstance(tag, Double):
        return f"{float(tag)!r}d"
    if isinstance(tag, String):
        return '"' + "".join(f"\\U{ord(c):08X}" for c in tag) + '"'
    if isinstance(tag, ByteArray):
        return "[B;" + ",".join(f"{int(x)}b" for x in tag) + "]"
    if isinstance(tag, IntArray):
        return "[I;" + ",".join(str(int(x)) for x in tag) + "]"
    if isinstance(tag, LongArray):
        return "[L;" + ",".join(f"{int(x)}L" for x in tag) + "]"
    if isinstance(tag, List):
        return "[" + ", ".join(write(x) for x in tag) + "]"
    assert isinstance(tag, Compound)
    return "{" + ",".join(write(String(k)) + ":" + write(v) for k, v in tag.items()) + "}"


@settings(max_examples=300, deadline=None)
@given(tags())
def test_round_trip_against_oracle_writer(tag: Any) -> None:
    text = write(tag)
    reader = StringReader(text + " tail")
    assert same(parse_tag(reader), tag)
    assert reader.remaining == " tail"


@settings(max_examples=300, deadline=None)
@given(st.integers(-(2**70), 2**70), st.sampled_from(["b", "s", "", "L"]))
def test_integer_ranges_match_java(value: int, suffix: str) -> None:
    bits = {"b": 8, "s": 16, "": 32, "L": 64}[suffix]
    text = f"{value}{suffix}"
    if -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
        assert int(parse_tag(StringReader(text))) == value
    else:
        with pytest.raises(CommandSyntaxError) as info:
            parse_tag(StringReader("[" + text + "]"))
        # the first error stored at the furthest cursor wins (ErrorCollector.LongestOnly)
        expected = {
            "b": "Failed to parse number: ",
            "s": "Expected literal b|B",
            "": "Expected literal .",
            "L": "Failed to parse number: ",
        }[suffix]
        assert info.value.message.startswith(expected)
